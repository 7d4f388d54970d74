//! The gender-subspace stage of a measure job (a plan's `bias_subspace` section): on every seed,
//! Direct Bias of the neutral words on the first 1 … k principal components of the definitional
//! pairs, the first component recomputed with each pair left out, and Bolukbasi et al.'s
//! indirect bias of every neutral word with each anchor word; across seeds, each one's spread
//! beside the ICC of the per-word or per-pair values it rests on
//! (`retest_analyses::subspace_across`).

use anyhow::{Context, Result, bail};
use retest_analyses::{SpreadIcc, SubspaceSeedValues, subspace_across};
use retest_measures::{
    DirectionSource, Measure, Model, bias_subspace, direct_bias, gender_direction, indirect_bias,
    leave_one_pair_out,
};
use retest_spec::SubspaceParams;
use retest_tables::{
    CoverageRow, IndirectBiasRow, LeaveOneOutRow, SubspaceReliabilityRow, SubspaceSeedRow, Table, names,
};

use crate::lists::SubspaceLists;
use crate::stages::columns::{PCA_DIRECTION as PCA, icc_stats, spread_stats};
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, Setup, when_present};
use crate::stages::vocab::CasedVocab;

/// The gender subspace: a configuration has its tables when its plan has a `bias_subspace`
/// section.
pub(crate) const FAMILY: Family = Family {
    name: "bias_subspace",
    title: "bias subspace",
    tables: &[
        names::BIAS_SUBSPACE.name(),
        names::PCA_LEAVE_ONE_OUT.name(),
        names::INDIRECT_BIAS.name(),
        names::BIAS_SUBSPACE_RELIABILITY.name(),
    ],
    optional: true,
    key: |plan| when_present("bias_subspace", &plan.bias_subspace),
    build: |setup| Ok(Collect::stage(Subspace::new(setup)?)),
};

/// The lists resolved against one configuration's vocabulary.
pub(crate) struct Subspace<'a> {
    params: &'a SubspaceParams,
    pairs: Vec<(u32, u32)>,
    pair_names: Vec<String>,
    neutral: Vec<u32>,
    neutral_words: Vec<String>,
    /// The anchors in vocabulary, with their words.
    anchors: Vec<(u32, String)>,
    coverage: Vec<CoverageRow>,
    notes: Vec<String>,
}

/// One seed's values.
pub(crate) struct SubspaceSeed {
    explained: Vec<f64>,
    /// Per k: Direct Bias, its summed reading, the words' projection norms.
    direct_bias: Vec<f64>,
    summed: Vec<f64>,
    norms: Vec<Vec<f64>>,
    /// Per pair left out: the component's absolute cosine with the full one, the pair's own
    /// cosine with it, Direct Bias along it.
    left_out: Vec<f64>,
    pair_cos: Vec<f64>,
    left_out_bias: Vec<f64>,
    /// Per anchor, per word: cos(w, anchor) and β.
    cosines: Vec<Vec<f64>>,
    betas: Vec<Vec<f64>>,
}

impl<'a> Subspace<'a> {
    /// The stage, when the plan has a `bias_subspace` section.
    ///
    /// # Errors
    ///
    /// As [`Subspace::resolve`].
    fn new(setup: &Setup<'a>) -> Result<Option<Subspace<'a>>> {
        let (Some(params), Some(lists)) = (&setup.plan.bias_subspace, &setup.lists.subspace) else {
            return Ok(None);
        };
        Subspace::resolve(params, lists, setup.corpus_name(), setup.cased()).map(Some)
    }

    /// The lists looked up in the vocabulary of corpus `corpus`.
    ///
    /// # Errors
    ///
    /// The neutral words or the definitional pairs entirely out of the vocabulary; fewer pairs
    /// in it than the components asked, or than 3 (one left out of at least 2).
    fn resolve(
        params: &'a SubspaceParams,
        lists: &SubspaceLists,
        corpus: &str,
        cased: CasedVocab<'_, '_>,
    ) -> Result<Subspace<'a>> {
        let neutral = (cased.words(&lists.neutral))
            .with_context(|| format!("corpus `{corpus}`: bias_subspace.neutral"))?;
        let looked_up = (cased.pairs(&lists.definitional))
            .with_context(|| format!("corpus `{corpus}`: bias_subspace.definitional_pairs"))?;
        let pairs = looked_up.ids;
        let list = &lists.definitional.name;
        let (k, p) = (params.components, pairs.len());
        if p < k {
            bail!(
                "corpus `{corpus}`: bias_subspace.components is {k}, but only {p} pairs of `{list}` are in the \
                 vocabulary, and p pairs span at most p components"
            );
        }
        if p < 3 {
            bail!(
                "corpus `{corpus}`: bias_subspace needs 3 pairs of `{list}` in the vocabulary to leave one out, \
                 {p} are"
            );
        }
        let mut coverage = vec![
            CoverageRow::of(
                corpus,
                &lists.neutral.name,
                "subspace_words",
                lists.neutral.words.len(),
                &neutral.oov,
            ),
            CoverageRow::of(
                corpus,
                list,
                "subspace_pairs",
                lists.definitional.pairs.len(),
                &looked_up.dropped,
            ),
        ];
        let (mut anchors, mut missing) = (Vec::new(), Vec::new());
        for word in &params.anchors {
            match cased.id(word) {
                Some(id) => anchors.push((id, cased.case(word))),
                None => missing.push(cased.case(word)),
            }
        }
        let mut notes = Vec::new();
        if !params.anchors.is_empty() {
            coverage.push(CoverageRow::of(
                corpus,
                "bias_subspace.anchors",
                "indirect_anchors",
                params.anchors.len(),
                &missing,
            ));
            if !missing.is_empty() {
                notes.push(format!(
                    "corpus `{corpus}`: indirect bias left out for the anchors not in the vocabulary: {}",
                    missing.join(", ")
                ));
            }
        }
        let vocab = cased.vocab;
        Ok(Subspace {
            params,
            pair_names: (pairs.iter())
                .map(|&(m, f)| format!("{}:{}", vocab.word(m), vocab.word(f)))
                .collect(),
            pairs,
            neutral_words: neutral.words,
            neutral: neutral.ids,
            anchors,
            coverage,
            notes,
        })
    }

    /// Per pair left out: the cosines and Direct Bias of [`SubspaceSeed`].
    fn leave_one_out(&self, model: &Model<'_>, pca: &[f64]) -> Result<[Vec<f64>; 3]> {
        let cos = |a: &[f64]| a.iter().zip(pca).map(|(x, y)| x * y).sum::<f64>();
        let (mut left_out, mut pair_cos, mut bias) = (Vec::new(), Vec::new(), Vec::new());
        for (g, &(m, f)) in leave_one_pair_out(model, &self.pairs)?.iter().zip(&self.pairs) {
            // An axis, not an orientation: a component's sign is a convention (the mean over the
            // remaining pairs), which one pair can tip.
            left_out.push(cos(&g.vector).abs());
            pair_cos.push(cos(&gender_direction(model, DirectionSource::Pair(m, f))?.vector));
            bias.push(direct_bias(model, g, &self.neutral, self.params.c)?.value);
        }
        Ok([left_out, pair_cos, bias])
    }
}

impl PerSeed for Subspace<'_> {
    type Values = SubspaceSeed;
    const WHAT: &'static str = "bias subspace";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<SubspaceSeed> {
        self.measure_model(seed.model)
    }

    fn tables(&self, seeds: &[SubspaceSeed], across: &Across<'_>) -> Result<Vec<Table>> {
        let (corpus, algorithm) = (across.corpus, across.model);
        let (mut subspace, mut left_out, mut indirect) = (Vec::new(), Vec::new(), Vec::new());
        for (s, values) in seeds.iter().enumerate() {
            let seed = s as u32;
            let mut cumulative = 0.0;
            for (k, (&bias, &summed)) in values.direct_bias.iter().zip(&values.summed).enumerate() {
                cumulative += values.explained[k];
                subspace.push(SubspaceSeedRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed,
                    components: k as u32 + 1,
                    n_pairs: self.pairs.len() as u32,
                    list: self.params.neutral.clone(),
                    n_words: self.neutral.len() as u32,
                    c: self.params.c,
                    explained_variance: values.explained[k],
                    cumulative_variance: cumulative,
                    direct_bias: bias,
                    direct_bias_summed: summed,
                });
            }
            for (i, pair) in self.pair_names.iter().enumerate() {
                left_out.push(LeaveOneOutRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed,
                    pair: pair.clone(),
                    cos_pca: values.left_out[i],
                    pair_cos_pca: values.pair_cos[i],
                    direct_bias: values.left_out_bias[i],
                    direct_bias_change: values.left_out_bias[i] - values.direct_bias[0],
                });
            }
            for (a, (_, anchor)) in self.anchors.iter().enumerate() {
                for (w, word) in self.neutral_words.iter().enumerate() {
                    indirect.push(IndirectBiasRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed,
                        anchor: anchor.clone(),
                        word: word.clone(),
                        cosine: values.cosines[a][w],
                        beta: values.betas[a][w],
                    });
                }
            }
        }
        Ok(vec![
            Table::of(names::BIAS_SUBSPACE, &subspace)?,
            Table::of(names::PCA_LEAVE_ONE_OUT, &left_out)?,
            Table::of(names::INDIRECT_BIAS, &indirect)?,
            Table::of(names::BIAS_SUBSPACE_RELIABILITY, &self.reliability(seeds, across))?,
        ])
    }
}

impl Subspace<'_> {
    /// The values of one seed's model.
    fn measure_model(&self, model: &Model<'_>) -> Result<SubspaceSeed> {
        let sub = bias_subspace(model, &self.pairs, self.params.components)?;
        let (mut direct, mut summed, mut norms) = (Vec::new(), Vec::new(), Vec::new());
        for k in 1..=self.params.components {
            // Components beyond those the pairs span (a hard-debiased model's span one) are
            // undefined.
            match sub.direct_bias(model, k, &self.neutral, self.params.c)? {
                Some(db) => {
                    direct.push(db.value);
                    summed.push(db.summed);
                    norms.push(db.norms);
                }
                None => {
                    direct.push(f64::NAN);
                    summed.push(f64::NAN);
                    norms.push(vec![f64::NAN; self.neutral.len()]);
                }
            }
        }
        let [left_out, pair_cos, left_out_bias] = self.leave_one_out(model, &sub.axes[0])?;
        let (mut cosines, mut betas) = (Vec::new(), Vec::new());
        for &(anchor, _) in &self.anchors {
            let values = (self.neutral.iter())
                .map(|&w| indirect_bias(model, &sub.axes[..1], w, anchor))
                .collect::<Result<Vec<_>, _>>()?;
            cosines.push(values.iter().map(|b| b.cosine).collect());
            betas.push(values.iter().map(|b| b.beta).collect());
        }
        Ok(SubspaceSeed {
            explained: sub.explained_variance_ratio,
            direct_bias: direct,
            summed,
            norms,
            left_out,
            pair_cos,
            left_out_bias,
            cosines,
            betas,
        })
    }

    /// The rows of the subspace reliability table.
    fn reliability(&self, seeds: &[SubspaceSeed], across: &Across<'_>) -> Vec<SubspaceReliabilityRow> {
        let values: Vec<SubspaceSeedValues<'_>> = (seeds.iter())
            .map(|s| SubspaceSeedValues {
                direct_bias: &s.direct_bias,
                norms: &s.norms,
                left_out: &s.left_out,
                indirect: &s.betas,
            })
            .collect();
        let a = subspace_across(&values);
        let row = |statistic: &str, scope: String, subjects: &str, v: &SpreadIcc| SubspaceReliabilityRow {
            corpus: across.corpus.to_owned(),
            algorithm: across.model.to_owned(),
            statistic: statistic.to_owned(),
            scope,
            spread: spread_stats(&v.spread),
            subjects: subjects.to_owned(),
            stats: icc_stats(&v.icc),
        };
        let mut rows: Vec<SubspaceReliabilityRow> = (a.direct_bias.iter().enumerate())
            .map(|(k, v)| row(Measure::DirectBias.name(), (k + 1).to_string(), "words", v))
            .collect();
        rows.push(row(
            names::PCA_LEAVE_ONE_OUT.name(),
            PCA.to_owned(),
            "pairs",
            &a.left_out,
        ));
        for ((_, anchor), v) in self.anchors.iter().zip(&a.indirect) {
            rows.push(row(Measure::IndirectBias.name(), anchor.clone(), "words", v));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use retest_measures::{PairList, Vocab, WordList};

    use super::*;

    const WORDS: [&str; 9] = [
        "he", "she", "him", "her", "man", "woman", "nurse", "engineer", "football",
    ];

    /// Three pairs along (1, −1, 0), man and woman tilted up; nurse (0, 0.6, 0.8), engineer
    /// (0.6, 0, 0.8), football (0, 0, 1).
    #[rustfmt::skip]
    const RAW: [f32; 27] = [
        1.0, 0.0, 0.0,   0.0, 1.0, 0.0,
        2.0, 0.0, 0.0,   0.0, 2.0, 0.0,
        1.0, 0.0, 1.0,   0.0, 1.0, 1.0,
        0.0, 3.0, 4.0,   3.0, 0.0, 4.0,
        0.0, 0.0, 5.0,
    ];

    fn params(components: usize) -> SubspaceParams {
        SubspaceParams {
            components,
            definitional_pairs: "definitional".into(),
            neutral: "neutral".into(),
            c: 1.0,
            anchors: vec!["football".into(), "softball".into()],
        }
    }

    fn lists(pairs: &[(&str, &str)]) -> SubspaceLists {
        SubspaceLists {
            neutral: WordList {
                name: "neutral".into(),
                words: ["nurse", "engineer", "ghost"].map(String::from).to_vec(),
            },
            definitional: PairList {
                name: "definitional".into(),
                pairs: (pairs.iter())
                    .map(|(m, f)| ((*m).to_owned(), (*f).to_owned()))
                    .collect(),
            },
        }
    }

    const PAIRS: [(&str, &str); 4] = [("he", "she"), ("him", "her"), ("man", "woman"), ("boy", "girl")];

    fn resolve<'a>(params: &'a SubspaceParams, pairs: &[(&str, &str)]) -> Result<Subspace<'a>> {
        let words: Vec<String> = WORDS.map(String::from).to_vec();
        let vocab = Vocab::new(&words).unwrap();
        let cased = CasedVocab {
            vocab: &vocab,
            lowercase: false,
        };
        Subspace::resolve(params, &lists(pairs), "c", cased)
    }

    #[test]
    fn the_lists_are_looked_up_with_their_coverage() {
        let params = params(1);
        let stage = resolve(&params, &PAIRS).unwrap();
        assert_eq!(stage.pair_names, ["he:she", "him:her", "man:woman"]);
        assert_eq!(
            (stage.neutral.as_slice(), stage.neutral_words.len()),
            (&[6, 7][..], 2)
        );
        assert_eq!(stage.anchors, [(8, "football".to_owned())]);
        let dropped: Vec<(&str, &str)> = (stage.coverage.iter())
            .map(|r| (r.kind.as_str(), r.dropped.as_str()))
            .collect();
        assert_eq!(
            dropped,
            [
                ("subspace_words", "ghost"),
                ("subspace_pairs", "boy:girl"),
                ("indirect_anchors", "softball")
            ]
        );
        assert_eq!(
            stage.notes,
            ["corpus `c`: indirect bias left out for the anchors not in the vocabulary: softball"]
        );
    }

    #[test]
    fn too_few_pairs_for_the_components_or_to_leave_one_out() {
        let error = |components: usize, pairs: &[(&str, &str)]| {
            let params = params(components);
            format!("{:#}", resolve(&params, pairs).err().unwrap())
        };
        assert_eq!(
            error(4, &PAIRS),
            "corpus `c`: bias_subspace.components is 4, but only 3 pairs of `definitional` are in the \
             vocabulary, and p pairs span at most p components"
        );
        assert_eq!(
            error(2, &PAIRS[..2]),
            "corpus `c`: bias_subspace needs 3 pairs of `definitional` in the vocabulary to leave one out, 2 are"
        );
    }

    #[test]
    fn a_seed_beyond_the_span_of_its_pairs() {
        // The pairs differ along (1, −1, 0) alone: one component, the others undefined.
        let params = params(2);
        let stage = resolve(&params, &PAIRS).unwrap();
        let words: Vec<String> = WORDS.map(String::from).to_vec();
        let model = Model::new(&words, &RAW, 3).unwrap();
        let seed = stage.measure_model(&model).unwrap();
        let s = 0.5f64.sqrt();
        assert!(
            (seed.direct_bias[0] - 0.6 * s).abs() < 1e-12,
            "{:?}",
            seed.direct_bias
        );
        assert!(seed.direct_bias[1].is_nan() && seed.norms[1].iter().all(|x| x.is_nan()));
        // Every pair left out leaves the same direction.
        assert!(seed.left_out.iter().all(|c| (c - 1.0).abs() < 1e-12));
        assert!(seed.left_out_bias.iter().all(|b| (b - 0.6 * s).abs() < 1e-12));
        // football (0, 0, 1) is orthogonal to the direction, the words are not: their rejections
        // (0.3, 0.3, 0.8) have cosine 0.8/√0.82 with football, their cosine 0.8: β = 1 − 1/√0.82.
        let beta = 1.0 - 1.0 / 0.82f64.sqrt();
        assert!(
            seed.betas[0].iter().all(|b| (b - beta).abs() < 1e-12),
            "{:?}",
            seed.betas
        );
        assert_eq!(seed.cosines[0].len(), 2);
    }
}
