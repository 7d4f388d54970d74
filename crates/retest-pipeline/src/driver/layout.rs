//! Where a pipeline's outputs live under `results/<pipeline>/`, and whether the job that writes
//! each of them has finished: the one answer the local executor, a Slurm task and
//! `retest status` all use.
//!
//! Every output is written under a temporary name and renamed into place, so an output with
//! its final name is complete. A training job is done when its embedding file exists; a measure
//! job when its folder holds [`DONE_FILE`] (written last); the aggregate stage when the run's
//! manifest exists (written after the tables and the report).

use std::path::{Path, PathBuf};

use retest_spec::{Model, ModelFiles, ModelParams, Plan};
use sha2::{Digest, Sha256};

use crate::driver::jobs::TrainingJob;
use crate::driver::model_files::FileSums;
use crate::lists::Lists;
use crate::stages::FAMILIES;
use crate::stages::job::DONE_FILE;

/// Version of how embeddings are derived from their inputs beyond the plan (2: seed-path
/// layout; 3: kept once per results folder, with no pipeline or configuration name in the
/// file): part of the embeddings folder's hash, so a change to it never reuses older results.
const EMBEDDINGS_SCHEME: u32 = 3;

/// Version of what the measure stage computes beyond its parameters (2: NBM's pool without the
/// placeholder words, `nn_sim` always computed; 3: rule correlations and shares of poor
/// reliability; 4: the set-level measures; 5: the query measures MAC, RNSB, RND and ECT; 6:
/// the attribute difference's spread, the agreement's quality series and bootstrap intervals,
/// the word filter of generated pairs, Zhang et al.'s pair cosines; 7: WEAT's separability and
/// the stereotype test of the most stereotyped words): part of the measure
/// folder's hash, so a change to it never reuses older tables.
const MEASURE_SCHEME: u32 = 7;

/// What the seeds of one (corpus, model) configuration are, as far as they name its measure
/// folder ([`Layout::configuration_dir`]): trained, a model's files, or another configuration's
/// seeds debiased.
#[derive(Debug)]
pub enum Configuration<'a> {
    /// Seeds trained on the prepared corpus whose key is `corpus_key`.
    Trained { model: Model, corpus_key: &'a str },
    /// A model's own files, with their checksums.
    Files { files: &'a ModelFiles, sums: FileSums },
    /// Debiased model `model` (`sgns+hard`): the seeds of configuration `base`, debiased with the
    /// plan's debiasing lists.
    Debiased {
        model: &'a str,
        base: Box<Configuration<'a>>,
    },
}

impl<'a> Configuration<'a> {
    /// The configuration of model `model` of `plan`: `corpus_key` is asked for the key of the
    /// prepared corpus when the seeds are trained, `sums` for the checksums of the files when
    /// they are a model's files.
    ///
    /// # Errors
    ///
    /// What `corpus_key` or `sums` fails with.
    ///
    /// # Panics
    ///
    /// If `model` is no model of `plan`.
    pub fn of<E>(
        plan: &'a Plan,
        model: &'a str,
        corpus_key: impl FnOnce() -> Result<&'a str, E>,
        sums: impl FnOnce(&ModelFiles) -> Result<FileSums, E>,
    ) -> Result<Configuration<'a>, E> {
        if let Some(base) = plan.debiased_base(model) {
            let base = Box::new(Configuration::of(plan, base, corpus_key, sums)?);
            return Ok(Configuration::Debiased { model, base });
        }
        if let Some(files) = plan.model_files_named(model) {
            let sums = sums(files)?;
            return Ok(Configuration::Files { files, sums });
        }
        let model = plan
            .model(model)
            .expect("a measure job names a model of its plan");
        Ok(Configuration::Trained {
            model,
            corpus_key: corpus_key()?,
        })
    }
}

/// The output folders of one pipeline run.
#[derive(Clone, Debug)]
pub struct Layout {
    /// `results/`: prepared corpora and trained embeddings are shared between pipelines, under
    /// `results/corpora/` and `results/embeddings/`.
    pub results: PathBuf,
    /// `results/<pipeline>/`.
    pub run: PathBuf,
}

impl Layout {
    pub fn new(results: &Path, plan: &Plan) -> Self {
        Layout {
            results: results.to_owned(),
            run: results.join(&plan.name),
        }
    }

    /// Prepared corpora, shared by every pipeline.
    pub fn corpora(&self) -> PathBuf {
        self.results.join("corpora")
    }

    /// The checksums of model files read before, with their sizes and modification times,
    /// shared by every pipeline (`driver::model_files::FileSums::of`).
    pub fn model_file_checksums(&self) -> PathBuf {
        self.results.join("model-file-checksums.json")
    }

    /// Trained embeddings, shared by every pipeline.
    pub fn embeddings(&self) -> PathBuf {
        self.results.join("embeddings")
    }

    /// The folder of one (corpus, model) configuration's seeds, named by the algorithm and a
    /// hash of everything the embeddings depend on: the prepared corpus, the corpus's name (a
    /// step of every seed path), the algorithm and its parameters, the pipeline seed. A changed
    /// parameter trains into a new folder, and any pipeline of the results folder with the same
    /// configuration finds the seeds another one trained, whatever either calls it.
    pub fn embeddings_dir(&self, plan: &Plan, corpus: &str, corpus_key: &str, model: &Model) -> PathBuf {
        let params = match &model.params {
            ModelParams::Sgns(p) => serde_json::to_value(p),
            ModelParams::Glove(p) => serde_json::to_value(p),
        }
        .expect("parameters serialise");
        let algorithm = model.algorithm().as_str();
        let key = serde_json::json!({
            "corpus": corpus, "corpus_key": corpus_key, "algorithm": algorithm, "params": params,
            "seed": plan.seed, "scheme": EMBEDDINGS_SCHEME,
        });
        let hash = hex::encode(Sha256::digest(key.to_string().as_bytes()));
        self.embeddings()
            .join(corpus)
            .join(format!("{algorithm}-{}", &hash[..12]))
    }

    /// The embedding file of one seed.
    pub fn seed_file(dir: &Path, seed_idx: u32) -> PathBuf {
        dir.join(format!("seed-{seed_idx:02}.fifu"))
    }

    /// The embedding file a training job writes, on the prepared corpus with key `corpus_key`.
    pub fn training_output(&self, plan: &Plan, corpus_key: &str, job: &TrainingJob) -> PathBuf {
        let dir = self.embeddings_dir(plan, &job.corpus, corpus_key, &job.model);
        Layout::seed_file(&dir, job.seed_idx)
    }

    /// Whether the training job writing `output` is done: the file is there (written under a
    /// temporary name and renamed, so complete when written) and its finalfusion chunks are
    /// whole (a file damaged since, e.g. truncated, is trained again).
    pub fn is_trained(output: &Path) -> bool {
        output.is_file() && retest_embeddings::shape(output, Some(retest_embeddings::Format::Fifu)).is_ok()
    }

    /// The output folder of the measure job of configuration (`corpus`, `configuration`): the
    /// one answer for every kind of seeds.
    pub fn configuration_dir(
        &self,
        plan: &Plan,
        corpus: &str,
        configuration: &Configuration<'_>,
        lists: &Lists,
    ) -> PathBuf {
        match configuration {
            Configuration::Trained { model, corpus_key } => {
                self.measure_dir(plan, corpus, corpus_key, model, lists)
            }
            Configuration::Files { files, sums } => self.model_files_measure_dir(plan, files, sums, lists),
            Configuration::Debiased { model, base } => {
                let base_dir = self.configuration_dir(plan, corpus, base, lists);
                self.debiased_measure_dir(plan, corpus, model, &base_dir, lists)
            }
        }
    }

    /// The output folder of the measure job of one configuration: its name hashes everything
    /// the tables depend on (the embeddings folder, which hashes corpus, parameters and seed;
    /// the number of seeds; the measure and reliability parameters; the lists' contents).
    fn measure_dir(
        &self,
        plan: &Plan,
        corpus: &str,
        corpus_key: &str,
        model: &Model,
        lists: &Lists,
    ) -> PathBuf {
        let embeddings_dir = self.embeddings_dir(plan, corpus, corpus_key, model);
        let key = serde_json::json!({
            "embeddings": embeddings_dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            "n_seeds": plan.n_seeds,
        });
        self.measure_dir_keyed(plan, corpus, &model.name, key, lists)
    }

    /// The output folder of the measure job of a model read from files: as [`Layout::measure_dir`],
    /// with the files' contents (`sums`: the seed files' in seed order, the counts file's),
    /// format and case in place of the embeddings folder.
    fn model_files_measure_dir(
        &self,
        plan: &Plan,
        model: &ModelFiles,
        sums: &FileSums,
        lists: &Lists,
    ) -> PathBuf {
        let seeds = sums.seeds();
        let key = serde_json::json!({
            "model_files": seeds,
            "format": model.format.map(|f| f.as_str()),
            "lowercase": model.lowercase,
            "counts": sums.counts.as_ref().map(|c| &c.sha256),
            "n_seeds": seeds.len(),
        });
        self.measure_dir_keyed(plan, &model.corpus, &model.name, key, lists)
    }

    /// The output folder of the measure job of debiased model `model`, whose seeds are those of
    /// the configuration measured into `base_dir`, debiased with the plan's debiasing lists: as
    /// [`Layout::measure_dir`], with the base configuration's folder (whose name hashes what its
    /// seeds are), the method and the debiasing lists' contents in place of the embeddings folder.
    fn debiased_measure_dir(
        &self,
        plan: &Plan,
        corpus: &str,
        model: &str,
        base_dir: &Path,
        lists: &Lists,
    ) -> PathBuf {
        let debias_lists = (lists.debias.iter().flat_map(|d| d.files()))
            .map(|(name, _, sha)| (name, sha))
            .collect::<Vec<_>>();
        let key = serde_json::json!({
            "base": base_dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            "debias": plan.debias.as_ref().map(|d| d.method.as_str()),
            "debias_lists": debias_lists,
        });
        self.measure_dir_keyed(plan, corpus, model, key, lists)
    }

    /// `results/<pipeline>/measure/<corpus>/<model>-<hash>`, the hash over `key` (what the seeds
    /// are), the scheme, the lists' contents and each measure family's plan sections.
    fn measure_dir_keyed(
        &self,
        plan: &Plan,
        corpus: &str,
        model: &str,
        mut key: serde_json::Value,
        lists: &Lists,
    ) -> PathBuf {
        key["scheme"] = MEASURE_SCHEME.into();
        key["lists"] = serde_json::json!(
            lists
                .files
                .iter()
                .map(|(name, _, sha)| (name, sha))
                .collect::<Vec<_>>()
        );
        // Each measure family adds the plan sections its results depend on (a JSON object's
        // keys are sorted, so the order of the families does not enter the key).
        for (name, value) in FAMILIES.iter().flat_map(|f| (f.key)(plan)) {
            key[name] = value;
        }
        let hash = hex::encode(Sha256::digest(key.to_string().as_bytes()));
        self.run
            .join("measure")
            .join(corpus)
            .join(format!("{model}-{}", &hash[..12]))
    }

    /// Whether the measure job writing into `dir` is done.
    pub fn is_measured(dir: &Path) -> bool {
        dir.join(DONE_FILE).is_file()
    }

    /// `results/<pipeline>/tables/`: every configuration's tables side by side.
    pub fn tables(&self) -> PathBuf {
        self.run.join("tables")
    }

    /// `results/<pipeline>/report/`.
    pub fn report(&self) -> PathBuf {
        self.run.join("report")
    }

    /// `results/<pipeline>/manifest.json`, the aggregate stage's last write.
    pub fn manifest(&self) -> PathBuf {
        self.run.join("manifest.json")
    }

    /// Whether the aggregate stage is done: its manifest exists (tables and report exist before
    /// it does).
    pub fn is_aggregated(&self) -> bool {
        self.manifest().is_file()
    }

    /// Beside an embedding file, how long its training took (`seed-NN.timing.json`): kept out
    /// of the embedding itself so that the embedding's bytes depend on the plan alone.
    pub fn timing_file(seed_file: &Path) -> PathBuf {
        seed_file.with_extension("timing.json")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_truncated_embedding_is_not_trained() {
        let dir = tempfile::tempdir().unwrap();
        let output = Layout::seed_file(dir.path(), 0);
        assert!(!Layout::is_trained(&output), "no file");
        let words = ["he", "she", "nurse"].map(String::from).to_vec();
        let emb = retest_embeddings::Embeddings::new(words, 2, vec![1.0, 0.0, 0.0, 1.0, 0.6, 0.8]).unwrap();
        retest_embeddings::write(&output, &emb, retest_embeddings::Format::Fifu).unwrap();
        assert!(Layout::is_trained(&output));
        let bytes = std::fs::read(&output).unwrap();
        std::fs::write(&output, &bytes[..bytes.len() - 5]).unwrap();
        assert!(!Layout::is_trained(&output), "truncated");
    }
}
