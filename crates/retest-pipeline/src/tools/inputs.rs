//! What the bring-your-own-vectors commands share: the embedding files they read (each one
//! seed, looked up as spelled or lowercased) and the table file they write under the output
//! policy of [`crate::tools::output`].

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retest_embeddings::{Embeddings, Format};
use retest_measures::{Model, Vocab};
use retest_tables::{Row, Table, TableName};

use crate::tools::output::{Overwrite, table_file};

/// The embedding files a command reads, in the order given.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddingFiles<'a> {
    pub paths: &'a [PathBuf],
    /// The files' format; `None` tells it from each file's bytes.
    pub format: Option<Format>,
    /// How listed words are looked up in them.
    pub lookup: WordLookup,
}

/// How a listed word is looked up in a model: as spelled, or lowercased.
#[derive(Clone, Copy, Debug, Default)]
pub struct WordLookup {
    /// Look every word up lowercased (embeddings of a lowercased corpus).
    pub lowercase: bool,
}

impl WordLookup {
    /// `word` as it is looked up.
    pub(crate) fn case<'w>(&self, word: &'w str) -> Cow<'w, str> {
        if self.lowercase {
            Cow::Owned(word.to_lowercase())
        } else {
            Cow::Borrowed(word)
        }
    }

    /// The id of `word` in `vocab`, looked up as [`Self::case`] spells it.
    pub(crate) fn id(&self, vocab: &Vocab<'_>, word: &str) -> Option<u32> {
        vocab.id(&self.case(word))
    }

    /// `word` in `model`, looked up as [`Self::case`] spells it: its id, or why it has none to
    /// measure with.
    pub(crate) fn find(&self, model: &Model<'_>, word: &str) -> Found {
        match self.id(model.vocab(), word) {
            None => Found::OutOfVocabulary,
            Some(id) if model.norm(id) == 0.0 => Found::ZeroVector,
            Some(id) => Found::Id(id),
        }
    }
}

impl<'a> EmbeddingFiles<'a> {
    /// The embedding files followed by `others`: every file an output may not replace.
    pub(crate) fn and(&self, others: &[&'a Path]) -> Vec<&'a Path> {
        self.paths
            .iter()
            .map(PathBuf::as_path)
            .chain(others.iter().copied())
            .collect()
    }

    /// One of the files, read in the given format.
    pub(crate) fn read(&self, path: &Path) -> Result<Embeddings> {
        Ok(retest_embeddings::read(path, self.format)?)
    }

    /// The rows `rows` gives for each file in turn (its name, its model, and standard error for
    /// the lines it says), in the files' order.
    pub(crate) fn rows_of_each<R>(
        &self,
        mut rows: impl FnMut(&str, &Model<'_>, &mut dyn Write) -> Result<Vec<R>>,
    ) -> Result<Vec<R>> {
        let mut all = Vec::new();
        let mut err = std::io::stderr().lock();
        self.for_each_model(|name, model| {
            all.extend(rows(&name, model, &mut err)?);
            Ok(())
        })?;
        Ok(all)
    }

    /// Reads every file in turn and gives `f` its name (the path as given) and model.
    pub(crate) fn for_each_model(&self, mut f: impl FnMut(String, &Model<'_>) -> Result<()>) -> Result<()> {
        for path in self.paths {
            let (vocab_words, dim, raw, _) = self.read(path)?.into_parts();
            let model = Model::new(&vocab_words, &raw, dim).with_context(|| format!("{}", path.display()))?;
            f(path.display().to_string(), &model)?;
        }
        Ok(())
    }
}

/// A listed word in a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    Id(u32),
    OutOfVocabulary,
    /// In the vocabulary with an all-zero vector (padding rows of some pretrained files): it has
    /// no direction, so no cosine.
    ZeroVector,
}

/// The table file a command writes (`--out`, and `--force`).
#[derive(Clone, Copy, Debug)]
pub struct TableFile<'a> {
    /// A `.parquet` or `.csv` file.
    pub path: &'a Path,
    pub overwrite: Overwrite,
}

impl TableFile<'_> {
    /// Checks the file against the output policy before any work: not one of `inputs`, a
    /// table's name, and not a file of another kind unless forced.
    pub(crate) fn check(&self, inputs: &[&Path]) -> Result<()> {
        table_file(self.path, inputs, self.overwrite).map(drop)
    }

    /// Writes `rows` as table `name` and says so on stderr (`N <what> → FILE`). The temporaries
    /// an earlier write of this file left when its process was killed are removed first (the
    /// one process writing a file the user names is this one).
    pub(crate) fn write<R: Row<Layout = ()>>(
        &self,
        name: TableName<R>,
        rows: &[R],
        what: &str,
    ) -> Result<()> {
        retest_fs::remove_temporaries_of(self.path);
        Table::of(name, rows)?.write_file(self.path)?;
        writeln!(
            std::io::stderr(),
            "{} {what} → {}",
            rows.len(),
            self.path.display()
        )?;
        Ok(())
    }
}
