//! Hard debiasing of any embedding file, without a pipeline (`retest debias`): Bolukbasi et al.'s
//! neutralise-and-equalise on debiaswe's lists or one's own, written as a new embedding file
//! whose metadata says how it was made.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use retest_embeddings::Format;

use crate::driver::project::{Folders, lock_file, resolver};
use crate::lists::{DebiasListNames, DebiasLists};
use crate::stages::debias::hard_debias_embeddings;
use crate::tools::inputs::WordLookup;
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
    let named_files: Vec<&Path> = [
        req.lists.definitional,
        req.lists.equalize,
        req.lists.gender_specific,
    ]
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
    let debiased = hard_debias_embeddings(&name, &embeddings, &lists, req.lookup.lowercase, &mut err)?;
    retest_embeddings::write(req.output, &debiased, format)?;
    writeln!(err, "wrote {}", req.output.display())?;
    Ok(())
}
