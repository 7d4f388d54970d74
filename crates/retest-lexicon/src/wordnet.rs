//! WordNet 3.0 sense counts as NLTK 3.8.1 gives them: `len(wn.synsets(word))`, with NLTK's
//! morphological analysis (`_morphy`) over the index and exception files of each part of speech.

use rustc_hash::FxHashMap;

/// The parts of speech in the order `wn.synsets` visits them (NLTK's `POS_LIST`), with the
/// suffix of their database files. Adjective satellites (`s`) share the adjective files.
pub const PARTS_OF_SPEECH: [(char, &str); 4] = [('n', "noun"), ('v', "verb"), ('a', "adj"), ('r', "adv")];

/// NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`: (suffix, replacement) detachment rules, in order, for
/// each part of speech of [`PARTS_OF_SPEECH`].
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// The lemma index and exception lists of WordNet, reduced to what sense counts need.
#[derive(Debug, Default)]
pub struct WordNet {
    /// Lemma → number of synsets for each part of speech of [`PARTS_OF_SPEECH`] (0: none).
    index: FxHashMap<Box<str>, [u32; 4]>,
    /// For each part of speech: inflected form → base forms (`<pos>.exc`).
    exceptions: [FxHashMap<Box<str>, Vec<Box<str>>>; 4],
}

/// A line of an index file that does not have the expected fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    pub reason: String,
}

impl WordNet {
    /// Adds `index.<pos>` (`text`) as NLTK's `_load_lemma_pos_offset_map` reads it: lines
    /// starting with a space are the licence; every other line is `lemma pos n_synsets
    /// n_pointers pointer… n_senses n_tagged offset…` with `n_synsets` offsets.
    ///
    /// # Errors
    ///
    /// A line without these fields, or with `n_senses` different from `n_synsets`.
    pub fn add_index(&mut self, text: &str) -> Result<(), LineError> {
        for (i, line) in text.lines().enumerate() {
            if line.starts_with(' ') {
                continue;
            }
            let err = |reason: String| LineError { line: i + 1, reason };
            let mut tokens = line.split_whitespace();
            let mut next = |what: &str| {
                tokens
                    .next()
                    .ok_or_else(|| err(format!("missing {what} (expected `lemma pos n_synsets …`)")))
            };
            let number = |token: &str, what: &str| {
                token
                    .parse::<u32>()
                    .map_err(|_| err(format!("{what} `{token}` is not a number")))
            };
            let lemma = next("lemma")?;
            let pos = next("part of speech")?;
            let n_synsets = number(next("synset count")?, "synset count")?;
            if n_synsets == 0 {
                return Err(err("synset count is 0".to_owned()));
            }
            let n_pointers = number(next("pointer count")?, "pointer count")?;
            for _ in 0..n_pointers {
                next("pointer symbol")?;
            }
            let n_senses = number(next("sense count")?, "sense count")?;
            if n_senses != n_synsets {
                return Err(err(format!(
                    "sense count {n_senses} differs from synset count {n_synsets}"
                )));
            }
            next("tagged sense count")?;
            for _ in 0..n_synsets {
                number(next("synset offset")?, "synset offset")?;
            }
            // Other part-of-speech letters are stored by NLTK but never looked up.
            if let Some(p) = PARTS_OF_SPEECH.iter().position(|&(c, _)| pos == c.to_string()) {
                self.index.entry(lemma.into()).or_default()[p] = n_synsets;
            }
        }
        Ok(())
    }

    /// Adds `<pos>.exc` (`text`) for part of speech `p` (index into [`PARTS_OF_SPEECH`]): each
    /// line is an inflected form followed by its base forms.
    pub fn add_exceptions(&mut self, p: usize, text: &str) {
        for line in text.lines() {
            let mut terms = line.split_whitespace();
            if let Some(form) = terms.next() {
                self.exceptions[p].insert(form.into(), terms.map(Box::from).collect());
            }
        }
    }

    /// Number of synsets of `form` itself for part of speech `p` (no morphology).
    fn count(&self, form: &str, p: usize) -> u32 {
        self.index.get(form).map_or(0, |counts| counts[p])
    }

    /// NLTK's `_morphy(form, pos)`: the lemmas of `form` in the index for part of speech `p`.
    ///
    /// 0. If `form` is in the exception list, `form` and its base forms, those in the index.
    /// 1. Otherwise detach each matching suffix rule once; `form` and the results that are in
    ///    the index, if any.
    /// 2. Otherwise apply the rules again to all results until some are in the index or none
    ///    are left.
    ///
    /// Forms keep their first-seen order and appear once. (NLTK keeps duplicates between
    /// rounds; dropping them changes neither the result nor when the loop ends, and keeps
    /// degenerate inputs such as `ssssssss…` from growing exponentially.)
    pub fn morphy(&self, form: &str, p: usize) -> Vec<String> {
        let in_index = |forms: &[String]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for f in forms {
                if self.count(f, p) > 0 && !out.contains(f) {
                    out.push(f.clone());
                }
            }
            out
        };
        if let Some(bases) = self.exceptions[p].get(form) {
            let mut forms = vec![form.to_owned()];
            forms.extend(bases.iter().map(|b| b.to_string()));
            return in_index(&forms);
        }
        let rules = SUBSTITUTIONS[p];
        let apply = |forms: &[String]| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for f in forms {
                for (old, new) in rules {
                    if let Some(stem) = f.strip_suffix(old) {
                        let candidate = format!("{stem}{new}");
                        if !out.contains(&candidate) {
                            out.push(candidate);
                        }
                    }
                }
            }
            out
        };
        let mut forms = apply(&[form.to_owned()]);
        let mut first = vec![form.to_owned()];
        first.extend(forms.iter().cloned());
        let found = in_index(&first);
        if !found.is_empty() {
            return found;
        }
        while !forms.is_empty() {
            forms = apply(&forms);
            let found = in_index(&forms);
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    /// `len(wn.synsets(word))`: the word lowercased (nothing else: spaces stay spaces), then
    /// for each part of speech in [`PARTS_OF_SPEECH`] order the synsets of every lemma that
    /// [`morphy`](Self::morphy) finds. NLTK concatenates these lists without removing
    /// duplicates, so neither does this count (`axes`: 11 — `axis`, `ax` and `axe` — for 9
    /// distinct synsets).
    pub fn n_senses(&self, word: &str) -> u32 {
        let lemma = word.to_lowercase();
        (0..PARTS_OF_SPEECH.len())
            .map(|p| {
                self.morphy(&lemma, p)
                    .iter()
                    .map(|f| self.count(f, p))
                    .sum::<u32>()
            })
            .sum()
    }

    /// Number of (lemma, part of speech) entries read.
    pub fn n_lemmas(&self) -> usize {
        self.index
            .values()
            .map(|c| c.iter().filter(|&&n| n > 0).count())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOUN: usize = 0;
    const VERB: usize = 1;
    const ADJ: usize = 2;

    /// A tiny database: index lines in WordNet's format, with a licence line.
    fn wordnet() -> WordNet {
        let mut wn = WordNet::default();
        let noun = "  1 This software and database is being provided\n\
                    bank n 2 1 @ 2 1 00000001 00000002\n\
                    man n 1 0 1 0 00000003\n\
                    woman n 1 0 1 0 00000004\n\
                    goose n 1 0 1 0 00000005\n\
                    glass n 1 0 1 0 00000006\n\
                    axis n 1 0 1 0 00000007\n\
                    ax n 2 0 2 0 00000008 00000009\n\
                    fly n 1 0 1 0 00000010\n";
        let verb = "bank v 3 0 3 0 00000011 00000012 00000013\n\
                    fly v 2 0 2 0 00000014 00000015\n\
                    hope v 1 0 1 0 00000016\n\
                    hop v 1 0 1 0 00000017\n";
        let adj = "good a 1 0 1 0 00000018\nbig a 1 0 1 0 00000019\nnice a 1 0 1 0 00000020\n";
        wn.add_index(noun).unwrap();
        wn.add_index(verb).unwrap();
        wn.add_index(adj).unwrap();
        wn.add_exceptions(NOUN, "geese goose\naxes axis ax\nwomen woman\n");
        wn.add_exceptions(ADJ, "better good well\n");
        wn
    }

    #[test]
    fn exception_lists_come_first() {
        let wn = wordnet();
        assert_eq!(wn.morphy("geese", NOUN), ["goose"]);
        // Both base forms, in the order of the exception line.
        assert_eq!(wn.morphy("axes", NOUN), ["axis", "ax"]);
        // `well` is not an adjective of this index: filtered out.
        assert_eq!(wn.morphy("better", ADJ), ["good"]);
        assert_eq!(wn.n_senses("axes"), 3);
    }

    #[test]
    fn suffix_rules_per_part_of_speech() {
        let wn = wordnet();
        assert_eq!(wn.morphy("banks", NOUN), ["bank"]);
        assert_eq!(wn.morphy("men", NOUN), ["man"]);
        assert_eq!(wn.morphy("glasses", NOUN), ["glass"]);
        assert_eq!(wn.morphy("flies", NOUN), ["fly"]);
        assert_eq!(wn.morphy("flies", VERB), ["fly"]);
        // `hoped` → `hope` (ed → e) and `hop` (ed → "").
        assert_eq!(wn.morphy("hoped", VERB), ["hope", "hop"]);
        assert_eq!(wn.morphy("banked", VERB), ["bank"]);
        // `hoping` → `hope` (ing → e) and `hop` (ing → ""), both verbs.
        assert_eq!(wn.morphy("hoping", VERB), ["hope", "hop"]);
        assert_eq!(wn.morphy("bigger", ADJ), Vec::<String>::new());
        assert_eq!(wn.morphy("nicer", ADJ), ["nice"]);
    }

    #[test]
    fn the_form_itself_counts_when_indexed() {
        let wn = wordnet();
        assert_eq!(wn.morphy("bank", NOUN), ["bank"]);
        // Noun and verb senses add up; case is ignored.
        assert_eq!(wn.n_senses("bank"), 5);
        assert_eq!(wn.n_senses("Bank"), 5);
        assert_eq!(wn.n_senses("unknown"), 0);
    }

    #[test]
    fn rules_are_applied_again_until_a_lemma_is_found() {
        let wn = wordnet();
        // bankss → banks (not indexed) → bank.
        assert_eq!(wn.morphy("bankss", NOUN), ["bank"]);
        // Degenerate input ends quickly.
        assert!(wn.morphy(&"s".repeat(200), NOUN).is_empty());
    }

    #[test]
    fn malformed_index_lines_are_reported() {
        let mut wn = WordNet::default();
        let err = wn.add_index("bank n 2 0 2 0 00000001\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.reason.starts_with("missing synset offset"), "{}", err.reason);
        let err = wn.add_index("ok n 1 0 1 0 1\nbank n x 0\n").unwrap_err();
        assert_eq!(
            err,
            LineError {
                line: 2,
                reason: "synset count `x` is not a number".to_owned()
            }
        );
    }
}
