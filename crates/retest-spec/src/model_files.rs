//! Models read from embedding files a study already has (a pipeline's `models` section): each
//! file is one seed of its model, and every measure and reliability table treats those seeds as
//! it treats the seeds a pipeline trains.
//!
//! ```yaml
//! models:
//!   - name: fasttext
//!     files: vectors/fasttext-seed*.vec   # a glob, or a list of files
//!     format: word2vec-text                # optional: detected from each file
//!     corpus: wiki                         # the tables' `corpus` column (default: the name)
//!     lowercase: true                      # look lists up lowercased (default: false)
//!     counts: vectors/wiki-counts.txt      # `word count` per line: the frequency predictor
//! ```
//!
//! Paths are relative to the pipeline file's folder. The files are sorted by path, and the n-th
//! is seed n.

use std::path::{Path, PathBuf};

use retest_embeddings::Format;
use serde::{Deserialize, Serialize};

use crate::defaults;
use crate::document::Document;
use crate::error::SpecError;
use crate::recipe::check_name;

/// A model whose seeds are embedding files.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelFiles {
    /// The model's name: the tables' `algorithm` column and its measure folder.
    pub name: String,
    /// The tables' `corpus` column.
    pub corpus: String,
    /// Every seed's file, sorted by path.
    pub files: Vec<PathBuf>,
    /// The files' format; `None`: detected from each file's content.
    #[serde(serialize_with = "format_name")]
    pub format: Option<Format>,
    /// Whether the set-level, analogy and base-pair lists are looked up lowercased, as on a
    /// corpus whose reader lowercases.
    pub lowercase: bool,
    /// A word-count file (`word count` per line) for the words' frequency; without it the
    /// regression input has no frequency for this model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<PathBuf>,
}

fn format_name<S: serde::Serializer>(format: &Option<Format>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(format.map_or("detect", Format::as_str))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawModelFiles {
    name: String,
    files: RawFiles,
    format: Option<String>,
    corpus: Option<String>,
    lowercase: Option<bool>,
    counts: Option<String>,
}

/// `files:` as a glob or as a list of paths.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawFiles {
    Glob(String),
    List(Vec<String>),
}

/// The `models` entries of a pipeline, checked: names unique and not among `taken` (the trained
/// models' names), at least two files each, every file present, counts file present.
pub(crate) fn resolve_model_files<T>(
    doc: &Document<T>,
    raw: &[RawModelFiles],
    taken: &[String],
) -> Result<Vec<ModelFiles>, SpecError> {
    let base = doc.file.parent().unwrap_or(Path::new("."));
    let mut models: Vec<ModelFiles> = Vec::new();
    for (i, entry) in raw.iter().enumerate() {
        let field = format!("models[{i}]");
        check_name(doc, &format!("{field}.name"), "model", &entry.name)?;
        if taken.contains(&entry.name) || models.iter().any(|m| m.name == entry.name) {
            return Err(doc.error(
                &format!("{field}.name"),
                format!("another model is already named `{}`", entry.name),
            ));
        }
        let corpus = entry.corpus.clone().unwrap_or_else(|| entry.name.clone());
        check_name(doc, &format!("{field}.corpus"), "corpus", &corpus)?;
        let format = (entry.format.as_deref())
            .map(|name| {
                name.parse::<Format>().map_err(|_| {
                    let known: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                    doc.error(
                        &format!("{field}.format"),
                        format!("unknown format `{name}`: expected one of {}", known.join(", ")),
                    )
                })
            })
            .transpose()?;
        let files = resolve_files(doc, &format!("{field}.files"), &entry.files, base)?;
        let counts = (entry.counts.as_deref())
            .map(|counts| {
                let path = base.join(counts);
                if path.is_file() {
                    Ok(path)
                } else {
                    Err(doc.error(
                        &format!("{field}.counts"),
                        format!("no word-count file {}", path.display()),
                    ))
                }
            })
            .transpose()?;
        models.push(ModelFiles {
            name: entry.name.clone(),
            corpus,
            files,
            format,
            lowercase: entry.lowercase.unwrap_or(false),
            counts,
        });
    }
    Ok(models)
}

/// The files of `files` (at `field`), relative to `base`, sorted: a glob's matches or the
/// listed paths, at least two, each an existing file named once.
fn resolve_files<T>(
    doc: &Document<T>,
    field: &str,
    files: &RawFiles,
    base: &Path,
) -> Result<Vec<PathBuf>, SpecError> {
    let mut paths = match files {
        RawFiles::Glob(pattern) => {
            let full = base.join(pattern);
            let matches = glob::glob(&full.to_string_lossy())
                .map_err(|e| doc.error(field, format!("`{pattern}` is not a valid pattern: {}", e.msg)))?;
            let paths: Vec<PathBuf> = matches.filter_map(Result::ok).filter(|p| p.is_file()).collect();
            if paths.is_empty() {
                return Err(doc.error(field, format!("`{}` matches no file", full.display())));
            }
            paths
        }
        RawFiles::List(list) => {
            let mut paths = Vec::with_capacity(list.len());
            for (i, file) in list.iter().enumerate() {
                let path = base.join(file);
                if !path.is_file() {
                    return Err(doc.error(&format!("{field}[{i}]"), format!("no file {}", path.display())));
                }
                if paths.contains(&path) {
                    return Err(doc.error(&format!("{field}[{i}]"), format!("`{file}` is listed twice")));
                }
                paths.push(path);
            }
            paths
        }
    };
    if paths.len() < 2 {
        return Err(doc.error(
            field,
            format!(
                "{} file: reliability across seeds needs at least 2 files, one per seed",
                paths.len()
            ),
        ));
    }
    if paths.len() > defaults::MAX_SEEDS as usize {
        return Err(doc.error(
            field,
            format!(
                "{} files is too many seeds: at most {}",
                paths.len(),
                defaults::MAX_SEEDS
            ),
        ));
    }
    paths.sort();
    Ok(paths)
}

impl crate::Plan {
    /// The model read from files named `name`.
    pub fn model_files_named(&self, name: &str) -> Option<&ModelFiles> {
        self.model_files.iter().find(|m| m.name == name)
    }

    /// The seeds of model `name`: its files when it is read from files (or debiases one that
    /// is), else `n_seeds`.
    pub fn seeds_of(&self, name: &str) -> usize {
        let name = self.debiased_base(name).unwrap_or(name);
        self.model_files_named(name)
            .map_or(self.n_seeds as usize, |m| m.files.len())
    }
}
