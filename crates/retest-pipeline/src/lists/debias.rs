//! The three lists of hard debiasing (Bolukbasi et al. 2016): definitional pairs, equalize pairs
//! and gender-specific words, each a declared list of the word-list folder (by default
//! debiaswe's own, `bolukbasi/`), a text file (`masculine feminine` pairs or words, one per line)
//! or one of debiaswe's JSON files as it comes (a list of pairs, a list of words).

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use retest_data::Resolver;
use retest_measures::PairList;
use retest_spec::defaults;

use super::{Kind, digest, list_words, read_list};

/// Where each list comes from: a declared list's name or a file's path.
#[derive(Clone, Copy, Debug)]
pub struct DebiasListNames<'a> {
    pub definitional: &'a str,
    pub equalize: &'a str,
    pub gender_specific: &'a str,
}

impl DebiasListNames<'static> {
    /// debiaswe's lists, as declared in the word-list folder.
    pub const BOLUKBASI: DebiasListNames<'static> = DebiasListNames {
        definitional: defaults::DEBIAS_DEFINITIONAL,
        equalize: defaults::DEBIAS_EQUALIZE,
        gender_specific: defaults::DEBIAS_GENDER_SPECIFIC,
    };
}

/// One list: its name as the caller gave it, its entries, and the file it was read from with
/// the file's SHA-256 (none for a list given as words).
#[derive(Clone, Debug, PartialEq)]
pub struct DebiasList<T> {
    pub name: String,
    pub entries: Vec<T>,
    pub file: Option<(PathBuf, String)>,
}

/// The lists read.
#[derive(Clone, Debug)]
pub struct DebiasLists {
    pub definitional: DebiasList<(String, String)>,
    pub equalize: DebiasList<(String, String)>,
    pub gender_specific: DebiasList<String>,
}

impl DebiasLists {
    /// `(list name, file, sha256)` of each list read from a file.
    pub fn files(&self) -> Vec<(String, PathBuf, String)> {
        let named = |name: &String, file: &Option<(PathBuf, String)>| {
            file.clone().map(|(path, sha256)| (name.clone(), path, sha256))
        };
        [
            named(&self.definitional.name, &self.definitional.file),
            named(&self.equalize.name, &self.equalize.file),
            named(&self.gender_specific.name, &self.gender_specific.file),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Reads the three lists `names` names, declared ones below `folder` through `resolver`.
    ///
    /// # Errors
    ///
    /// A list that cannot be found, read, verified or parsed, or that is empty.
    pub fn read(names: DebiasListNames<'_>, folder: &Path, resolver: &mut Resolver) -> Result<DebiasLists> {
        Ok(DebiasLists {
            definitional: DebiasList::pairs(names.definitional, folder, resolver)?,
            equalize: DebiasList::pairs(names.equalize, folder, resolver)?,
            gender_specific: DebiasList::words(names.gender_specific, folder, resolver)?,
        })
    }
}

impl DebiasList<(String, String)> {
    /// The pairs of list `name` (a declared list below `folder`, or a file).
    ///
    /// # Errors
    ///
    /// The list cannot be found, read, verified or parsed, or has no pairs.
    pub fn pairs(name: &str, folder: &Path, resolver: &mut Resolver) -> Result<Self> {
        let (file, text) = read_list(folder, name, Kind::Debias, resolver)?;
        Ok(DebiasList {
            name: name.to_owned(),
            entries: parse_pairs(name, &file, &text)?,
            file: Some(checksum(file, &text)),
        })
    }
}

impl DebiasList<String> {
    /// The words of list `name` (a declared list below `folder`, or a file).
    ///
    /// # Errors
    ///
    /// The list cannot be found, read, verified or parsed, or has no words.
    pub fn words(name: &str, folder: &Path, resolver: &mut Resolver) -> Result<Self> {
        let (file, text) = read_list(folder, name, Kind::Debias, resolver)?;
        let entries = list_words(name, &file, &text)?;
        if entries.is_empty() {
            bail!("word list `{name}` ({}): no words", file.display());
        }
        Ok(DebiasList {
            name: name.to_owned(),
            entries,
            file: Some(checksum(file, &text)),
        })
    }
}

/// `file` with the SHA-256 of its `text`.
fn checksum(file: PathBuf, text: &str) -> (PathBuf, String) {
    let (_, file, sha256) = digest("", file, text);
    (file, sha256)
}

/// The pairs of a JSON file (a list of two-word lists, debiaswe's form) or of a text file (one
/// `masculine feminine` pair per line, `#` comments).
fn parse_pairs(name: &str, path: &Path, text: &str) -> Result<Vec<(String, String)>> {
    let pairs = if path.extension().is_some_and(|e| e == "json") {
        let value: Vec<Vec<String>> = serde_json::from_str(text).map_err(|e| {
            anyhow::anyhow!(
                "pair list `{name}` ({}): expected a JSON list of [word, word] pairs: {e}",
                path.display()
            )
        })?;
        let mut pairs = Vec::with_capacity(value.len());
        for (i, pair) in value.into_iter().enumerate() {
            match <[String; 2]>::try_from(pair) {
                Ok([a, b]) => pairs.push((a, b)),
                Err(other) => bail!(
                    "pair list `{name}` ({}): entry {} has {} words, expected 2",
                    path.display(),
                    i + 1,
                    other.len()
                ),
            }
        }
        pairs
    } else {
        PairList::parse(name, text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            .pairs
    };
    if pairs.is_empty() {
        bail!("pair list `{name}` ({}): no pairs", path.display());
    }
    Ok(pairs)
}

/// `word` as Python's `str.title()` spells it (debiaswe's title case of an equalize pair): a
/// letter that follows a cased letter lowercased, every other letter uppercased
/// (`ex_girlfriend` → `Ex_Girlfriend`).
pub fn title_case(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut after_cased = false;
    for c in word.chars() {
        if after_cased {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        after_cased = c.is_lowercase() || c.is_uppercase();
    }
    out
}

/// The equalize pairs as debiaswe looks them up: each pair lowercased, in title case and
/// uppercased, in the list's order, every spelling once.
pub fn equalize_spellings(pairs: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(3 * pairs.len());
    for (a, b) in pairs {
        for spelled in [
            (a.to_lowercase(), b.to_lowercase()),
            (title_case(a), title_case(b)),
            (a.to_uppercase(), b.to_uppercase()),
        ] {
            if !out.contains(&spelled) {
                out.push(spelled);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_case_is_python_s() {
        for (word, title) in [
            ("ex_girlfriend", "Ex_Girlfriend"),
            ("Catholic_priest", "Catholic_Priest"),
            ("DAD", "Dad"),
            ("1st", "1St"),
            ("o'neill", "O'Neill"),
            ("élan", "Élan"),
        ] {
            assert_eq!(title_case(word), title, "{word}");
        }
    }

    #[test]
    fn each_pair_is_spelled_three_ways_once() {
        let pairs = [("Dad", "Mom"), ("dad", "mom"), ("he", "she")].map(|(a, b)| (a.into(), b.into()));
        let spelled: Vec<String> = equalize_spellings(&pairs)
            .into_iter()
            .map(|(a, b)| format!("{a}:{b}"))
            .collect();
        assert_eq!(
            spelled,
            ["dad:mom", "Dad:Mom", "DAD:MOM", "he:she", "He:She", "HE:SHE"]
        );
    }

    #[test]
    fn pairs_come_from_json_or_text_and_a_bad_entry_is_named() {
        let json = Path::new("lists/eq.json");
        assert_eq!(
            parse_pairs("eq", json, r#"[["monastery", "convent"]]"#).unwrap(),
            [("monastery".into(), "convent".into())]
        );
        let text = Path::new("lists/eq.txt");
        assert_eq!(
            parse_pairs("eq", text, "# m f\nking queen\n").unwrap(),
            [("king".into(), "queen".into())]
        );
        let message = |path, text| parse_pairs("eq", path, text).unwrap_err().to_string();
        assert_eq!(
            message(json, r#"[["a", "b"], ["c"]]"#),
            "pair list `eq` (lists/eq.json): entry 2 has 1 words, expected 2"
        );
        assert_eq!(
            message(json, r#"{"a": 1}"#),
            "pair list `eq` (lists/eq.json): expected a JSON list of [word, word] pairs: invalid type: map, \
             expected a sequence at line 1 column 0"
        );
        assert_eq!(
            message(text, "# nothing\n"),
            "lists/eq.txt: eq: the list is empty (only blank lines and comments)"
        );
        assert_eq!(message(json, "[]"), "pair list `eq` (lists/eq.json): no pairs");
    }
}
