//! Where a pipeline's outputs live under `results/<pipeline>/`.

use std::path::{Path, PathBuf};

use retest_spec::{Algorithm, Plan};
use sha2::{Digest, Sha256};

/// Version of how embeddings are derived from their inputs beyond the plan (seed-path layout):
/// part of the embeddings folder's hash, so a change to it never reuses older results.
const EMBEDDINGS_SCHEME: u32 = 2;

/// The output folders of one pipeline run.
#[derive(Clone, Debug)]
pub struct Layout {
    /// `results/`: prepared corpora are shared between pipelines under `results/corpora/`.
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

    /// The folder of one (corpus, algorithm) configuration's seeds. Its name carries a hash of
    /// everything the embeddings depend on (the prepared corpus, the algorithm's parameters and
    /// the pipeline seed), so a changed parameter trains into a new folder.
    pub fn embeddings_dir(
        &self,
        plan: &Plan,
        corpus: &str,
        corpus_key: &str,
        algorithm: Algorithm,
    ) -> PathBuf {
        let params = match algorithm {
            Algorithm::Sgns => serde_json::to_value(&plan.sgns),
            Algorithm::Glove => serde_json::to_value(&plan.glove),
        }
        .expect("parameters serialise");
        let key = serde_json::json!({
            "corpus_key": corpus_key, "algorithm": algorithm.as_str(), "params": params, "seed": plan.seed,
            "scheme": EMBEDDINGS_SCHEME,
        });
        let hash = hex::encode(Sha256::digest(key.to_string().as_bytes()));
        self.run
            .join("embeddings")
            .join(corpus)
            .join(format!("{}-{}", algorithm.as_str(), &hash[..12]))
    }

    /// The embedding file of one seed.
    pub fn seed_file(dir: &Path, seed_idx: u32) -> PathBuf {
        dir.join(format!("seed-{seed_idx:02}.fifu"))
    }

    /// Beside an embedding file, how long its training took (`seed-NN.timing.json`): kept out
    /// of the embedding itself so that the embedding's bytes depend on the plan alone.
    pub fn timing_file(seed_file: &Path) -> PathBuf {
        seed_file.with_extension("timing.json")
    }
}
