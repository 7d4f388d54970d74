//! Files declared by source and checksum instead of kept in the project (`<name>.yaml` beside
//! word lists and lexicon files), e.g. `wordlists/du2021/google10k.yaml`.

use std::path::Path;

use serde::Deserialize;

use crate::document::Document;
use crate::error::SpecError;
use crate::recipe::SourceSpec;

/// A declared file: what it is, under which licence, and where to find it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDeclaration {
    pub description: String,
    pub licence: String,
    pub source: SourceSpec,
}

impl FileDeclaration {
    /// Reads a declaration. Unknown keys, missing fields and wrong types are errors with the
    /// file, line, column and field path.
    ///
    /// # Errors
    ///
    /// The file cannot be read or is not a declaration.
    pub fn read(path: &Path) -> Result<FileDeclaration, SpecError> {
        Ok(Document::read(path)?.raw)
    }
}
