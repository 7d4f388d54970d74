//! The tables a report is drawn from and what the report knows about the run beside them, read
//! from `results/<pipeline>/tables/`.

use std::path::Path;

use retest_tables::{
    AgreementRow, AlphaRow, AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow,
    AnalogyReportedRow, AnalogySweepRow, AnalogyZhangRow, BasePairAgreementRow, BasePairBaselineRow,
    BasePairCorrelationRow, BasePairDirectionRow, BasePairExampleRow, BasePairFlipRow, BasePairKappaRow,
    BasePairSeedsRow, BasePairSummaryRow, BasePairVarianceRow, CorrelationRow, CoverageRow, DirectionRow,
    IccRow, RegressionRow, ResidualReliabilityRow, Row, SeedSpreadRow, SetIccRow, ShareRow,
    SubspaceReliabilityRow, SubspaceSeedRow, Table, TableName, ValidityReliabilityRow, WeatSeedRow,
    WeatWordRow, names, parquet_path,
};

use crate::error::ReportError;

/// What the report says about the run that the tables do not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportMeta {
    /// The pipeline name (the report's title).
    pub pipeline: String,
    /// The pipeline's variants as (model, algorithm): configurations named `model` in the tables
    /// that change some parameters of `algorithm`'s configuration. With any, the report
    /// compares each with its algorithm's (the paper's Appendix E).
    pub variants: Vec<(String, String)>,
    /// The pipeline's debiased models as (debiased model, model): configurations named
    /// `sgns+hard` in the tables whose seeds are `sgns`'s, hard-debiased. With any, the report
    /// puts each beside its model.
    pub debiased: Vec<(String, String)>,
    /// The tokens of each corpus (after `min_count`), for the findings that relate a measure to
    /// corpus size; empty when unknown.
    pub corpus_tokens: Vec<(String, u64)>,
    /// The words of each corpus's vocabulary; empty when unknown.
    pub corpus_words: Vec<(String, u64)>,
    /// Each configuration's (model's) dimension; empty when unknown.
    pub dims: Vec<(String, u32)>,
    /// The models read from embedding files: each one's name, its files (in seed order) and
    /// the words all its files share.
    pub model_files: Vec<ModelFilesMeta>,
    /// The commit of the source retest was built from (`-dirty` with uncommitted changes), when
    /// known.
    pub commit: Option<String>,
}

/// A model read from embedding files, as the run summary names it.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFilesMeta {
    pub name: String,
    pub files: Vec<String>,
    pub shared_words: u64,
}

/// The tables a report is drawn from, one bundle per measure family; `None` for a table the run
/// did not write.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunTables {
    pub rules: RuleTables,
    pub coverage: Option<Vec<CoverageRow>>,
    pub set_level: SetLevelTables,
    pub analogies: AnalogyTables,
    pub base_pairs: BasePairTables,
    /// Gonen & Goldberg's residual-bias tests across seeds.
    pub residual: Option<Vec<ResidualReliabilityRow>>,
    /// Criterion validity across seeds.
    pub validity: Option<Vec<ValidityReliabilityRow>>,
    pub subspace: SubspaceTables,
}

/// The gender subspace: per seed, and across seeds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubspaceTables {
    pub seeds: Option<Vec<SubspaceSeedRow>>,
    pub reliability: Option<Vec<SubspaceReliabilityRow>>,
}

/// Du et al.'s per-word rules: their reliability designs and the regression's input.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleTables {
    pub test_retest_words: Option<Vec<IccRow>>,
    pub test_retest_pairs: Option<Vec<IccRow>>,
    pub inter_rater_words: Option<Vec<IccRow>>,
    pub inter_rater_pairs: Option<Vec<IccRow>>,
    pub internal_consistency: Option<Vec<AlphaRow>>,
    pub rule_correlations: Option<Vec<CorrelationRow>>,
    pub low_reliability: Option<Vec<ShareRow>>,
    pub regression: Option<Vec<RegressionRow>>,
}

/// The set-level measures' tables the report draws from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetLevelTables {
    pub seed_spread: Option<Vec<SeedSpreadRow>>,
    pub reliability: Option<Vec<SetIccRow>>,
    pub directions: Option<Vec<DirectionRow>>,
    pub weat: Option<Vec<WeatSeedRow>>,
    pub weat_words: Option<Vec<WeatWordRow>>,
    /// Spearman's ρ across seeds between the set-level series.
    pub agreement: Option<Vec<AgreementRow>>,
}

/// The analogy stage's tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnalogyTables {
    pub answers: Option<Vec<AnalogyAnswerRow>>,
    pub reported: Option<Vec<AnalogyReportedRow>>,
    pub accuracy: Option<Vec<AnalogyAccuracyRow>>,
    pub reliability: Option<Vec<AnalogyReliabilityRow>>,
    pub pairs: Option<Vec<AnalogyPairRow>>,
    pub sweep: Option<Vec<AnalogySweepRow>>,
    pub zhang: Option<Vec<AnalogyZhangRow>>,
}

/// The base-pair stage's tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BasePairTables {
    pub summary: Option<Vec<BasePairSummaryRow>>,
    pub agreement: Option<Vec<BasePairAgreementRow>>,
    pub kappa: Option<Vec<BasePairKappaRow>>,
    pub directions: Option<Vec<BasePairDirectionRow>>,
    pub correlations: Option<Vec<BasePairCorrelationRow>>,
    pub baselines: Option<Vec<BasePairBaselineRow>>,
    pub flips: Option<Vec<BasePairFlipRow>>,
    pub examples: Option<Vec<BasePairExampleRow>>,
    pub seeds: Option<Vec<BasePairSeedsRow>>,
    pub variance: Option<Vec<BasePairVarianceRow>>,
}

fn read_optional<R: Row>(dir: &Path, table: TableName<R>) -> Result<Option<Vec<R>>, ReportError> {
    let name = table.name();
    let path = parquet_path(dir, name);
    if !path.is_file() {
        return Ok(None);
    }
    let table = Table::read(name, &path).map_err(|source| ReportError::Table {
        path: path.clone(),
        source,
    })?;
    table
        .rows()
        .map(Some)
        .map_err(|source| ReportError::Table { path, source })
}

/// Reads the tables of `tables_dir` (`results/<pipeline>/tables/`); missing tables are `None`.
///
/// # Errors
///
/// A table that exists but cannot be read, or a folder without any ICC table.
pub fn read_tables(tables_dir: &Path) -> Result<RunTables, ReportError> {
    let dir = tables_dir;
    let rules = RuleTables {
        test_retest_words: read_optional(dir, names::TEST_RETEST_WORDS)?,
        test_retest_pairs: read_optional(dir, names::TEST_RETEST_PAIRS)?,
        inter_rater_words: read_optional(dir, names::INTER_RATER_WORDS)?,
        inter_rater_pairs: read_optional(dir, names::INTER_RATER_PAIRS)?,
        internal_consistency: read_optional(dir, names::INTERNAL_CONSISTENCY)?,
        rule_correlations: read_optional(dir, names::RULE_CORRELATIONS)?,
        low_reliability: read_optional(dir, names::LOW_RELIABILITY)?,
        regression: read_optional(dir, names::REGRESSION)?,
    };
    if rules.test_retest_words.is_none() && rules.test_retest_pairs.is_none() {
        return Err(ReportError::NoTables(tables_dir.to_owned()));
    }
    Ok(RunTables {
        rules,
        coverage: read_optional(dir, names::COVERAGE)?,
        set_level: SetLevelTables {
            seed_spread: read_optional(dir, names::SEED_SPREAD)?,
            reliability: read_optional(dir, names::SET_LEVEL_RELIABILITY)?,
            directions: read_optional(dir, names::DIRECTIONS)?,
            weat: read_optional(dir, names::WEAT)?,
            weat_words: read_optional(dir, names::WEAT_WORDS)?,
            agreement: read_optional(dir, names::AGREEMENT)?,
        },
        analogies: AnalogyTables {
            answers: read_optional(dir, names::ANALOGY_ANSWERS)?,
            reported: read_optional(dir, names::ANALOGY_REPORTED)?,
            accuracy: read_optional(dir, names::ANALOGY_ACCURACY)?,
            reliability: read_optional(dir, names::ANALOGY_RELIABILITY)?,
            pairs: read_optional(dir, names::ANALOGY_PAIRS)?,
            sweep: read_optional(dir, names::ANALOGY_SWEEP)?,
            zhang: read_optional(dir, names::ANALOGY_ZHANG)?,
        },
        base_pairs: BasePairTables {
            summary: read_optional(dir, names::BASE_PAIR_SUMMARY)?,
            agreement: read_optional(dir, names::BASE_PAIR_AGREEMENT)?,
            kappa: read_optional(dir, names::BASE_PAIR_KAPPA)?,
            directions: read_optional(dir, names::BASE_PAIR_DIRECTIONS)?,
            correlations: read_optional(dir, names::BASE_PAIR_CORRELATIONS)?,
            baselines: read_optional(dir, names::BASE_PAIR_BASELINES)?,
            flips: read_optional(dir, names::BASE_PAIR_FLIPS)?,
            examples: read_optional(dir, names::BASE_PAIR_EXAMPLES)?,
            seeds: read_optional(dir, names::BASE_PAIR_SEEDS)?,
            variance: read_optional(dir, names::BASE_PAIR_VARIANCE)?,
        },
        residual: read_optional(dir, names::RESIDUAL_BIAS_RELIABILITY)?,
        validity: read_optional(dir, names::VALIDITY_RELIABILITY)?,
        subspace: SubspaceTables {
            seeds: read_optional(dir, names::BIAS_SUBSPACE)?,
            reliability: read_optional(dir, names::BIAS_SUBSPACE_RELIABILITY)?,
        },
    })
}
