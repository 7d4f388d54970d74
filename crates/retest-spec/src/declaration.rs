//! Files declared by source and checksum instead of kept in the project (`<name>.yaml` beside
//! word lists and lexicon files, e.g. `wordlists/du2021/google10k.yaml`, or the `sets` of a WEAT
//! tests file), and [`DeclaringFile`], any file that names source files by checksum.

use std::path::{Component, Path};

use serde::Deserialize;

use crate::document::Document;
use crate::error::{Location, SpecError};
use crate::recipe::{CorpusRecipe, SourceSpec};
use crate::weat_tests::WeatTestsFile;

/// A declared file: what it is, under which licence, and where to find it. `description` and
/// `licence` may be left out only for a file of one's own: a `path:` beside or below the
/// declaring file ([`FileDeclaration::is_own_file`]); a file found by name (mirror, cache,
/// download) says both.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDeclaration {
    pub description: Option<String>,
    pub licence: Option<String>,
    pub source: SourceSpec,
}

impl FileDeclaration {
    /// Reads a declaration. Unknown keys, missing fields and wrong types are errors with the
    /// file, line, column and field path.
    ///
    /// # Errors
    ///
    /// The file cannot be read, is not a declaration, or leaves out `description` or `licence`
    /// of a file that is not its own ([`FileDeclaration::missing_field`]).
    pub fn read(path: &Path) -> Result<FileDeclaration, SpecError> {
        let doc: Document<FileDeclaration> = Document::read(path)?;
        if let Some(message) = doc.raw.missing_field() {
            return Err(whole_file(path, message));
        }
        Ok(doc.raw)
    }

    /// The source is a file of one's own: a relative `path:` that stays beside or below the
    /// declaring file (no `..`).
    pub fn is_own_file(&self) -> bool {
        self.source.path.as_ref().is_some_and(|path| {
            path.components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        })
    }

    /// The message for a `description` or `licence` left out of a declaration of a file that
    /// is not one's own; `None` when nothing is missing.
    pub(crate) fn missing_field(&self) -> Option<String> {
        if self.is_own_file() {
            return None;
        }
        let field = if self.description.is_none() {
            "description"
        } else if self.licence.is_none() {
            "licence"
        } else {
            return None;
        };
        Some(format!(
            "missing field `{field}`: only a file of one's own (a `path:` beside or below this file) may go \
             without `description` and `licence`"
        ))
    }
}

/// A file that names source files by checksum, as `retest lock` reads it: a WEAT tests file
/// (`tests`, with `sets`), a declaration (`source`) or a corpus recipe (`sources`).
#[derive(Clone, Debug)]
pub enum DeclaringFile {
    WeatTests(WeatTestsFile),
    Declaration(FileDeclaration),
    Recipe(CorpusRecipe),
}

#[derive(Deserialize)]
struct Keys {
    tests: Option<serde_yaml::Value>,
    source: Option<serde_yaml::Value>,
    sources: Option<serde_yaml::Value>,
}

impl DeclaringFile {
    /// Reads `path` as the kind of file its top-level keys say.
    ///
    /// # Errors
    ///
    /// The file cannot be read, has none of `tests`, `source` and `sources`, or is not a valid
    /// file of its kind.
    pub fn read(path: &Path) -> Result<DeclaringFile, SpecError> {
        let keys: Document<Keys> = Document::read(path)?;
        Ok(match keys.raw {
            Keys { tests: Some(_), .. } => DeclaringFile::WeatTests(WeatTestsFile::read(path)?),
            Keys { source: Some(_), .. } => DeclaringFile::Declaration(FileDeclaration::read(path)?),
            Keys { sources: Some(_), .. } => DeclaringFile::Recipe(CorpusRecipe::load(path)?),
            _ => {
                return Err(whole_file(
                    path,
                    "names no file by checksum: expected a WEAT tests file (`tests` and `sets`), a \
                     declaration (`source`) or a corpus recipe (`sources`)"
                        .to_owned(),
                ));
            }
        })
    }
}

/// An error about the whole file `path` (no one line of it).
fn whole_file(path: &Path, message: String) -> SpecError {
    SpecError::Invalid {
        location: Location {
            file: path.to_owned(),
            line_column: None,
            field: String::new(),
        },
        message,
    }
}
