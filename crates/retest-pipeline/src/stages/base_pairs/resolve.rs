//! The base-pair lists resolved against a vocabulary: the pairs scored (listed, capitalised,
//! flip), the words scored (limited vocabulary, professions and their forms, truth lists,
//! Figure 1's word), NBM's neutral pool and the baselines' words, with the coverage rows and the
//! notes of what is left out.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use retest_analyses::{BasePairDesign, TruthSet};
use retest_measures::Vocab;
use retest_spec::BasePairParams;
use retest_tables::CoverageRow;

use super::{BasePairSetup, BasePairs, FORMS, NOT_APPLICABLE, Names, OUT_OF_VOCABULARY};
use crate::lists::BasePairLists;
use crate::stages::vocab::CasedVocab;

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

/// What resolving gathers as it goes: every scored word once (in the order first needed), the
/// coverage rows and the notes.
struct Resolver<'a, 'v> {
    corpus: &'a str,
    names: Names,
    words: CasedVocab<'a, 'v>,
    targets: Vec<u32>,
    at: BTreeMap<u32, usize>,
    coverage: Vec<CoverageRow>,
    notes: Vec<String>,
}

/// The pairs scored, with their names.
struct Pairs {
    /// `masculine/feminine` of the listed pairs in vocabulary.
    names: Vec<String>,
    /// The listed pairs in vocabulary, then the capitalised pairs, then the flip pairs not
    /// among them.
    scored: Vec<(u32, u32)>,
    /// Per listed pair: its capitalised pair's name and position in `scored`, or why none.
    capitalised: Vec<Result<(String, usize), &'static str>>,
    /// The flip pairs' names and positions in `scored`, when both are in vocabulary.
    flip: (String, String, Option<(usize, usize)>),
}

impl Resolver<'_, '_> {
    /// What the analyses run on, as messages name it: ``corpus `c` `` or ``embedding `e` ``.
    fn source(&self) -> String {
        format!("{} `{}`", self.names.source, self.corpus)
    }

    /// Whether the corpus keeps case, so the capitalised pairs and cased forms apply.
    fn cased(&self) -> bool {
        !self.words.lowercase
    }

    /// The position of word `id` among the scored words, added when new.
    fn place(&mut self, id: u32) -> usize {
        *self.at.entry(id).or_insert_with(|| {
            self.targets.push(id);
            self.targets.len() - 1
        })
    }

    /// A word's forms: its plural (`+s` when in the vocabulary, else `+es`), `Capitalised` and
    /// `UPPER` forms, each its id when in the vocabulary; the cased forms `None` on a corpus
    /// that lowercases.
    fn forms(&self, word: &str) -> [Option<u32>; 3] {
        let plural = (self.words)
            .id(&format!("{word}s"))
            .or_else(|| self.words.id(&format!("{word}es")));
        let cased_form = |w: String| if self.cased() { self.words.id(&w) } else { None };
        [
            plural,
            cased_form(capitalize(word)),
            cased_form(word.to_uppercase()),
        ]
    }

    /// The listed pairs in vocabulary, their capitalised forms and the flip pairs.
    ///
    /// # Errors
    ///
    /// Fewer than two listed pairs in vocabulary.
    fn pairs(&mut self, params: &BasePairParams, lists: &BasePairLists) -> Result<Pairs> {
        let corpus = self.corpus;
        let listed: Vec<&(String, String)> = (lists.pairs.pairs.iter())
            .filter(|(m, f)| self.words.id(m).is_some() && self.words.id(f).is_some())
            .collect();
        let dropped: Vec<String> = (lists.pairs.pairs.iter())
            .filter(|(m, f)| self.words.id(m).is_none() || self.words.id(f).is_none())
            .map(|(m, f)| format!("{m}/{f}"))
            .collect();
        (self.coverage).push(CoverageRow::of(
            corpus,
            &params.pairs,
            "base_pairs",
            lists.pairs.pairs.len(),
            &dropped,
        ));
        if listed.len() < 2 {
            bail!(
                "{}: {} of the {} pairs of `{}` ({}) {} in the vocabulary; comparing pairs needs at least 2",
                self.source(),
                listed.len(),
                lists.pairs.pairs.len(),
                params.pairs,
                self.names.pairs,
                if listed.len() == 1 { "is" } else { "are" }
            );
        }
        let id = |w: &str| self.words.id(w).expect("a listed pair in vocabulary");
        let names = listed.iter().map(|(m, f)| format!("{m}/{f}")).collect();
        let mut scored: Vec<(u32, u32)> = listed.iter().map(|(m, f)| (id(m), id(f))).collect();
        let capitalised = (listed.iter())
            .map(|(m, f)| self.capitalised_pair(m, f, &mut scored))
            .collect();
        if !self.cased() {
            self.notes.push(format!(
                "{} is lowercased: capitalised pairs and the Capitalised and UPPER forms are not applicable",
                self.source()
            ));
        }
        let flip = self.flip_pairs(params, &mut scored);
        Ok(Pairs {
            names,
            scored,
            capitalised,
            flip,
        })
    }

    /// The capitalised form of listed pair `m/f`, added to `scored` when in vocabulary.
    fn capitalised_pair(
        &self,
        m: &str,
        f: &str,
        scored: &mut Vec<(u32, u32)>,
    ) -> Result<(String, usize), &'static str> {
        if !self.cased() {
            return Err(NOT_APPLICABLE);
        }
        let (cm, cf) = (capitalize(m), capitalize(f));
        match (self.words.id(&cm), self.words.id(&cf)) {
            (Some(a), Some(b)) => {
                scored.push((a, b));
                Ok((format!("{cm}/{cf}"), scored.len() - 1))
            }
            _ => Err(OUT_OF_VOCABULARY),
        }
    }

    /// The flip pairs' names and positions in `scored` (added when not yet scored), or a note
    /// when a word is out of vocabulary.
    fn flip_pairs(
        &mut self,
        params: &BasePairParams,
        scored: &mut Vec<(u32, u32)>,
    ) -> (String, String, Option<(usize, usize)>) {
        let [[m1, f1], [m2, f2]] = &params.flip;
        let mut position = |m: &str, f: &str| -> Option<usize> {
            let pair = (self.words.id(m)?, self.words.id(f)?);
            Some(match scored.iter().position(|&p| p == pair) {
                Some(at) => at,
                None => {
                    scored.push(pair);
                    scored.len() - 1
                }
            })
        };
        let positions = position(m1, f1).zip(position(m2, f2));
        if positions.is_none() {
            self.notes.push(format!(
                "{}: no label flips: a word of {m1}/{f1} or {m2}/{f2} ({}) is out of vocabulary",
                self.source(),
                self.names.flip
            ));
        }
        (format!("{m1}/{f1}"), format!("{m2}/{f2}"), positions)
    }

    /// Table 1's limited vocabulary: the words among the `most_frequent` most frequent that
    /// are ASCII letters only and shorter than 20.
    fn limited(&mut self, most_frequent: usize) -> Vec<usize> {
        let vocab = self.words.vocab;
        let words = vocab.words();
        let most_frequent = most_frequent.min(words.len());
        (0..most_frequent)
            .filter(|&i| {
                let w = &words[i];
                w.len() < 20 && !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic())
            })
            .map(|i| self.place(i as u32))
            .collect()
    }

    /// The professions in vocabulary (a word listed twice once): their positions and words.
    ///
    /// # Errors
    ///
    /// None in vocabulary.
    fn professions(
        &mut self,
        params: &BasePairParams,
        lists: &BasePairLists,
    ) -> Result<(Vec<usize>, Vec<String>)> {
        let mut positions = Vec::new();
        let mut words = Vec::new();
        let mut dropped = Vec::new();
        for word in &lists.professions {
            match self.words.id(word) {
                Some(w) => {
                    let at = self.place(w);
                    if !positions.contains(&at) {
                        positions.push(at);
                        words.push(word.clone());
                    }
                }
                None => dropped.push(word.clone()),
            }
        }
        (self.coverage).push(CoverageRow::of(
            self.corpus,
            &params.professions,
            "target_words",
            lists.professions.len(),
            &dropped,
        ));
        if positions.is_empty() {
            bail!(
                "{}: none of the {} words of `{}` ({}) is in the vocabulary",
                self.source(),
                lists.professions.len(),
                params.professions,
                self.names.professions
            );
        }
        Ok((positions, words))
    }

    /// Table 4's words: the professions with every applicable form in vocabulary (on a
    /// lowercased corpus, those with a plural), and per form their forms' positions (`None`:
    /// not applicable).
    fn forms_of(
        &mut self,
        params: &BasePairParams,
        words: &[String],
        positions: &[usize],
    ) -> (Vec<usize>, Vec<Option<Vec<usize>>>) {
        let cased = self.cased();
        let mut form_words = Vec::new();
        // The cased forms are not applicable on a lowercased corpus.
        let mut forms = vec![Some(Vec::new()), cased.then(Vec::new), cased.then(Vec::new)];
        for (word, &position) in words.iter().zip(positions) {
            let found = self.forms(word);
            let complete = (found.iter().zip(&forms)).all(|(form, slot)| form.is_some() || slot.is_none());
            if complete {
                form_words.push(position);
                for (slot, form) in forms.iter_mut().zip(found) {
                    if let (Some(slot), Some(form)) = (slot, form) {
                        slot.push(self.place(form));
                    }
                }
            }
        }
        if form_words.is_empty() {
            self.notes.push(format!(
                "{}: no word of `{}` has {} in the vocabulary: no word-form agreement",
                self.source(),
                params.professions,
                if cased {
                    "its plural, Capitalised and UPPER forms"
                } else {
                    "a plural"
                }
            ));
        }
        (form_words, forms)
    }

    /// Per truth list, its name and its words in vocabulary with their true genders.
    fn truth(&mut self, lists: &BasePairLists) -> (Vec<String>, Vec<TruthSet>) {
        let mut names = Vec::new();
        let mut sets = Vec::new();
        for list in &lists.truth {
            let mut set = TruthSet {
                targets: Vec::new(),
                masculine: Vec::new(),
            };
            let mut dropped = Vec::new();
            for (word, masculine) in &list.words {
                match self.words.id(word) {
                    Some(w) => {
                        set.targets.push(self.place(w));
                        set.masculine.push(*masculine);
                    }
                    None => dropped.push(word.clone()),
                }
            }
            (self.coverage).push(CoverageRow::of(
                self.corpus,
                &list.name,
                "truth_words",
                list.words.len(),
                &dropped,
            ));
            if set.targets.is_empty() {
                self.notes.push(format!(
                    "{}: no word of truth list `{}` is in the vocabulary",
                    self.source(),
                    list.name
                ));
            }
            names.push(list.name.clone());
            sets.push(set);
        }
        (names, sets)
    }

    /// Figure 1's word and its forms in vocabulary: (form, word, position).
    fn example(&mut self, word: &str) -> Vec<(&'static str, String, usize)> {
        let Some(base) = self.words.id(word) else {
            self.notes.push(format!(
                "{}: `{word}` ({}) is out of vocabulary",
                self.source(),
                self.names.example
            ));
            return Vec::new();
        };
        let mut example = vec![("base", self.words.vocab.word(base).to_owned(), self.place(base))];
        for (form, found) in FORMS.iter().zip(self.forms(word)) {
            if let Some(w) = found {
                example.push((*form, self.words.vocab.word(w).to_owned(), self.place(w)));
            }
        }
        example
    }

    /// NBM's neutral pool (the candidate words less the lists' gendered words) and the words
    /// random baselines are drawn from (the vocabulary less placeholders).
    ///
    /// # Errors
    ///
    /// A pool no larger than NBM's k.
    fn pools(&mut self, params: &BasePairParams, lists: &BasePairLists) -> Result<(Vec<u32>, Vec<u32>)> {
        let vocab = self.words.vocab;
        let words = vocab.words();
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
        (self.coverage).push(CoverageRow::of(
            self.corpus,
            "neutral-pool",
            "nbm_pool",
            candidates.len(),
            &left_out,
        ));
        if pool.len() <= params.nbm_k as usize {
            bail!(
                "{}: NBM's neutral pool has {} words (the gender-neutral ones among the {} most frequent, \
                 {}), {} is {}: the pool must be larger than k",
                self.source(),
                pool.len(),
                params.most_frequent,
                self.names.most_frequent,
                self.names.nbm_k,
                params.nbm_k
            );
        }
        let placeholders = retest_measures::placeholder_ids(words);
        let random_words = (0..words.len() as u32)
            .filter(|w| !placeholders.contains(w))
            .collect();
        Ok((pool, random_words))
    }
}

impl<'p> BasePairs<'p> {
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
        let mut r = Resolver {
            corpus,
            names: setup.names,
            words: CasedVocab {
                vocab,
                lowercase: setup.lowercase,
            },
            targets: Vec::new(),
            at: BTreeMap::new(),
            coverage: Vec::new(),
            notes: Vec::new(),
        };
        let pairs = r.pairs(params, lists)?;
        let limited = r.limited(params.most_frequent);
        let (professions, profession_words) = r.professions(params, lists)?;
        let (form_words, forms) = r.forms_of(params, &profession_words, &professions);
        let (truth_names, truth) = r.truth(lists);
        let example = r.example(&params.example);
        let (pool, random_words) = r.pools(params, lists)?;
        let (flip_m, flip_f, flip) = pairs.flip;
        let design = BasePairDesign {
            n_pairs: pairs.names.len(),
            capitalised: (pairs.capitalised.iter())
                .map(|c| c.as_ref().ok().map(|(_, at)| *at))
                .collect(),
            flip,
            limited,
            words: professions,
            form_words,
            forms,
            truth,
        };
        Ok(BasePairs {
            params,
            corpus: corpus.to_owned(),
            algorithm: algorithm.to_owned(),
            rules: setup.rules,
            ripa_target: setup.ripa_target,
            scored_pairs: pairs.scored,
            targets: r.targets,
            design,
            pair_names: pairs.names,
            capitalised: pairs
                .capitalised
                .into_iter()
                .map(|c| c.map(|(name, _)| name))
                .collect(),
            flip: (flip_m, flip_f),
            profession_words,
            truth_names,
            example,
            pool,
            random_words,
            root: setup.root,
            coverage: r.coverage,
            notes: r.notes,
        })
    }
}
