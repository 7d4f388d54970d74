//! Hard debiasing of any embedding file, without a pipeline (`retest debias`): Bolukbasi et al.'s
//! neutralise-and-equalise on debiaswe's lists or one's own, written as a new embedding file
//! whose metadata says how it was made.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use retest_embeddings::{Embeddings, Format, toml};
use retest_measures::{HardDebiasLists, Model, hard_debias};

use crate::driver::project::{Folders, lock_file, resolver};
use crate::lists::{DebiasListNames, DebiasLists, equalize_spellings};
use crate::tools::inputs::{Found, WordLookup};
use crate::tools::output::{Overwrite, embedding_file};

/// What `retest debias` was asked to do.
#[derive(Debug)]
pub struct DebiasRequest<'a> {
    pub input: &'a Path,
    /// The input's format; `None` tells it from its bytes.
    pub input_format: Option<Format>,
    pub lookup: WordLookup,
    pub lists: DebiasListNames<'a>,
    /// Where the declared lists and the checksum lock are.
    pub folders: &'a Folders,
    pub output: &'a Path,
    /// The output's format; `None`: the one its name ends in.
    pub format: Option<Format>,
    pub overwrite: Overwrite,
}

/// Hard-debiases `req.input` and writes it to `req.output`, saying on stderr what each list
/// found in the vocabulary and what was changed.
///
/// # Errors
///
/// The output is refused by the output policy (an input, an existing file without
/// [`Overwrite::Force`]); a list cannot be found, read or parsed; a list misses the vocabulary
/// ([`hard_debias_embeddings`]); the model cannot be read or written.
pub fn debias_file(req: &DebiasRequest<'_>) -> Result<()> {
    let named_files: Vec<&Path> = [req.lists.definitional, req.lists.equalize, req.lists.gender_specific]
        .into_iter()
        .map(Path::new)
        .filter(|p| p.exists())
        .collect();
    let inputs: Vec<&Path> = std::iter::once(req.input).chain(named_files).collect();
    let format = embedding_file(req.output, &inputs, req.format, req.overwrite)?;
    let mut resolver = resolver(&lock_file(&req.folders.recipes(None)))?;
    let lists = DebiasLists::read(req.lists, &req.folders.wordlists(None), &mut resolver)?;
    let embeddings = retest_embeddings::read(req.input, req.input_format)?;
    let name = req.input.display().to_string();
    let mut err = std::io::stderr().lock();
    let debiased = hard_debias_embeddings(&name, &embeddings, &lists, req.lookup, &mut err)?;
    retest_embeddings::write(req.output, &debiased, format)?;
    writeln!(err, "wrote {}", req.output.display())?;
    Ok(())
}

/// `embeddings` (`name` in messages) hard-debiased with `lists`, every listed word looked up as
/// `lookup` spells it, and the equalize pairs also in title case and uppercased, as debiaswe
/// does. Definitional pairs out of the vocabulary are named on `log`, and a summary line says
/// what was changed. The metadata is the input's with a `debias` table: the method, each list's
/// name, file checksum and words found, and the direction's share of variance.
///
/// # Errors
///
/// Fewer than 2 definitional pairs, no equalize pair or no gender-specific word in the
/// vocabulary; a model that cannot be measured (a repeated word, a non-finite value).
pub fn hard_debias_embeddings(
    name: &str,
    embeddings: &Embeddings,
    lists: &DebiasLists,
    lookup: WordLookup,
    log: &mut dyn Write,
) -> Result<Embeddings> {
    let model = Model::new(embeddings.words(), embeddings.vectors(), embeddings.dim())?;
    let id = |word: &str| match lookup.find(&model, word) {
        Found::Id(id) => Some(id),
        Found::OutOfVocabulary | Found::ZeroVector => None,
    };
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
    let definitional_ids = pair_ids(&definitional.entries);
    let missing: Vec<String> = (definitional.entries.iter())
        .filter(|(a, b)| id(a).is_none() || id(b).is_none())
        .map(|(a, b)| format!("{a}:{b}"))
        .collect();
    if definitional_ids.len() < 2 {
        bail!(
            "{name}: definitional pairs `{}`: {} of {} in the vocabulary; the gender direction needs at \
             least 2",
            definitional.name,
            definitional_ids.len(),
            definitional.entries.len()
        );
    }
    if !missing.is_empty() {
        writeln!(
            log,
            "{name}: definitional pairs `{}`: {} of {} not in the vocabulary ({})",
            definitional.name,
            missing.len(),
            definitional.entries.len(),
            missing.join(", ")
        )?;
    }
    let (specific_name, specific_words) = (&lists.gender_specific.name, &lists.gender_specific.entries);
    let mut specific: Vec<u32> = specific_words.iter().filter_map(|w| lookup.id(model.vocab(), w)).collect();
    specific.sort_unstable();
    specific.dedup();
    if specific.is_empty() {
        bail!(
            "{name}: gender-specific words `{specific_name}`: none of the {} in the vocabulary",
            specific_words.len()
        );
    }
    let equalize = &lists.equalize;
    let equalize_ids = pair_ids(&equalize_spellings(&equalize.entries));
    if equalize_ids.is_empty() {
        bail!(
            "{name}: equalize pairs `{}`: none of the {} in the vocabulary, lowercased, in title case or \
             uppercased",
            equalize.name,
            equalize.entries.len()
        );
    }

    let debiased = hard_debias(
        &model,
        &HardDebiasLists {
            definitional: &definitional_ids,
            gender_specific: &specific,
            equalize: &equalize_ids,
        },
    )?;
    let explained = debiased.direction.explained_variance_ratio[0];
    writeln!(
        log,
        "{name}: hard debiasing along the first principal component of {} definitional pairs ({:.1} % \
         of their variance): {} words neutralised, {} gender-specific words kept, {} equalize pairs \
         equalised",
        definitional_ids.len(),
        100.0 * explained,
        debiased.n_neutralised,
        specific.len(),
        equalize_ids.len()
    )?;

    let mut record = toml::Table::new();
    record.insert("method".into(), "hard".into());
    let found = [
        ("definitional", &lists.definitional.name, &lists.definitional.file, definitional_ids.len()),
        ("equalize", &lists.equalize.name, &lists.equalize.file, equalize_ids.len()),
        ("gender_specific", specific_name, &lists.gender_specific.file, specific.len()),
    ];
    for (role, list, file, found) in found {
        let mut entry = toml::Table::new();
        entry.insert("list".into(), list.clone().into());
        if let Some((file, sha256)) = file {
            entry.insert("file".into(), file.display().to_string().into());
            entry.insert("sha256".into(), sha256.clone().into());
        }
        entry.insert("in_vocabulary".into(), (found as i64).into());
        record.insert(role.into(), entry.into());
    }
    record.insert("explained_variance".into(), explained.into());
    record.insert("n_neutralised".into(), (debiased.n_neutralised as i64).into());
    let mut metadata = embeddings.metadata().cloned().unwrap_or_default();
    metadata.insert("debias".into(), record.into());
    Ok(Embeddings::new(embeddings.words().to_vec(), embeddings.dim(), debiased.vectors)?
        .with_metadata(Some(metadata)))
}
