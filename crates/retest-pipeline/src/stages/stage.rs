//! The one shape of a measure family in the measure job: a [`Family`] states its name, its
//! tables and its part of the measure key, and builds a [`Stage`] from the plan and the resolved
//! lists; the job feeds the stage every seed once ([`Stage::measure_seed`]) and then has it
//! write its tables ([`Stage::finish`]).

use std::path::Path;

use anyhow::{Context, Result};
use retest_analyses::TargetSet;
use retest_embeddings::Embeddings;
use retest_measures::{Model, ResolvedPairs, ScoreTensor, Vocab};
use retest_spec::Plan;
use retest_tables::{CoverageRow, Table};

use crate::lists::Lists;
use crate::progress::Reporter;
use crate::stages::seeds::Vocabulary;
use crate::stages::vocab::CasedVocab;

/// What a stage is built from: the plan, its lists, and one configuration's vocabulary and model.
pub(crate) struct Setup<'a> {
    pub plan: &'a Plan,
    pub lists: &'a Lists,
    /// The words every seed has, in id order, with their counts.
    pub vocabulary: &'a Vocabulary,
    /// The model's name ([`Plan::models`], [`Plan::model_files`]).
    pub model: &'a str,
    /// The vocabulary's words looked up by word.
    pub vocab: &'a Vocab<'a>,
    /// The plan's base pairs resolved against the vocabulary.
    pub base_pairs: &'a ResolvedPairs,
    pub n_seeds: usize,
    /// The threads a stage may use on one seed.
    pub threads: usize,
}

impl Setup<'_> {
    /// The tables' `corpus` column.
    pub fn corpus_name(&self) -> &str {
        &self.vocabulary.corpus
    }

    /// The vocabulary as the set-level, analogy and base-pair lists are looked up in it.
    pub fn cased(&self) -> CasedVocab<'_, '_> {
        CasedVocab {
            vocab: self.vocab,
            lowercase: self.vocabulary.lowercase,
        }
    }
}

/// One seed as every stage sees it: the file read, and the same vectors as a scoring model.
pub(crate) struct Seed<'a> {
    /// The seed's position (0-based), which names its random streams.
    pub index: u32,
    pub path: &'a Path,
    pub embeddings: &'a Embeddings,
    pub model: &'a Model<'a>,
    /// A debiased seed's model before debiasing (a plan's `debias`), whose bias labels words
    /// for Gonen & Goldberg's tests; `None` for any other seed.
    pub original: Option<&'a Model<'a>>,
    pub threads: usize,
}

/// What a stage finishes with besides what it kept of each seed.
pub(crate) struct Across<'a> {
    /// The corpus's and the model's names, for the tables' `corpus` and `algorithm` columns.
    pub corpus: &'a str,
    pub model: &'a str,
    pub vocab: &'a Vocab<'a>,
    /// Every seed's vectors, in seed order, with the placeholder words' rows zeroed.
    pub vectors: &'a [&'a [f32]],
    pub dim: usize,
    pub threads: usize,
    /// `<corpus> <model>`, for log lines.
    pub label: &'a str,
    pub reporter: &'a Reporter,
    /// Du et al.'s per-word scores of every seed, when the rules stage ran.
    pub rule_scores: Option<RuleScores<'a>>,
}

/// Du et al.'s scores of every seed (rule × pair × word × seed) and the target lists' positions
/// on the word axis, shared with the stages that report beside them.
#[derive(Clone, Copy)]
pub(crate) struct RuleScores<'a> {
    pub tensor: &'a ScoreTensor,
    pub lists: &'a [TargetSet],
}

impl RuleScores<'_> {
    /// Per rule, its name and its mean |score| over the words of target list `list` on each
    /// seed; empty when `list` is not a target list.
    pub fn mean_absolute(&self, list: &str) -> Vec<(String, Vec<f64>)> {
        let Some(list) = self.lists.iter().find(|l| l.name == list) else {
            return Vec::new();
        };
        let rules = self.tensor.rules().iter().map(|r| r.as_str().to_owned());
        rules
            .zip(retest_analyses::mean_absolute_scores(self.tensor, &list.targets))
            .collect()
    }
}

/// A measure family at work on one configuration.
pub(crate) trait Stage {
    /// Lines to log when the job starts (lists or tests left out, and why).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// The stage's rows of the configuration's coverage table.
    fn coverage(&self) -> &[CoverageRow];

    /// Measures one seed and keeps what the tables need.
    ///
    /// # Errors
    ///
    /// A measure that fails on this seed.
    fn measure_seed(&mut self, seed: &Seed<'_>) -> Result<()>;

    /// Entries of the job's `measure.json` beside its timings: how the stage's work ran on this
    /// machine (never a result).
    fn record(&self) -> Vec<(&'static str, serde_json::Value)> {
        Vec::new()
    }

    /// Du et al.'s scores, for the rules stage, which shares them ([`Across::rule_scores`]).
    fn rule_scores(&self) -> Option<RuleScores<'_>> {
        None
    }

    /// Writes the stage's tables into `out` from every seed's values.
    ///
    /// # Errors
    ///
    /// An analysis across seeds that fails, or a write failure.
    fn finish(&self, across: &Across<'_>, out: &Path) -> Result<()>;
}

/// A family whose stage measures each seed into a value of its own and writes its tables from
/// every seed's values in seed order ([`Collect`] makes it a [`Stage`]).
pub(crate) trait PerSeed {
    type Values;

    /// What the values are of, in an error's context (`analogies of <seed file>`).
    const WHAT: &'static str;

    /// Lines to log when the job starts.
    fn notes(&self) -> Vec<String>;

    /// The family's rows of the coverage table.
    fn coverage(&self) -> &[CoverageRow];

    /// The values of one seed.
    ///
    /// # Errors
    ///
    /// A measure that fails on this seed.
    fn measure(&self, seed: &Seed<'_>) -> Result<Self::Values>;

    /// The family's tables from every seed's values, in seed order.
    ///
    /// # Errors
    ///
    /// An analysis across seeds that fails.
    fn tables(&self, seeds: &[Self::Values], across: &Across<'_>) -> Result<Vec<Table>>;
}

/// A [`PerSeed`] family as a stage: it keeps every seed's values.
pub(crate) struct Collect<F: PerSeed> {
    family: F,
    seeds: Vec<F::Values>,
}

impl<F: PerSeed> Collect<F> {
    /// The stage of `family`, when built.
    pub fn stage<'a>(family: Option<F>) -> Option<Box<dyn Stage + 'a>>
    where
        F: 'a,
    {
        family.map(|family| {
            Box::new(Collect {
                family,
                seeds: Vec::new(),
            }) as Box<dyn Stage + 'a>
        })
    }
}

impl<F: PerSeed> Stage for Collect<F> {
    fn notes(&self) -> Vec<String> {
        self.family.notes()
    }

    fn coverage(&self) -> &[CoverageRow] {
        self.family.coverage()
    }

    fn measure_seed(&mut self, seed: &Seed<'_>) -> Result<()> {
        let values =
            (self.family.measure(seed)).with_context(|| format!("{} of {}", F::WHAT, seed.path.display()))?;
        self.seeds.push(values);
        Ok(())
    }

    fn finish(&self, across: &Across<'_>, out: &Path) -> Result<()> {
        write_tables(out, self.family.tables(&self.seeds, across)?)
    }
}

/// A stage built for a configuration, or none when the plan does not ask for the family.
pub(crate) type Built<'a> = Result<Option<Box<dyn Stage + 'a>>>;

/// A measure family: what the measure job, the measure key and the aggregate stage know of it.
pub(crate) struct Family {
    /// Names the family in logs and in the job's `seconds_<name>` timing.
    pub name: &'static str,
    /// What the log line of its timing calls it.
    pub title: &'static str,
    /// Its per-configuration tables, in the order the aggregate stage reads them.
    pub tables: &'static [&'static str],
    /// Whether a configuration may lack its tables (a family a plan opts into).
    pub optional: bool,
    /// Its entries in the measure key: the plan sections its results depend on.
    pub key: fn(&Plan) -> Vec<(&'static str, serde_json::Value)>,
    pub build: for<'a> fn(&Setup<'a>) -> Built<'a>,
}

/// The key entry `name` of a plan section: always present, `null` when the plan lacks it.
pub(crate) fn always(
    name: &'static str,
    section: &impl serde::Serialize,
) -> Vec<(&'static str, serde_json::Value)> {
    vec![(
        name,
        serde_json::to_value(section).expect("plan sections serialise"),
    )]
}

/// The key entry `name` of a plan section that is left out when the plan lacks it, so the keys
/// of plans written before the section existed stay as they were.
pub(crate) fn when_present(
    name: &'static str,
    section: &impl serde::Serialize,
) -> Vec<(&'static str, serde_json::Value)> {
    let mut entry = always(name, section);
    entry.retain(|(_, value)| !value.is_null());
    entry
}

/// Writes `tables` into `out`.
///
/// # Errors
///
/// A write failure.
pub(crate) fn write_tables(out: &Path, tables: impl IntoIterator<Item = Table>) -> Result<()> {
    for mut table in tables {
        table.write(out, false)?;
    }
    Ok(())
}
