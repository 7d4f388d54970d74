//! Where a measure job's seeds come from — the embeddings a pipeline trained on a prepared corpus,
//! or a model's own files (a plan's `models`), either of them hard-debiased (a plan's `debias`) —
//! and the vocabulary they share.
//!
//! Trained seeds all have their corpus's vocabulary. A model's files may not: they are read
//! whole, their vocabularies intersected (in the first file's order, which for trained models is
//! descending frequency), and every file's rows taken in that order; the words some file lacks
//! make the job's `model_vocabulary` coverage row. A word some file gives an all-zero vector has
//! no direction to measure: it is left out too, with a warning and a `zero_vector` row.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use retest_embeddings::{Embeddings, Format};
use retest_spec::{ModelFiles, Plan};
use retest_tables::CoverageRow;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::corpus::LoadedCorpus;
use crate::lists::DebiasLists;
use crate::stages::columns::ZERO_VECTOR;
use crate::stages::debias::hard_debias_embeddings;

/// The coverage table's `kind` of the row naming the words a model's files do not all have.
pub(crate) const MODEL_VOCABULARY: &str = "model_vocabulary";

/// The words every seed of a configuration has, as the stages see them.
#[derive(Debug)]
pub struct Vocabulary {
    /// The tables' `corpus` column.
    pub corpus: String,
    /// In id order.
    pub words: Vec<String>,
    /// Each word's corpus count, in id order; `None` when unknown (a model's files without a
    /// `counts` file).
    pub counts: Option<Vec<u64>>,
    /// Whether the set-level, analogy and base-pair lists are looked up lowercased.
    pub lowercase: bool,
}

impl Vocabulary {
    /// The vocabulary of prepared corpus `corpus` (`vocab`: its words in id order, with their
    /// counts), looked up lowercased when its reader lowercases.
    pub fn of_corpus(corpus: &str, vocab: &retest_corpus::Vocab, lowercase: bool) -> Vocabulary {
        Vocabulary {
            corpus: corpus.to_owned(),
            words: vocab.words().iter().map(|w| w.to_string()).collect(),
            counts: Some(vocab.counts().to_vec()),
            lowercase,
        }
    }

    /// The count of word `id`, 0 when unknown (a count is at least 1 otherwise).
    pub fn frequency(&self, id: u32) -> u64 {
        self.counts.as_ref().map_or(0, |counts| counts[id as usize])
    }
}

/// Whether corpus `corpus`'s reader lowercases (plain text and Reddit, unless read with
/// `case: keep`): the set-level, analogy and base-pair lists are then looked up lowercased.
pub fn reader_lowercases(plan: &Plan, corpus: &str) -> bool {
    (plan.corpora.iter())
        .find(|c| c.name == corpus)
        .is_some_and(|c| c.reader.lowercases())
}

/// Where one configuration's seeds come from.
#[derive(Debug)]
pub enum SeedSource<'a> {
    /// Seeds trained on a prepared corpus, one file per seed, in seed order.
    Trained {
        corpus: &'a LoadedCorpus,
        /// Whether the corpus's reader lowercases.
        lowercase: bool,
        files: Vec<PathBuf>,
    },
    /// A model's files, each a seed.
    Files(&'a ModelFiles),
    /// Another source's seeds, each hard-debiased with `lists` as it is read (a plan's
    /// `debias` section).
    Debiased {
        base: Box<SeedSource<'a>>,
        lists: &'a DebiasLists,
    },
}

impl SeedSource<'_> {
    /// The seed files, in seed order.
    pub fn files(&self) -> &[PathBuf] {
        match self {
            SeedSource::Trained { files, .. } => files,
            SeedSource::Files(model) => &model.files,
            SeedSource::Debiased { base, .. } => base.files(),
        }
    }

    /// The name of the corpus the seeds come from (the tables' `corpus`).
    pub fn corpus(&self) -> &str {
        match self {
            SeedSource::Trained { corpus, .. } => corpus.name(),
            SeedSource::Files(model) => &model.corpus,
            SeedSource::Debiased { base, .. } => base.corpus(),
        }
    }
}

/// A configuration's seeds, opened: their shared vocabulary, and each seed on demand.
pub(crate) struct Seeds<'a> {
    pub vocabulary: Vocabulary,
    /// The rows naming what the intersection of a model's vocabularies dropped: the words not
    /// in every file, and (when there are any) those with an all-zero vector in some file.
    pub coverage: Vec<CoverageRow>,
    pub reader: SeedReader<'a>,
}

/// One seed as read: its file, its vectors, and for a debiased seed the vectors before
/// debiasing.
pub(crate) struct ReadSeed {
    pub path: PathBuf,
    pub embeddings: Embeddings,
    pub original: Option<Embeddings>,
}

/// Hands out each seed, its rows in the vocabulary's order.
pub(crate) struct SeedReader<'a> {
    files: &'a [PathBuf],
    read: Read<'a>,
    /// The lists each seed is hard-debiased with, and whether they are looked up lowercased.
    debias: Option<(&'a DebiasLists, bool)>,
}

enum Read<'a> {
    /// Each seed read when asked for, checked against the corpus's vocabulary.
    Trained { corpus: &'a LoadedCorpus },
    /// Every seed already read and restricted to the shared vocabulary.
    Files(Vec<Option<Embeddings>>),
}

impl<'a> Seeds<'a> {
    /// Opens the seeds of `source`; `log` takes the lines a model's files give (each file read,
    /// the words left out).
    ///
    /// # Errors
    ///
    /// A model file that cannot be read, files of different dimensions, no word common to all
    /// files, or an unreadable counts file.
    pub fn open(source: &'a SeedSource<'a>, log: &dyn Fn(&str)) -> Result<Seeds<'a>> {
        match source {
            SeedSource::Trained {
                corpus,
                lowercase,
                files,
            } => Ok(Seeds {
                vocabulary: Vocabulary::of_corpus(corpus.name(), &corpus.vocab, *lowercase),
                coverage: Vec::new(),
                reader: SeedReader {
                    files,
                    read: Read::Trained { corpus },
                    debias: None,
                },
            }),
            SeedSource::Files(model) => open_files(model, log),
            SeedSource::Debiased { base, lists } => {
                let mut seeds = Seeds::open(base, log)?;
                seeds.reader.debias = Some((lists, seeds.vocabulary.lowercase));
                Ok(seeds)
            }
        }
    }
}

impl SeedReader<'_> {
    /// The number of seeds.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Seed `index` (0-based, each once, in order) and its file, its rows in the order of
    /// `words`, the seeds' vocabulary; debiased when the source is (the vectors before kept
    /// beside), what the first seed's debiasing did said on `log`.
    ///
    /// # Errors
    ///
    /// A trained seed's file that cannot be read or whose vocabulary is not the corpus's; a seed
    /// the debiasing lists miss.
    pub fn read(&mut self, index: usize, words: &[String], log: &dyn Fn(&str)) -> Result<ReadSeed> {
        let (path, emb) = self.read_source(index, words)?;
        let Some((lists, lowercase)) = self.debias else {
            return Ok(ReadSeed {
                path,
                embeddings: emb,
                original: None,
            });
        };
        let mut said = Vec::new();
        let debiased =
            hard_debias_embeddings(&path.display().to_string(), &emb, lists, lowercase, &mut said)?;
        if index == 0 {
            String::from_utf8_lossy(&said).lines().for_each(log);
        }
        Ok(ReadSeed {
            path,
            embeddings: debiased,
            original: Some(emb),
        })
    }

    /// Seed `index` as its source gives it.
    fn read_source(&mut self, index: usize, words: &[String]) -> Result<(PathBuf, Embeddings)> {
        let path = self.files[index].clone();
        let emb = match &mut self.read {
            Read::Trained { corpus } => {
                let emb = retest_embeddings::read(&path, Some(Format::Fifu))?;
                if emb.words() != words {
                    bail!(
                        "{}: its vocabulary ({} words) is not the corpus's ({} words in {}); retrain with --force",
                        path.display(),
                        emb.n_words(),
                        words.len(),
                        corpus.prepared.vocab_path().display()
                    );
                }
                emb
            }
            Read::Files(seeds) => seeds[index].take().expect("each seed is read once"),
        };
        Ok((path, emb))
    }
}

/// Reads every file of `model`, intersects their vocabularies and restricts each to it.
fn open_files<'a>(model: &'a ModelFiles, log: &dyn Fn(&str)) -> Result<Seeds<'a>> {
    let mut read = Vec::with_capacity(model.files.len());
    for path in &model.files {
        let emb =
            retest_embeddings::read(path, model.format).with_context(|| format!("model `{}`", model.name))?;
        if let Some(first) = read.first().map(Embeddings::dim)
            && first != emb.dim()
        {
            return Err(mixed_dimensions(model, path, emb.dim(), first));
        }
        log(&format!(
            "read {} ({} words, dimension {})",
            path.display(),
            emb.n_words(),
            emb.dim()
        ));
        read.push(emb);
    }
    let SharedWords {
        shared: words,
        missing,
        zero,
    } = shared_words(&read);
    if words.is_empty() {
        bail!("model `{}`: its files have no word in common", model.name);
    }
    let n_union = words.len() + missing.len() + zero.len();
    let counts = match &model.counts {
        Some(path) => Some(counts_of(&words, path, log)?),
        None => None,
    };
    let seeds = read.into_iter().map(|emb| Some(restrict(emb, &words))).collect();
    if !missing.is_empty() {
        log(&format!(
            "model `{}`: {} of {n_union} words are not in every file and are left out",
            model.name,
            missing.len()
        ));
    }
    let mut coverage = vec![CoverageRow::of(
        &model.corpus,
        &model.name,
        MODEL_VOCABULARY,
        n_union,
        &missing,
    )];
    if !zero.is_empty() {
        let source = format!("model `{}`", model.name);
        log(&format!(
            "warning: {}",
            zero_rows_left_out(&source, " in some file", &zero)
        ));
        let n_in_all = words.len() + zero.len();
        coverage.push(CoverageRow::of(
            &model.corpus,
            &model.name,
            ZERO_VECTOR,
            n_in_all,
            &zero,
        ));
    }
    Ok(Seeds {
        coverage,
        vocabulary: Vocabulary {
            corpus: model.corpus.clone(),
            words,
            counts,
            lowercase: model.lowercase,
        },
        reader: SeedReader {
            files: &model.files,
            read: Read::Files(seeds),
            debias: None,
        },
    })
}

/// Each file's (words, dimension) from its header, checked to be one dimension: what a run
/// checks before any work.
///
/// # Errors
///
/// A file whose header cannot be read, or of another dimension than the first.
pub fn file_shapes(model: &ModelFiles) -> Result<Vec<(usize, usize)>> {
    let mut shapes: Vec<(usize, usize)> = Vec::with_capacity(model.files.len());
    for path in &model.files {
        let shape = retest_embeddings::shape(path, model.format)
            .with_context(|| format!("model `{}`", model.name))?;
        if let Some(&(_, first)) = shapes.first()
            && first != shape.1
        {
            return Err(mixed_dimensions(model, path, shape.1, first));
        }
        shapes.push(shape);
    }
    Ok(shapes)
}

/// The error of file `path` of `model`, of dimension `dim`, when the first file has `first`.
fn mixed_dimensions(model: &ModelFiles, path: &Path, dim: usize, first: usize) -> anyhow::Error {
    anyhow::anyhow!(
        "model `{}`: {} has dimension {dim}, {} has {first}: the files of one model must have one dimension",
        model.name,
        path.display(),
        model.files[0].display(),
    )
}

/// The words of a model's files: those every file gives a vector, in the first file's order;
/// those some file lacks and those some file gives an all-zero vector (no direction, so left
/// out as if missing), each in the order they are first met (the first file's, then each later
/// file's new words).
#[derive(Debug, Default, PartialEq)]
struct SharedWords {
    shared: Vec<String>,
    missing: Vec<String>,
    zero: Vec<String>,
}

fn shared_words(seeds: &[Embeddings]) -> SharedWords {
    // Per file: each word and whether its vector is non-zero.
    let files: Vec<FxHashMap<&str, bool>> = (seeds.iter())
        .map(|e| {
            (e.words().iter().enumerate())
                .map(|(row, w)| (w.as_str(), !e.is_zero_row(row)))
                .collect()
        })
        .collect();
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut out = SharedWords::default();
    for word in seeds.iter().flat_map(|e| e.words()) {
        if !seen.insert(word) {
            continue;
        }
        let found = |f: &FxHashMap<&str, bool>| f.get(word.as_str()).copied();
        let list = if files.iter().any(|f| found(f).is_none()) {
            &mut out.missing
        } else if files.iter().any(|f| found(f) == Some(false)) {
            &mut out.zero
        } else {
            &mut out.shared
        };
        list.push(word.clone());
    }
    out
}

/// The warning that `zero`'s words of `source` (``model `m` ``, ``embedding `e` ``) have an
/// all-zero vector (`place`: where, or empty) and are left out.
pub(crate) fn zero_rows_left_out(source: &str, place: &str, zero: &[String]) -> String {
    let (words_have, is) = if zero.len() == 1 {
        ("word has", "is")
    } else {
        ("words have", "are")
    };
    format!(
        "{source}: {} {words_have} an all-zero vector{place} (no direction) and {is} left out: {}",
        zero.len(),
        zero.join(" ")
    )
}

/// `emb` without its all-zero rows (padding rows of some pretrained files: no direction to
/// measure), and the words of those rows, in row order.
pub(crate) fn without_zero_rows(emb: Embeddings) -> (Embeddings, Vec<String>) {
    let (mut kept, mut zero) = (Vec::new(), Vec::new());
    for (row, word) in emb.words().iter().enumerate() {
        let list = if emb.is_zero_row(row) {
            &mut zero
        } else {
            &mut kept
        };
        list.push(word.clone());
    }
    if zero.is_empty() {
        return (emb, zero);
    }
    (restrict(emb, &kept), zero)
}

/// `emb` with the rows of `words` alone, in that order (every word must be in `emb`).
fn restrict(emb: Embeddings, words: &[String]) -> Embeddings {
    if emb.words() == words {
        return emb;
    }
    let dim = emb.dim();
    let mut vectors = Vec::with_capacity(words.len() * dim);
    for word in words {
        vectors.extend_from_slice(emb.get(word).expect("a shared word is in every file"));
    }
    let metadata = emb.metadata().cloned();
    Embeddings::new(words.to_vec(), dim, vectors)
        .expect("distinct words of one dimension")
        .with_metadata(metadata)
}

/// Each of `words`' count in the word-count file at `path`: one `word count` line per word,
/// word and count separated by spaces or a tab. A word the file lacks gets 0 (unknown).
///
/// # Errors
///
/// The file cannot be read, a line is not a word and a count, or a word is listed twice.
fn counts_of(words: &[String], path: &Path, log: &dyn Fn(&str)) -> Result<Vec<u64>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut counts: FxHashMap<String, u64> = FxHashMap::default();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let place = || format!("{}:{}", path.display(), i + 1);
        let line = line.with_context(|| format!("{}: cannot read", place()))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed = (line.trim_end().rsplit_once([' ', '\t']))
            .and_then(|(word, count)| Some((word.trim_end(), count.parse::<u64>().ok()?)))
            .filter(|(word, _)| !word.is_empty());
        let Some((word, count)) = parsed else {
            bail!("{}: expected `word count`, found {line:?}", place());
        };
        if counts.insert(word.to_owned(), count).is_some() {
            bail!("{}: `{word}` is listed twice", place());
        }
    }
    let out: Vec<u64> = words
        .iter()
        .map(|w| counts.get(w).copied().unwrap_or(0))
        .collect();
    let unknown = out.iter().filter(|&&c| c == 0).count();
    if unknown > 0 {
        log(&format!(
            "{}: no count for {unknown} of {} words (their frequency is unknown)",
            path.display(),
            words.len()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emb(words: &[&str]) -> Embeddings {
        let vectors = (0..words.len()).flat_map(|i| [i as f32, 1.0]).collect();
        Embeddings::new(words.iter().map(|w| (*w).to_owned()).collect(), 2, vectors).unwrap()
    }

    #[test]
    fn shared_words_keep_the_first_files_order_and_name_the_rest() {
        let seeds = [
            emb(&["the", "a", "he", "she"]),
            emb(&["she", "he", "the", "x"]),
            emb(&["he", "the", "she", "y"]),
        ];
        let SharedWords {
            shared,
            missing,
            zero,
        } = shared_words(&seeds);
        assert_eq!(shared, ["the", "he", "she"]);
        assert_eq!(missing, ["a", "x", "y"]);
        assert!(zero.is_empty());
        // Each file's rows in the shared order: "she" is row 0 of the second file.
        let restricted = restrict(seeds[1].clone(), &shared);
        assert_eq!(restricted.words(), shared);
        assert_eq!(restricted.vectors(), [2.0, 1.0, 1.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn a_word_with_a_zero_vector_in_some_file_is_left_out() {
        let zero_row = |e: Embeddings, word: &str| {
            let mut vectors = e.vectors().to_vec();
            let row = e.words().iter().position(|w| w == word).unwrap();
            vectors[2 * row..2 * row + 2].fill(0.0);
            Embeddings::new(e.words().to_vec(), 2, vectors).unwrap()
        };
        // `a` is zero in the second file and missing from the third: missing counts first.
        let seeds = [
            zero_row(emb(&["the", "a", "he", "she"]), "he"),
            zero_row(emb(&["she", "he", "the", "a"]), "a"),
            emb(&["he", "the", "she"]),
        ];
        let words = shared_words(&seeds);
        let strings = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            words,
            SharedWords {
                shared: strings(&["the", "she"]),
                missing: strings(&["a"]),
                zero: strings(&["he"]),
            }
        );
    }

    #[test]
    fn counts_are_read_by_word_with_spaces_or_a_tab() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counts.txt");
        std::fs::write(&path, "he 10\nshe\t7\n\nthe  123\n").unwrap();
        let words = ["the", "he", "she", "it"].map(String::from);
        let logged = std::cell::RefCell::new(Vec::new());
        let counts = counts_of(&words, &path, &|line| logged.borrow_mut().push(line.to_owned())).unwrap();
        assert_eq!(counts, [123, 10, 7, 0]);
        assert_eq!(
            logged.into_inner(),
            [format!(
                "{}: no count for 1 of 4 words (their frequency is unknown)",
                path.display()
            )]
        );
        for (text, expected) in [
            ("he 10\nshe\n", "2: expected `word count`, found \"she\""),
            ("he 10\nhe 3\n", "2: `he` is listed twice"),
            ("he ten\n", "1: expected `word count`, found \"he ten\""),
        ] {
            std::fs::write(&path, text).unwrap();
            let error = counts_of(&words, &path, &|_| {}).unwrap_err().to_string();
            assert_eq!(error, format!("{}:{expected}", path.display()));
        }
    }
}
