//! The tables a report is drawn from and what the report knows about the run beside them, read
//! from `results/<pipeline>/tables/`.

use std::path::Path;

use retest_tables::{
    AlphaRow, AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow,
    AnalogyReportedRow, AnalogySweepRow, AnalogyZhangRow, BasePairAgreementRow, BasePairBaselineRow,
    BasePairCorrelationRow, BasePairDirectionRow, BasePairExampleRow, BasePairFlipRow, BasePairKappaRow,
    BasePairSeedsRow, BasePairSummaryRow, BasePairVarianceRow, CorrelationRow, CoverageRow, DirectionRow,
    IccRow, RegressionRow, Row, SeedSpreadRow, SetIccRow, ShareRow, Table, TableName, WeatSeedRow,
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
    /// The tokens of each corpus (after `min_count`), for the findings that relate a measure to
    /// corpus size; empty when unknown.
    pub corpus_tokens: Vec<(String, u64)>,
}

/// The tables a report is drawn from; `None` for a table the run did not write.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunTables {
    pub test_retest_words: Option<Vec<IccRow>>,
    pub test_retest_pairs: Option<Vec<IccRow>>,
    pub inter_rater_words: Option<Vec<IccRow>>,
    pub inter_rater_pairs: Option<Vec<IccRow>>,
    pub internal_consistency: Option<Vec<AlphaRow>>,
    pub rule_correlations: Option<Vec<CorrelationRow>>,
    pub low_reliability: Option<Vec<ShareRow>>,
    pub coverage: Option<Vec<CoverageRow>>,
    pub regression: Option<Vec<RegressionRow>>,
    pub seed_spread: Option<Vec<SeedSpreadRow>>,
    pub set_level_reliability: Option<Vec<SetIccRow>>,
    pub directions: Option<Vec<DirectionRow>>,
    pub weat: Option<Vec<WeatSeedRow>>,
    pub weat_words: Option<Vec<WeatWordRow>>,
    pub analogy_answers: Option<Vec<AnalogyAnswerRow>>,
    pub analogy_reported: Option<Vec<AnalogyReportedRow>>,
    pub analogy_accuracy: Option<Vec<AnalogyAccuracyRow>>,
    pub analogy_reliability: Option<Vec<AnalogyReliabilityRow>>,
    pub analogy_pairs: Option<Vec<AnalogyPairRow>>,
    pub analogy_sweep: Option<Vec<AnalogySweepRow>>,
    pub analogy_zhang: Option<Vec<AnalogyZhangRow>>,
    pub base_pair_summary: Option<Vec<BasePairSummaryRow>>,
    pub base_pair_agreement: Option<Vec<BasePairAgreementRow>>,
    pub base_pair_kappa: Option<Vec<BasePairKappaRow>>,
    pub base_pair_directions: Option<Vec<BasePairDirectionRow>>,
    pub base_pair_correlations: Option<Vec<BasePairCorrelationRow>>,
    pub base_pair_baselines: Option<Vec<BasePairBaselineRow>>,
    pub base_pair_flips: Option<Vec<BasePairFlipRow>>,
    pub base_pair_examples: Option<Vec<BasePairExampleRow>>,
    pub base_pair_seeds: Option<Vec<BasePairSeedsRow>>,
    pub base_pair_variance: Option<Vec<BasePairVarianceRow>>,
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
    let tables = RunTables {
        test_retest_words: read_optional(tables_dir, names::TEST_RETEST_WORDS)?,
        test_retest_pairs: read_optional(tables_dir, names::TEST_RETEST_PAIRS)?,
        inter_rater_words: read_optional(tables_dir, names::INTER_RATER_WORDS)?,
        inter_rater_pairs: read_optional(tables_dir, names::INTER_RATER_PAIRS)?,
        internal_consistency: read_optional(tables_dir, names::INTERNAL_CONSISTENCY)?,
        rule_correlations: read_optional(tables_dir, names::RULE_CORRELATIONS)?,
        low_reliability: read_optional(tables_dir, names::LOW_RELIABILITY)?,
        coverage: read_optional(tables_dir, names::COVERAGE)?,
        regression: read_optional(tables_dir, names::REGRESSION)?,
        seed_spread: read_optional(tables_dir, names::SEED_SPREAD)?,
        set_level_reliability: read_optional(tables_dir, names::SET_LEVEL_RELIABILITY)?,
        directions: read_optional(tables_dir, names::DIRECTIONS)?,
        weat: read_optional(tables_dir, names::WEAT)?,
        weat_words: read_optional(tables_dir, names::WEAT_WORDS)?,
        analogy_answers: read_optional(tables_dir, names::ANALOGY_ANSWERS)?,
        analogy_reported: read_optional(tables_dir, names::ANALOGY_REPORTED)?,
        analogy_accuracy: read_optional(tables_dir, names::ANALOGY_ACCURACY)?,
        analogy_reliability: read_optional(tables_dir, names::ANALOGY_RELIABILITY)?,
        analogy_pairs: read_optional(tables_dir, names::ANALOGY_PAIRS)?,
        analogy_sweep: read_optional(tables_dir, names::ANALOGY_SWEEP)?,
        analogy_zhang: read_optional(tables_dir, names::ANALOGY_ZHANG)?,
        base_pair_summary: read_optional(tables_dir, names::BASE_PAIR_SUMMARY)?,
        base_pair_agreement: read_optional(tables_dir, names::BASE_PAIR_AGREEMENT)?,
        base_pair_kappa: read_optional(tables_dir, names::BASE_PAIR_KAPPA)?,
        base_pair_directions: read_optional(tables_dir, names::BASE_PAIR_DIRECTIONS)?,
        base_pair_correlations: read_optional(tables_dir, names::BASE_PAIR_CORRELATIONS)?,
        base_pair_baselines: read_optional(tables_dir, names::BASE_PAIR_BASELINES)?,
        base_pair_flips: read_optional(tables_dir, names::BASE_PAIR_FLIPS)?,
        base_pair_examples: read_optional(tables_dir, names::BASE_PAIR_EXAMPLES)?,
        base_pair_seeds: read_optional(tables_dir, names::BASE_PAIR_SEEDS)?,
        base_pair_variance: read_optional(tables_dir, names::BASE_PAIR_VARIANCE)?,
    };
    if tables.test_retest_words.is_none() && tables.test_retest_pairs.is_none() {
        return Err(ReportError::NoTables(tables_dir.to_owned()));
    }
    Ok(tables)
}
