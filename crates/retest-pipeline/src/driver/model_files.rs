//! Models read from embedding files (a plan's `models`): their files' checksums, which name
//! their measure folders and are recorded in the manifest.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use anyhow::{Context, Result};
use retest_spec::ModelFiles;
use serde::{Deserialize, Serialize};

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
    /// The checksum of every file of `model`: from the cache file `cache` for a file whose size
    /// and modification time are those recorded there, read otherwise (and then recorded). A
    /// cache that cannot be read or written is only a slower run: every file is read.
    ///
    /// # Errors
    ///
    /// A file that cannot be read.
    pub fn of(model: &ModelFiles, cache: &Path) -> Result<FileSums> {
        let mut known = SumCache::load(cache);
        let mut changed = false;
        let mut sum = |file: &PathBuf| -> Result<FileSum> {
            let seen = Seen::of(file).with_context(|| format!("model `{}`", model.name))?;
            let key = std::path::absolute(file).unwrap_or_else(|_| file.clone());
            let sha256 = match known.0.get(&key) {
                Some((recorded, sha256)) if *recorded == seen => sha256.clone(),
                _ => {
                    let sha256 =
                        retest_data::sha256_file(file).with_context(|| format!("model `{}`", model.name))?;
                    known.0.insert(key, (seen, sha256.clone()));
                    changed = true;
                    sha256
                }
            };
            Ok(FileSum {
                file: file.clone(),
                sha256,
            })
        };
        let sums = FileSums {
            files: model.files.iter().map(&mut sum).collect::<Result<_>>()?,
            counts: model.counts.as_ref().map(&mut sum).transpose()?,
        };
        if changed {
            known.save(cache);
        }
        Ok(sums)
    }

    /// The seed files' checksums, in seed order.
    pub fn seeds(&self) -> Vec<String> {
        self.files.iter().map(|f| f.sha256.clone()).collect()
    }
}

/// What identifies a file's content without reading it: its size and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Seen {
    size: u64,
    modified_ns: u128,
}

impl Seen {
    fn of(file: &Path) -> std::io::Result<Seen> {
        let meta = std::fs::metadata(file)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
        let modified = meta.modified()?.duration_since(UNIX_EPOCH).unwrap_or_default();
        Ok(Seen {
            size: meta.len(),
            modified_ns: modified.as_nanos(),
        })
    }
}

/// The checksums of model files read before, by absolute path (the results folder's
/// `model-file-checksums.json`).
#[derive(Debug, Default, Serialize, Deserialize)]
struct SumCache(BTreeMap<PathBuf, (Seen, String)>);

impl SumCache {
    fn load(path: &Path) -> SumCache {
        (std::fs::read(path).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// Written atomically; another process writing it at the same time may win, which costs
    /// only a later read of the files it did not record.
    fn save(&self, path: &Path) {
        // A path that is not UTF-8 cannot be a JSON key: such a cache is not kept.
        if let Ok(json) = serde_json::to_vec_pretty(self) {
            let _ = path.parent().map(std::fs::create_dir_all);
            let _ = retest_fs::write_atomic(path, &json);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_the_recorded_size_and_time_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let (file, cache) = (dir.path().join("a.vec"), dir.path().join("sums.json"));
        std::fs::write(&file, "1 1\nhe 1\n").unwrap();
        let model = ModelFiles {
            name: "m".into(),
            files: vec![file.clone(), file.clone()],
            format: None,
            corpus: "m".into(),
            lowercase: false,
            counts: None,
        };
        let sha = retest_data::sha256_file(&file).unwrap();
        assert_eq!(
            FileSums::of(&model, &cache).unwrap().seeds(),
            [sha.clone(), sha.clone()]
        );
        // A recorded checksum is taken as it is while size and time match...
        let mut known = SumCache::load(&cache);
        assert_eq!(known.0.len(), 1);
        known.0.values_mut().for_each(|(_, s)| *s = "recorded".into());
        known.save(&cache);
        assert_eq!(
            FileSums::of(&model, &cache).unwrap().seeds(),
            ["recorded", "recorded"]
        );
        // ... and the file is read again once it changes.
        std::fs::write(&file, "1 2\nhe 1 2\n").unwrap();
        let changed = retest_data::sha256_file(&file).unwrap();
        assert_ne!(changed, sha);
        assert_eq!(
            FileSums::of(&model, &cache).unwrap().seeds(),
            [changed.clone(), changed]
        );
        // A cache that does not parse is read past.
        std::fs::write(&cache, "{").unwrap();
        assert!(FileSums::of(&model, &cache).is_ok());
    }
}
