//! Models read from embedding files (a plan's `models`): their files' checksums, which name
//! their measure folders and are recorded in the manifest.

use std::path::PathBuf;

use anyhow::{Context, Result};
use retest_spec::ModelFiles;
use serde::Serialize;

/// One file and its sha256.
#[derive(Clone, Debug, Serialize)]
pub struct FileSum {
    pub file: PathBuf,
    pub sha256: String,
}

/// The checksums of a model's seed files (in seed order) and of its counts file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FileSums {
    pub files: Vec<FileSum>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<FileSum>,
}

impl FileSums {
    /// Reads every file of `model` to checksum it.
    ///
    /// # Errors
    ///
    /// A file that cannot be read.
    pub fn of(model: &ModelFiles) -> Result<FileSums> {
        let sum = |file: &PathBuf| -> Result<FileSum> {
            let sha256 = retest_data::sha256_file(file).with_context(|| format!("model `{}`", model.name))?;
            Ok(FileSum {
                file: file.clone(),
                sha256,
            })
        };
        Ok(FileSums {
            files: model.files.iter().map(sum).collect::<Result<_>>()?,
            counts: model.counts.as_ref().map(sum).transpose()?,
        })
    }

    /// The seed files' checksums, in seed order.
    pub fn seeds(&self) -> Vec<String> {
        self.files.iter().map(|f| f.sha256.clone()).collect()
    }
}
