//! Table columns that stages and commands build the same way: the statistics of an ICC, the
//! columns of a WEAT test, and the names of the statuses of a missing set and of a word out of
//! vocabulary, and of the principal-component direction.

use retest_analyses::{SeedSpread, Validity};
use retest_measures::{Scoring, Weat};
use retest_reliability::IccResult;
use retest_spec::Plan;
use retest_tables::{IccStats, SpreadStats, ValidityStats, WeatStats};

use crate::lists::Lists;

/// The `status` of a WEAT row whose X, Y, A or B has no word in the vocabulary.
pub const EMPTY_SET: &str = "empty_set";
/// The `status` of a row (an analogy query, a base-pair comparison) with a word out of vocabulary.
pub const OUT_OF_VOCABULARY: &str = "out_of_vocabulary";
/// The `status` of a word, or of a row that needs one, whose vector is all zeros: it has no
/// direction, so no cosine.
pub const ZERO_VECTOR: &str = "zero_vector";
/// The `direction` of the Direct Bias row of the first principal component of the pairs.
pub const PCA_DIRECTION: &str = "pca";

/// The table columns of an ICC result.
pub(crate) fn icc_stats(r: &IccResult) -> IccStats {
    IccStats {
        icc: r.value,
        f_stat: r.f,
        df1: r.df1,
        df2: r.df2,
        p_value: r.p_value,
        ci_low: r.ci_low,
        ci_high: r.ci_high,
        n_subjects: r.n_subjects as u32,
        n_raters: r.n_raters as u32,
        n_dropped: r.n_dropped as u32,
        status: r.status.as_str().to_owned(),
    }
}

/// The table columns of a value's spread across seeds.
pub(crate) fn spread_stats(s: &SeedSpread) -> SpreadStats {
    SpreadStats {
        n_seeds: s.n as u32,
        n_undefined: s.n_undefined as u32,
        mean: s.mean,
        sd: s.sd,
        low: s.low,
        high: s.high,
    }
}

/// The table columns of a WEAT test over sets of these sizes: the result's, or NaN numbers
/// without one (a set left empty).
pub(crate) fn weat_stats(sets: [&[u32]; 4], result: Option<&Weat>) -> WeatStats {
    let [n_x, n_y, n_a, n_b] = sets.map(|s| s.len() as u32);
    WeatStats {
        n_x,
        n_y,
        n_a,
        n_b,
        statistic: result.map_or(f64::NAN, |w| w.statistic),
        effect_size: result.map_or(f64::NAN, |w| w.effect_size.d),
        p_value: result.map_or(f64::NAN, |w| w.permutation.p),
        p_method: result.map_or_else(String::new, |w| w.permutation.method.as_str().to_owned()),
        n_partitions: result.map_or(0, |w| w.permutation.partitions),
    }
}

/// The validity columns of `rule`'s scores along `reference` against `criterion`.
pub(crate) fn validity_stats(rule: &str, reference: &str, criterion: &str, v: &Validity) -> ValidityStats {
    ValidityStats {
        rule: rule.to_owned(),
        reference: reference.to_owned(),
        criterion: criterion.to_owned(),
        n_words: v.n as u32,
        pearson_r: v.pearson.value,
        spearman_r: v.spearman.value,
        p_value: v.pearson.p_value,
    }
}

/// The plan's rules with their settings, NBM's neutral pool leaving out `lists`' gendered words,
/// on `threads` threads.
pub(crate) fn plan_scoring<'a>(plan: &'a Plan, lists: &'a Lists, threads: usize) -> Scoring<'a> {
    Scoring {
        rules: &plan.measures.rules,
        ripa_target: plan.measures.ripa_target,
        nbm_k: plan.measures.nbm_k as usize,
        nbm_pool: plan.measures.nbm_pool,
        pool_exclude: &lists.nbm_pool_exclude,
        threads,
    }
}
