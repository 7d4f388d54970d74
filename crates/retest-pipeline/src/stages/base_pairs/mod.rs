//! The base-pair analyses of Zhang, Sneyd & Stevenson (2020) on every seed (a plan's
//! `base_pairs` section), and what no single model can show: how far the seeds agree, and how
//! the variation of the scores splits into word, pair and seed.
//!
//! Per seed, every rule scores the limited vocabulary (Table 1), the professions with their
//! plural, Capitalised and UPPER forms (Tables 2–4, 6), the truth lists (Table 5) and Figure 1's
//! word under each base pair, its capitalised form and the flip pairs; NBM takes its neighbours
//! from the gender-neutral pool. A score's label is its sign, 0 counting as masculine
//! ([`retest_analyses::masculine`]).

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use retest_analyses::{
    VarianceComponents, label_flips, masculine, mean_sd, pairs_agreement, seeds_agreement, sign_kappa,
    truth_kappa, variance_components,
};
use retest_measures::{Model, NeighbourPool, RipaTarget, Rule, ScoreOptions, Vocab};
use retest_reliability::{KappaResult, pearson};
use retest_rng::SeedPath;
use retest_spec::{BasePairParams, Plan};
use retest_tables::{
    BasePairAgreementRow, BasePairBaselineRow, BasePairCorrelationRow, BasePairDirectionRow,
    BasePairExampleRow, BasePairFlipRow, BasePairKappaRow, BasePairScoreRow, BasePairSeedsRow,
    BasePairSummaryRow, BasePairVarianceRow, CoverageRow, Table, names,
};

use crate::lists::BasePairLists;
use crate::stages::stage::{Across, Collect, Family, PerSeed, Seed, lowercases, when_present};

/// Zhang et al.'s base-pair analyses: a configuration has their tables when its plan has a
/// `base_pairs` section.
pub(crate) const FAMILY: Family = Family {
    name: "base_pairs",
    title: "base pairs",
    tables: &[
        names::BASE_PAIR_SUMMARY.name(),
        names::BASE_PAIR_AGREEMENT.name(),
        names::BASE_PAIR_KAPPA.name(),
        names::BASE_PAIR_DIRECTIONS.name(),
        names::BASE_PAIR_CORRELATIONS.name(),
        names::BASE_PAIR_BASELINES.name(),
        names::BASE_PAIR_FLIPS.name(),
        names::BASE_PAIR_EXAMPLES.name(),
        names::BASE_PAIR_SCORES.name(),
        names::BASE_PAIR_SEEDS.name(),
        names::BASE_PAIR_VARIANCE.name(),
    ],
    optional: true,
    key: |plan| when_present("base_pairs", &plan.base_pairs),
    build: |setup| {
        let lists = setup.lists.base_pairs_analyses.as_ref();
        let built = BasePairs::new(setup.plan, lists, setup.corpus_name(), setup.model, setup.vocab)?;
        Ok(Collect::stage(built))
    },
};

/// The forms of a word Table 4 compares it with.
const FORMS: [&str; 3] = ["plural", "capital", "upper"];

/// Why a comparison has no value.
const NOT_APPLICABLE: &str = "not_applicable";
const OUT_OF_VOCABULARY: &str = "out_of_vocabulary";

/// Python's `str.capitalize`: the first character upper-cased, the rest lower-cased.
fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// A word's forms: its plural (`+s` when in the vocabulary, else `+es`), `Capitalised` and
/// `UPPER` forms, each its id when in the vocabulary; the cased forms `None` on a corpus that
/// lowercases.
fn forms(word: &str, id: &impl Fn(&str) -> Option<u32>, cased: bool) -> [Option<u32>; 3] {
    let plural = id(&format!("{word}s")).or_else(|| id(&format!("{word}es")));
    let cased_form = |w: String| if cased { id(&w) } else { None };
    [
        plural,
        cased_form(capitalize(word)),
        cased_form(word.to_uppercase()),
    ]
}

/// The base-pair analyses of one configuration, resolved against its corpus's vocabulary.
pub(crate) struct BasePairs<'p> {
    params: &'p BasePairParams,
    corpus: String,
    algorithm: String,
    rules: Vec<Rule>,
    ripa_target: RipaTarget,
    /// `masculine/feminine` of the pairs in vocabulary, in the list's order.
    pair_names: Vec<String>,
    /// Every pair scored: the listed pairs in vocabulary first, then the capitalised pairs in
    /// vocabulary, then the flip pairs not among them.
    scored_pairs: Vec<(u32, u32)>,
    /// Per listed pair: the position of its capitalised form in `scored_pairs`, or why none.
    capitalised: Vec<Result<(String, usize), &'static str>>,
    /// The flip pairs' names and positions in `scored_pairs`, or why not.
    flip: (String, String, Option<(usize, usize)>),
    /// Every word scored; the lists below are positions in it.
    targets: Vec<u32>,
    limited: Vec<usize>,
    professions: Vec<usize>,
    /// The professions in vocabulary, as listed.
    profession_words: Vec<String>,
    /// Table 4's words (every form in vocabulary; on a lowercased corpus, those with a plural)
    /// and each form's positions (`None`: not applicable).
    form_words: Vec<usize>,
    form_positions: [Option<Vec<usize>>; 3],
    /// Per truth list: its name, positions and true genders (masculine = true).
    truth: Vec<(String, Vec<usize>, Vec<bool>)>,
    /// Figure 1's word and its forms in vocabulary: (form, word, position).
    example: Vec<(&'static str, String, usize)>,
    /// NBM's neutral neighbour pool.
    pool: Vec<u32>,
    /// The words random baselines are drawn from: the vocabulary less placeholders.
    random_words: Vec<u32>,
    root: SeedPath,
    pub coverage: Vec<CoverageRow>,
    /// Lists or comparisons left out, one line each.
    pub notes: Vec<String>,
}

/// What the analyses give on one seed: its table rows, and the professions' scores
/// (rule × listed pair × profession) for the analyses across seeds.
pub(crate) struct BasePairSeed {
    seed: u32,
    summary: Vec<BasePairSummaryRow>,
    agreement: Vec<BasePairAgreementRow>,
    kappas: Vec<BasePairKappaRow>,
    directions: Vec<BasePairDirectionRow>,
    correlations: Vec<BasePairCorrelationRow>,
    baselines: Vec<BasePairBaselineRow>,
    flips: Vec<BasePairFlipRow>,
    examples: Vec<BasePairExampleRow>,
    professions: Vec<f32>,
}

/// What the analyses are run with besides their lists: from a plan's sections, or from the
/// options of `retest base-pairs`.
pub(crate) struct BasePairSetup<'p> {
    pub params: &'p BasePairParams,
    pub rules: Vec<Rule>,
    pub ripa_target: RipaTarget,
    /// Look every word up lowercased (the corpus's reader lowercases).
    pub lowercase: bool,
    /// The random baselines of seed `s` draw from `root.with_index(s)`.
    pub root: SeedPath,
}

impl<'p> BasePairs<'p> {
    /// The plan's base-pair analyses of one configuration, when the plan has them.
    ///
    /// # Errors
    ///
    /// As [`BasePairs::resolve`].
    pub(crate) fn new(
        plan: &'p Plan,
        lists: Option<&BasePairLists>,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
    ) -> Result<Option<BasePairs<'p>>> {
        let (Some(params), Some(lists)) = (plan.base_pairs.as_ref(), lists) else {
            return Ok(None);
        };
        let setup = BasePairSetup {
            params,
            rules: plan.measures.rules.clone(),
            ripa_target: plan.measures.ripa_target,
            lowercase: lowercases(plan, corpus),
            root: SeedPath::new(plan.seed)
                .with("base-pairs")
                .with(corpus)
                .with(algorithm),
        };
        BasePairs::resolve(setup, lists, corpus, algorithm, vocab).map(Some)
    }

    /// Resolves the base-pair lists against `vocab` (looked up lowercased when
    /// `setup.lowercase`).
    ///
    /// # Errors
    ///
    /// Fewer than two listed pairs, or no profession, in vocabulary; a neutral pool no larger
    /// than NBM's k.
    pub(crate) fn resolve(
        setup: BasePairSetup<'p>,
        lists: &BasePairLists,
        corpus: &str,
        algorithm: &str,
        vocab: &Vocab<'_>,
    ) -> Result<BasePairs<'p>> {
        let params = setup.params;
        let lowercase = setup.lowercase;
        let cased = !lowercase;
        let id = |w: &str| -> Option<u32> {
            if lowercase {
                vocab.id(&w.to_lowercase())
            } else {
                vocab.id(w)
            }
        };
        let mut notes = Vec::new();
        let mut coverage = Vec::new();

        let mut pair_names = Vec::new();
        let mut scored_pairs = Vec::new();
        let mut dropped = Vec::new();
        for (m, f) in &lists.pairs.pairs {
            match (id(m), id(f)) {
                (Some(a), Some(b)) => {
                    pair_names.push(format!("{m}/{f}"));
                    scored_pairs.push((a, b));
                }
                _ => dropped.push(format!("{m}/{f}")),
            }
        }
        coverage.push(CoverageRow::of(
            corpus,
            &params.pairs,
            "base_pairs",
            lists.pairs.pairs.len(),
            &dropped,
        ));
        if scored_pairs.len() < 2 {
            bail!(
                "corpus `{corpus}`: {} of the {} pairs of `{}` (base_pairs.pairs) are in the vocabulary; comparing \
                 pairs needs at least 2",
                scored_pairs.len(),
                lists.pairs.pairs.len(),
                params.pairs
            );
        }
        let capitalised = (lists.pairs.pairs.iter())
            .filter(|(m, f)| id(m).is_some() && id(f).is_some())
            .map(|(m, f)| {
                if !cased {
                    return Err(NOT_APPLICABLE);
                }
                let (cm, cf) = (capitalize(m), capitalize(f));
                match (id(&cm), id(&cf)) {
                    (Some(a), Some(b)) => {
                        scored_pairs.push((a, b));
                        Ok((format!("{cm}/{cf}"), scored_pairs.len() - 1))
                    }
                    _ => Err(OUT_OF_VOCABULARY),
                }
            })
            .collect();
        if !cased {
            notes.push(format!(
                "corpus `{corpus}` is lowercased: capitalised pairs and the Capitalised and UPPER forms are not \
                 applicable"
            ));
        }
        let [[m1, f1], [m2, f2]] = &params.flip;
        let mut position = |m: &str, f: &str| -> Option<usize> {
            let pair = (id(m)?, id(f)?);
            Some(match scored_pairs.iter().position(|&p| p == pair) {
                Some(at) => at,
                None => {
                    scored_pairs.push(pair);
                    scored_pairs.len() - 1
                }
            })
        };
        let flip_positions = position(m1, f1).zip(position(m2, f2));
        if flip_positions.is_none() {
            notes.push(format!(
                "corpus `{corpus}`: no label flips: a word of {m1}/{f1} or {m2}/{f2} (base_pairs.flip) is out of \
                 vocabulary"
            ));
        }

        // Every scored word once, in the order first needed.
        let mut targets: Vec<u32> = Vec::new();
        let mut at: BTreeMap<u32, usize> = BTreeMap::new();
        let mut place = |word: u32| -> usize {
            *at.entry(word).or_insert_with(|| {
                targets.push(word);
                targets.len() - 1
            })
        };
        let words = vocab.words();
        let most_frequent = params.most_frequent.min(words.len());
        let limited: Vec<usize> = (words[..most_frequent].iter().enumerate())
            .filter(|(_, w)| w.len() < 20 && !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic()))
            .map(|(i, _)| place(i as u32))
            .collect();

        let mut professions = Vec::new();
        let mut profession_words = Vec::new();
        let mut dropped = Vec::new();
        for word in &lists.professions {
            match id(word) {
                Some(w) if !professions.contains(&place(w)) => {
                    professions.push(place(w));
                    profession_words.push(word.clone());
                }
                Some(_) => {}
                None => dropped.push(word.clone()),
            }
        }
        coverage.push(CoverageRow::of(
            corpus,
            &params.professions,
            "target_words",
            lists.professions.len(),
            &dropped,
        ));
        if professions.is_empty() {
            bail!(
                "corpus `{corpus}`: none of the {} words of `{}` (base_pairs.professions) is in the vocabulary",
                lists.professions.len(),
                params.professions
            );
        }
        let mut form_words = Vec::new();
        // The cased forms are not applicable on a lowercased corpus.
        let mut form_positions = [Some(Vec::new()), cased.then(Vec::new), cased.then(Vec::new)];
        for (word, &position) in profession_words.iter().zip(&professions) {
            let found = forms(word, &id, cased);
            let complete =
                (found.iter().zip(&form_positions)).all(|(form, slot)| form.is_some() || slot.is_none());
            if complete {
                form_words.push(position);
                for (slot, form) in form_positions.iter_mut().zip(found) {
                    if let (Some(slot), Some(form)) = (slot, form) {
                        slot.push(place(form));
                    }
                }
            }
        }
        if form_words.is_empty() {
            notes.push(format!(
                "corpus `{corpus}`: no word of `{}` has {} in the vocabulary: no word-form agreement",
                params.professions,
                if cased {
                    "its plural, Capitalised and UPPER forms"
                } else {
                    "a plural"
                }
            ));
        }

        let mut truth = Vec::new();
        for list in &lists.truth {
            let mut positions = Vec::new();
            let mut genders = Vec::new();
            let mut dropped = Vec::new();
            for (word, masculine) in &list.words {
                match id(word) {
                    Some(w) => {
                        positions.push(place(w));
                        genders.push(*masculine);
                    }
                    None => dropped.push(word.clone()),
                }
            }
            coverage.push(CoverageRow::of(
                corpus,
                &list.name,
                "truth_words",
                list.words.len(),
                &dropped,
            ));
            if positions.is_empty() {
                notes.push(format!(
                    "corpus `{corpus}`: no word of truth list `{}` is in the vocabulary",
                    list.name
                ));
            }
            truth.push((list.name.clone(), positions, genders));
        }

        let example_word = &params.example;
        let mut example = Vec::new();
        if let Some(base) = id(example_word) {
            example.push(("base", vocab.word(base).to_owned(), place(base)));
            for (form, found) in FORMS.iter().zip(forms(example_word, &id, cased)) {
                if let Some(w) = found {
                    example.push((form, vocab.word(w).to_owned(), place(w)));
                }
            }
        } else {
            notes.push(format!(
                "corpus `{corpus}`: `{example_word}` (base_pairs.example) is out of vocabulary"
            ));
        }

        let excluded = (lists.pool_exclude.iter())
            .chain(lists.pairs.pairs.iter().flat_map(|(m, f)| [m, f]))
            .map(String::as_str);
        let pool = retest_measures::neutral_pool(words, excluded, params.most_frequent);
        // The pool's coverage: the candidate words (lowercase letters, shorter than 20, among
        // the most frequent) and the gendered ones left out.
        let candidates = retest_measures::neutral_pool(words, [], params.most_frequent);
        let left_out: Vec<String> = (candidates.iter())
            .filter(|c| pool.binary_search(c).is_err())
            .map(|&c| words[c as usize].clone())
            .collect();
        coverage.push(CoverageRow::of(
            corpus,
            "neutral-pool",
            "nbm_pool",
            candidates.len(),
            &left_out,
        ));
        if pool.len() <= params.nbm_k as usize {
            bail!(
                "corpus `{corpus}`: NBM's neutral pool has {} words, base_pairs.nbm_k is {}: the pool must be larger \
                 than k",
                pool.len(),
                params.nbm_k
            );
        }
        let placeholders = retest_measures::placeholder_ids(words);
        let random_words: Vec<u32> = (0..words.len() as u32)
            .filter(|w| !placeholders.contains(w))
            .collect();
        Ok(BasePairs {
            params,
            corpus: corpus.to_owned(),
            algorithm: algorithm.to_owned(),
            rules: setup.rules,
            ripa_target: setup.ripa_target,
            pair_names,
            scored_pairs,
            capitalised,
            flip: (format!("{m1}/{f1}"), format!("{m2}/{f2}"), flip_positions),
            targets,
            limited,
            professions,
            profession_words,
            form_words,
            form_positions,
            truth,
            example,
            pool,
            random_words,
            root: setup.root,
            coverage,
            notes,
        })
    }

    /// The number of listed pairs in vocabulary.
    fn n_pairs(&self) -> usize {
        self.pair_names.len()
    }

    /// The analyses on one seed's model.
    ///
    /// # Errors
    ///
    /// A degenerate pair (a zero vector, or two words with one vector).
    pub(crate) fn measure_seed(&self, model: &Model<'_>, seed: u32, threads: usize) -> Result<BasePairSeed> {
        let options = ScoreOptions {
            ripa_target: self.ripa_target,
            nbm_k: self.params.nbm_k as usize,
            nbm_pool: NeighbourPool::Neutral(&self.pool),
            threads,
        };
        let scores = retest_measures::score(model, &self.scored_pairs, &self.targets, &self.rules, &options)?;
        let pick = |rule: Rule, pair: usize, positions: &[usize]| -> Vec<f32> {
            let all = scores.scores(rule, pair).expect("every rule and pair is scored");
            positions.iter().map(|&i| all[i]).collect()
        };
        let (corpus, algorithm) = (self.corpus.as_str(), self.algorithm.as_str());
        let n_pairs = self.n_pairs();
        // A κ row, or with `Err(why)` a row without a value.
        let kappa_row = |[analysis, list, rule, rule_b, pair, pair_b]: [&str; 6],
                         k: Result<KappaResult, &str>| {
            let (n_words, kappa, status) = match k {
                Ok(k) => (k.n_subjects as u32, k.value, k.status.as_str()),
                Err(why) => (0, f64::NAN, why),
            };
            BasePairKappaRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                seed,
                analysis: analysis.to_owned(),
                list: list.to_owned(),
                rule: rule.to_owned(),
                rule_b: rule_b.to_owned(),
                pair: pair.to_owned(),
                pair_b: pair_b.to_owned(),
                n_words,
                kappa,
                status: status.to_owned(),
            }
        };
        let professions_list = self.params.professions.as_str();

        let mut summary = Vec::new();
        let mut agreement = Vec::new();
        let mut kappas = Vec::new();
        let mut professions = Vec::new();
        for &rule in &self.rules {
            let r = rule.as_str();
            let limited: Vec<f32> = (0..n_pairs).flat_map(|p| pick(rule, p, &self.limited)).collect();
            let spread = mean_sd(&limited);
            summary.push(BasePairSummaryRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                seed,
                rule: r.to_owned(),
                n_words: self.limited.len() as u32,
                n_scores: spread.n as u32,
                mean: spread.mean,
                sd: spread.sd,
            });
            let listed: Vec<f32> = (0..n_pairs)
                .flat_map(|p| pick(rule, p, &self.professions))
                .collect();
            let a = pairs_agreement(&listed, n_pairs, self.professions.len(), spread.sd);
            agreement.push(BasePairAgreementRow {
                corpus: corpus.to_owned(),
                algorithm: algorithm.to_owned(),
                seed,
                rule: r.to_owned(),
                n_words: a.n_words as u32,
                n_pairs: a.n_pairs as u32,
                kappa: a.kappa.value,
                magnitude_changed: a.magnitude_changed,
                magnitude_within: a.magnitude_within,
                same_label: a.same_label,
                status: a.kappa.status.as_str().to_owned(),
            });
            for (p, name) in self.pair_names.iter().enumerate() {
                let base = pick(rule, p, &self.professions);
                kappas.push(match &self.capitalised[p] {
                    Ok((capital, q)) => kappa_row(
                        ["capitalised", professions_list, r, "", name, capital],
                        Ok(sign_kappa(&base, &pick(rule, *q, &self.professions))),
                    ),
                    Err(why) => kappa_row(["capitalised", professions_list, r, "", name, ""], Err(why)),
                });
                let words = pick(rule, p, &self.form_words);
                for (form, positions) in FORMS.iter().zip(&self.form_positions) {
                    let k = match positions {
                        Some(positions) => Ok(sign_kappa(&words, &pick(rule, p, positions))),
                        None => Err(NOT_APPLICABLE),
                    };
                    kappas.push(kappa_row([form, professions_list, r, "", name, ""], k));
                }
                for (list, positions, genders) in &self.truth {
                    let k = truth_kappa(&pick(rule, p, positions), genders);
                    kappas.push(kappa_row(["truth", list, r, "", name, ""], Ok(k)));
                }
            }
            professions.extend(listed);
        }
        // Table 6: every two rules, per pair.
        for (i, &a) in self.rules.iter().enumerate() {
            for &b in &self.rules[i + 1..] {
                for (p, name) in self.pair_names.iter().enumerate() {
                    let k = sign_kappa(&pick(a, p, &self.professions), &pick(b, p, &self.professions));
                    kappas.push(kappa_row(
                        ["rules", professions_list, a.as_str(), b.as_str(), name, ""],
                        Ok(k),
                    ));
                }
            }
        }

        // Figure 2: the difference vectors' cosines against the κ of DB/WA labels, pair by pair.
        // f̂ − m̂, normalised in f64 from the raw vectors.
        let unit = |w: u32| {
            let norm = model.norm(w);
            model.raw_row(w).iter().map(move |&x| f64::from(x) / norm)
        };
        let differences: Vec<Vec<f64>> = (self.scored_pairs[..n_pairs].iter())
            .map(|&(m, f)| unit(f).zip(unit(m)).map(|(x, y)| x - y).collect())
            .collect();
        let cosine = |x: &[f64], y: &[f64]| {
            let dot: f64 = x.iter().zip(y).map(|(a, b)| a * b).sum();
            let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
            dot / (norm(x) * norm(y))
        };
        let mut directions = Vec::new();
        let mut correlations = Vec::new();
        let mut pair_cosines = Vec::new();
        let dbwa = self.rules.contains(&Rule::Dbwa);
        for p in 0..n_pairs {
            let (mut cosines, mut agreements) = (Vec::new(), Vec::new());
            for q in 0..n_pairs {
                let c = cosine(&differences[p], &differences[q]);
                directions.push(BasePairDirectionRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed,
                    pair: self.pair_names[p].clone(),
                    pair_b: self.pair_names[q].clone(),
                    cosine: c,
                });
                if q > p {
                    pair_cosines.push(c);
                }
                if dbwa {
                    let k = if p == q {
                        1.0
                    } else {
                        let k = sign_kappa(
                            &pick(Rule::Dbwa, p, &self.professions),
                            &pick(Rule::Dbwa, q, &self.professions),
                        );
                        if q > p {
                            let names = [self.pair_names[p].as_str(), self.pair_names[q].as_str()];
                            kappas.push(kappa_row(
                                ["pairs", professions_list, "dbwa", "", names[0], names[1]],
                                Ok(k),
                            ));
                        }
                        k.value
                    };
                    cosines.push(c);
                    agreements.push(k);
                }
            }
            if dbwa {
                let others: Vec<usize> = (0..n_pairs).filter(|&q| q != p).collect();
                let text = pearson(
                    &others.iter().map(|&q| cosines[q]).collect::<Vec<_>>(),
                    &others.iter().map(|&q| agreements[q]).collect::<Vec<_>>(),
                );
                let code = pearson(&cosines, &agreements);
                for (reading, r) in [("text", text), ("code", code)] {
                    correlations.push(BasePairCorrelationRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed,
                        pair: self.pair_names[p].clone(),
                        reading: reading.to_owned(),
                        n: r.n as u32,
                        r: r.value,
                        p_value: r.p_value,
                    });
                }
            }
        }

        let seed_path = self.root.clone().with_index(u64::from(seed));
        let (words, differences) = retest_measures::random_cosines(
            model,
            &self.random_words,
            self.params.random_samples,
            &seed_path,
        );
        let pairs = retest_measures::CosineSample::of(&pair_cosines);
        let baselines = [
            ("word_pairs", words.n, words.mean, words.sd),
            (
                "difference_vectors",
                differences.n,
                differences.mean,
                differences.sd,
            ),
            ("base_pairs", pairs.n, pairs.mean, pairs.sd),
        ]
        .into_iter()
        .map(|(baseline, n, mean, sd)| BasePairBaselineRow {
            corpus: corpus.to_owned(),
            algorithm: algorithm.to_owned(),
            seed,
            baseline: baseline.to_owned(),
            n: n as u32,
            mean,
            sd,
        })
        .collect();

        let (name, name_b, flip) = &self.flip;
        let flips = (self.rules.contains(&Rule::Ripa))
            .then(|| {
                let (n_words, flipped, share, status) = match flip {
                    Some((p, q)) => {
                        let (flipped, share) = label_flips(
                            &pick(Rule::Ripa, *p, &self.professions),
                            &pick(Rule::Ripa, *q, &self.professions),
                        );
                        (self.professions.len(), flipped, share, "ok")
                    }
                    None => (0, 0, f64::NAN, OUT_OF_VOCABULARY),
                };
                BasePairFlipRow {
                    corpus: corpus.to_owned(),
                    algorithm: algorithm.to_owned(),
                    seed,
                    rule: Rule::Ripa.as_str().to_owned(),
                    pair: name.clone(),
                    pair_b: name_b.clone(),
                    n_words: n_words as u32,
                    flipped: flipped as u32,
                    share,
                    status: status.to_owned(),
                }
            })
            .into_iter()
            .collect();

        let mut examples = Vec::new();
        for &rule in &self.rules {
            for (p, pair) in self.pair_names.iter().enumerate() {
                let all = scores.scores(rule, p).expect("every rule and pair is scored");
                for (form, word, position) in &self.example {
                    examples.push(BasePairExampleRow {
                        corpus: corpus.to_owned(),
                        algorithm: algorithm.to_owned(),
                        seed,
                        rule: rule.as_str().to_owned(),
                        pair: pair.clone(),
                        form: (*form).to_owned(),
                        word: word.clone(),
                        score: f64::from(all[*position]),
                    });
                }
            }
        }
        Ok(BasePairSeed {
            seed,
            summary,
            agreement,
            kappas,
            directions,
            correlations,
            baselines,
            flips,
            examples,
            professions,
        })
    }

    /// Every table of the stage from the seeds' results: the per-seed rows, the seeds'
    /// agreement per rule and pair, and the variance components per rule and scale.
    ///
    /// # Errors
    ///
    /// A table that cannot be built.
    pub(crate) fn tables(&self, seeds: &[BasePairSeed]) -> Result<Vec<Table>> {
        self.tables_for(seeds, true)
    }

    /// The per-seed tables of `seeds`, and with `across_seeds` the seeds' agreement and the
    /// variance components (the seeds must then share this vocabulary).
    ///
    /// # Errors
    ///
    /// A table that cannot be built.
    pub(crate) fn tables_for(&self, seeds: &[BasePairSeed], across_seeds: bool) -> Result<Vec<Table>> {
        let n_seeds = seeds.len();
        let n_pairs = self.n_pairs();
        let n_words = self.professions.len();
        let at =
            |s: usize, r: usize, p: usize, w: usize| seeds[s].professions[(r * n_pairs + p) * n_words + w];
        let mut agreement = Vec::new();
        let mut variance = Vec::new();
        for (r, rule) in self.rules.iter().enumerate().filter(|_| across_seeds) {
            for (p, pair) in self.pair_names.iter().enumerate() {
                let scores: Vec<f32> = (0..n_words)
                    .flat_map(|w| (0..n_seeds).map(move |s| at(s, r, p, w)))
                    .collect();
                let k = seeds_agreement(&scores, n_words, n_seeds);
                agreement.push(BasePairSeedsRow {
                    corpus: self.corpus.clone(),
                    algorithm: self.algorithm.clone(),
                    rule: rule.as_str().to_owned(),
                    pair: pair.clone(),
                    n_words: n_words as u32,
                    n_seeds: n_seeds as u32,
                    kappa: k.value,
                    status: k.status.as_str().to_owned(),
                });
            }
            let cells = |value: &dyn Fn(f32) -> f64| -> Vec<f64> {
                (0..n_words)
                    .flat_map(|w| (0..n_pairs).flat_map(move |p| (0..n_seeds).map(move |s| (w, p, s))))
                    .map(|(w, p, s)| value(at(s, r, p, w)))
                    .collect()
            };
            let scales: [(&str, Vec<f64>); 2] = [
                ("score", cells(&|v| f64::from(v))),
                ("label", cells(&|v| masculine(v) as f64)),
            ];
            for (scale, values) in scales {
                let components = variance_components(&values, n_words, n_pairs, n_seeds);
                variance.extend(self.variance_rows(rule.as_str(), scale, &components));
            }
        }
        let mut scores = Vec::new();
        for (s, seed) in seeds.iter().enumerate() {
            for (r, rule) in self.rules.iter().enumerate() {
                for (p, pair) in self.pair_names.iter().enumerate() {
                    for (w, word) in self.profession_words.iter().enumerate() {
                        scores.push(BasePairScoreRow {
                            corpus: self.corpus.clone(),
                            algorithm: self.algorithm.clone(),
                            seed: seed.seed,
                            rule: rule.as_str().to_owned(),
                            pair: pair.clone(),
                            word: word.clone(),
                            score: f64::from(at(s, r, p, w)),
                        });
                    }
                }
            }
        }
        let mut tables = vec![
            Table::of(names::BASE_PAIR_SUMMARY, &gather(seeds, |s| &s.summary))?,
            Table::of(names::BASE_PAIR_AGREEMENT, &gather(seeds, |s| &s.agreement))?,
            Table::of(names::BASE_PAIR_KAPPA, &gather(seeds, |s| &s.kappas))?,
            Table::of(names::BASE_PAIR_DIRECTIONS, &gather(seeds, |s| &s.directions))?,
            Table::of(names::BASE_PAIR_CORRELATIONS, &gather(seeds, |s| &s.correlations))?,
            Table::of(names::BASE_PAIR_BASELINES, &gather(seeds, |s| &s.baselines))?,
            Table::of(names::BASE_PAIR_FLIPS, &gather(seeds, |s| &s.flips))?,
            Table::of(names::BASE_PAIR_EXAMPLES, &gather(seeds, |s| &s.examples))?,
            Table::of(names::BASE_PAIR_SCORES, &scores)?,
        ];
        if across_seeds {
            tables.push(Table::of(names::BASE_PAIR_SEEDS, &agreement)?);
            tables.push(Table::of(names::BASE_PAIR_VARIANCE, &variance)?);
        }
        Ok(tables)
    }

    fn variance_rows(
        &self,
        rule: &str,
        scale: &str,
        components: &VarianceComponents,
    ) -> Vec<BasePairVarianceRow> {
        (components.components.iter())
            .map(|c| BasePairVarianceRow {
                corpus: self.corpus.clone(),
                algorithm: self.algorithm.clone(),
                rule: rule.to_owned(),
                scale: scale.to_owned(),
                component: c.component.as_str().to_owned(),
                sum_of_squares: c.sum_of_squares,
                df: c.df as u32,
                mean_square: c.mean_square,
                estimate: c.estimate,
                variance: c.variance,
                share: c.share,
            })
            .collect()
    }
}

/// The rows of every seed, seeds in order.
fn gather<T: Clone>(seeds: &[BasePairSeed], rows: impl Fn(&BasePairSeed) -> &Vec<T>) -> Vec<T> {
    seeds.iter().flat_map(|s| rows(s).iter().cloned()).collect()
}

impl PerSeed for BasePairs<'_> {
    type Values = BasePairSeed;
    const WHAT: &'static str = "base pairs";

    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    fn coverage(&self) -> &[CoverageRow] {
        &self.coverage
    }

    fn measure(&self, seed: &Seed<'_>) -> Result<BasePairSeed> {
        self.measure_seed(seed.model, seed.index, seed.threads)
    }

    fn tables(&self, seeds: &[BasePairSeed], _: &Across<'_>) -> Result<Vec<Table>> {
        self.tables(seeds)
    }
}
