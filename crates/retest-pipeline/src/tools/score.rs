//! Bias scores of any embedding files, without a pipeline (`retest score`): the same scoring
//! set-up as the pipeline's measure jobs, one row per (embedding, rule, pair, word).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use retest_geometry::GeometryError;
use retest_measures::{MeasureError, Model, NbmPool, PairList, RipaTarget, Rule, Scoring, Vocab, WordList};
use retest_tables::{ScoreRow, names};

use crate::stages::columns::ZERO_VECTOR;
use crate::tools::inputs::{EmbeddingFiles, TableFile};

/// The status of a rule's rows on a model it could not score.
const NOT_COMPUTED: &str = "not_computed";

/// Why NBM could not score a model, in the command's terms: `--nbm-k` when the vocabulary has
/// too few other words.
fn nbm_failure(error: MeasureError, nbm_k: usize) -> String {
    match error {
        MeasureError::Geometry(GeometryError::TooFewCandidates { available, .. }) => format!(
            "--nbm-k {nbm_k} is more than the {available} words NBM can take as a word's neighbours here"
        ),
        other => format!("{:#}", anyhow::Error::new(other)),
    }
}

/// What `retest score` was asked to do.
#[derive(Debug)]
pub struct ScoreRequest<'a> {
    /// With `lowercase`, the pairs and words are lowercased (and the table names them so).
    pub embeddings: EmbeddingFiles<'a>,
    pub rules: &'a [Rule],
    pub pairs: &'a Path,
    pub words: &'a [PathBuf],
    pub ripa_target: RipaTarget,
    pub nbm_k: usize,
    pub nbm_pool: NbmPool,
    pub threads: usize,
    pub out: TableFile<'a>,
}

/// The text of a list file and the list's name (the file's stem).
fn read_list_file(path: &Path) -> Result<(String, String)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path
        .file_stem()
        .map_or("list".into(), |s| s.to_string_lossy().into_owned());
    Ok((name, text))
}

/// A base-pair list file given on the command line (`masculine feminine` per line).
///
/// # Errors
///
/// The file cannot be read or parsed.
pub fn read_pair_file(path: &Path) -> Result<PairList> {
    let (name, text) = read_list_file(path)?;
    PairList::parse(&name, &text).with_context(|| format!("{}", path.display()))
}

/// A word list file given on the command line (one word per line).
///
/// # Errors
///
/// The file cannot be read or parsed.
pub fn read_word_file(path: &Path) -> Result<WordList> {
    let (name, text) = read_list_file(path)?;
    WordList::parse(&name, &text).with_context(|| format!("{}", path.display()))
}

/// Scores every word of the word files against every pair under every rule, for every
/// embedding file, and writes one row per (embedding, rule, pair, word).
///
/// # Errors
///
/// `--out` is refused by the output policy (an input, a name that is not `.parquet` or
/// `.csv`, a file of another kind); a file cannot be read or parsed, no rule is given, or the
/// table cannot be written.
pub fn score_files(req: &ScoreRequest<'_>) -> Result<()> {
    let others: Vec<&Path> = req
        .words
        .iter()
        .map(PathBuf::as_path)
        .chain([req.pairs])
        .collect();
    req.out.check(&req.embeddings.and(&others))?;
    let mut pairs = read_pair_file(req.pairs)?;
    for (m, f) in &mut pairs.pairs {
        (*m, *f) = (
            req.embeddings.lookup.case(m).into_owned(),
            req.embeddings.lookup.case(f).into_owned(),
        );
    }
    let mut words = Vec::new();
    for path in req.words {
        for w in read_word_file(path)?.words {
            let w = req.embeddings.lookup.case(&w).into_owned();
            if !words.contains(&w) {
                words.push(w);
            }
        }
    }
    if req.rules.is_empty() {
        bail!("--rules: give at least one of dbwa, ripa, nbm");
    }
    let all_words = WordList {
        name: "words".into(),
        words,
    };
    let scoring = Scoring {
        rules: req.rules,
        ripa_target: req.ripa_target,
        nbm_k: req.nbm_k,
        nbm_pool: req.nbm_pool,
        threads: req.threads,
    };
    let mut rows = Vec::new();
    let mut err = std::io::stderr().lock();
    for path in req.embeddings.paths {
        let emb = req.embeddings.read(path)?;
        let (vocab_words, dim, raw, _) = emb.into_parts();
        let vocab = Vocab::new(&vocab_words)?;
        let context = || format!("{}", path.display());
        let p = pairs.resolve(&vocab).with_context(context)?;
        let w = all_words.resolve(&vocab).with_context(context)?;
        writeln!(
            err,
            "{}: {} of {} pairs and {} of {} words in the vocabulary{}{}",
            path.display(),
            p.ids.len(),
            pairs.pairs.len(),
            w.ids.len(),
            all_words.words.len(),
            if p.oov.is_empty() {
                String::new()
            } else {
                format!(
                    "; pairs dropped: {}",
                    p.oov
                        .iter()
                        .map(|(m, f)| format!("{m}:{f}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            },
            if w.oov.is_empty() {
                String::new()
            } else {
                format!("; words dropped: {}", w.oov.join(" "))
            },
        )?;
        let model = Model::new(&vocab_words, &raw, dim)?;
        // As in the pipeline: `<unk>` and `<raw_unk>` are never neighbours, and the neutral
        // pool leaves out every word of the pairs file.
        let scorer = scoring.for_vocabulary(&vocab_words, &pairs.pairs);
        let scores = match scorer.score(&model, &p.ids, &w.ids) {
            Ok(scores) => scores,
            // A model NBM cannot score (a vocabulary smaller than its neighbourhood) still
            // gets the other rules' scores.
            Err(nbm_error) if req.rules.len() > 1 && req.rules.contains(&Rule::Nbm) => {
                let others: Vec<Rule> = req.rules.iter().copied().filter(|&r| r != Rule::Nbm).collect();
                let scores = (Scoring {
                    rules: &others,
                    ..scoring
                })
                .for_vocabulary(&vocab_words, &pairs.pairs)
                .score(&model, &p.ids, &w.ids)
                .with_context(context)?;
                writeln!(
                    err,
                    "warning: {}: nbm not computed (NaN, status {NOT_COMPUTED}): {}",
                    path.display(),
                    nbm_failure(nbm_error, req.nbm_k)
                )?;
                scores
            }
            Err(e) => return Err(e).with_context(context),
        };
        let zero = scores.zero_vector_targets();
        if !zero.is_empty() {
            writeln!(
                err,
                "warning: {}: {} of the words {} an all-zero vector and no score (NaN, status \
                 zero_vector): {}",
                path.display(),
                zero.len(),
                if zero.len() == 1 { "has" } else { "have" },
                zero.iter()
                    .map(|&t| w.words[t].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            )?;
        }
        let name = path.display().to_string();
        for &rule in req.rules {
            for (pi, (m, f)) in p.pairs.iter().enumerate() {
                let values = scores.scores(rule, pi);
                for (t, word) in w.words.iter().enumerate() {
                    let (score, status) = match values {
                        None => (f64::NAN, NOT_COMPUTED),
                        Some(_) if zero.contains(&t) => (f64::NAN, ZERO_VECTOR),
                        Some(values) => (f64::from(values[t]), "ok"),
                    };
                    rows.push(ScoreRow {
                        embedding: name.clone(),
                        rule: rule.as_str().to_owned(),
                        male: m.clone(),
                        female: f.clone(),
                        word: word.clone(),
                        score,
                        status: status.to_owned(),
                    });
                }
            }
        }
    }
    req.out.write(names::SCORES, &rows, "scores")
}
