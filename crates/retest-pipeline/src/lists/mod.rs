//! The word lists a plan names: base pairs, target lists and queries, found in the word-list
//! folder (`wordlists/`). A list is a text file (`<name>.txt`, one word or `masculine feminine`
//! pair per line) or a declaration (`<name>.yaml`) of a file that lives elsewhere — the mirror,
//! the download cache or a URL — by name and SHA-256, resolved like a corpus source.

mod benchmarks;
mod criterion;
mod debias;
mod queries;
mod weat_tests;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail, ensure};
use retest_data::{LockPlace, Owner, Resolver};
use retest_measures::{PairList, WordList};
use retest_spec::{BasePairParams, FileDeclaration, Plan, SetLevelParams, ValidityParams, WeatTest};

pub use benchmarks::{Benchmarks, GOOGLE_ANALOGIES};
pub use criterion::Criterion;
pub use debias::{DebiasList, DebiasListNames, DebiasLists, equalize_spellings};
pub use queries::{QueryLine, read_query_file};
pub use weat_tests::{read_query_tests, read_weat_tests};

/// The target list that stands for the whole model vocabulary.
pub const FULL: &str = "full";

/// A target list: a file's words, or the whole vocabulary.
#[derive(Clone, Debug)]
pub enum TargetList {
    Full,
    Words(WordList),
}

impl TargetList {
    pub fn name(&self) -> &str {
        match self {
            TargetList::Full => FULL,
            TargetList::Words(list) => &list.name,
        }
    }
}

/// The lists of the set-level measures (`set_level` of a plan).
#[derive(Clone, Debug)]
pub struct SetLevelLists {
    /// The tests of the tests file the plan selects, in the plan's order, every set as words.
    pub tests: Vec<WeatTest>,
    /// Direct Bias's neutral words.
    pub neutral: WordList,
    /// The pairs of the `pca` direction.
    pub definitional: PairList,
    /// The pairs of Bakarov's detectors.
    pub detectors: PairList,
    /// The words with a stereotype score.
    pub stereotypes: StereotypeList,
}

/// The words Gonen & Goldberg's residual-bias tests read (a plan's `residual_bias` section).
#[derive(Clone, Debug)]
pub struct ResidualLists {
    /// Every word of the exclusion lists: gender-specific words, never candidates.
    pub exclude: Vec<String>,
    /// The targets' list name and words: whose neighbours are counted.
    pub targets: (String, Vec<String>),
}

/// The lists of the gender subspace (a plan's `bias_subspace` section).
#[derive(Clone, Debug)]
pub struct SubspaceLists {
    /// The words Direct Bias and indirect bias are measured on.
    pub neutral: WordList,
    /// The pairs whose principal components span the subspace.
    pub definitional: PairList,
}

/// Words with crowd-rated gender scores in [−1, 1], positive = masculine: Bolukbasi et al.'s
/// professions (`professions.json` of debiaswe, `[word, definitional, stereotypical]` triples).
#[derive(Clone, Debug, PartialEq)]
pub struct StereotypeList {
    pub name: String,
    /// `(word, definitional, stereotypical)` in the file's order.
    pub words: Vec<(String, f64, f64)>,
}

impl StereotypeList {
    /// Parses the JSON list of triples of `path`.
    ///
    /// # Errors
    ///
    /// Text that is not a JSON list of `[word, definitional, stereotypical]` triples, with the
    /// line and column.
    pub fn parse(name: &str, path: &Path, text: &str) -> Result<StereotypeList> {
        let words = serde_json::from_str(text).map_err(|e| {
            anyhow::anyhow!(
                "stereotype list `{name}` ({}): expected a JSON list of [word, definitional, stereotypical] \
                 triples: {e}",
                path.display()
            )
        })?;
        Ok(StereotypeList {
            name: name.to_owned(),
            words,
        })
    }
}

/// The lists of the base-pair analyses (`base_pairs` of a plan).
#[derive(Clone, Debug)]
pub struct BasePairLists {
    /// The pairs compared.
    pub pairs: PairList,
    /// The words they must agree on, in the list's order.
    pub professions: Vec<String>,
    /// Words with their true gender.
    pub truth: Vec<TruthList>,
    /// Every word of the lists that leave NBM's neutral pool.
    pub pool_exclude: Vec<String>,
}

/// Words with their true gender: lines `word m|f` (`#` starts a comment).
#[derive(Clone, Debug, PartialEq)]
pub struct TruthList {
    pub name: String,
    /// `(word, masculine)` in the file's order.
    pub words: Vec<(String, bool)>,
}

impl TruthList {
    /// Parses the lines of `text`.
    ///
    /// # Errors
    ///
    /// A line that is not a word followed by `m` or `f`, with its number; no words at all.
    pub fn parse(name: &str, text: &str) -> Result<TruthList> {
        let mut words = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            match line.split_whitespace().collect::<Vec<_>>()[..] {
                [word, "m"] => words.push((word.to_owned(), true)),
                [word, "f"] => words.push((word.to_owned(), false)),
                _ => bail!(
                    "truth list `{name}`, line {}: expected a word and its gender `m` or `f`, found `{line}`",
                    i + 1
                ),
            }
        }
        if words.is_empty() {
            bail!("truth list `{name}` has no words");
        }
        Ok(TruthList {
            name: name.to_owned(),
            words,
        })
    }
}

/// The words of a list file: every string of a JSON file (a list of words, of pairs or of
/// `[word, …]` records), else every word of its lines (`#` starts a comment).
///
/// # Errors
///
/// A `.json` file that is not JSON, with the line and column.
fn list_words(name: &str, path: &Path, text: &str) -> Result<Vec<String>> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    if path.extension().is_some_and(|e| e == "json") {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| anyhow::anyhow!("word list `{name}` ({}): not JSON: {e}", path.display()))?;
        let mut words = Vec::new();
        strings(&value, &mut words);
        Ok(words)
    } else {
        Ok(text
            .lines()
            .flat_map(|line| line.split('#').next().unwrap_or("").split_whitespace())
            .map(str::to_owned)
            .collect())
    }
}

/// Every list of a plan, parsed, with the SHA-256 of each list file for the manifest.
#[derive(Clone, Debug)]
pub struct Lists {
    pub base_pairs: PairList,
    pub targets: Vec<TargetList>,
    pub queries: Vec<WordList>,
    /// The words NBM's neutral pool leaves out besides the base pairs' (`measures.nbm_pool_exclude`;
    /// none with the vocabulary as the pool).
    pub nbm_pool_exclude: Vec<String>,
    /// The set-level lists, when the plan has a `set_level` section.
    pub set_level: Option<SetLevelLists>,
    /// The analogy queries, when the plan has an `analogies` section.
    pub analogies: Option<Vec<QueryLine>>,
    /// The base-pair lists, when the plan has a `base_pairs` section.
    pub base_pairs_analyses: Option<BasePairLists>,
    /// The criterion, when the plan has a `validity` section.
    pub validity: Option<Criterion>,
    /// The benchmark files the set-level and analogy stages read.
    pub benchmarks: Benchmarks,
    /// The lists of Gonen & Goldberg's residual-bias tests, when the plan has a
    /// `residual_bias` section.
    pub residual: Option<ResidualLists>,
    /// The lists of the gender subspace, when the plan has a `bias_subspace` section.
    pub subspace: Option<SubspaceLists>,
    /// The lists of hard debiasing, when the plan has a `debias` section: only its debiased
    /// models depend on them, so their checksums are in those models' measure keys, not in
    /// `files`.
    pub debias: Option<DebiasLists>,
    /// `(list name, file, sha256)` of every list read but the debiasing lists.
    pub files: Vec<(String, PathBuf, String)>,
}

impl Lists {
    /// Reads every list `plan.measures` names from `folder`.
    ///
    /// # Errors
    ///
    /// A list that cannot be found (naming where it was looked for), read, verified or parsed.
    pub fn load(plan: &Plan, folder: &Path, resolver: &mut Resolver) -> Result<Lists> {
        let mut files = Vec::new();
        let m = &plan.measures;
        let (path, text) = read_list(folder, &m.base_pairs, Kind::Pairs, resolver)?;
        let base_pairs = PairList::parse(&m.base_pairs, &text)?;
        files.push(digest(&m.base_pairs, path, &text));
        let mut targets = Vec::new();
        for name in &m.target_lists {
            if name == FULL {
                targets.push(TargetList::Full);
                continue;
            }
            let (path, text) = read_list(folder, name, Kind::Words, resolver)?;
            targets.push(TargetList::Words(WordList::parse(name, &text)?));
            files.push(digest(name, path, &text));
        }
        let mut queries = Vec::new();
        for name in &m.queries {
            let (path, text) = read_list(folder, name, Kind::Query, resolver)?;
            queries.push(WordList::parse(name, &text)?);
            files.push(digest(name, path, &text));
        }
        let (nbm_pool_exclude, digests) = read_word_lists(&m.nbm_pool_exclude, folder, resolver)?;
        for d in digests {
            push_once(&mut files, d);
        }
        let set_level = (plan.set_level.as_ref())
            .map(|p| load_set_level(p, folder, resolver, &mut files))
            .transpose()?;
        let analogies = match &plan.analogies {
            Some(p) => {
                let path = find_list(folder, &p.queries, Kind::Analogies)?;
                let queries = read_query_file(&path)?;
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                files.push(digest(&p.queries, path, &text));
                Some(queries)
            }
            None => None,
        };
        let base_pairs_analyses = (plan.base_pairs.as_ref())
            .map(|p| load_base_pairs(p, folder, resolver, &mut files))
            .transpose()?;
        let benchmarks = load_benchmarks(plan, folder, resolver, &mut files)?;
        let validity = match &plan.validity {
            Some(p) => {
                let (criterion, digest) = load_criterion(CriterionSource::of(p)?, folder, resolver)?;
                files.push(digest);
                Some(criterion)
            }
            None => None,
        };
        let residual = (plan.residual_bias.as_ref())
            .map(|p| {
                let mut words = |name: &str| -> Result<Vec<String>> {
                    let (path, text) = read_list(folder, name, Kind::Words, resolver)?;
                    let words = list_words(name, &path, &text)?;
                    files.push(digest(name, path, &text));
                    Ok(words)
                };
                let mut exclude = Vec::new();
                for name in &p.exclude {
                    exclude.extend(words(name)?);
                }
                Ok::<_, anyhow::Error>(ResidualLists {
                    exclude,
                    targets: (p.targets.clone(), words(&p.targets)?),
                })
            })
            .transpose()?;
        let subspace = (plan.bias_subspace.as_ref())
            .map(|p| {
                let (path, text) = read_list(folder, &p.neutral, Kind::Words, resolver)?;
                let neutral = WordList::parse(&p.neutral, &text)?;
                push_once(&mut files, digest(&p.neutral, path, &text));
                let (path, text) = read_list(folder, &p.definitional_pairs, Kind::Pairs, resolver)?;
                let definitional = PairList::parse(&p.definitional_pairs, &text)?;
                push_once(&mut files, digest(&p.definitional_pairs, path, &text));
                Ok::<_, anyhow::Error>(SubspaceLists {
                    neutral,
                    definitional,
                })
            })
            .transpose()?;
        let debias = (plan.debias.as_ref())
            .map(|p| {
                let names = DebiasListNames {
                    definitional: &p.definitional,
                    equalize: &p.equalize,
                    gender_specific: &p.gender_specific,
                };
                DebiasLists::read(names, folder, resolver)
            })
            .transpose()?;
        Ok(Lists {
            base_pairs,
            targets,
            queries,
            nbm_pool_exclude,
            set_level,
            analogies,
            base_pairs_analyses,
            validity,
            benchmarks,
            residual,
            subspace,
            debias,
            files,
        })
    }
}

impl Lists {
    /// `(list name, file, sha256)` of every list read, the debiasing lists' included: what the
    /// manifest records.
    pub fn every_file(&self) -> Vec<(String, PathBuf, String)> {
        let debias = self.debias.iter().flat_map(DebiasLists::files);
        self.files.iter().cloned().chain(debias).collect()
    }
}

/// Finds the benchmark files the plan's stages read: the word-similarity benchmarks with a
/// `set_level` section, the Google analogy set when `analogies.google` or
/// `set_level.analogy_benchmark` asks for it.
fn load_benchmarks(
    plan: &Plan,
    folder: &Path,
    resolver: &mut Resolver,
    files: &mut Vec<(String, PathBuf, String)>,
) -> Result<Benchmarks> {
    let mut read = |name: &str| -> Result<PathBuf> {
        let (path, text) = read_list(folder, name, Kind::Benchmark, resolver)?;
        files.push(digest(name, path.clone(), &text));
        Ok(path)
    };
    let mut benchmarks = Benchmarks::default();
    if plan.set_level.is_some() {
        for (name, format) in benchmarks::similarity_names() {
            benchmarks.similarity.push((name, read(name)?, format));
        }
    }
    let google = plan.analogies.as_ref().is_some_and(|a| a.google)
        || plan.set_level.as_ref().is_some_and(|s| s.analogy_benchmark);
    if google {
        benchmarks.google = Some(read(GOOGLE_ANALOGIES)?);
    }
    Ok(benchmarks)
}

/// Reads the tests file, the neutral words and the definitional pairs of `plan.set_level`.
fn load_set_level(
    p: &SetLevelParams,
    folder: &Path,
    resolver: &mut Resolver,
    files: &mut Vec<(String, PathBuf, String)>,
) -> Result<SetLevelLists> {
    let mut tests = Vec::new();
    if !p.tests.is_empty() {
        let path = find_list(folder, &p.tests_file, Kind::Tests)?;
        let text =
            std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut all = read_weat_tests(&path, resolver)?;
        for name in &p.tests {
            let Some(at) = all.iter().position(|t| &t.name == name) else {
                bail!(
                    "set_level.tests: `{name}` is not a test of {} (it has {})",
                    path.display(),
                    all.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
                );
            };
            tests.push(all.swap_remove(at));
        }
        files.push(digest(&p.tests_file, path, &text));
    }
    let (path, text) = read_list(folder, &p.neutral, Kind::Words, resolver)?;
    let neutral = WordList::parse(&p.neutral, &text)?;
    files.push(digest(&p.neutral, path, &text));
    let (path, text) = read_list(folder, &p.definitional_pairs, Kind::Pairs, resolver)?;
    let definitional = PairList::parse(&p.definitional_pairs, &text)?;
    files.push(digest(&p.definitional_pairs, path, &text));
    let (path, text) = read_list(folder, &p.detector_pairs, Kind::Pairs, resolver)?;
    let detectors = PairList::parse(&p.detector_pairs, &text)?;
    files.push(digest(&p.detector_pairs, path, &text));
    let (path, text) = read_list(folder, &p.stereotypes, Kind::Stereotypes, resolver)?;
    let stereotypes = StereotypeList::parse(&p.stereotypes, &path, &text)?;
    files.push(digest(&p.stereotypes, path, &text));
    Ok(SetLevelLists {
        tests,
        neutral,
        definitional,
        detectors,
        stereotypes,
    })
}

/// Reads the pairs, professions, truth lists and pool exclusions of `plan.base_pairs`.
pub(crate) fn load_base_pairs(
    p: &BasePairParams,
    folder: &Path,
    resolver: &mut Resolver,
    files: &mut Vec<(String, PathBuf, String)>,
) -> Result<BasePairLists> {
    let (path, text) = read_list(folder, &p.pairs, Kind::Pairs, resolver)?;
    let pairs = PairList::parse(&p.pairs, &text)?;
    files.push(digest(&p.pairs, path, &text));
    let (path, text) = read_list(folder, &p.professions, Kind::Words, resolver)?;
    let professions = if path.extension().is_some_and(|e| e == "json") {
        let list = StereotypeList::parse(&p.professions, &path, &text)?;
        list.words.into_iter().map(|(word, _, _)| word).collect()
    } else {
        WordList::parse(&p.professions, &text)?.words
    };
    files.push(digest(&p.professions, path, &text));
    let mut truth = Vec::new();
    for name in &p.truth {
        let (path, text) = read_list(folder, name, Kind::Words, resolver)?;
        truth.push(TruthList::parse(name, &text)?);
        files.push(digest(name, path, &text));
    }
    let (pool_exclude, digests) = read_word_lists(&p.pool_exclude, folder, resolver)?;
    files.extend(digests);
    Ok(BasePairLists {
        pairs,
        professions,
        truth,
        pool_exclude,
    })
}

/// A list file read: `(list name, file, sha256)`.
type ListFile = (String, PathBuf, String);

/// Every word of the lists `names` in `folder` (word lists, pair lists, or declared JSON lists of
/// words or pairs), in order, with each list file's digest.
fn read_word_lists(
    names: &[String],
    folder: &Path,
    resolver: &mut Resolver,
) -> Result<(Vec<String>, Vec<ListFile>)> {
    let (mut words, mut digests) = (Vec::new(), Vec::new());
    for name in names {
        let (path, text) = read_list(folder, name, Kind::Words, resolver)?;
        words.extend(list_words(name, &path, &text)?);
        digests.push(digest(name, path, &text));
    }
    Ok((words, digests))
}

/// The words NBM's neutral pool leaves out besides the base pairs', from the lists `names` in
/// the word-list folder `folder` (`retest score --pool-exclude`, Python's `pool_exclude`).
///
/// # Errors
///
/// A list that cannot be found, read, verified or parsed.
pub fn pool_exclude_words(names: &[String], folder: &Path, resolver: &mut Resolver) -> Result<Vec<String>> {
    Ok(read_word_lists(names, folder, resolver)?.0)
}

/// Records a list file unless another section of the plan read it already.
fn push_once(files: &mut Vec<(String, PathBuf, String)>, entry: (String, PathBuf, String)) {
    if !files.contains(&entry) {
        files.push(entry);
    }
}

fn digest(name: &str, path: PathBuf, text: &str) -> (String, PathBuf, String) {
    use sha2::{Digest, Sha256};
    (
        name.to_owned(),
        path,
        hex::encode(Sha256::digest(text.as_bytes())),
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pairs,
    Words,
    Query,
    /// A WEAT tests file (`<name>.yaml` only).
    Tests,
    /// Words with stereotype scores ([`StereotypeList`]).
    Stereotypes,
    /// Analogy queries `a b c [reported]` (`<name>.txt` only).
    Analogies,
    /// A benchmark file's declaration (`<name>.yaml` only).
    Benchmark,
    /// A criterion file's declaration (`<name>.yaml` only).
    Criterion,
    /// A list of hard debiasing: pairs or words.
    Debias,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Kind::Pairs => "base-pair list",
            Kind::Words => "target list",
            Kind::Query => "query",
            Kind::Tests => "WEAT tests file",
            Kind::Stereotypes => "stereotype list",
            Kind::Analogies => "analogy query list",
            Kind::Benchmark => "benchmark",
            Kind::Criterion => "criterion",
            Kind::Debias => "debiasing list",
        }
    }
}

/// Which criterion validity is measured against.
#[derive(Clone, Copy, Debug)]
pub enum CriterionSource<'a> {
    /// Garg et al.'s census: the logit of the share of women per occupation in `year` (the
    /// latest when `None`); declared as `garg-census` in the word-list folder.
    Census { year: Option<u32> },
    /// Garg et al.'s MTurk stereotype ratings per occupation; declared as `garg-mturk`.
    Mturk,
    /// One's own `word,value` CSV.
    File(&'a Path),
}

impl<'a> CriterionSource<'a> {
    /// The criterion named `name` (`census`, `mturk`, or a file's path), of `census_year` for
    /// the census: how the command, a plan's `validity` section and Python name one.
    ///
    /// # Errors
    ///
    /// A census year with another criterion.
    pub fn named(name: &'a str, census_year: Option<u32>) -> Result<CriterionSource<'a>> {
        Ok(match name {
            "census" => CriterionSource::Census { year: census_year },
            other => {
                ensure!(
                    census_year.is_none(),
                    "--census-year applies to --criterion census only"
                );
                match other {
                    "mturk" => CriterionSource::Mturk,
                    file => CriterionSource::File(Path::new(file)),
                }
            }
        })
    }

    /// The criterion a plan's `validity` section names (its census year checked by the plan).
    pub fn of(params: &'a ValidityParams) -> Result<CriterionSource<'a>> {
        CriterionSource::named(&params.criterion, params.census_year)
    }
}

/// The criterion `source`, its declared files found below `folder` through `resolver`.
///
/// # Errors
///
/// The declaration or the file cannot be found, verified, read or parsed.
pub fn read_criterion(
    source: CriterionSource<'_>,
    folder: &Path,
    resolver: &mut Resolver,
) -> Result<Criterion> {
    Ok(load_criterion(source, folder, resolver)?.0)
}

/// [`read_criterion`], with the digest of the file read.
fn load_criterion(
    source: CriterionSource<'_>,
    folder: &Path,
    resolver: &mut Resolver,
) -> Result<(Criterion, (String, PathBuf, String))> {
    let (name, file, text) = match source {
        CriterionSource::Census { .. } | CriterionSource::Mturk => {
            let name = if matches!(source, CriterionSource::Mturk) {
                "garg-mturk"
            } else {
                "garg-census"
            };
            let (file, text) = read_list(folder, name, Kind::Criterion, resolver)?;
            (name.to_owned(), file, text)
        }
        CriterionSource::File(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            (declaration_name(path), path.to_owned(), text)
        }
    };
    let shown = file.display().to_string();
    let criterion = match source {
        CriterionSource::Census { year } => criterion::census(&text, &shown, year)?,
        CriterionSource::Mturk => criterion::word_values(&text, &shown, "mturk")?,
        CriterionSource::File(_) => criterion::word_values(&text, &shown, &name)?,
    };
    Ok((criterion, digest(&name, file, &text)))
}

/// Reads list `name` ([`find_list`]); a declaration (`.yaml`) is resolved to the file it
/// declares.
fn read_list(folder: &Path, name: &str, kind: Kind, resolver: &mut Resolver) -> Result<(PathBuf, String)> {
    let what = kind.what();
    let path = find_list(folder, name, kind)?;
    let file = if path.extension().is_some_and(|e| e == "yaml") {
        resolve_declaration(&path, "word list", resolver)?
    } else {
        path.clone()
    };
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("{what} `{name}`: cannot read {}", file.display()))?;
    // Read without error: a checksum learnt for a declared file is recorded now.
    resolver.record_learnt(&declaration_name(&path))?;
    Ok((file, text))
}

/// Finds list `name`: a path (it contains `/` or ends in `.txt`, `.yaml` or `.json`) is used as it is;
/// otherwise `<name>.txt` or `<name>.yaml` (tests files: `<name>.yaml`) anywhere below
/// `folder`, queries only in `queries/` folders and other lists only outside them.
fn find_list(folder: &Path, name: &str, kind: Kind) -> Result<PathBuf> {
    let what = kind.what();
    Ok(
        if name.contains('/') || [".txt", ".yaml", ".json"].iter().any(|e| name.ends_with(e)) {
            PathBuf::from(name)
        } else {
            let mut found = Vec::new();
            let names = if matches!(kind, Kind::Tests | Kind::Benchmark | Kind::Criterion) {
                vec![format!("{name}.yaml")]
            } else if kind == Kind::Analogies {
                vec![format!("{name}.txt")]
            } else {
                vec![format!("{name}.txt"), format!("{name}.yaml")]
            };
            find(folder, &mut found, &names);
            found.retain(|p| {
                let in_queries = p
                    .parent()
                    .and_then(Path::file_name)
                    .is_some_and(|d| d == "queries");
                in_queries == (kind == Kind::Query)
            });
            match &found[..] {
                [one] => one.clone(),
                [] => bail!(
                    "{what} `{name}`: no file {} in the word-list folder {}{} (--wordlists DIR \
                     names another)",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    folder.display(),
                    if kind == Kind::Query {
                        ", in a `queries/` folder"
                    } else {
                        ""
                    }
                ),
                many => bail!(
                    "{what} `{name}` is ambiguous: {}",
                    many.iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        },
    )
}

/// The file a declaration (`description`, `licence`, `source`) names, found by the resolver
/// and verified against its checksum. `kind` says what it is in messages. A checksum the
/// resolver learnt (the declaration gives none) is recorded, in `checksums.lock` beside the
/// declaration, by the caller once the file has been read (`Resolver::record_learnt` with
/// [`declaration_name`]).
pub(crate) fn resolve_declaration(path: &Path, kind: &str, resolver: &mut Resolver) -> Result<PathBuf> {
    let declaration = FileDeclaration::read(path)?;
    let name = declaration_name(path);
    let owner = Owner {
        kind,
        name: &name,
        file: path,
        lock: LockPlace::BesideFile,
    };
    Ok(resolver.resolve_declared(&owner, &declaration.source)?.path)
}

/// The name of the declaration or tests file at `path` (its file name without the extension):
/// its files' key in the lock file (`name/file`) and their folder in the download cache.
pub fn declaration_name(path: &Path) -> String {
    path.file_stem()
        .map_or_else(|| "declared".to_owned(), |s| s.to_string_lossy().into_owned())
}

/// Files below `dir` whose name is one of `names`, in sorted order.
fn find(dir: &Path, found: &mut Vec<PathBuf>, names: &[String]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            find(&path, found, names);
        } else if path
            .file_name()
            .is_some_and(|n| names.iter().any(|x| n == x.as_str()))
        {
            found.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stereotype_list_is_read_from_triples_and_anything_else_is_one_line() {
        let path = Path::new("data/professions.json");
        let list = StereotypeList::parse(
            "professions",
            path,
            r#"[["nurse", -0.1, -0.9], ["carpenter", 0.0, 0.8]]"#,
        )
        .unwrap();
        assert_eq!(
            list.words,
            [
                ("nurse".to_owned(), -0.1, -0.9),
                ("carpenter".to_owned(), 0.0, 0.8)
            ]
        );
        let error = StereotypeList::parse("professions", path, "[[\"nurse\", -0.1],\n [\"cook\", 0, 1]]")
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "stereotype list `professions` (data/professions.json): expected a JSON list of [word, definitional, \
             stereotypical] triples: invalid length 2, expected a tuple of size 3 at line 1 column 16"
        );
    }
}
