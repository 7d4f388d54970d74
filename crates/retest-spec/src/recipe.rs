//! Corpus recipes (`corpora/*.yaml`): where a corpus comes from and how it is read.
//!
//! ```yaml
//! name: wikitext-103-valid
//! description: WikiText-103 validation split, tokenised, cased
//! licence: CC BY-SA 3.0
//! reader:
//!   format: wikitext        # wikitext | plain-text | reddit | hf-parquet
//!   unk: keep               # keep | raw-unk   (wikitext, hf-parquet)
//!   # plain-text and reddit: case: lower | keep   (default lower; keep: NFKC and the same
//!   #                        tokens, not lowercased)
//!   # reddit only: subreddits: [..], years: [..], newlines: space | glue,
//!   #              sentences: split | comment
//! min_count: 5              # optional, default 5
//! max_tokens: 5000000       # optional: read only the first N tokens (a slice)
//! sources:
//!   - file: wiki.valid.tokens
//!     url: https://example.org/wiki.valid.tokens   # optional: where to download it
//!     sha256: 9aee9f52...                          # optional: else recorded on first download
//!     path: /data/wiki.valid.tokens                # optional: an explicit local copy
//! ```

use std::path::{Path, PathBuf};

use retest_corpus::{CaseHandling, NewlineHandling, SentenceSplitting};
use serde::{Deserialize, Serialize};

use crate::defaults;
use crate::document::Document;
use crate::error::SpecError;

/// How `<unk>` tokens of WikiText are written into the corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnkHandling {
    /// Keep `<unk>` as it is.
    Keep,
    /// Map `<unk>` to `<raw_unk>`, as the original study did before running GloVe.
    RawUnk,
}

/// The reader of a corpus, with the options that apply to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "format", rename_all = "kebab-case")]
pub enum ReaderSpec {
    /// WikiText token files: one paragraph per line, whitespace tokens, case kept.
    Wikitext { unk: UnkHandling },
    /// Plain text: paragraphs (blank-line separated) as sentences, NFKC, lowercased (unless
    /// `case` is `keep`), punctuation split.
    PlainText { case: CaseHandling },
    /// Reddit comment dumps (JSON lines, compressed or not), filtered by subreddit and year,
    /// tokenised like plain text.
    Reddit {
        subreddits: Vec<String>,
        years: Vec<i32>,
        newlines: NewlineHandling,
        sentences: SentenceSplitting,
        case: CaseHandling,
    },
    /// Hugging Face parquet exports of WikiText (the `text` column).
    HfParquet { unk: UnkHandling },
}

impl ReaderSpec {
    /// The case option of a tokenising reader (plain text, Reddit); `None` for the readers of
    /// tokenised files (WikiText, Hugging Face parquet), which keep tokens as they are.
    pub fn case(&self) -> Option<CaseHandling> {
        match self {
            ReaderSpec::PlainText { case } | ReaderSpec::Reddit { case, .. } => Some(*case),
            ReaderSpec::Wikitext { .. } | ReaderSpec::HfParquet { .. } => None,
        }
    }

    /// Whether the reader lowercases every token (plain text and Reddit with `case: lower`,
    /// their default); word lists are then looked up lowercased. WikiText, and plain text and
    /// Reddit with `case: keep`, keep case, and so does the lookup.
    pub fn lowercases(&self) -> bool {
        self.case() == Some(CaseHandling::Lower)
    }

    /// The stable name of the reader (`wikitext`, `plain-text`, `reddit`, `hf-parquet`).
    pub fn as_str(&self) -> &'static str {
        match self {
            ReaderSpec::Wikitext { .. } => "wikitext",
            ReaderSpec::PlainText { .. } => "plain-text",
            ReaderSpec::Reddit { .. } => "reddit",
            ReaderSpec::HfParquet { .. } => "hf-parquet",
        }
    }
}

/// One file of a corpus (or of a declared word list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    /// File name, as found in a mirror folder or the download cache.
    pub file: String,
    /// Where to download the file from, if it is not found locally.
    pub url: Option<String>,
    /// Expected SHA-256 (lowercase hex); `None` until known.
    pub sha256: Option<String>,
    /// An explicit local copy, tried first (relative paths are relative to the recipe).
    pub path: Option<PathBuf>,
}

/// A validated corpus recipe.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CorpusRecipe {
    pub name: String,
    pub description: String,
    pub licence: Option<String>,
    pub reader: ReaderSpec,
    pub min_count: u64,
    pub max_tokens: Option<u64>,
    pub sources: Vec<SourceSpec>,
    /// The recipe file (relative source paths are resolved against its folder).
    #[serde(skip)]
    pub file: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecipe {
    name: String,
    description: Option<String>,
    licence: Option<String>,
    reader: RawReader,
    min_count: Option<u64>,
    max_tokens: Option<u64>,
    sources: Vec<RawSource>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Format {
    Wikitext,
    PlainText,
    Reddit,
    HfParquet,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReader {
    format: Format,
    unk: Option<UnkHandling>,
    subreddits: Option<Vec<String>>,
    years: Option<Vec<i32>>,
    newlines: Option<NewlineHandling>,
    sentences: Option<SentenceSplitting>,
    case: Option<CaseHandling>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    file: String,
    url: Option<String>,
    sha256: Option<String>,
    path: Option<PathBuf>,
}

impl CorpusRecipe {
    /// Reads and validates the recipe at `path`. Its `name` must be the file's name without
    /// `.yaml`: a pipeline refers to a recipe by its file, and outputs carry its name.
    pub fn load(path: &Path) -> Result<Self, SpecError> {
        Self::from_document(Document::read(path)?)
    }

    /// Validates recipe text; `file` names it in errors, anchors relative paths and gives the
    /// name the recipe must have.
    pub fn parse(text: &str, file: &Path) -> Result<Self, SpecError> {
        Self::from_document(Document::parse(text, file)?)
    }

    fn from_document(doc: Document<RawRecipe>) -> Result<Self, SpecError> {
        let raw = &doc.raw;
        check_name(&doc, "name", "corpus", &raw.name)?;
        if let Some(stem) = doc.file.file_stem()
            && stem.to_str() != Some(raw.name.as_str())
        {
            return Err(doc.error(
                "name",
                format!(
                    "`{}` is not the file's name `{}`: a recipe is named after its file \
                     (write `name: {}` or rename the file to `{}.yaml`)",
                    raw.name,
                    stem.to_string_lossy(),
                    stem.to_string_lossy(),
                    raw.name
                ),
            ));
        }
        let reader = resolve_reader(&doc)?;
        let min_count = raw.min_count.unwrap_or(defaults::MIN_COUNT);
        check_min_count(&doc, "min_count", min_count)?;
        if raw.max_tokens == Some(0) {
            return Err(doc.error(
                "max_tokens",
                "must be at least 1 (omit it to read the whole corpus)",
            ));
        }
        if raw.sources.is_empty() {
            return Err(doc.error("sources", "a corpus needs at least one source file"));
        }
        let mut sources = Vec::with_capacity(raw.sources.len());
        for (i, source) in raw.sources.iter().enumerate() {
            if source.file.is_empty() || source.file.contains('/') {
                return Err(doc.error(
                    &format!("sources[{i}].file"),
                    "must be a plain file name (no folders); use `path` for a local copy elsewhere",
                ));
            }
            if let Some(sha) = &source.sha256
                && !(sha.len() == 64
                    && sha
                        .bytes()
                        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()))
            {
                return Err(doc.error(
                    &format!("sources[{i}].sha256"),
                    format!("`{sha}` is not a SHA-256: expected 64 lowercase hex digits"),
                ));
            }
            sources.push(SourceSpec {
                file: source.file.clone(),
                url: source.url.clone(),
                sha256: source.sha256.clone(),
                path: source.path.clone(),
            });
        }
        Ok(CorpusRecipe {
            name: raw.name.clone(),
            description: raw.description.clone().unwrap_or_default(),
            licence: raw.licence.clone(),
            reader,
            min_count,
            max_tokens: raw.max_tokens,
            sources,
            file: doc.file.clone(),
        })
    }

    /// The folder relative source paths are resolved against.
    pub fn dir(&self) -> &Path {
        self.file.parent().unwrap_or(Path::new("."))
    }
}

fn resolve_reader(doc: &Document<RawRecipe>) -> Result<ReaderSpec, SpecError> {
    let r = &doc.raw.reader;
    let only_for = |field: &str, format: &str| {
        doc.error(
            &format!("reader.{field}"),
            format!("`{field}` applies only to format `{format}`"),
        )
    };
    let is_reddit = matches!(r.format, Format::Reddit);
    if !is_reddit {
        if r.subreddits.is_some() {
            return Err(only_for("subreddits", "reddit"));
        }
        if r.years.is_some() {
            return Err(only_for("years", "reddit"));
        }
        if r.newlines.is_some() {
            return Err(only_for("newlines", "reddit"));
        }
        if r.sentences.is_some() {
            return Err(only_for("sentences", "reddit"));
        }
    }
    let unk = r.unk.unwrap_or(UnkHandling::Keep);
    let tokenises = matches!(r.format, Format::PlainText | Format::Reddit);
    if tokenises && r.unk.is_some() {
        return Err(only_for("unk", "wikitext or hf-parquet"));
    }
    if !tokenises && r.case.is_some() {
        return Err(only_for("case", "plain-text or reddit"));
    }
    let case = r.case.unwrap_or(defaults::CASE);
    Ok(match r.format {
        Format::Wikitext => ReaderSpec::Wikitext { unk },
        Format::HfParquet => ReaderSpec::HfParquet { unk },
        Format::PlainText => ReaderSpec::PlainText { case },
        Format::Reddit => ReaderSpec::Reddit {
            subreddits: r.subreddits.clone().unwrap_or_default(),
            years: r.years.clone().unwrap_or_default(),
            newlines: r.newlines.unwrap_or(defaults::REDDIT_NEWLINES),
            sentences: r.sentences.unwrap_or(defaults::REDDIT_SENTENCES),
            case,
        },
    })
}

pub(crate) fn check_min_count<T>(doc: &Document<T>, field: &str, min_count: u64) -> Result<(), SpecError> {
    if min_count == 0 {
        return Err(doc.error(
            field,
            "must be at least 1 (a word must occur to be in the vocabulary)",
        ));
    }
    Ok(())
}

/// Why `name`, the name of a `what` (corpus, pipeline, model, test), is not a name
/// ([`is_name`]); `None` when it is one.
pub fn name_problem(what: &str, name: &str) -> Option<String> {
    (!is_name(name))
        .then(|| format!("`{name}` is not a valid {what} name: use lowercase letters, digits, `-` and `_`"))
}

/// Fails, at `field` of `doc`, when `name`, the name of a `what`, is not a name ([`name_problem`]).
pub(crate) fn check_name<T>(doc: &Document<T>, field: &str, what: &str, name: &str) -> Result<(), SpecError> {
    match name_problem(what, name) {
        Some(message) => Err(doc.error(field, message)),
        None => Ok(()),
    }
}

/// Names of corpora and pipelines: lowercase ASCII letters, digits, `-` and `_`.
pub(crate) fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}
