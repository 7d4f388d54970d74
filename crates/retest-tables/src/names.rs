//! Every table of a run, by name and row type, stated once: the stage that writes a table, the
//! aggregate stage that combines it and the report that reads it all name it through these
//! constants, so a table's name is written in one place and its rows are typed wherever it is
//! read.

use std::fmt;
use std::marker::PhantomData;

use crate::{
    AgreementRow, AlphaRow, AnalogyAccuracyRow, AnalogyAnswerRow, AnalogyPairRow, AnalogyReliabilityRow,
    AnalogyReportedRow, AnalogyRow, AnalogyStabilityRow, AnalogySweepRow, AnalogyZhangRow,
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairScoreRow, BasePairSeedsRow,
    BasePairSummaryRow, BasePairVarianceRow, CorrelationRow, CoverageRow, DetectorRow, DirectBiasRow,
    DirectionRow, EvalRow, IccRow, IndirectBiasRow, LeaveOneOutRow, QualityRow, QueryRow, RegressionRow,
    ResidualReliabilityRow, ResidualSeedRow, ScoreRow, SeedSpreadRow, SetIccRow, ShareRow,
    SubspaceReliabilityRow, SubspaceSeedRow, ValidityReliabilityRow, ValidityRow, ValiditySeedRow, WeatRow,
    WeatSeedRow, WeatWordRow, WordPropertyRow,
};

/// A table's name, typed by its rows.
pub struct TableName<R> {
    name: &'static str,
    rows: PhantomData<fn() -> R>,
}

impl<R> TableName<R> {
    pub const fn new(name: &'static str) -> TableName<R> {
        TableName {
            name,
            rows: PhantomData,
        }
    }

    /// The table's name: its file's stem.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<R> Clone for TableName<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for TableName<R> {}

impl<R> fmt::Debug for TableName<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every seed's bias scores of the listed words (a long-form tensor, [`crate::BiasTensor`]).
pub const BIAS_SCORES: &str = "bias_scores";
/// Every seed's bias scores of every word scored, when a plan asks for the full tensor.
pub const BIAS_SCORES_FULL: &str = "bias_scores_full";

pub const COVERAGE: TableName<CoverageRow> = TableName::new("coverage");

pub const TEST_RETEST_WORDS: TableName<IccRow> = TableName::new("test_retest_words");
pub const TEST_RETEST_PAIRS: TableName<IccRow> = TableName::new("test_retest_pairs");
pub const INTER_RATER_WORDS: TableName<IccRow> = TableName::new("inter_rater_words");
pub const INTER_RATER_PAIRS: TableName<IccRow> = TableName::new("inter_rater_pairs");
pub const INTERNAL_CONSISTENCY: TableName<AlphaRow> = TableName::new("internal_consistency");
pub const RULE_CORRELATIONS: TableName<CorrelationRow> = TableName::new("rule_correlations");
pub const LOW_RELIABILITY: TableName<ShareRow> = TableName::new("low_reliability");
pub const WORD_PROPERTIES: TableName<WordPropertyRow> = TableName::new("word_properties");
pub const REGRESSION: TableName<RegressionRow> = TableName::new("regression");

pub const WEAT: TableName<WeatSeedRow> = TableName::new("weat");
pub const WEAT_WORDS: TableName<WeatWordRow> = TableName::new("weat_words");
pub const DIRECTIONS: TableName<DirectionRow> = TableName::new("directions");
pub const DETECTORS: TableName<DetectorRow> = TableName::new("detectors");
pub const QUALITY: TableName<QualityRow> = TableName::new("quality");
pub const AGREEMENT: TableName<AgreementRow> = TableName::new("agreement");
pub const SEED_SPREAD: TableName<SeedSpreadRow> = TableName::new("seed_spread");
pub const VALIDITY: TableName<ValiditySeedRow> = TableName::new("validity");
pub const VALIDITY_RELIABILITY: TableName<ValidityReliabilityRow> = TableName::new("validity_reliability");
pub const SET_LEVEL_RELIABILITY: TableName<SetIccRow> = TableName::new("set_level_reliability");
pub const RESIDUAL_BIAS: TableName<ResidualSeedRow> = TableName::new("residual_bias");
pub const RESIDUAL_BIAS_RELIABILITY: TableName<ResidualReliabilityRow> =
    TableName::new("residual_bias_reliability");
pub const BIAS_SUBSPACE: TableName<SubspaceSeedRow> = TableName::new("bias_subspace");
pub const PCA_LEAVE_ONE_OUT: TableName<LeaveOneOutRow> = TableName::new("pca_leave_one_out");
pub const INDIRECT_BIAS: TableName<IndirectBiasRow> = TableName::new("indirect_bias");
pub const BIAS_SUBSPACE_RELIABILITY: TableName<SubspaceReliabilityRow> =
    TableName::new("bias_subspace_reliability");

pub const ANALOGY_ANSWERS: TableName<AnalogyAnswerRow> = TableName::new("analogy_answers");
pub const ANALOGY_REPORTED: TableName<AnalogyReportedRow> = TableName::new("analogy_reported");
pub const ANALOGY_ACCURACY: TableName<AnalogyAccuracyRow> = TableName::new("analogy_accuracy");
pub const ANALOGY_STABILITY: TableName<AnalogyStabilityRow> = TableName::new("analogy_stability");
pub const ANALOGY_RELIABILITY: TableName<AnalogyReliabilityRow> = TableName::new("analogy_reliability");
pub const ANALOGY_PAIRS: TableName<AnalogyPairRow> = TableName::new("analogy_pairs");
pub const ANALOGY_SWEEP: TableName<AnalogySweepRow> = TableName::new("analogy_sweep");
pub const ANALOGY_ZHANG: TableName<AnalogyZhangRow> = TableName::new("analogy_zhang");

pub const BASE_PAIR_SUMMARY: TableName<BasePairSummaryRow> = TableName::new("base_pair_summary");
pub const BASE_PAIR_AGREEMENT: TableName<BasePairAgreementRow> = TableName::new("base_pair_agreement");
pub const BASE_PAIR_KAPPA: TableName<BasePairKappaRow> = TableName::new("base_pair_kappa");
pub const BASE_PAIR_DIRECTIONS: TableName<BasePairDirectionRow> = TableName::new("base_pair_directions");
pub const BASE_PAIR_CORRELATIONS: TableName<BasePairCorrelationRow> =
    TableName::new("base_pair_correlations");
pub const BASE_PAIR_BASELINES: TableName<BasePairBaselineRow> = TableName::new("base_pair_baselines");
pub const BASE_PAIR_FLIPS: TableName<BasePairFlipRow> = TableName::new("base_pair_flips");
pub const BASE_PAIR_EXAMPLES: TableName<BasePairExampleRow> = TableName::new("base_pair_examples");
pub const BASE_PAIR_SCORES: TableName<BasePairScoreRow> = TableName::new("base_pair_scores");
pub const BASE_PAIR_SEEDS: TableName<BasePairSeedsRow> = TableName::new("base_pair_seeds");
pub const BASE_PAIR_VARIANCE: TableName<BasePairVarianceRow> = TableName::new("base_pair_variance");

/// The tables of the commands over a user's own vector files (`retest score`, `weat`,
/// `direct-bias`, `analogies`, `eval`): one file each, at the path the user names.
pub const SCORES: TableName<ScoreRow> = TableName::new("scores");
pub const WEAT_FILE: TableName<WeatRow> = TableName::new("weat");
pub const QUERY_FILE: TableName<QueryRow> = TableName::new("query");
pub const VALIDITY_FILE: TableName<ValidityRow> = TableName::new("validity");
pub const DIRECT_BIAS_FILE: TableName<DirectBiasRow> = TableName::new("direct_bias");
pub const ANALOGIES_FILE: TableName<AnalogyRow> = TableName::new("analogies");
pub const EVAL_FILE: TableName<EvalRow> = TableName::new("eval");
