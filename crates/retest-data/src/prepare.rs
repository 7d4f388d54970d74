//! Preparing a corpus: resolve its files, read and encode them, write the result atomically.
//!
//! The output folder `<out_root>/<name>-<key>/` holds [`CORPUS_FILE`] (the encoded token
//! stream), [`VOCAB_FILE`] (word and count per line, in id order) and [`STATS_FILE`]. Its key is
//! a hash of everything the content depends on (reader and its options, min_count, max_tokens
//! and the SHA-256 of every source), so a changed input gets a new folder and an unchanged one
//! is found and reused. A reader option enters the key only when it differs from what the
//! reader does without it (see `reader_key`), so existing keys stay valid. The folder is built
//! under a temporary name (`.tmp-<name>-XXXXXX`, made before any source is read) and renamed
//! into place, so a folder with the final name is always complete; it is published once: a
//! second preparation of the same key finding it published keeps it (another process may be
//! counting into it) unless forced. A process killed meanwhile
//! leaves the temporary; [`stale_preparations`] finds such folders by that name for a caller that
//! knows no other preparation is running.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use retest_corpus::{
    CaseHandling, CorpusBuilder, CorpusStats, PlainTextOptions, ReadSummary, RedditOptions, WikiTextOptions,
    decompress,
};
use retest_spec::{CorpusRecipe, ReaderSpec, UnkHandling};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::DataError;
use crate::lock::LockFile;
use crate::progress::bytes_bar;
use crate::resolve::{ResolvedFile, Resolver};

/// The encoded token stream (see `retest_corpus` for the format).
pub const CORPUS_FILE: &str = "corpus.bin";
/// The vocabulary: `word<TAB>count` per line, in id order.
pub const VOCAB_FILE: &str = "vocab.tsv";
/// Corpus statistics and provenance, written last.
pub const STATS_FILE: &str = "stats.json";

/// Version of the preparation; part of every key, bumped when the output of a reader changes.
const PREPARE_VERSION: u32 = 1;

/// The temporary folder of a preparation is `<TEMPORARY_PREFIX><name>-XXXXXX`.
const TEMPORARY_PREFIX: &str = ".tmp-";
/// Length of the random part of that name (`tempfile`'s default, set explicitly).
const TEMPORARY_RANDOM_LEN: usize = 6;
/// Length of the key's part in a prepared folder's name (`<name>-<key>`).
const DIR_KEY_LEN: usize = 16;

/// A prepared corpus on disk.
#[derive(Clone, Debug)]
pub struct PreparedCorpus {
    pub dir: PathBuf,
    pub stats: PreparedStats,
}

impl PreparedCorpus {
    pub fn corpus_path(&self) -> PathBuf {
        self.dir.join(CORPUS_FILE)
    }

    pub fn vocab_path(&self) -> PathBuf {
        self.dir.join(VOCAB_FILE)
    }
}

/// Whether [`prepare_corpus`] did the work or found it done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrepareOutcome {
    Prepared,
    AlreadyPrepared,
}

/// What `stats.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PreparedStats {
    pub corpus: String,
    pub key: String,
    pub reader: serde_json::Value,
    pub min_count: u64,
    pub max_tokens: Option<u64>,
    pub sources: Vec<SourceStats>,
    pub stats: CorpusStats,
}

/// One source file as read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SourceStats {
    pub file: String,
    pub sha256: String,
    pub compression: String,
    /// `None` when the token limit was reached before this file.
    pub read: Option<ReadSummary>,
}

/// Resolves, reads and encodes `recipe` under `out_root`, unless an identical preparation
/// is already there (or `force`). Checksums the resolver learnt for the recipe's sources are
/// recorded in its lock file only once the corpus is prepared (or found prepared): a source that
/// fails to read is never recorded.
pub fn prepare_corpus(
    recipe: &CorpusRecipe,
    resolver: &mut Resolver,
    out_root: &Path,
    force: bool,
) -> Result<(PreparedCorpus, PrepareOutcome), DataError> {
    let files = resolver.resolve_all(recipe)?;
    let key = content_key(recipe, files.iter().map(|f| (f.file.as_str(), f.sha256.as_str())));
    let dir = out_root.join(format!("{}-{}", recipe.name, &key[..DIR_KEY_LEN]));
    let stats_path = dir.join(STATS_FILE);
    if !force && let Some(stats) = published_stats(&stats_path)? {
        resolver.record_learnt(&recipe.name)?;
        return Ok((PreparedCorpus { dir, stats }, PrepareOutcome::AlreadyPrepared));
    }

    // Made before reading, so that a folder that cannot be written fails before hours of work.
    std::fs::create_dir_all(out_root).map_err(DataError::io(out_root))?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!("{TEMPORARY_PREFIX}{}-", recipe.name))
        .rand_bytes(TEMPORARY_RANDOM_LEN)
        .tempdir_in(out_root)
        .map_err(DataError::io(out_root))?;
    let mut builder = CorpusBuilder::new(recipe.max_tokens);
    let mut sources = Vec::with_capacity(files.len());
    for file in &files {
        let (compression, read) = if builder.is_full() {
            ("-".to_owned(), None)
        } else {
            let (compression, summary) = read_source(&mut builder, &recipe.reader, file)?;
            (compression, Some(summary))
        };
        sources.push(SourceStats {
            file: file.file.clone(),
            sha256: file.sha256.clone(),
            compression,
            read,
        });
    }
    let corpus = builder.finish(recipe.min_count);
    if corpus.tokens().is_empty() {
        return Err(DataError::EmptyCorpus {
            corpus: recipe.name.clone(),
            min_count: recipe.min_count,
            max_tokens: recipe.max_tokens,
        });
    }
    let stats = PreparedStats {
        corpus: recipe.name.clone(),
        key: key.clone(),
        reader: serde_json::to_value(&recipe.reader).expect("reader spec serialises"),
        min_count: recipe.min_count,
        max_tokens: recipe.max_tokens,
        sources,
        stats: corpus.stats().clone(),
    };

    // Written into the temporary, named in errors as the files of `dir` they become.
    let staged = [tmp.path(), &dir];
    write_with(staged, CORPUS_FILE, |w| corpus.write_binary(w))?;
    write_with(staged, VOCAB_FILE, |w| corpus.write_vocab(w))?;
    let json = serde_json::to_string_pretty(&stats).expect("stats serialise") + "\n";
    write_with(staged, STATS_FILE, |w| w.write_all(json.as_bytes()))?;
    // Published once: a complete folder of this key that another process published meanwhile
    // (the same bytes) is kept, since that process may be counting co-occurrences into it; only
    // `force`, or a folder that is not a complete preparation, is replaced.
    if dir.exists() && (force || published_stats(&stats_path)?.is_none()) {
        std::fs::remove_dir_all(&dir).map_err(DataError::io(&dir))?;
    }
    if let Err(error) = retest_fs::publish_dir(tmp.path(), &dir) {
        // The temporary is removed when `tmp` drops.
        return match published_stats(&stats_path)? {
            Some(stats) if !force => {
                resolver.record_learnt(&recipe.name)?;
                Ok((PreparedCorpus { dir, stats }, PrepareOutcome::AlreadyPrepared))
            }
            _ => Err(error.into()),
        };
    }
    // Renamed: nothing is left at the temporary path for the guard to remove.
    let _ = tmp.keep();
    resolver.record_learnt(&recipe.name)?;
    Ok((PreparedCorpus { dir, stats }, PrepareOutcome::Prepared))
}

/// The statistics of the complete preparation whose stats file is `path`, or `None` when there
/// is none (no file, or one that does not parse: not a finished preparation).
fn published_stats(path: &Path) -> Result<Option<PreparedStats>, DataError> {
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(DataError::io(path))?;
    Ok(serde_json::from_str(&text).ok())
}

/// The temporary folders in `out_root` that preparations killed before renaming them left:
/// exactly the names [`prepare_corpus`] makes, `.tmp-<name>-XXXXXX` with a corpus name
/// (lowercase letters, digits, `-`, `_`) and six random letters or digits, and only folders.
/// Sorted. Removing them is safe only while no other process prepares a corpus in `out_root`:
/// a running preparation's folder has the same form.
pub fn stale_preparations(out_root: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> =
        entries_where(out_root, |name, is_dir| is_dir && is_preparation_temporary(name));
    found.sort();
    found
}

/// The prepared corpus folders in `out_root` (`<name>-<16 hex digits>`, the folders
/// [`prepare_corpus`] publishes), sorted.
pub fn prepared_dirs(out_root: &Path) -> Vec<PathBuf> {
    let mut found = entries_where(out_root, |name, is_dir| {
        is_dir
            && name.rsplit_once('-').is_some_and(|(corpus, key)| {
                is_corpus_name(corpus)
                    && key.len() == DIR_KEY_LEN
                    && key
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            })
    });
    found.sort();
    found
}

/// The entries of `dir` (not following symbolic links) whose name and kind pass `keep`; none if
/// `dir` cannot be read.
fn entries_where(dir: &Path, keep: impl Fn(&str, bool) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            entry.file_name().to_str().is_some_and(|name| keep(name, is_dir))
        })
        .map(|entry| entry.path())
        .collect()
}

/// Whether `name` is `.tmp-<corpus>-XXXXXX` as [`prepare_corpus`] names its temporary folder.
fn is_preparation_temporary(name: &str) -> bool {
    name.strip_prefix(TEMPORARY_PREFIX)
        .and_then(|rest| rest.rsplit_once('-'))
        .is_some_and(|(corpus, random)| {
            is_corpus_name(corpus)
                && random.len() == TEMPORARY_RANDOM_LEN
                && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// The characters of a corpus name, as recipes allow them.
fn is_corpus_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// Reads one source file into the builder; returns its compression and what was read.
fn read_source(
    builder: &mut CorpusBuilder,
    reader: &ReaderSpec,
    file: &ResolvedFile,
) -> Result<(String, ReadSummary), DataError> {
    let path = &file.path;
    let corpus_error = |source| DataError::Corpus {
        path: path.clone(),
        source,
    };
    let handle = File::open(path).map_err(DataError::io(path))?;
    if let ReaderSpec::HfParquet { unk } = reader {
        let summary = builder
            .read_hf_parquet(
                handle,
                &WikiTextOptions {
                    unk: unk_option(*unk),
                },
            )
            .map_err(corpus_error)?;
        return Ok(("parquet".to_owned(), summary));
    }
    let size = handle.metadata().map_err(DataError::io(path))?.len();
    let bar = bytes_bar(Some(size), format!("read {}", file.file));
    let (compression, stream) = decompress(bar.wrap_read(handle)).map_err(DataError::io(path))?;
    let stream = BufReader::with_capacity(1 << 20, stream);
    let summary = match reader {
        ReaderSpec::Wikitext { unk } => builder.read_wikitext(
            stream,
            &WikiTextOptions {
                unk: unk_option(*unk),
            },
        ),
        ReaderSpec::PlainText { case } => builder.read_plain_text(stream, &PlainTextOptions { case: *case }),
        ReaderSpec::Reddit {
            subreddits,
            years,
            newlines,
            sentences,
            case,
        } => builder.read_reddit(
            stream,
            &RedditOptions {
                subreddits: subreddits.clone(),
                years: years.clone(),
                newlines: *newlines,
                sentences: *sentences,
                case: *case,
            },
        ),
        ReaderSpec::HfParquet { .. } => unreachable!("parquet sources are read above"),
    }
    .map_err(corpus_error)?;
    bar.finish_and_clear();
    Ok((compression.as_str().to_owned(), summary))
}

fn unk_option(unk: UnkHandling) -> retest_corpus::UnkHandling {
    match unk {
        UnkHandling::Keep => retest_corpus::UnkHandling::Keep,
        UnkHandling::RawUnk => retest_corpus::UnkHandling::RawUnk,
    }
}

/// The prepared corpus of `recipe` under `out_root`, found without reading any source: each
/// source's SHA-256 comes from the recipe or from `lock` (a preparation records there the
/// checksums a recipe does not give). `None` when a checksum is not known yet or no complete
/// preparation with that key exists.
pub fn find_prepared(
    recipe: &CorpusRecipe,
    lock: &LockFile,
    out_root: &Path,
) -> Result<Option<PreparedCorpus>, DataError> {
    let mut sources = Vec::with_capacity(recipe.sources.len());
    for source in &recipe.sources {
        let sha256 = match &source.sha256 {
            Some(sha) => sha.as_str(),
            None => match lock.get(&recipe.name, &source.file) {
                Some(sha) => sha,
                None => return Ok(None),
            },
        };
        sources.push((source.file.as_str(), sha256));
    }
    let key = content_key(recipe, sources.into_iter());
    let dir = out_root.join(format!("{}-{}", recipe.name, &key[..DIR_KEY_LEN]));
    let stats_path = dir.join(STATS_FILE);
    if !stats_path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&stats_path).map_err(DataError::io(&stats_path))?;
    match serde_json::from_str::<PreparedStats>(&text) {
        Ok(stats) if stats.key == key => Ok(Some(PreparedCorpus { dir, stats })),
        _ => Ok(None),
    }
}

/// The hash of everything a prepared corpus depends on; `sources` are (file name, SHA-256).
fn content_key<'a>(recipe: &CorpusRecipe, sources: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let key = serde_json::json!({
        "version": PREPARE_VERSION,
        "reader": reader_key(&recipe.reader),
        "min_count": recipe.min_count,
        "max_tokens": recipe.max_tokens,
        "sources": sources.map(|(file, sha256)| [file, sha256]).collect::<Vec<_>>(),
    });
    hex::encode(Sha256::digest(key.to_string().as_bytes()))
}

/// The reader and its options as they enter the key: the reader's serialisation, without
/// `case` when it is `lower`. A recipe without the option lowercases and so keeps the key it
/// has without the field (its prepared corpus and embeddings stay valid), while `case: keep`
/// gets keys of its own.
fn reader_key(reader: &ReaderSpec) -> serde_json::Value {
    let mut value = serde_json::to_value(reader).expect("reader spec serialises");
    if reader.case() == Some(CaseHandling::Lower) {
        value
            .as_object_mut()
            .expect("a reader serialises as a map")
            .remove("case");
    }
    value
}

/// Writes `staging/name` through `write` and syncs it; errors name `target/name`, the path the
/// file has once `staging` is published as `target`.
fn write_with(
    [staging, target]: [&Path; 2],
    name: &str,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), DataError> {
    let shown = target.join(name);
    let file = File::create(staging.join(name)).map_err(DataError::io(&shown))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    write(&mut w).map_err(DataError::io(&shown))?;
    let file = w.into_inner().map_err(|e| DataError::Io {
        path: shown.clone(),
        source: e.into_error(),
    })?;
    file.sync_all().map_err(DataError::io(&shown))
}

/// Writes `bytes` to `path` atomically (`retest_fs::write_atomic`), creating its folder first.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DataError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(DataError::io(dir))?;
    Ok(retest_fs::write_atomic(path, bytes)?)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use retest_spec::{CaseHandling, CorpusRecipe, ReaderSpec};

    use super::{content_key, is_preparation_temporary};

    fn project_recipe(name: &str) -> CorpusRecipe {
        CorpusRecipe::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../corpora/{name}.yaml")))
            .unwrap()
    }

    /// The key of a recipe whose sources all give their SHA-256.
    fn key_of(recipe: &CorpusRecipe) -> String {
        let sources = recipe.sources.iter().map(|s| {
            (
                s.file.as_str(),
                s.sha256.as_deref().expect("a checksum in the recipe"),
            )
        });
        content_key(recipe, sources)
    }

    /// Keys of the shipped plain-text and Reddit recipes, pinned: a new reader option must not
    /// move corpora prepared (and embeddings trained) before it existed. Computed independently:
    /// python3 -c 'import hashlib,json; print(hashlib.sha256(json.dumps({"max_tokens": None,
    ///   "min_count": 5, "reader": {"format": "plain-text"}, "sources":
    ///   [["gutenberg_lahiri_150M.txt.xz", "60de362d…23d3"]], "version": 1},
    ///   separators=(",", ":"), sort_keys=True).encode()).hexdigest())'
    /// (`max_tokens` 5000000 for the slice; for Reddit the reader is `{"format": "reddit",
    /// "newlines": "space", "sentences": "split", "subreddits": [], "years": [2005]}`).
    #[test]
    fn keys_of_existing_recipes_are_unchanged() {
        let gutenberg = project_recipe("gutenberg");
        assert_eq!(
            key_of(&gutenberg),
            "9d963c96e3c67b64fe638462869afb92bc32783892a54cc500f17e1624b2bc07"
        );
        let slice = CorpusRecipe {
            max_tokens: Some(5_000_000),
            ..gutenberg
        };
        assert_eq!(
            key_of(&slice),
            "881cf4fdc03f5e566d9cc4dfc6c958fd751790c60127edf94c05077d35b72927"
        );
        assert_eq!(
            key_of(&project_recipe("reddit-2005-12")),
            "9fcfbcc4e91d4398a0c02cf633a784838d3de15da99013798323c23b5c78e6c1"
        );
    }

    /// `case: keep` enters the key (so a cased read never reuses a lowercased one), while
    /// `case: lower` written out keeps the key of a recipe without the option. The cased
    /// Gutenberg recipe's key, computed as above with the reader `{"case": "keep", "format":
    /// "plain-text"}`, is pinned too.
    #[test]
    fn case_keep_is_part_of_the_key() {
        for name in ["gutenberg", "reddit-2005-12"] {
            let lower = project_recipe(name);
            let mut keep = lower.clone();
            match &mut keep.reader {
                ReaderSpec::PlainText { case } | ReaderSpec::Reddit { case, .. } => {
                    assert_eq!(*case, CaseHandling::Lower, "the default");
                    *case = CaseHandling::Keep;
                }
                other => panic!("a tokenising reader: {other:?}"),
            }
            assert_ne!(key_of(&lower), key_of(&keep), "{name}");
        }
        let cased = project_recipe("gutenberg-cased");
        assert_eq!(
            cased.reader,
            ReaderSpec::PlainText {
                case: CaseHandling::Keep
            }
        );
        assert_eq!(cased.sources, project_recipe("gutenberg").sources);
        assert_eq!(
            key_of(&cased),
            "f06a655c4248aa2c49870d5bf5a96f1151234bbcb59f7b3ff1c8cecf8093b7d3"
        );
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/gutenberg.yaml"),
        )
        .unwrap()
        .replace("format: plain-text", "format: plain-text\n  case: lower");
        assert!(text.contains("\n  case: lower\n"), "{text}");
        let explicit = CorpusRecipe::parse(&text, Path::new("corpora/gutenberg.yaml")).unwrap();
        assert_eq!(
            key_of(&explicit),
            "9d963c96e3c67b64fe638462869afb92bc32783892a54cc500f17e1624b2bc07"
        );
    }

    #[test]
    fn preparation_temporaries_are_recognised_by_their_exact_name() {
        for name in [
            ".tmp-wikitext-103-valid-aB3xY9",
            ".tmp-gutenberg-000000",
            ".tmp-a_b-zzzzzz",
        ] {
            assert!(is_preparation_temporary(name), "{name}");
        }
        for name in [
            ".tmp-wikitext-103-valid",
            ".tmp-wikitext-103-valid-aB3xY",
            ".tmp-wikitext-103-valid-aB3xY90",
            ".tmp-Notes-aB3xY9",
            ".tmp--aB3xY9",
            ".tmpaB3xY9",
            "tmp-gutenberg-aB3xY9",
            ".tmp-gutenberg-aB3.Y9",
        ] {
            assert!(!is_preparation_temporary(name), "{name}");
        }
    }
}
