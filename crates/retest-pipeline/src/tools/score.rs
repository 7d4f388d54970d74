//! Bias scores of any embedding files, without a pipeline (`retest score`): the same scoring
//! set-up as the pipeline's measure jobs, one row per (embedding, rule, pair, word).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use retest_geometry::GeometryError;
use retest_measures::{MeasureError, Model, PairList, Rule, Scoring, WordList};
use retest_tables::{ScoreRow, names};

use crate::stages::columns::ZERO_VECTOR;
use crate::tools::inputs::{EmbeddingFiles, TableFile, WordLookup};

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
    pub pairs: &'a Path,
    pub words: &'a [PathBuf],
    pub scoring: Scoring<'a>,
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
    let pairs = read_pair_file(req.pairs)?.pairs;
    let mut words = Vec::new();
    for path in req.words {
        words.extend(read_word_file(path)?.words);
    }
    let input = ScoreInput::new(pairs, words, &req.embeddings.lookup, req.scoring);
    input.check()?;
    let rows = req
        .embeddings
        .rows_of_each(|name, model, err| score_rows(name, model, &input, err))?;
    req.out.write(names::SCORES, &rows, "scores")
}

/// What bias scores are computed from: base pairs and target words, each spelled as it is
/// looked up, and the rules with their settings.
#[derive(Debug)]
pub struct ScoreInput<'a> {
    pairs: PairList,
    words: WordList,
    scoring: Scoring<'a>,
}

impl<'a> ScoreInput<'a> {
    /// The pairs (masculine first) and the words (the first of each repeated word kept), as
    /// `lookup` spells them (lowercased with `--lowercase`; the table names them so).
    pub fn new(
        pairs: Vec<(String, String)>,
        words: impl IntoIterator<Item = String>,
        lookup: &WordLookup,
        scoring: Scoring<'a>,
    ) -> Self {
        let spelled = |w: &str| lookup.case(w).into_owned();
        let mut unique = Vec::new();
        for w in words {
            let w = spelled(&w);
            if !unique.contains(&w) {
                unique.push(w);
            }
        }
        ScoreInput {
            pairs: PairList {
                name: "pairs".into(),
                pairs: pairs.iter().map(|(m, f)| (spelled(m), spelled(f))).collect(),
            },
            words: WordList {
                name: "words".into(),
                words: unique,
            },
            scoring,
        }
    }

    /// Refuses an input no model can be scored with: no rule.
    fn check(&self) -> Result<()> {
        if self.scoring.rules.is_empty() {
            bail!("--rules: give at least one of dbwa, ripa, nbm");
        }
        Ok(())
    }
}

/// Every word of `input` scored against every pair under every rule on `model` (`name` in the
/// rows' `embedding` column): one row per (rule, pair, word), the pairs and words out of the
/// vocabulary dropped. What was dropped is said on `warn`, and a rule that cannot score the
/// model (NBM on a vocabulary smaller than its neighbourhood, when other rules are asked for)
/// gets rows with status `not_computed` and a warning.
///
/// # Errors
///
/// No rule is given; the only rule cannot score the model; `warn` cannot be written.
pub fn score_rows(
    name: &str,
    model: &Model<'_>,
    input: &ScoreInput<'_>,
    warn: &mut dyn Write,
) -> Result<Vec<ScoreRow>> {
    input.check()?;
    let ScoreInput {
        pairs,
        words: all_words,
        scoring,
    } = input;
    let rules = scoring.rules;
    let p = pairs.resolve(model.vocab()).with_context(|| name.to_owned())?;
    let w = all_words
        .resolve(model.vocab())
        .with_context(|| name.to_owned())?;
    writeln!(
        warn,
        "{name}: {} of {} pairs and {} of {} words in the vocabulary{}{}",
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
    // As in the pipeline: `<unk>` and `<raw_unk>` are never neighbours, and the neutral pool
    // leaves out every word of the pairs.
    let vocab_words = model.vocab().words();
    let scorer = scoring.for_vocabulary(vocab_words, &pairs.pairs);
    let scores = match scorer.score(model, &p.ids, &w.ids) {
        Ok(scores) => scores,
        // A model NBM cannot score (a vocabulary smaller than its neighbourhood) still gets the
        // other rules' scores.
        Err(nbm_error) if rules.len() > 1 && rules.contains(&Rule::Nbm) => {
            let others: Vec<Rule> = rules.iter().copied().filter(|&r| r != Rule::Nbm).collect();
            let scores = (Scoring {
                rules: &others,
                ..*scoring
            })
            .for_vocabulary(vocab_words, &pairs.pairs)
            .score(model, &p.ids, &w.ids)
            .with_context(|| name.to_owned())?;
            writeln!(
                warn,
                "warning: {name}: nbm not computed (NaN, status {NOT_COMPUTED}): {}",
                nbm_failure(nbm_error, scoring.nbm_k)
            )?;
            scores
        }
        Err(e) => return Err(e).with_context(|| name.to_owned()),
    };
    let zero = scores.zero_vector_targets();
    if !zero.is_empty() {
        writeln!(
            warn,
            "warning: {name}: {} of the words {} an all-zero vector and no score (NaN, status \
             zero_vector): {}",
            zero.len(),
            if zero.len() == 1 { "has" } else { "have" },
            zero.iter()
                .map(|&t| w.words[t].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    let mut rows = Vec::new();
    for &rule in rules {
        for (pi, (m, f)) in p.pairs.iter().enumerate() {
            let values = scores.scores(rule, pi);
            for (t, word) in w.words.iter().enumerate() {
                let (score, status) = match values {
                    None => (f64::NAN, NOT_COMPUTED),
                    Some(_) if zero.contains(&t) => (f64::NAN, ZERO_VECTOR),
                    Some(values) => (f64::from(values[t]), "ok"),
                };
                rows.push(ScoreRow {
                    embedding: name.to_owned(),
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
    Ok(rows)
}
