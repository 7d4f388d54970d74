//! The models a pipeline trains on every corpus: each algorithm it lists with the pipeline's
//! parameters for it, then each variant (another name, the same algorithm, some parameters
//! changed).
//!
//! A model's name is what job names, output folders and the tables' `algorithm` column call
//! it: `sgns` and `glove` for the pipeline's own blocks, the variant's name otherwise. A
//! variant draws the same seeds as its algorithm's model (the seed path names the algorithm
//! and, for SGNS, the architecture, not the variant), so that the comparison of a variant with
//! the defaults is paired seed by seed.

use serde::Serialize;

use crate::pipeline::{Algorithm, GloveParams, Plan, SgnsParams};

/// An algorithm with its resolved parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelParams {
    Sgns(SgnsParams),
    Glove(GloveParams),
}

/// One model of a pipeline, trained `n_seeds` times on every corpus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Model {
    pub name: String,
    #[serde(flatten)]
    pub params: ModelParams,
}

impl Model {
    pub fn algorithm(&self) -> Algorithm {
        match self.params {
            ModelParams::Sgns(_) => Algorithm::Sgns,
            ModelParams::Glove(_) => Algorithm::Glove,
        }
    }

    /// The dimension of its vectors.
    pub fn dim(&self) -> u32 {
        match &self.params {
            ModelParams::Sgns(p) => p.dim,
            ModelParams::Glove(p) => p.dim,
        }
    }

    /// Passes over the corpus: SGNS epochs or GloVe iterations.
    pub fn passes(&self) -> u32 {
        match &self.params {
            ModelParams::Sgns(p) => p.epochs,
            ModelParams::Glove(p) => p.iterations,
        }
    }

    /// The GloVe co-occurrence window this model reads, if it is a GloVe model.
    pub fn cooccurrence_window(&self) -> Option<u32> {
        match &self.params {
            ModelParams::Sgns(_) => None,
            ModelParams::Glove(p) => Some(p.window),
        }
    }
}

/// The name of model `model` debiased with method `method` (`sgns+hard`): how a plan names its
/// debiased models ([`Plan::debiased_of`]) and a report reads them back from a run's manifest.
pub fn debiased_name(model: &str, method: &str) -> String {
    format!("{model}+{method}")
}

impl Plan {
    /// Every model, in order: the listed algorithms with the pipeline's parameters, then the
    /// variants.
    pub fn models(&self) -> Vec<Model> {
        let mut models = Vec::new();
        for &algorithm in &self.algorithms {
            let params = match algorithm {
                Algorithm::Sgns => self.sgns.clone().map(ModelParams::Sgns),
                Algorithm::Glove => self.glove.clone().map(ModelParams::Glove),
            };
            if let Some(params) = params {
                models.push(Model {
                    name: algorithm.as_str().to_owned(),
                    params,
                });
            }
        }
        models.extend(self.variants.iter().cloned());
        models
    }

    /// The model whose seeds the debiased model `name` (`sgns+hard`) debiases, when `name` is
    /// one of the plan's debiased models.
    pub fn debiased_base<'n>(&self, name: &'n str) -> Option<&'n str> {
        let debias = self.debias.as_ref()?;
        let method = debias.method.as_str();
        let base = (debias.models.iter()).find(|m| debiased_name(m, method) == name)?;
        Some(&name[..base.len()])
    }

    /// The debiased model of model `base` (`sgns+hard`), when the plan debiases it.
    pub fn debiased_of(&self, base: &str) -> Option<String> {
        let debias = self.debias.as_ref()?;
        (debias.models.iter().any(|m| m == base)).then(|| debiased_name(base, debias.method.as_str()))
    }

    /// The model named `name`.
    pub fn model(&self, name: &str) -> Option<Model> {
        self.models().into_iter().find(|m| m.name == name)
    }

    /// The co-occurrence tables the plan's GloVe models read: the parameters of the first GloVe
    /// model of each distinct window, in model order.
    pub fn cooccurrence_counts(&self) -> Vec<GloveParams> {
        let mut counts: Vec<GloveParams> = Vec::new();
        for model in self.models() {
            if let ModelParams::Glove(params) = model.params
                && !counts.iter().any(|c| c.window == params.window)
            {
                counts.push(params);
            }
        }
        counts
    }
}
