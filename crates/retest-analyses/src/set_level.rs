//! Set-level measures across seeds: a WEAT test or a Direct Bias gives one value per seed, so a
//! configuration's seeds give its spread ([`seed_spread`]); a family of such values (the
//! single-pair WEATs of one query pair, the Direct Bias of every direction, the scores of a
//! test's words) is a subjects × seeds matrix, whose ICC(2,1) is its test-retest reliability
//! ([`seeds_icc`]), as for Du et al.'s per-word scores.
//!
//! The designs over every seed's [`SetLevelSeed`]: [`set_level_spreads`] (each value's spread),
//! [`set_level_reliability`] (each subjects × seeds matrix, [`SetDesign`]; the families of tests
//! from [`weat_families`]) and [`set_level_agreement`] (Spearman's ρ across seeds between the
//! measures, [`seed_agreement`]).

use retest_measures::{
    Measure, OccupationalStereotypes, RelativeNormDistance, ScoreTensor, Weat, separability,
};
use retest_reliability::{CorrelationResult, IccResult, icc2_1, spearman};

use crate::study::matrix;

/// A p-value below this counts as significant in [`SeedSpread::share_significant`].
pub const SIGNIFICANCE: f64 = 0.05;

/// One value across the seeds of a configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeedSpread {
    /// Seeds with a value (not NaN).
    pub n: usize,
    /// Seeds whose value is NaN, left out of everything below.
    pub n_undefined: usize,
    pub mean: f64,
    /// Sample standard deviation (`n − 1`); NaN below 2 values.
    pub sd: f64,
    /// 2.5 % and 97.5 % quantiles, linearly interpolated between order statistics (numpy's
    /// default); NaN without values.
    pub low: f64,
    pub high: f64,
    /// The share of values below [`SIGNIFICANCE`], when the values are p-values.
    pub share_significant: Option<f64>,
}

/// The spread of `values` (one per seed); `p_values` says they are p-values, whose share below
/// [`SIGNIFICANCE`] is then counted.
pub fn seed_spread(values: &[f64], p_values: bool) -> SeedSpread {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let mean = if n == 0 {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / n as f64
    };
    let sd = if n < 2 {
        f64::NAN
    } else {
        (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    };
    SeedSpread {
        n,
        n_undefined: values.len() - n,
        mean,
        sd,
        low: quantile(&v, 0.025),
        high: quantile(&v, 0.975),
        share_significant: p_values
            .then(|| v.iter().filter(|&&p| p < SIGNIFICANCE).count() as f64 / n as f64),
    }
}

/// The `q` quantile of sorted values: position `q·(n − 1)`, interpolated.
pub(crate) fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => {
            let at = q * (n - 1) as f64;
            let (below, frac) = (at.floor() as usize, at.fract());
            let above = (below + 1).min(n - 1);
            sorted[below] + frac * (sorted[above] - sorted[below])
        }
    }
}

/// ICC(2,1) of a subjects × seeds matrix, row-major (`values[subject * n_seeds + seed]`): the
/// seeds are the raters. Subjects with a NaN are dropped, as in every ICC of the crate.
///
/// # Panics
///
/// If `values.len() != n_subjects * n_seeds`.
pub fn seeds_icc(values: &[f64], n_subjects: usize, n_seeds: usize) -> IccResult {
    assert_eq!(values.len(), n_subjects * n_seeds, "a subjects × seeds matrix");
    icc2_1(matrix(values, n_subjects, n_seeds))
}

/// ICC(2,1) of per-subject values given seed by seed (`seeds[s][subject]`): the seeds are the
/// raters, subjects with a NaN are dropped.
///
/// # Panics
///
/// If the seeds' values differ in number.
pub fn subjects_icc(seeds: &[&[f64]]) -> IccResult {
    let n = seeds.first().map_or(0, |v| v.len());
    assert!(
        seeds.iter().all(|v| v.len() == n),
        "one value per subject on every seed"
    );
    let values: Vec<f64> = (0..n).flat_map(|w| seeds.iter().map(move |v| v[w])).collect();
    seeds_icc(&values, n, seeds.len())
}

/// Spearman's ρ across the seeds of one configuration between two set-level series, named by
/// their positions in the caller's list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgreementRecord {
    pub a: usize,
    pub b: usize,
    pub result: CorrelationResult,
    /// The 2.5 % and 97.5 % quantiles of ρ over the bootstrap resamples of the seeds (the
    /// resamples where ρ is defined); NaN without resamples or without a defined ρ.
    pub interval: [f64; 2],
}

/// Spearman's ρ across seeds between every two of `series` (each one value per seed, all of
/// one length), `a < b`: do the measures rank the seeds of one configuration alike? With its
/// percentile bootstrap interval over `resamples` (each a list of seed positions drawn with
/// replacement by the caller, who owns the randomness).
pub fn seed_agreement(series: &[Vec<f64>], resamples: &[Vec<usize>]) -> Vec<AgreementRecord> {
    let mut records = Vec::new();
    for a in 0..series.len() {
        for b in a + 1..series.len() {
            let mut rhos: Vec<f64> = (resamples.iter())
                .map(|seeds| {
                    let pick = |s: &[f64]| seeds.iter().map(|&i| s[i]).collect::<Vec<f64>>();
                    spearman(&pick(&series[a]), &pick(&series[b])).value
                })
                .filter(|r| !r.is_nan())
                .collect();
            rhos.sort_by(f64::total_cmp);
            let interval = if rhos.is_empty() {
                [f64::NAN; 2]
            } else {
                [quantile(&rhos, 0.025), quantile(&rhos, 0.975)]
            };
            records.push(AgreementRecord {
                a,
                b,
                result: spearman(&series[a], &series[b]),
                interval,
            });
        }
    }
    records
}

/// Per rule of `tensor`, each seed's mean absolute score over every base pair and the words at
/// `targets`: a rule's bias of a word list on one seed, the value it is compared with the
/// set-level measures on.
pub fn mean_absolute_scores(tensor: &ScoreTensor, targets: &[usize]) -> Vec<Vec<f64>> {
    (0..tensor.n_rules())
        .map(|rule| {
            let mut sums = vec![0.0f64; tensor.n_seeds()];
            for p in 0..tensor.n_refs() {
                for &t in targets {
                    for (sum, v) in sums.iter_mut().zip(tensor.seeds(rule, p, t)) {
                        *sum += f64::from(*v).abs();
                    }
                }
            }
            let n = (tensor.n_refs() * targets.len()) as f64;
            sums.iter().map(|s| s / n).collect()
        })
        .collect()
}

/// One seed's set-level values, as the designs across seeds read them. Tests, directions and
/// neutral words are positions in the caller's lists, the same on every seed.
#[derive(Debug, Clone, PartialEq)]
pub struct SetLevelSeed {
    /// Each WEAT test's result, in the caller's test order.
    pub weat: Vec<Weat>,
    /// Direct Bias along each direction, the principal component of the definitional pairs last.
    pub direct_bias: Vec<f64>,
    /// The neutral words' projections on the principal component.
    pub pca_projections: Vec<f64>,
    /// Bakarov's Occupational Stereotypes of the neutral words.
    pub os: OccupationalStereotypes,
    /// Bakarov's Gender Direction (relative norm distance) of the neutral words.
    pub gd: RelativeNormDistance,
    /// The query measures.
    pub query: QuerySeed,
}

/// The query measures of one seed, as WEFE defines them: MAC and RNSB of every WEAT test (a
/// 2 × 2 test fits both), and RND and ECT of Garg et al.'s query, the masculine against the
/// feminine words of the detector pairs with the neutral words as the attribute set.
#[derive(Debug, Clone, PartialEq)]
pub struct QuerySeed {
    /// MAC of each test, in the caller's test order.
    pub mac: Vec<f64>,
    /// RNSB of each test, in the caller's test order.
    pub rnsb: Vec<f64>,
    /// RND with each neutral word's term.
    pub rnd: RelativeNormDistance,
    pub ect: f64,
}

impl QuerySeed {
    /// The values of `measure` (MAC or RNSB) per test.
    fn per_test(&self, measure: Measure) -> &[f64] {
        match measure {
            Measure::Mac => &self.mac,
            Measure::Rnsb => &self.rnsb,
            other => panic!("{other} has no value per test"),
        }
    }
}

/// The query measures with a value per test.
pub const PER_TEST_QUERY_MEASURES: [Measure; 2] = [Measure::Mac, Measure::Rnsb];

/// What a WEAT test is, which decides the family of tests it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeatKind {
    /// A test of the tests file (Caliskan et al.'s).
    Caliskan,
    /// A test with the words of a query pair (a position in the caller's list of query pairs) as
    /// targets and one base pair's words, or every base pair's (`ensemble`), as attributes.
    SinglePair { query_pair: usize, ensemble: bool },
    /// The stereotypically masculine against the stereotypically feminine words.
    Stereotype,
}

/// A family of WEAT tests whose effect sizes across seeds form a tests × seeds matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeatFamily {
    /// The Caliskan tests: the subjects are tests.
    Caliskan,
    /// The single-pair tests of one query pair, one per base pair: the subjects are base pairs
    /// (the ensemble is not one).
    QueryPair(usize),
}

/// The families of the tests of `kinds`, each with its tests' positions in test order: the
/// Caliskan tests when there are at least 2, then each query pair with a test, in query-pair
/// order.
pub fn weat_families(kinds: &[WeatKind]) -> Vec<(WeatFamily, Vec<usize>)> {
    let members = |kind: WeatKind| -> Vec<usize> { (0..kinds.len()).filter(|&i| kinds[i] == kind).collect() };
    let mut families = Vec::new();
    let caliskan = members(WeatKind::Caliskan);
    if caliskan.len() >= 2 {
        families.push((WeatFamily::Caliskan, caliskan));
    }
    let n_query_pairs = (kinds.iter())
        .filter_map(|k| match k {
            WeatKind::SinglePair { query_pair, .. } => Some(query_pair + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    for query_pair in 0..n_query_pairs {
        let tests = members(WeatKind::SinglePair {
            query_pair,
            ensemble: false,
        });
        if !tests.is_empty() {
            families.push((WeatFamily::QueryPair(query_pair), tests));
        }
    }
    families
}

/// The spreads across seeds of one WEAT test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeatSpread {
    pub effect_size: SeedSpread,
    pub statistic: SeedSpread,
    /// With the share of seeds whose p-value is significant.
    pub p_value: SeedSpread,
    /// Schröder et al.'s mean attribute difference ‖â − b̂‖, which scales every word's score.
    pub attribute_difference: SeedSpread,
    /// The share of (x, y) pairs whose scores are in order ([`retest_measures::separability`]).
    pub separability: SeedSpread,
}

/// The spread across seeds of every set-level value, by position in the caller's lists.
#[derive(Debug, Clone, PartialEq)]
pub struct SetLevelSpreads {
    /// Per test.
    pub weat: Vec<WeatSpread>,
    /// Per direction.
    pub direct_bias: Vec<SeedSpread>,
    pub os: SeedSpread,
    pub gd: SeedSpread,
    /// Per test: MAC's and RNSB's, in [`PER_TEST_QUERY_MEASURES`]' order.
    pub query: Vec<[SeedSpread; 2]>,
    pub rnd: SeedSpread,
    pub ect: SeedSpread,
}

/// The spread of every value of `seeds` (in seed order) across the seeds; the numbers of tests
/// and directions are the first seed's.
pub fn set_level_spreads(seeds: &[&SetLevelSeed]) -> SetLevelSpreads {
    let over_seeds =
        |value: &dyn Fn(&SetLevelSeed) -> f64| -> Vec<f64> { seeds.iter().map(|v| value(v)).collect() };
    let first = seeds.first();
    let weat = (0..first.map_or(0, |v| v.weat.len()))
        .map(|i| WeatSpread {
            effect_size: seed_spread(&over_seeds(&|v| v.weat[i].effect_size.d), false),
            statistic: seed_spread(&over_seeds(&|v| v.weat[i].statistic), false),
            p_value: seed_spread(&over_seeds(&|v| v.weat[i].permutation.p), true),
            attribute_difference: seed_spread(&over_seeds(&|v| v.weat[i].attribute_difference), false),
            separability: seed_spread(
                &over_seeds(&|v| separability(&v.weat[i].x_scores, &v.weat[i].y_scores)),
                false,
            ),
        })
        .collect();
    let direct_bias = (0..first.map_or(0, |v| v.direct_bias.len()))
        .map(|d| seed_spread(&over_seeds(&|v| v.direct_bias[d]), false))
        .collect();
    let query = (0..first.map_or(0, |v| v.query.mac.len()))
        .map(|i| {
            PER_TEST_QUERY_MEASURES.map(|m| seed_spread(&over_seeds(&|v| v.query.per_test(m)[i]), false))
        })
        .collect();
    SetLevelSpreads {
        weat,
        direct_bias,
        os: seed_spread(&over_seeds(&|v| v.os.value), false),
        gd: seed_spread(&over_seeds(&|v| v.gd.value), false),
        query,
        rnd: seed_spread(&over_seeds(&|v| v.query.rnd.value), false),
        ect: seed_spread(&over_seeds(&|v| v.query.ect), false),
    }
}

/// A subjects × seeds matrix of the set-level values, rated by [`seeds_icc`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetDesign {
    /// The scores `s(w, A, B)` of a test's words (a position in the caller's tests): its X then
    /// its Y words × seeds.
    WeatScores(usize),
    /// The effect sizes of a family's tests × seeds.
    WeatEffectSizes(WeatFamily),
    /// Direct Bias: directions × seeds.
    DirectBias,
    /// The neutral words' projections on the principal component: words × seeds.
    PcaProjections,
    /// The neutral words' cosines with OS's axis: words × seeds.
    OsProjections,
    /// The neutral words' terms of GD's sum: words × seeds.
    GdTerms,
    /// MAC or RNSB of a family's tests × seeds.
    QueryTests(Measure, WeatFamily),
    /// The neutral words' terms of RND: words × seeds.
    RndTerms,
}

/// The ICC(2,1) of one design.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetIccRecord {
    pub design: SetDesign,
    pub result: IccResult,
}

/// ICC(2,1) of every design on `seeds` (in seed order), whose tests are of `kinds`: each test's
/// words, each family of [`weat_families`], then Direct Bias's directions, the pca projections,
/// OS's projections and GD's terms, then MAC and RNSB of each family and RND's terms. The
/// numbers of words and directions are the first seed's.
pub fn set_level_reliability(seeds: &[&SetLevelSeed], kinds: &[WeatKind]) -> Vec<SetIccRecord> {
    let icc = |design: SetDesign, n_subjects: usize, value: &dyn Fn(&SetLevelSeed, usize) -> f64| {
        let matrix: Vec<f64> = (0..n_subjects)
            .flat_map(|j| seeds.iter().map(move |v| value(v, j)))
            .collect();
        SetIccRecord {
            design,
            result: seeds_icc(&matrix, n_subjects, seeds.len()),
        }
    };
    let first = seeds.first();
    let size = |n: &dyn Fn(&SetLevelSeed) -> usize| first.map_or(0, |v| n(v));
    let mut records = Vec::new();
    for i in 0..kinds.len() {
        let n_x = size(&|v| v.weat[i].x_scores.len());
        let n_words = n_x + size(&|v| v.weat[i].y_scores.len());
        records.push(icc(SetDesign::WeatScores(i), n_words, &|v, j| {
            let w = &v.weat[i];
            if j < n_x {
                w.x_scores[j]
            } else {
                w.y_scores[j - n_x]
            }
        }));
    }
    for (family, tests) in weat_families(kinds) {
        records.push(icc(SetDesign::WeatEffectSizes(family), tests.len(), &|v, j| {
            v.weat[tests[j]].effect_size.d
        }));
    }
    let n_words = size(&|v| v.pca_projections.len());
    records.extend([
        icc(SetDesign::DirectBias, size(&|v| v.direct_bias.len()), &|v, d| {
            v.direct_bias[d]
        }),
        icc(SetDesign::PcaProjections, n_words, &|v, w| v.pca_projections[w]),
        icc(SetDesign::OsProjections, n_words, &|v, w| v.os.projections[w]),
        icc(SetDesign::GdTerms, n_words, &|v, w| v.gd.per_word[w]),
    ]);
    for (family, tests) in weat_families(kinds) {
        for measure in PER_TEST_QUERY_MEASURES {
            records.push(icc(
                SetDesign::QueryTests(measure, family),
                tests.len(),
                &|v, j| v.query.per_test(measure)[tests[j]],
            ));
        }
    }
    let n_terms = size(&|v| v.query.rnd.per_word.len());
    records.push(icc(SetDesign::RndTerms, n_terms, &|v, w| v.query.rnd.per_word[w]));
    records
}

/// A series across seeds that [`set_level_agreement`] compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgreementSeries {
    /// WEAT's effect size, the mean over the Caliskan tests.
    CaliskanEffectSize,
    /// Direct Bias along the principal component.
    DirectBiasPca,
    Os,
    Gd,
    /// MAC or RNSB, the mean over the Caliskan tests.
    CaliskanQuery(Measure),
    Rnd,
    Ect,
    /// The caller's extra series at this position.
    Extra(usize),
}

/// The series compared and Spearman's ρ between every two of them (`a`, `b` index `series`).
#[derive(Debug, Clone, PartialEq)]
pub struct SetAgreement {
    pub series: Vec<AgreementSeries>,
    pub records: Vec<AgreementRecord>,
}

/// Spearman's ρ across `seeds` (in seed order) between the set-level measures: WEAT's effect
/// size averaged over the Caliskan tests of `kinds` (when there is one), Direct Bias along the
/// principal component, OS, GD, MAC and RNSB averaged over the Caliskan tests (when there is
/// one), RND, ECT, then each of `extra` (one value per seed each, such as a rule's mean |score|
/// over the neutral words or a quality benchmark's ρ), with bootstrap intervals over
/// `resamples` ([`seed_agreement`]).
pub fn set_level_agreement(
    seeds: &[&SetLevelSeed],
    kinds: &[WeatKind],
    extra: &[&[f64]],
    resamples: &[Vec<usize>],
) -> SetAgreement {
    let caliskan: Vec<usize> = (0..kinds.len())
        .filter(|&i| kinds[i] == WeatKind::Caliskan)
        .collect();
    let over_seeds =
        |value: &dyn Fn(&SetLevelSeed) -> f64| -> Vec<f64> { seeds.iter().map(|v| value(v)).collect() };
    let mut series = Vec::new();
    if !caliskan.is_empty() {
        let mean = |v: &SetLevelSeed| {
            caliskan.iter().map(|&i| v.weat[i].effect_size.d).sum::<f64>() / caliskan.len() as f64
        };
        series.push((AgreementSeries::CaliskanEffectSize, over_seeds(&mean)));
    }
    series.extend([
        (
            AgreementSeries::DirectBiasPca,
            over_seeds(&|v| *v.direct_bias.last().expect("the pca direction")),
        ),
        (AgreementSeries::Os, over_seeds(&|v| v.os.value)),
        (AgreementSeries::Gd, over_seeds(&|v| v.gd.value)),
    ]);
    if !caliskan.is_empty() {
        for measure in PER_TEST_QUERY_MEASURES {
            let mean = |v: &SetLevelSeed| {
                let values = v.query.per_test(measure);
                caliskan.iter().map(|&i| values[i]).sum::<f64>() / caliskan.len() as f64
            };
            series.push((AgreementSeries::CaliskanQuery(measure), over_seeds(&mean)));
        }
    }
    series.extend([
        (AgreementSeries::Rnd, over_seeds(&|v| v.query.rnd.value)),
        (AgreementSeries::Ect, over_seeds(&|v| v.query.ect)),
    ]);
    series.extend((extra.iter().enumerate()).map(|(i, values)| (AgreementSeries::Extra(i), values.to_vec())));
    let (series, values): (Vec<_>, Vec<_>) = series.into_iter().unzip();
    SetAgreement {
        records: seed_agreement(&values, resamples),
        series,
    }
}

#[cfg(test)]
mod tests {
    use retest_measures::{EffectSize, EffectStatus, PMethod, PermutationTest, SdKind};

    use super::*;

    /// A WEAT result with these scores, effect size, statistic and p-value (the rest unread).
    fn weat(x: &[f64], y: &[f64], d: f64, statistic: f64, p: f64) -> Weat {
        Weat {
            x_scores: x.to_vec(),
            y_scores: y.to_vec(),
            x_normalized: Vec::new(),
            y_normalized: Vec::new(),
            statistic,
            effect_size: EffectSize {
                d,
                sd: SdKind::Population,
                status: EffectStatus::Ok,
            },
            permutation: PermutationTest {
                p,
                method: PMethod::Exact,
                partitions: 2,
                greater: 0,
                total_partitions: Some(2),
                n_x: x.len(),
                n_y: y.len(),
            },
            attribute_difference: 0.0,
        }
    }

    fn seed(weat: Vec<Weat>, direct_bias: &[f64], pca: &[f64], os: &[f64], gd: &[f64]) -> SetLevelSeed {
        let n_tests = weat.len();
        SetLevelSeed {
            weat,
            direct_bias: direct_bias.to_vec(),
            pca_projections: pca.to_vec(),
            os: OccupationalStereotypes {
                value: os.iter().map(|c| c.abs()).sum::<f64>() / os.len() as f64,
                projections: os.to_vec(),
            },
            gd: RelativeNormDistance {
                value: gd.iter().sum(),
                per_word: gd.to_vec(),
            },
            query: QuerySeed {
                mac: vec![0.0; n_tests],
                rnsb: vec![0.0; n_tests],
                rnd: RelativeNormDistance {
                    value: 0.0,
                    per_word: Vec::new(),
                },
                ect: 0.0,
            },
        }
    }

    /// `seed` with its query measures: MAC and RNSB per test, RND's terms (their mean its value)
    /// and ECT.
    fn with_query(mut seed: SetLevelSeed, mac: &[f64], rnsb: &[f64], rnd: &[f64], ect: f64) -> SetLevelSeed {
        seed.query = QuerySeed {
            mac: mac.to_vec(),
            rnsb: rnsb.to_vec(),
            rnd: RelativeNormDistance {
                value: rnd.iter().sum::<f64>() / rnd.len() as f64,
                per_word: rnd.to_vec(),
            },
            ect,
        };
        seed
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn families_are_the_caliskan_tests_and_each_query_pairs_base_pairs() {
        let pair = |query_pair, ensemble| WeatKind::SinglePair { query_pair, ensemble };
        let kinds = [
            pair(1, false),
            WeatKind::Caliskan,
            pair(1, true),
            pair(0, false),
            WeatKind::Caliskan,
            pair(1, false),
            WeatKind::Stereotype,
            pair(2, true),
        ];
        // Query pair 2 has only its ensemble test, which is no subject: no family.
        assert_eq!(
            weat_families(&kinds),
            [
                (WeatFamily::Caliskan, vec![1, 4]),
                (WeatFamily::QueryPair(0), vec![3]),
                (WeatFamily::QueryPair(1), vec![0, 5]),
            ]
        );
        // One Caliskan test is no family.
        assert!(weat_families(&[WeatKind::Caliskan, pair(0, true)]).is_empty());
    }

    /// Two seeds of a Caliskan test, two single-pair tests of query pair 0 and its ensemble test,
    /// two directions and two neutral words.
    fn two_seeds() -> (Vec<SetLevelSeed>, Vec<WeatKind>) {
        let kinds = vec![
            WeatKind::Caliskan,
            WeatKind::SinglePair {
                query_pair: 0,
                ensemble: false,
            },
            WeatKind::SinglePair {
                query_pair: 0,
                ensemble: false,
            },
            WeatKind::SinglePair {
                query_pair: 0,
                ensemble: true,
            },
        ];
        // MAC per test: tests 1 and 2 × seeds [[1, 2], [3, 4]]; RNSB alike on both seeds; RND's
        // terms [[1, 2], [3, 5]] (words × seeds), so RND 2 and 3.5; ECT 0.5 and 0.7.
        let seeds = vec![
            with_query(
                seed(
                    vec![
                        weat(&[1.0], &[3.0], 0.5, -2.0, 0.01),
                        weat(&[0.1, 0.2], &[0.3], 1.0, 0.0, 0.5),
                        weat(&[0.5], &[-0.5], 3.0, 1.0, 0.5),
                        weat(&[0.5], &[-0.5], 10.0, 1.0, 0.5),
                    ],
                    &[0.1, 0.3],
                    &[0.5, -0.5],
                    &[0.25, 0.5],
                    &[1.0, 3.0],
                ),
                &[0.5, 1.0, 3.0, 9.0],
                &[0.1, 0.2, 0.3, 0.4],
                &[1.0, 3.0],
                0.5,
            ),
            with_query(
                seed(
                    vec![
                        weat(&[2.0], &[4.0], 1.5, -2.0, 0.2),
                        weat(&[0.1, 0.2], &[0.3], 2.0, 0.0, 0.5),
                        weat(&[0.5], &[-0.5], 4.0, 1.0, 0.5),
                        weat(&[0.5], &[-0.5], 10.0, 1.0, 0.5),
                    ],
                    &[0.2, 0.4],
                    &[0.5, -0.5],
                    &[0.5, 0.5],
                    &[2.0, 5.0],
                ),
                &[0.7, 2.0, 4.0, 9.0],
                &[0.1, 0.2, 0.3, 0.4],
                &[2.0, 5.0],
                0.7,
            ),
        ];
        (seeds, kinds)
    }

    #[test]
    fn the_spreads_of_every_set_level_value() {
        let (seeds, _) = two_seeds();
        let seeds: Vec<&SetLevelSeed> = seeds.iter().collect();
        let s = set_level_spreads(&seeds);
        assert_eq!((s.weat.len(), s.direct_bias.len()), (4, 2));
        // Test 0's effect sizes 0.5, 1.5: mean 1, sd √((0.25 + 0.25)/1), 2.5 % at 0.5 + 0.025.
        let d = s.weat[0].effect_size;
        close(d.mean, 1.0);
        close(d.sd, 0.5f64.sqrt());
        close(d.low, 0.525);
        close(d.high, 1.475);
        assert_eq!(d.share_significant, None);
        close(s.weat[0].statistic.sd, 0.0);
        // p-values 0.01 and 0.2: one of two below 0.05.
        assert_eq!(s.weat[0].p_value.share_significant, Some(0.5));
        close(s.weat[2].effect_size.mean, 3.5);
        // Direct Bias along the second direction: 0.3, 0.4.
        close(s.direct_bias[1].mean, 0.35);
        // OS: mean |cos| 0.375 and 0.5, sd √(2·0.0625²); GD: 1 + 3 = 4 and 2 + 5 = 7.
        close(s.os.mean, 0.4375);
        close(s.os.sd, 0.0625 * 2f64.sqrt());
        close(s.gd.mean, 5.5);
        assert_eq!(s.gd.n, 2);
        // MAC of test 0: 0.5, 0.7; RNSB of test 3: 0.4 twice; RND 2, 3.5; ECT 0.5, 0.7.
        assert_eq!(s.query.len(), 4);
        close(s.query[0][0].mean, 0.6);
        close(s.query[3][1].sd, 0.0);
        close(s.rnd.mean, 2.75);
        close(s.ect.mean, 0.6);
        close(s.ect.sd, 0.02f64.sqrt());
    }

    /// ICC(2,1) of 2 subjects × 2 seeds by hand: MSR = k·Σ(row mean − grand)²/(n − 1), MSC =
    /// n·Σ(column mean − grand)²/(k − 1), MSE = the rest over (n − 1)(k − 1); ICC = (MSR − MSE)/
    /// (MSR + (k − 1)MSE + k(MSC − MSE)/n).
    #[test]
    fn every_subjects_by_seeds_design_of_the_set_level_values() {
        let (seeds, kinds) = two_seeds();
        let seeds: Vec<&SetLevelSeed> = seeds.iter().collect();
        let records = set_level_reliability(&seeds, &kinds);
        let designs: Vec<SetDesign> = records.iter().map(|r| r.design).collect();
        // One Caliskan test is no family; the ensemble test is no subject of query pair 0's.
        assert_eq!(
            designs,
            [
                SetDesign::WeatScores(0),
                SetDesign::WeatScores(1),
                SetDesign::WeatScores(2),
                SetDesign::WeatScores(3),
                SetDesign::WeatEffectSizes(WeatFamily::QueryPair(0)),
                SetDesign::DirectBias,
                SetDesign::PcaProjections,
                SetDesign::OsProjections,
                SetDesign::GdTerms,
                SetDesign::QueryTests(Measure::Mac, WeatFamily::QueryPair(0)),
                SetDesign::QueryTests(Measure::Rnsb, WeatFamily::QueryPair(0)),
                SetDesign::RndTerms,
            ]
        );
        let icc = |design: SetDesign| records.iter().find(|r| r.design == design).unwrap().result;
        // Test 0's words (x, then y) × seeds: [[1, 2], [3, 4]]: MSR = 2·(1 + 1) = 4, MSC = 2·(0.25
        // + 0.25) = 1, MSE = 0 → 4/(4 + 2·1/2) = 0.8.
        let words = icc(SetDesign::WeatScores(0));
        close(words.value, 0.8);
        assert_eq!((words.n_subjects, words.n_raters), (2, 2));
        // Test 1's three words score alike on both seeds: 1.
        close(icc(SetDesign::WeatScores(1)).value, 1.0);
        assert_eq!(icc(SetDesign::WeatScores(1)).n_subjects, 3);
        // Tests 1 and 2 × seeds: [[1, 2], [3, 4]] again.
        let family = icc(SetDesign::WeatEffectSizes(WeatFamily::QueryPair(0)));
        close(family.value, 0.8);
        assert_eq!(family.n_subjects, 2);
        // Directions × seeds [[0.1, 0.2], [0.3, 0.4]]: MSR = 0.04, MSC = 0.01, MSE = 0 → 0.8.
        close(icc(SetDesign::DirectBias).value, 0.8);
        close(icc(SetDesign::PcaProjections).value, 1.0);
        // OS's cosines [[0.25, 0.5], [0.5, 0.5]]: grand 0.4375, MSR = MSC = 2·(2·0.0625²) = MSE →
        // (MSR − MSE)/… = 0.
        close(icc(SetDesign::OsProjections).value, 0.0);
        // GD's terms [[1, 2], [3, 5]]: grand 2.75, MSR = 2·(1.25² + 1.25²) = 6.25, MSC = 2·(0.75² +
        // 0.75²) = 2.25, SST = 8.75 → MSE = 0.25; (6.25 − 0.25)/(6.25 + 0.25 + 2·2/2) = 12/17.
        close(icc(SetDesign::GdTerms).value, 12.0 / 17.0);
        // MAC of tests 1 and 2 × seeds [[1, 2], [3, 4]]: 0.8, as above; RNSB's [[0.2, 0.2],
        // [0.3, 0.3]]: no seed effect, no error: 1; RND's terms as GD's: 12/17.
        close(
            icc(SetDesign::QueryTests(Measure::Mac, WeatFamily::QueryPair(0))).value,
            0.8,
        );
        close(
            icc(SetDesign::QueryTests(Measure::Rnsb, WeatFamily::QueryPair(0))).value,
            1.0,
        );
        close(icc(SetDesign::RndTerms).value, 12.0 / 17.0);
    }

    #[test]
    fn agreement_ranks_the_seeds_by_each_set_level_measure() {
        let kinds = [WeatKind::Caliskan, WeatKind::Stereotype, WeatKind::Caliskan];
        let tests = |d: [f64; 3]| d.iter().map(|&d| weat(&[0.0], &[0.0], d, 0.0, 0.5)).collect();
        // Caliskan means 2, 4, 0 (the stereotype test left out); Direct Bias along pca (the last
        // direction) 0.1, 0.3, 0.2; OS 0.1, 0.2, 0.3; GD 3, 2, 1.
        // MAC's Caliskan means 1, 3, 2; RNSB's 0.5 on every seed; RND 1, 2, 3; ECT 0.3, 0.1, 0.2.
        let seeds = [
            with_query(
                seed(tests([1.0, 9.0, 3.0]), &[100.0, 0.1], &[0.0], &[0.1], &[3.0]),
                &[1.0, 7.0, 1.0],
                &[0.5; 3],
                &[1.0],
                0.3,
            ),
            with_query(
                seed(tests([2.0, 0.0, 6.0]), &[0.0, 0.3], &[0.0], &[0.2], &[2.0]),
                &[2.0, 0.0, 4.0],
                &[0.5; 3],
                &[2.0],
                0.1,
            ),
            with_query(
                seed(tests([0.0, 5.0, 0.0]), &[50.0, 0.2], &[0.0], &[0.3], &[1.0]),
                &[1.0, 5.0, 3.0],
                &[0.5; 3],
                &[3.0],
                0.2,
            ),
        ];
        let seeds: Vec<&SetLevelSeed> = seeds.iter().collect();
        let rule = [5.0, 6.0, 4.0];
        let a = set_level_agreement(&seeds, &kinds, &[&rule], &[]);
        assert_eq!(
            a.series,
            [
                AgreementSeries::CaliskanEffectSize,
                AgreementSeries::DirectBiasPca,
                AgreementSeries::Os,
                AgreementSeries::Gd,
                AgreementSeries::CaliskanQuery(Measure::Mac),
                AgreementSeries::CaliskanQuery(Measure::Rnsb),
                AgreementSeries::Rnd,
                AgreementSeries::Ect,
                AgreementSeries::Extra(0),
            ]
        );
        assert_eq!(a.records.len(), 36);
        // Ranks (2, 3, 1), (1, 3, 2), (1, 2, 3), (3, 2, 1), (2, 3, 1); ρ = 1 − 6Σd²/(3·8).
        let rho = |a_: usize, b: usize| {
            let r = a.records.iter().find(|r| (r.a, r.b) == (a_, b)).unwrap();
            r.result.value
        };
        close(rho(0, 1), 0.5);
        close(rho(0, 2), -0.5);
        close(rho(0, 3), 0.5);
        close(rho(0, 8), 1.0);
        close(rho(1, 2), 0.5);
        close(rho(2, 3), -1.0);
        // MAC's means rank (1, 3, 2) as Direct Bias along pca; RND ranks as OS; ECT ranks
        // (3, 1, 2), against WEAT's (2, 3, 1): Σd² = 6, ρ = −0.5.
        close(rho(1, 4), 1.0);
        close(rho(2, 6), 1.0);
        close(rho(0, 7), -0.5);
        // RNSB is the same on every seed: no ranking.
        assert!(rho(5, 6).is_nan());
        // Without a Caliskan test the series start at Direct Bias.
        let none = set_level_agreement(&seeds, &[WeatKind::Stereotype; 3], &[], &[]);
        assert_eq!(none.series[0], AgreementSeries::DirectBiasPca);
        assert_eq!(none.records.len(), 10);
    }

    #[test]
    fn the_spread_of_seeds_by_hand() {
        let s = seed_spread(&[0.01, f64::NAN, 0.2, 0.04, 0.5], true);
        assert_eq!((s.n, s.n_undefined), (4, 1));
        assert!((s.mean - 0.1875).abs() < 1e-15);
        // deviations −0.1775, 0.0125, −0.1475, 0.3125: squares sum to 0.151075, / 3.
        assert!((s.sd - (0.151075f64 / 3.0).sqrt()).abs() < 1e-15);
        // sorted 0.01 0.04 0.2 0.5: 2.5 % at position 0.075, 97.5 % at 2.925.
        assert!((s.low - (0.01 + 0.075 * 0.03)).abs() < 1e-15);
        assert!((s.high - (0.2 + 0.925 * 0.3)).abs() < 1e-15);
        assert_eq!(s.share_significant, Some(0.5));
        let plain = seed_spread(&[3.0], false);
        assert_eq!((plain.mean, plain.low, plain.high), (3.0, 3.0, 3.0));
        assert!(plain.sd.is_nan());
        assert_eq!(plain.share_significant, None);
    }

    #[test]
    fn agreement_is_spearman_across_seeds_and_rules_average_absolute_scores() {
        let series = vec![
            vec![1.0, 2.0, 3.0, 4.0],
            vec![10.0, 30.0, 20.0, 40.0],
            vec![4.0, 3.0, 2.0, 1.0],
        ];
        // Three resamples: every seed once (ρ as above), seeds 0 1 2 2 and seeds 3 3 3 3 (one
        // value: no ρ, left out).
        let resamples = vec![vec![0, 1, 2, 3], vec![0, 1, 2, 2], vec![3; 4]];
        let r = seed_agreement(&series, &resamples);
        assert_eq!(
            r.iter().map(|r| (r.a, r.b)).collect::<Vec<_>>(),
            [(0, 1), (0, 2), (1, 2)]
        );
        // ranks 1 3 2 4 against 1 2 3 4: Σd² = 2, ρ = 1 − 6·2/(4·15) = 0.8.
        assert!((r[0].result.value - 0.8).abs() < 1e-12);
        assert!((r[1].result.value + 1.0).abs() < 1e-12);
        assert!((r[2].result.value + 0.8).abs() < 1e-12);
        // Series 0 and 1 on seeds 0 1 2 2: (1, 2, 3, 3) against (10, 30, 20, 20), average ranks
        // (1, 2, 3.5, 3.5) and (1, 4, 2.5, 2.5), deviations (−1.5, −0.5, 1, 1) and
        // (−1.5, 1.5, 0, 0): ρ = 1.5/√(4.5 · 4.5). The interval interpolates between it and 0.8.
        let second = 1.5 / 4.5;
        let [low, high] = r[0].interval;
        assert!((low - (second + 0.025 * (0.8 - second))).abs() < 1e-12, "{low}");
        assert!((high - (second + 0.975 * (0.8 - second))).abs() < 1e-12, "{high}");
        assert!(seed_agreement(&series, &[])[0].interval[0].is_nan());
        // One rule, 2 pairs, 2 targets, 2 seeds: [pair][target][seed].
        let values = vec![1.0, -2.0, 5.0, 5.0, /* pair 1 */ -3.0, 4.0, 7.0, 7.0];
        let tensor = ScoreTensor::from_values(&[retest_measures::Rule::Dbwa], 2, 2, 2, values).unwrap();
        assert_eq!(mean_absolute_scores(&tensor, &[0]), [vec![2.0, 3.0]]);
        assert_eq!(mean_absolute_scores(&tensor, &[0, 1]), [vec![4.0, 4.5]]);
    }

    #[test]
    fn seeds_icc_is_icc_2_1_with_seeds_as_raters() {
        // Shrout & Fleiss (1979), table 2: 6 subjects × 4 raters, ICC(2,1) = 0.29.
        let m = [
            9.0, 2.0, 5.0, 8.0, 6.0, 1.0, 3.0, 2.0, 8.0, 4.0, 6.0, 8.0, 7.0, 1.0, 2.0, 6.0, 10.0, 5.0, 6.0,
            9.0, 6.0, 2.0, 4.0, 7.0,
        ];
        let r = seeds_icc(&m, 6, 4);
        assert!((r.value - 0.28976).abs() < 1e-4, "{}", r.value);
        assert_eq!((r.n_subjects, r.n_raters), (6, 4));
    }

    /// A 5 × 2 matrix and pingouin's ICC(2,1) of it: entry `reliability[5]` of
    /// `reliability_vectors.json` (pingouin 0.7.0), copied here.
    #[test]
    fn seeds_icc_equals_pingouin_on_the_reference_matrix() {
        let m = [
            0.61137909545,
            0.347846654508,
            -0.070079689787,
            -0.210079922255,
            0.150110667386,
            0.071197154877,
            0.16417458387,
            -0.006190983439,
            0.143935138085,
            0.027810760169,
        ];
        let r = seeds_icc(&m, 5, 2);
        assert!((r.value - 0.7796149004362484).abs() < 1e-12, "{}", r.value);
    }

    #[test]
    fn the_spread_of_no_values_and_agreement_of_one_series() {
        let s = seed_spread(&[f64::NAN], true);
        assert_eq!((s.n, s.n_undefined), (0, 1));
        assert!(s.mean.is_nan() && s.sd.is_nan() && s.low.is_nan() && s.high.is_nan());
        // The share of no p-values is undefined.
        assert!(s.share_significant.is_some_and(f64::is_nan));
        assert!(seed_agreement(&[vec![1.0, 2.0, 3.0]], &[]).is_empty());
        assert!(seed_agreement(&[], &[]).is_empty());
    }
}
