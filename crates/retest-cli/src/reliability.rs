//! `retest reliability EMB...`: the reliability study on embedding files a user already has, each
//! file a seed, without writing a pipeline file. The command writes the pipeline it runs into
//! `<results>/<name>/pipeline.yaml` (a plan with one entry of `models`) and runs it as
//! `retest run` does.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use retest_pipeline::Folders;

use crate::cli::{InputFormat, RunArgs};

/// The example of `retest reliability --help`.
pub const EXAMPLE: &str = "\
Example, on four gensim Word2Vec models of one corpus, trained with seeds 1 to 4 and saved with
`model.wv.save_word2vec_format(f\"w2v-seed{seed}.txt\")`:

  retest reliability w2v-seed1.txt w2v-seed2.txt w2v-seed3.txt w2v-seed4.txt \\
      --name w2v --lowercase --set-level --results results

writes `results/w2v/tables/` (test-retest, inter-rater and internal-consistency reliability of
DB/WA, RIPA and NBM on the occupation and adjective lists, and of WEAT and Direct Bias) and
`results/w2v/report/index.html`. The pipeline it ran is `results/w2v/pipeline.yaml`: edit it
and run it with `retest run results/w2v/pipeline.yaml`.

Folders: --results DIR, --wordlists DIR (see `retest --help`).";

#[derive(Debug, Args)]
pub struct ReliabilityArgs {
    /// Embedding files, each one seed of the model (at least 2; .fifu, word2vec text or binary,
    /// GloVe text). Their vocabularies are intersected.
    #[arg(required = true, num_args = 2.., value_name = "EMB")]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// The study's name: its folder in --results, and the tables' `algorithm` column.
    #[arg(long, default_value = "reliability")]
    pub name: String,
    /// The tables' `corpus` column. Default: the name.
    #[arg(long)]
    pub corpus: Option<String>,
    /// Look the lists up lowercased (embeddings of a lowercased corpus).
    #[arg(long)]
    pub lowercase: bool,
    /// A word-count file (`word count` per line) for the words' frequency in the regression
    /// input; without it the regression leaves frequency out.
    #[arg(long, value_name = "FILE")]
    pub counts: Option<PathBuf>,
    /// Target lists, comma-separated: names in the word-list folder or files. Default: Du et
    /// al.'s (occ16, occ18, adj, google10k, full).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub lists: Vec<String>,
    /// Base pairs: a name in the word-list folder or a file. Default: Du et al.'s 9 pairs.
    #[arg(long, value_name = "PAIRS")]
    pub pairs: Option<String>,
    /// Also WEAT, Direct Bias and Bakarov's detectors (a pipeline's `set_level: {}`).
    #[arg(long)]
    pub set_level: bool,
    /// Also the analogy measures (a pipeline's `analogies: {}`).
    #[arg(long)]
    pub analogies: bool,
    /// Also Zhang et al.'s base-pair analyses (a pipeline's `base_pairs: {}`).
    #[arg(long)]
    pub base_pairs: bool,
    /// Also Gonen & Goldberg's residual-bias tests (a pipeline's `residual_bias: {}`).
    #[arg(long)]
    pub residual_bias: bool,
    /// Also the gender subspace: Direct Bias on the first principal components, the component
    /// with each definitional pair left out, indirect bias (a pipeline's `bias_subspace: {}`).
    #[arg(long)]
    pub bias_subspace: bool,
    /// Also every file hard-debiased with debiaswe's lists, measured as the model `NAME+hard`
    /// (a pipeline's `debias: {}`).
    #[arg(long)]
    pub debias: bool,
    #[command(flatten)]
    pub run: RunArgs,
}

impl ReliabilityArgs {
    /// The pipeline these options describe, its paths absolute.
    fn pipeline(&self) -> Result<String> {
        let quoted = |text: &str| serde_json::to_string(text).expect("a string serialises");
        let absolute = |path: &Path| -> Result<String> {
            let path =
                std::path::absolute(path).with_context(|| format!("cannot resolve {}", path.display()))?;
            Ok(quoted(&path.to_string_lossy()))
        };
        // A list given as an existing file is a path; anything else a name in the list folder.
        let list = |name: &str| -> Result<String> {
            if Path::new(name).is_file() {
                absolute(Path::new(name))
            } else {
                Ok(quoted(name))
            }
        };
        let files: Vec<String> = self
            .embeddings
            .iter()
            .map(|f| absolute(f))
            .collect::<Result<_>>()?;
        let mut yaml = format!(
            "# Written by `retest reliability`: the study of {} embedding files, each a seed.\nname: {}\n",
            self.embeddings.len(),
            quoted(&self.name)
        );
        if !self.lists.is_empty() || self.pairs.is_some() {
            yaml.push_str("measures:\n");
            if let Some(pairs) = &self.pairs {
                yaml.push_str(&format!("  base_pairs: {}\n", list(pairs)?));
            }
            if !self.lists.is_empty() {
                let lists: Vec<String> = self.lists.iter().map(|l| list(l)).collect::<Result<_>>()?;
                yaml.push_str(&format!("  target_lists: [{}]\n", lists.join(", ")));
            }
        }
        for (asked, section) in [
            (self.set_level, "set_level"),
            (self.analogies, "analogies"),
            (self.base_pairs, "base_pairs"),
            (self.residual_bias, "residual_bias"),
            (self.bias_subspace, "bias_subspace"),
            (self.debias, "debias"),
        ] {
            if asked {
                yaml.push_str(&format!("{section}: {{}}\n"));
            }
        }
        yaml.push_str(&format!(
            "models:\n  - name: {}\n    corpus: {}\n    lowercase: {}\n    files: [{}]\n",
            quoted(&self.name),
            quoted(self.corpus.as_deref().unwrap_or(&self.name)),
            self.lowercase,
            files.join(", ")
        ));
        if let Some(format) = self.input.format {
            yaml.push_str(&format!("    format: {format}\n"));
        }
        if let Some(counts) = &self.counts {
            yaml.push_str(&format!("    counts: {}\n", absolute(counts)?));
        }
        Ok(yaml)
    }
}

/// Writes the study's pipeline into `<results>/<name>/pipeline.yaml` and runs it.
pub fn run(folders: &Folders, args: &ReliabilityArgs) -> Result<()> {
    for (option, what, name) in [
        ("--name", "study", Some(&args.name)),
        ("--corpus", "corpus", args.corpus.as_ref()),
    ] {
        if let Some(problem) = name.and_then(|name| retest_spec::name_problem(what, name)) {
            anyhow::bail!("{option}: {problem}");
        }
    }
    let file = retest_pipeline::write_generated_pipeline(folders, &args.name, &args.pipeline()?)?;
    crate::study::run(folders, &file.to_string_lossy(), &args.run)
}
