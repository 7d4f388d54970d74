//! The jobs a plan implies, in dependency order.

use std::fmt;

use retest_rng::SeedPath;
use serde::Serialize;

use crate::model::{Model, ModelParams};
use crate::pipeline::Plan;

/// One unit of work of a pipeline run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Job {
    /// Read, tokenise, count and encode a corpus (once per corpus).
    PrepareCorpus { corpus: String },
    /// Count GloVe co-occurrences (once per corpus and window, shared by all seeds).
    Cooccurrence { corpus: String },
    /// Train one embedding.
    Train {
        corpus: String,
        /// The model's name ([`Plan::models`]).
        model: String,
        seed_idx: u32,
        /// The 64-bit summary of the job's seed path, for display and tools that take one; in
        /// JSON the string `0x` + 16 hex digits, as the text shows it (a number above 2^53 would
        /// be rounded by JavaScript and jq).
        #[serde(serialize_with = "hex_seed")]
        seed: u64,
    },
    /// Score every rule, pair and word over the seeds of one corpus and model (trained, or read
    /// from files: [`Plan::model_files`]).
    Measure { corpus: String, model: String },
    /// Reliability tables, regression input and report over everything measured.
    Aggregate,
}

impl Plan {
    /// The seed path of a training job: every random stream of that run derives from it. It
    /// names the corpus, the algorithm and, for SGNS, the architecture (skip-gram and CBOW runs of
    /// the same seed draw independent streams), then the seed index.
    pub fn seed_path(&self, corpus: &str, model: &Model, seed_idx: u32) -> SeedPath {
        let path = SeedPath::new(self.seed)
            .with(corpus)
            .with(model.algorithm().as_str());
        let path = match &model.params {
            ModelParams::Sgns(sgns) => path.with(sgns.architecture.as_str()),
            ModelParams::Glove(_) => path,
        };
        path.with_index(u64::from(seed_idx))
    }

    /// Every job of the plan, each after the jobs it needs.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs = Vec::new();
        for corpus in &self.corpora {
            jobs.push(Job::PrepareCorpus {
                corpus: corpus.name.clone(),
            });
            if !self.cooccurrence_counts().is_empty() {
                jobs.push(Job::Cooccurrence {
                    corpus: corpus.name.clone(),
                });
            }
        }
        jobs.extend(self.training_jobs());
        // Each model's measure job, followed by its debiased copy's.
        let with_debiased = |corpus: &str, model: &str| -> Vec<Job> {
            (std::iter::once(model.to_owned()).chain(self.debiased_of(model)))
                .map(|model| Job::Measure {
                    corpus: corpus.to_owned(),
                    model,
                })
                .collect()
        };
        for corpus in &self.corpora {
            for model in self.models() {
                jobs.extend(with_debiased(&corpus.name, &model.name));
            }
        }
        for m in &self.model_files {
            jobs.extend(with_debiased(&m.corpus, &m.name));
        }
        jobs.push(Job::Aggregate);
        jobs
    }

    /// The training jobs alone, in a fixed order (corpus, model, seed index): the index
    /// of a job in this list is its task index on a cluster.
    pub fn training_jobs(&self) -> Vec<Job> {
        let mut jobs = Vec::new();
        for corpus in &self.corpora {
            for model in self.models() {
                for seed_idx in 0..self.n_seeds {
                    let seed = self.seed_path(&corpus.name, &model, seed_idx).seed_u64();
                    jobs.push(Job::Train {
                        corpus: corpus.name.clone(),
                        model: model.name.clone(),
                        seed_idx,
                        seed,
                    });
                }
            }
        }
        jobs
    }
}

/// A seed as `0x` and 16 hex digits.
fn hex_seed<S: serde::Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("{seed:#018x}"))
}

impl fmt::Display for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Job::PrepareCorpus { corpus } => write!(f, "prepare-corpus {corpus}"),
            Job::Cooccurrence { corpus } => write!(f, "cooccurrence   {corpus}"),
            Job::Train {
                corpus,
                model,
                seed_idx,
                seed,
            } => {
                write!(
                    f,
                    "train          {corpus} {model} seed-{seed_idx:02} (seed {seed:#018x})"
                )
            }
            Job::Measure { corpus, model } => write!(f, "measure        {corpus} {model}"),
            Job::Aggregate => write!(f, "aggregate      reliability tables, regression input, report"),
        }
    }
}
