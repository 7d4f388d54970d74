//! Hard debiasing of one seed (Bolukbasi et al. 2016, `retest_measures::hard_debias`) with the
//! lists of [`DebiasLists`] looked up in its vocabulary: what `retest debias` writes, and what a
//! plan's `debias` section measures as a model of its own (`sgns+hard`), each seed debiased as it
//! is read.

use std::io::Write;

use anyhow::{Result, bail};
use retest_embeddings::{Embeddings, toml};
use retest_measures::{HardDebiasLists, Model, Vocab, hard_debias};

use crate::lists::{DebiasLists, equalize_spellings};
use crate::stages::vocab::CasedVocab;

/// The lists' words found in one vocabulary.
#[derive(Debug)]
struct Found {
    definitional: Vec<(u32, u32)>,
    gender_specific: Vec<u32>,
    equalize: Vec<(u32, u32)>,
    /// The definitional pairs not found, `a:b` as the list spells them.
    missing: Vec<String>,
}

/// Looks the lists up in `vocab` (lowercased with `lowercase`); the pairs need words with a
/// vector (`has_vector`), the gender-specific words only need to be there.
///
/// # Errors
///
/// Fewer than 2 definitional pairs, no gender-specific word or no equalize pair found.
fn find(
    name: &str,
    vocab: &Vocab<'_>,
    has_vector: &dyn Fn(u32) -> bool,
    lists: &DebiasLists,
    lowercase: bool,
) -> Result<Found> {
    let cased = CasedVocab { vocab, lowercase };
    let id = |word: &str| cased.id(word).filter(|&id| has_vector(id));
    let pair_ids = |pairs: &[(String, String)]| -> Vec<(u32, u32)> {
        let mut ids: Vec<(u32, u32)> = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            if let (Some(a), Some(b)) = (id(a), id(b))
                && !ids.contains(&(a, b))
            {
                ids.push((a, b));
            }
        }
        ids
    };
    let definitional = &lists.definitional;
    let found = Found {
        definitional: pair_ids(&definitional.entries),
        gender_specific: {
            let mut ids: Vec<u32> = (lists.gender_specific.entries.iter())
                .filter_map(|w| cased.id(w))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        },
        equalize: pair_ids(&equalize_spellings(&lists.equalize.entries)),
        missing: (definitional.entries.iter())
            .filter(|(a, b)| id(a).is_none() || id(b).is_none())
            .map(|(a, b)| format!("{a}:{b}"))
            .collect(),
    };
    if found.definitional.len() < 2 {
        bail!(
            "{name}: definitional pairs `{}`: {} of {} in the vocabulary; the gender direction needs at \
             least 2",
            definitional.name,
            found.definitional.len(),
            definitional.entries.len()
        );
    }
    if found.gender_specific.is_empty() {
        bail!(
            "{name}: gender-specific words `{}`: none of the {} in the vocabulary",
            lists.gender_specific.name,
            lists.gender_specific.entries.len()
        );
    }
    if found.equalize.is_empty() {
        bail!(
            "{name}: equalize pairs `{}`: none of the {} in the vocabulary, lowercased, in title case or \
             uppercased",
            lists.equalize.name,
            lists.equalize.entries.len()
        );
    }
    Ok(found)
}

/// Checks that `lists` find enough words in `vocab` to debias a seed of it (every word taken to
/// have a vector): what a run checks before any training.
///
/// # Errors
///
/// As [`hard_debias_embeddings`]' lists.
pub(crate) fn check_debias_lists(
    name: &str,
    vocab: &Vocab<'_>,
    lists: &DebiasLists,
    lowercase: bool,
) -> Result<()> {
    find(name, vocab, &|_| true, lists, lowercase).map(drop)
}

/// `embeddings` (`name` in messages) hard-debiased with `lists`, every listed word looked up as
/// spelled (lowercased with `lowercase`), and the equalize pairs also in title case and
/// uppercased, as debiaswe does. Definitional pairs out of the vocabulary are named on `log`, and
/// a summary line says what was changed. The metadata is the input's with a `debias` table: the
/// method, each list's name, file checksum and words found, and the direction's share of
/// variance.
///
/// # Errors
///
/// Fewer than 2 definitional pairs, no equalize pair or no gender-specific word in the
/// vocabulary; a model that cannot be measured (a repeated word, a non-finite value).
pub fn hard_debias_embeddings(
    name: &str,
    embeddings: &Embeddings,
    lists: &DebiasLists,
    lowercase: bool,
    log: &mut dyn Write,
) -> Result<Embeddings> {
    let model = Model::new(embeddings.words(), embeddings.vectors(), embeddings.dim())?;
    let found = find(name, model.vocab(), &|id| model.norm(id) > 0.0, lists, lowercase)?;
    let definitional = &lists.definitional;
    if !found.missing.is_empty() {
        writeln!(
            log,
            "{name}: definitional pairs `{}`: {} of {} not in the vocabulary ({})",
            definitional.name,
            found.missing.len(),
            definitional.entries.len(),
            found.missing.join(", ")
        )?;
    }
    let debiased = hard_debias(
        &model,
        &HardDebiasLists {
            definitional: &found.definitional,
            gender_specific: &found.gender_specific,
            equalize: &found.equalize,
        },
    )?;
    let explained = debiased.direction.explained_variance_ratio[0];
    writeln!(
        log,
        "{name}: hard debiasing along the first principal component of {} definitional pairs ({:.1} % \
         of their variance): {} words neutralised, {} gender-specific words kept, {} equalize pairs \
         equalised",
        found.definitional.len(),
        100.0 * explained,
        debiased.n_neutralised,
        found.gender_specific.len(),
        found.equalize.len()
    )?;

    let mut record = toml::Table::new();
    record.insert("method".into(), "hard".into());
    let roles = [
        (
            "definitional",
            &lists.definitional.name,
            &lists.definitional.file,
            found.definitional.len(),
        ),
        (
            "equalize",
            &lists.equalize.name,
            &lists.equalize.file,
            found.equalize.len(),
        ),
        (
            "gender_specific",
            &lists.gender_specific.name,
            &lists.gender_specific.file,
            found.gender_specific.len(),
        ),
    ];
    for (role, list, file, n_found) in roles {
        let mut entry = toml::Table::new();
        entry.insert("list".into(), list.clone().into());
        if let Some((file, sha256)) = file {
            entry.insert("file".into(), file.display().to_string().into());
            entry.insert("sha256".into(), sha256.clone().into());
        }
        entry.insert("in_vocabulary".into(), (n_found as i64).into());
        record.insert(role.into(), entry.into());
    }
    record.insert("explained_variance".into(), explained.into());
    record.insert("n_neutralised".into(), (debiased.n_neutralised as i64).into());
    let mut metadata = embeddings.metadata().cloned().unwrap_or_default();
    metadata.insert("debias".into(), record.into());
    Ok(
        Embeddings::new(embeddings.words().to_vec(), embeddings.dim(), debiased.vectors)?
            .with_metadata(Some(metadata)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lists::DebiasList;

    fn list<T>(name: &str, entries: Vec<T>) -> DebiasList<T> {
        DebiasList {
            name: name.to_owned(),
            entries,
            file: None,
        }
    }

    fn pairs(text: &[(&str, &str)]) -> Vec<(String, String)> {
        text.iter().map(|&(a, b)| (a.to_owned(), b.to_owned())).collect()
    }

    /// A lowercased vocabulary: the lists' `He`, `Man`, `KING` are found lowercased.
    fn lists() -> DebiasLists {
        DebiasLists {
            definitional: list("def", pairs(&[("He", "She"), ("Man", "Woman"), ("John", "Mary")])),
            equalize: list("eq", pairs(&[("KING", "queen")])),
            gender_specific: list("gs", vec!["he".to_owned(), "she".to_owned(), "absent".to_owned()]),
        }
    }

    fn model() -> Embeddings {
        let words = ["he", "she", "man", "woman", "king", "queen", "nurse"]
            .map(String::from)
            .to_vec();
        #[rustfmt::skip]
        let vectors = vec![
            1.0, 1.0, 0.0, /* she */ -1.0, 1.0, 0.0, /* man */ 2.0, 0.0, 2.0, /* woman */ -2.0, 0.0, 2.0,
            1.0, 2.0, 0.5, /* queen */ -1.0, 2.5, 0.0, /* nurse */ -0.3, 0.4, 1.0,
        ];
        Embeddings::new(words, 3, vectors).unwrap()
    }

    #[test]
    fn a_seed_is_debiased_with_the_lists_found_in_its_vocabulary_and_says_so() {
        let mut log = Vec::new();
        let out = hard_debias_embeddings("seed", &model(), &lists(), true, &mut log).unwrap();
        assert_eq!(
            String::from_utf8(log).unwrap(),
            "seed: definitional pairs `def`: 1 of 3 not in the vocabulary (John:Mary)\nseed: hard debiasing \
             along the first principal component of 2 definitional pairs (100.0 % of their variance): 5 \
             words neutralised, 2 gender-specific words kept, 1 equalize pairs equalised\n"
        );
        // g = ±x: nurse loses its x; king and queen differ along x only.
        let row = |w: &str| out.get(w).unwrap().to_vec();
        assert_eq!(row("nurse")[0], 0.0);
        let (king, queen) = (row("king"), row("queen"));
        assert!((king[0] + queen[0]).abs() < 1e-6 && king[0].abs() > 0.1);
        assert!((king[1] - queen[1]).abs() < 1e-6 && (king[2] - queen[2]).abs() < 1e-6);
        let record = out.metadata().unwrap()["debias"].as_table().unwrap();
        assert_eq!(record["equalize"]["in_vocabulary"].as_integer(), Some(1));
        assert!(
            record["equalize"].get("sha256").is_none(),
            "a list given as words has no file"
        );
    }

    #[test]
    fn lists_that_miss_a_vocabulary_are_named() {
        let model = model();
        let vocab = Vocab::new(model.words()).unwrap();
        let message = |lists: &DebiasLists, lowercase: bool| {
            check_debias_lists("debias", &vocab, lists, lowercase)
                .unwrap_err()
                .to_string()
        };
        // As spelled, only man:woman is there.
        assert_eq!(
            message(&lists(), false),
            "debias: definitional pairs `def`: 0 of 3 in the vocabulary; the gender direction needs at least 2"
        );
        let none = DebiasLists {
            equalize: list("eq", pairs(&[("x", "y")])),
            ..lists()
        };
        assert_eq!(
            message(&none, true),
            "debias: equalize pairs `eq`: none of the 1 in the vocabulary, lowercased, in title case or \
             uppercased"
        );
        assert!(check_debias_lists("debias", &vocab, &lists(), true).is_ok());
    }
}
