//! The two lexical word features of the regression input of Du, Fang & Nguyen (2021,
//! `mlr/calc_word_property.py`), computed as NLTK 3.8.1 computes them, without Python:
//!
//! * the number of WordNet 3.0 senses, `len(wn.synsets(word))` — every part of speech, with
//!   NLTK's morphological analysis ([`WordNet::morphy`]);
//! * the most common universal part of speech of the word in the tagged Brown corpus,
//!   `ConditionalFreqDist((w.lower(), t) for w, t in brown.tagged_words(tagset='universal'))`
//!   then `most_common(1)`.
//!
//! [`Lexicon::load`] reads NLTK's data packages (`wordnet.zip`, `brown.zip`,
//! `universal_tagset.zip`) or the same files unpacked in folders (WordNet also as Debian's
//! `wordnet-base` database folder). Zip archives are read by a small built-in reader.
//! `tests/fixtures/nltk_reference.tsv`, written by NLTK itself, checks both features word by
//! word.

mod brown;
mod wordnet;
mod zip;

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

pub use brown::{TagCounts, TagMap, UNIVERSAL_TAGS, is_corpus_file};
pub use wordnet::{PARTS_OF_SPEECH, WordNet};
pub use zip::{ZipArchive, ZipError};

/// Why a lexical resource cannot be loaded. Each message names the file and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", path.display())]
    Zip {
        path: PathBuf,
        #[source]
        source: ZipError,
    },
    #[error("{}: no {expected} (looked for {})", path.display(), looked.join(", "))]
    Missing {
        path: PathBuf,
        expected: &'static str,
        looked: Vec<String>,
    },
    #[error("{}, {entry}, line {line}: {reason}", path.display())]
    Format {
        path: PathBuf,
        entry: String,
        line: usize,
        reason: String,
    },
}

/// A resource given as a folder of files or as a zip archive.
#[derive(Debug)]
enum Source {
    Folder(PathBuf),
    Zip(PathBuf, ZipArchive),
}

impl Source {
    fn open(path: &Path) -> Result<Source, Error> {
        if path.is_dir() {
            return Ok(Source::Folder(path.to_owned()));
        }
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let bytes = std::fs::read(path).map_err(io)?;
        let archive = ZipArchive::parse(bytes).map_err(|source| Error::Zip {
            path: path.to_owned(),
            source,
        })?;
        Ok(Source::Zip(path.to_owned(), archive))
    }

    fn path(&self) -> &Path {
        match self {
            Source::Folder(p) | Source::Zip(p, _) => p,
        }
    }

    /// The first of `names` present (relative to the folder, or entry names in the archive),
    /// with its name and its text.
    fn read_first(&self, names: &[String], expected: &'static str) -> Result<(String, String), Error> {
        for name in names {
            let bytes = match self {
                Source::Folder(dir) => {
                    let path = dir.join(name);
                    if !path.is_file() {
                        continue;
                    }
                    std::fs::read(&path).map_err(|source| Error::Io { path, source })?
                }
                Source::Zip(path, archive) => match archive.read(name) {
                    Ok(Some(bytes)) => bytes,
                    Ok(None) => continue,
                    Err(source) => {
                        return Err(Error::Zip {
                            path: path.clone(),
                            source,
                        });
                    }
                },
            };
            let text = String::from_utf8(bytes).map_err(|e| Error::Format {
                path: self.path().to_owned(),
                entry: name.clone(),
                line: 0,
                reason: format!("not UTF-8 text ({e})"),
            })?;
            return Ok((name.clone(), text));
        }
        Err(Error::Missing {
            path: self.path().to_owned(),
            expected,
            looked: names.to_vec(),
        })
    }

    /// Names of the files of `folder` (an archive's entries under `folder/`; a folder's own
    /// files), relative to it, sorted.
    fn list(&self, folder: &str) -> Result<Vec<String>, Error> {
        let mut names: Vec<String> = match self {
            Source::Folder(dir) => {
                let io = |source| Error::Io {
                    path: dir.clone(),
                    source,
                };
                let mut names = Vec::new();
                for entry in std::fs::read_dir(dir).map_err(io)? {
                    let entry = entry.map_err(io)?;
                    if entry.path().is_file() {
                        names.push(entry.file_name().to_string_lossy().into_owned());
                    }
                }
                names
            }
            Source::Zip(_, archive) => {
                let prefix = format!("{folder}/");
                archive
                    .names()
                    .filter_map(|n| n.strip_prefix(&prefix))
                    .filter(|n| !n.is_empty() && !n.ends_with('/'))
                    .map(str::to_owned)
                    .collect()
            }
        };
        names.sort();
        Ok(names)
    }

    /// `name` inside `folder` of an archive; `name` itself in a folder.
    fn name_in(&self, folder: &str, name: &str) -> String {
        match self {
            Source::Folder(_) => name.to_owned(),
            Source::Zip(..) => format!("{folder}/{name}"),
        }
    }
}

/// WordNet sense counts and Brown parts of speech, loaded once and queried per word.
#[derive(Debug)]
pub struct Lexicon {
    wordnet: WordNet,
    /// Lowercased Brown word → index into [`UNIVERSAL_TAGS`] of its most common tag.
    pos: FxHashMap<Box<str>, u8>,
    n_brown_tokens: u64,
}

impl Lexicon {
    /// Loads WordNet from `wordnet` (a database folder with `index.noun`, `noun.exc`, …, or
    /// NLTK's `wordnet.zip` holding `wordnet/index.noun`, …), the tagged Brown corpus from
    /// `brown` (NLTK's `brown.zip`, or its unpacked `brown` folder: the files named
    /// `c[a-z]\d\d`, in sorted order) and the tag map from `universal_tagset` (NLTK's
    /// `universal_tagset.zip` holding `universal_tagset/en-brown.map`, or a folder with
    /// `en-brown.map`).
    ///
    /// # Errors
    ///
    /// A file that cannot be read, an archive that is not a supported zip, a missing file or
    /// entry, or a line not in the expected format; the message names the file and the entry.
    pub fn load(wordnet: &Path, brown: &Path, universal_tagset: &Path) -> Result<Lexicon, Error> {
        let wordnet = load_wordnet(wordnet)?;
        let map = load_tag_map(universal_tagset)?;
        let (pos, n_brown_tokens) = load_brown(brown, &map)?;
        Ok(Lexicon {
            wordnet,
            pos,
            n_brown_tokens,
        })
    }

    /// `len(wn.synsets(word))` in NLTK 3.8.1: senses over all parts of speech, after
    /// lowercasing and morphological analysis; 0 when WordNet does not know the word.
    pub fn n_senses(&self, word: &str) -> u32 {
        self.wordnet.n_senses(word)
    }

    /// The most common universal tag (one of [`UNIVERSAL_TAGS`]) of the lowercased word in
    /// the tagged Brown corpus (ties: the tag seen first in corpus order), or `None` when the
    /// word does not occur in Brown.
    pub fn pos(&self, word: &str) -> Option<&str> {
        let tag = match self.pos.get(word) {
            Some(&tag) => tag,
            None => *self.pos.get(word.to_lowercase().as_str())?,
        };
        Some(UNIVERSAL_TAGS[usize::from(tag)])
    }

    /// Number of distinct lowercased words of Brown.
    pub fn n_brown_words(&self) -> usize {
        self.pos.len()
    }

    /// Number of tokens of Brown read.
    pub fn n_brown_tokens(&self) -> u64 {
        self.n_brown_tokens
    }

    /// Number of (lemma, part of speech) entries of the WordNet index.
    pub fn n_wordnet_lemmas(&self) -> usize {
        self.wordnet.n_lemmas()
    }
}

fn load_wordnet(path: &Path) -> Result<WordNet, Error> {
    let source = Source::open(path)?;
    let mut wordnet = WordNet::default();
    for (p, &(_, suffix)) in PARTS_OF_SPEECH.iter().enumerate() {
        // NLTK's layout (`wordnet/index.noun`) first, then the file at the top of an archive.
        let candidates = |file: String| {
            let nested = source.name_in("wordnet", &file);
            if nested == file {
                vec![file]
            } else {
                vec![nested, file]
            }
        };
        let (entry, text) =
            source.read_first(&candidates(format!("index.{suffix}")), "WordNet index file")?;
        wordnet.add_index(&text).map_err(|e| Error::Format {
            path: path.to_owned(),
            entry,
            line: e.line,
            reason: e.reason,
        })?;
        let (_, text) = source.read_first(&candidates(format!("{suffix}.exc")), "WordNet exception list")?;
        wordnet.add_exceptions(p, &text);
    }
    Ok(wordnet)
}

fn load_tag_map(path: &Path) -> Result<TagMap, Error> {
    let source = Source::open(path)?;
    let names = [source.name_in("universal_tagset", "en-brown.map")];
    let (entry, text) = source.read_first(&names, "Brown-to-universal tag map")?;
    TagMap::parse(&text).map_err(|e| Error::Format {
        path: path.to_owned(),
        entry,
        line: e.line,
        reason: e.reason,
    })
}

fn load_brown(path: &Path, map: &TagMap) -> Result<(FxHashMap<Box<str>, u8>, u64), Error> {
    let source = Source::open(path)?;
    let files: Vec<String> = source
        .list("brown")?
        .into_iter()
        .filter(|n| is_corpus_file(n))
        .collect();
    if files.is_empty() {
        return Err(Error::Missing {
            path: path.to_owned(),
            expected: "Brown corpus files",
            looked: vec![source.name_in("brown", "c[a-z][0-9][0-9]")],
        });
    }
    let mut counts = TagCounts::default();
    for file in &files {
        let (_, text) = source.read_first(&[source.name_in("brown", file)], "Brown corpus file")?;
        counts.add_file(&text, map);
    }
    Ok((counts.most_common(), counts.n_tokens()))
}
