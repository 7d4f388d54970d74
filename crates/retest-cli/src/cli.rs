//! Command-line arguments.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// How reliable is your word-embedding bias measure?
///
/// retest trains word embeddings (SGNS, GloVe) on real corpora with many seeds, scores gender
/// bias with several rules and word lists, and reports test-retest, inter-rater and internal
/// consistency reliability (Du, Fang & Nguyen 2021).
///
/// Typical use: `retest plan pipelines/smoke.yaml` to see what a pipeline will do, and
/// `retest corpus prepare wikitext-103-valid` to prepare one corpus.
#[derive(Debug, Parser)]
#[command(name = "retest", version, max_term_width = 100, after_help = FOLDERS_HELP)]
pub struct Cli {
    #[command(flatten)]
    pub dirs: Dirs,
    #[command(subcommand)]
    pub command: Command,
}

/// The folder options, as `retest --help` describes them (each command that reads them names
/// them in its own help; the others do not list them).
const FOLDERS_HELP: &str = "\
Folders (for the commands that read them; before or after the command):
      --results <DIR>    Outputs: prepared corpora, embeddings, tables [env: RETEST_RESULTS_DIR=]
                         [default: results]
      --corpora <DIR>    Corpus recipes (`<name>.yaml`) and their checksums.lock [env:
                         RETEST_CORPORA_DIR=]. Default: the first that exists of `corpora/` beside
                         the pipeline's folder, `./corpora` and retest's own
      --wordlists <DIR>  Word lists (`<name>.txt`, or `<name>.yaml` declaring a file by source and
                         checksum) [env: RETEST_WORDLISTS_DIR=]. Default: the first that exists of
                         `wordlists/` beside the pipeline's folder, `./wordlists` and retest's own";

/// The note of a command that reads every folder.
const READS_FOLDERS: &str =
    "Folders: --results DIR, --corpora DIR and --wordlists DIR (see `retest --help`).";

/// Folders retest reads and writes: options of the top command and of every subcommand, hidden
/// from the subcommands' help ([`FOLDERS_HELP`] describes them).
#[derive(Debug, Args)]
pub struct Dirs {
    /// Folder of corpus recipes (`<name>.yaml`). Default: the first that exists of `corpora/`
    /// beside the pipeline's folder, `./corpora` and retest's own.
    #[arg(
        long,
        global = true,
        hide = true,
        env = "RETEST_CORPORA_DIR",
        value_name = "DIR"
    )]
    pub corpora: Option<PathBuf>,
    /// Folder for outputs (prepared corpora, embeddings, tables).
    #[arg(
        long,
        global = true,
        hide = true,
        env = "RETEST_RESULTS_DIR",
        value_name = "DIR",
        default_value = "results"
    )]
    pub results: PathBuf,
    /// Folder of word lists (`<name>.txt`, or `<name>.yaml` declaring a file by source and
    /// checksum). Default: the first that exists of `wordlists/` beside the pipeline's folder,
    /// `./wordlists` and retest's own.
    #[arg(
        long,
        global = true,
        hide = true,
        env = "RETEST_WORDLISTS_DIR",
        value_name = "DIR"
    )]
    pub wordlists: Option<PathBuf>,
}

impl Dirs {
    pub fn folders(&self) -> retest_pipeline::Folders {
        retest_pipeline::Folders {
            results: self.results.clone(),
            corpora: self.corpora.clone(),
            wordlists: self.wordlists.clone(),
        }
    }
}

/// A whole-number option's type, with its largest value (said in the option's message).
trait Whole: TryFrom<u64> {
    const MAX: u64;
}

impl Whole for u32 {
    const MAX: u64 = u32::MAX as u64;
}

impl Whole for u64 {
    const MAX: u64 = u64::MAX;
}

impl Whole for usize {
    const MAX: u64 = usize::MAX as u64;
}

/// A seed or a count that may be 0 on the command line.
fn whole<T: Whole>(text: &str) -> Result<T, String> {
    whole_in::<T, 0, { u64::MAX }>(text)
}

/// A count, size or seed from `MIN` to `MAX` (or the type's largest value, if smaller); the
/// message names the range the option accepts, so that a value it refuses is never offered.
fn whole_in<T: Whole, const MIN: u64, const MAX: u64>(text: &str) -> Result<T, String> {
    let max = MAX.min(T::MAX);
    text.parse::<u64>()
        .ok()
        .filter(|n| (MIN..=max).contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("expected a whole number from {MIN} to {max}"))
}

/// A count from 1 up (a number of words, threads or answers).
fn positive<T: Whole>(text: &str) -> Result<T, String> {
    whole_in::<T, 1, { u64::MAX }>(text)
}

/// `--threads`: training runs on one thread, so that a seed gives the same bytes everywhere.
fn one_thread(text: &str) -> Result<u32, String> {
    match positive::<u32>(text)? {
        1 => Ok(1),
        _ => Err(
            "only 1 is supported (one thread per model keeps a seed's bytes the same): run \
                  several models at once instead"
                .into(),
        ),
    }
}

/// `--jobs N`: a positive number of jobs.
fn job_count(text: &str) -> Result<usize, String> {
    match whole(text)? {
        0 => Err("0 jobs would run nothing: give 1 or more, or leave --jobs out to use all cores".into()),
        n => Ok(n),
    }
}

/// `--solver NAME`: an analogy solver, by the registry's names (listed in `--help`).
fn solver_kind() -> impl TypedValueParser<Value = retest_spec::SolverKind> {
    let names = retest_spec::SolverKind::ALL.map(retest_spec::SolverKind::as_str);
    PossibleValuesParser::new(names).map(|name| name.parse().expect("a name the registry lists"))
}

impl RunArgs {
    pub fn options(&self) -> retest_pipeline::RunOptions {
        retest_pipeline::RunOptions {
            jobs: self.jobs,
            force: self.force,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Work with corpora: read raw text, tokenise, count and encode it.
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// Run a pipeline: every job of its plan (prepare corpora, train, measure, reliability
    /// tables, regression input, report), skipping jobs already done. Outputs go to
    /// `<results>/<pipeline>/`: `tables/` (Parquet + CSV), `report/`, `manifest.json`.
    #[command(after_help = READS_FOLDERS)]
    Run {
        /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
        pipeline: String,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        executor: crate::cluster::ExecutorArgs,
    },
    /// Run one training job of a pipeline: the one at `--index` in the training jobs of
    /// `retest plan` (what task i of the Slurm job array runs). Its corpus must be prepared
    /// (`retest prepare`); a finished output is skipped.
    #[command(after_help = READS_FOLDERS)]
    RunTask(crate::cluster::RunTaskArgs),
    /// Prepare a pipeline's corpora and count their GloVe co-occurrences: everything its
    /// training jobs read (the first Slurm job of `retest run --executor slurm`).
    #[command(after_help = READS_FOLDERS)]
    Prepare(crate::cluster::PrepareArgs),
    /// Show which jobs of a pipeline are done, missing or failed, from the results folder
    /// (and the Slurm logs in `<results>/<pipeline>/slurm/logs/`).
    #[command(after_help = READS_FOLDERS)]
    Status(crate::cluster::StatusArgs),
    /// Rebuild the report of a finished run from its tables: figures (SVG and PNG) after
    /// Du et al. (2021) figs. 2–5, the comparison with the paper's findings and the excluded
    /// rows, written to `<results>/<pipeline>/report/` (`index.html`, `report.md`). Trains and
    /// measures nothing.
    #[command(after_help = READS_FOLDERS)]
    Report {
        /// The pipeline name (its folder in `--results`), or its pipeline file.
        pipeline: String,
        /// Read the tables from DIR instead of `<results>/<pipeline>/tables`.
        #[arg(long, value_name = "DIR")]
        tables: Option<PathBuf>,
        /// Write the report into DIR instead of `<results>/<pipeline>/report`: a new or empty
        /// folder, or one holding an earlier report.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Train every (corpus, algorithm, seed) embedding of a pipeline, preparing its corpora
    /// first. Finished embeddings are skipped, those another pipeline trained included; each is
    /// written atomically to `<results>/embeddings/<corpus>/<algorithm>-<key>/seed-NN.fifu`.
    #[command(after_help = READS_FOLDERS)]
    Train {
        /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
        pipeline: String,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Prepare and train what is missing, then score every rule, base pair and word on every
    /// seed and compute the reliability tables of each (corpus, algorithm), written to
    /// `<results>/<pipeline>/measure/`. `retest run` does this and more.
    #[command(after_help = READS_FOLDERS)]
    Measure {
        /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
        pipeline: String,
        #[command(flatten)]
        run: RunArgs,
    },
    /// The reliability study on embedding files you already have, each file a seed of one model
    /// (e.g. the same model trained with different seeds): every table and the report of a
    /// pipeline run, in `<results>/<name>/`, without writing a pipeline file.
    #[command(after_help = crate::reliability::EXAMPLE)]
    Reliability(crate::reliability::ReliabilityArgs),
    /// Bias scores of any embedding files (.fifu, word2vec text or binary, GloVe text — e.g. a
    /// pretrained model), without a pipeline: one row per (embedding, rule, pair, word) with
    /// columns `embedding, rule, male, female, word, score, status` (positive = masculine;
    /// `status` is `zero_vector`, with a NaN score, for a word whose vector is all zeros, and
    /// `not_computed` for NBM on a vocabulary smaller than its neighbourhood).
    ///
    /// Example: `retest score vectors.txt --pairs wordlists/du2021/base-pairs.txt
    /// --words wordlists/du2021/occ16.txt --out scores.parquet`
    Score(ScoreArgs),
    /// WEAT (Caliskan et al. 2017) on any embedding files: every test of a tests file, one row
    /// per (embedding, test) with columns `embedding, test, n_x, n_y, n_a, n_b, statistic,
    /// effect_size, p_value, p_method, n_partitions, status, detail, dropped`. Out-of-vocabulary
    /// words are left out (listed in `dropped` as `set:word`); a test left with an empty set
    /// gets status `empty_set` (the sets in `detail`) and a warning, and the others still run.
    ///
    /// Example: `retest weat vectors.fifu --tests wordlists/weat/caliskan.yaml --out weat.csv`
    #[command(
        after_help = "Folders: --corpora DIR, beside whose recipes the checksum lock of declared word files \
                             is (see `retest --help`)."
    )]
    Weat(WeatArgs),
    /// The set-level measures of the field on any embedding files: WEAT, RND (Garg et al.
    /// 2018), ECT (Dev & Phillips 2019), MAC (Manzini et al. 2019), RNSB (Sweeney & Najafian
    /// 2019) and RIPA (Ethayarajh et al. 2019), as WEFE computes them, on every test of a tests file: one row per (embedding,
    /// test, measure) with columns `embedding, test, measure, value, p_value, n_targets,
    /// n_attributes, status, detail, dropped`. A test names target and attribute sets; a
    /// measure whose shape it does not have (WEAT 2 × 2, RND and ECT 2 × 1, MAC any, RNSB any ×
    /// 2, RIPA 2 × 1 with target sets of one length, paired word by word) gets status
    /// `not_applicable`.
    ///
    /// Example: `retest query vectors.fifu --tests wordlists/weat/caliskan.yaml --measures
    /// weat,mac,rnsb --out query.csv`
    #[command(
        after_help = "Folders: --corpora DIR, beside whose recipes the checksum lock of declared word files \
                             is (see `retest --help`)."
    )]
    Query(QueryArgs),
    /// Criterion validity on any embedding files: how well each rule's scores of the criterion's
    /// words along each base pair track it — Garg et al.'s census (the logit of each
    /// occupation's share of women in a year), their MTurk stereotype ratings, or one's own
    /// `word,value` CSV. One row per (embedding, rule, pair) with columns `embedding, rule,
    /// reference, criterion, n_words, pearson_r, spearman_r, p_value`. Scores are positive when
    /// masculine, so a valid measure correlates negatively with the share of women.
    ///
    /// Example: `retest validity vectors.fifu --criterion census --census-year 1990 --out
    /// validity.csv`
    #[command(
        after_help = "Folders: --wordlists DIR (the criteria's declarations), and --corpora DIR for the \
                      checksum lock (see `retest --help`)."
    )]
    Validity(ValidityArgs),
    /// Bolukbasi et al.'s Direct Bias on any embedding files: the neutral words' mean
    /// |cos(w, g)|^c along each base pair's direction (`he:she`) and along the first principal
    /// component of all the pairs (`pca`, at least 2 pairs in the vocabulary). One row per
    /// (embedding, direction): `embedding, direction, c, n_words, direct_bias,
    /// explained_variance` (the first component's share of variance for `pca`, NaN for a pair).
    ///
    /// Example: `retest direct-bias vectors.fifu --pairs wordlists/du2021/base-pairs.txt
    /// --words wordlists/du2021/occ16.txt --out direct-bias.csv`
    DirectBias(DirectBiasArgs),
    /// Answer analogy queries A : B :: C : ? on any embedding files with 3CosAdd, 3CosMul or
    /// Bolukbasi et al.'s formula, constrained (D is none of A, B, C, as word2vec, gensim and
    /// debiaswe answer) or not (Nissim, van Noord & van der Goot 2020). One row per (embedding,
    /// query, rank): `embedding, a, b, c, solver, constraint, rank, answer, score, status,
    /// detail, reported, reported_rank, reported_status` (the rank of the answer a query line
    /// reports as its fourth word). A query with a word not among the words searched gets one
    /// row with status `out_of_vocabulary` (the words in `detail`) and a warning; the others are
    /// answered.
    ///
    /// Example: `retest analogies vectors.fifu --queries queries.txt --solver cosmul
    /// --unconstrained --top-n 5 --out analogies.csv`
    Analogies(AnalogiesArgs),
    /// Zhang et al.'s (2020) base-pair analyses on any embedding files: for DB/WA, RIPA and NBM
    /// (neighbours from the gender-neutral pool), the spread of scores over the limited
    /// vocabulary (Table 1), how far the base pairs agree on the professions' signs (Table 2),
    /// pairs against their capitalised forms (3), words against their plural, Capitalised and
    /// UPPER forms (4), signs against true genders (5), rules against each other (6), the
    /// cosines of the pairs' difference vectors (Figure 2), random baselines and RIPA label
    /// flips. Each embedding is a seed: with two or more of one vocabulary, also the seeds'
    /// agreement and the word × pair × seed variance components. Lists are names in the
    /// word-list folder (`--wordlists`; default `./wordlists`, else retest's own) or paths.
    ///
    /// Example: `retest base-pairs GoogleNews.bin --out base-pairs/`
    #[command(
        after_help = "Folders: --wordlists DIR, and --corpora DIR for the checksum lock (see `retest --help`)."
    )]
    BasePairs(BasePairsArgs),
    /// Hard-debias an embedding file (Bolukbasi et al. 2016, as debiaswe's `debias` does it):
    /// every word outside the gender-specific list loses its component along the first
    /// principal component of the definitional pairs, then each equalize pair (lowercased, in
    /// title case and uppercased) is made to differ along that direction only; every vector is
    /// written unit length (a zero vector stays zero). Lists: declared names of the word-list
    /// folder, text files (pairs or words, one per line) or debiaswe's JSON files as they come.
    ///
    /// Example: `retest debias vectors.fifu --output vectors-hard.fifu`
    #[command(
        after_help = "Folders: --wordlists DIR (the declared lists), and --corpora DIR for the checksum lock \
                      (see `retest --help`)."
    )]
    Debias(DebiasArgs),
    /// Train one word2vec model (skip-gram or CBOW, negative sampling) from a text file, like
    /// `word2vec -train`: whitespace-separated tokens, one sentence per line (plain or
    /// compressed). Single-threaded and byte-reproducible for a given seed.
    Sgns(SgnsArgs),
    /// Train one GloVe model from a text file, like GloVe's demo.sh: whitespace-separated
    /// tokens, one sentence per line. Prints the time of each stage and the cost per iteration.
    /// Single-threaded and byte-reproducible for a given seed.
    Glove(GloveArgs),
    /// Inspect and convert embedding files (.fifu, word2vec text/binary, GloVe text).
    #[command(subcommand)]
    Embeddings(EmbeddingsCommand),
    /// List the measures retest computes: each one's name (as tables, pipeline files and
    /// options spell it), label, family (per-word, set-level, categorical), what it is measured
    /// against, and what it computes.
    Measures,
    /// Intrinsic quality of embeddings: WordSim-353, SimLex-999, MEN, RG-65 and Stanford Rare
    /// Words (Spearman and Pearson), the Google analogy set and, when its file is there, MSR's
    /// (3CosAdd), with gensim's conventions (300k most frequent words, case-insensitive), so
    /// results compare with gensim's on the same vectors.
    Eval {
        /// Embedding files (format told from their bytes, or given by --format).
        #[arg(required = true)]
        embeddings: Vec<PathBuf>,
        #[command(flatten)]
        input: InputFormat,
        /// Folder holding the benchmark files. Default: `$RETEST_DATA_DIR/benchmarks`.
        #[arg(long, value_name = "DIR")]
        benchmarks: Option<PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Also write the numbers as a table: Parquet or CSV, as its name ends in `.parquet` or
        /// `.csv`, a row per (embedding, benchmark, section, metric).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Replace a file at --out that is not a table of that format (never an input).
        #[arg(long, requires = "out")]
        force: bool,
    },
    /// Reliability statistics on a CSV matrix, printed as JSON.
    ///
    /// Rows are subjects (ICC), cases (alpha) or rated items (kappa); columns are raters or
    /// items. A non-numeric first row is a header and a non-numeric first column holds labels;
    /// empty cells, NA and NaN are missing (rows with a missing value are dropped).
    #[command(subcommand)]
    Stats(StatsCommand),
    /// Record the SHA-256 of the files a declaring file names by source, in `checksums.lock`
    /// beside it: a WEAT tests file's `sets`, a word-list or lexicon declaration (`source`) or a
    /// corpus recipe (`sources`). A file is recorded the first time it is used; a later use that
    /// finds it changed fails. With --refresh, a file that changed on purpose (one's own, edited)
    /// is recorded as it is now. A checksum written in the declaring file (`sha256:`) is only
    /// verified: edit it there.
    ///
    /// Example: `retest lock --refresh study/my-tests.yaml`
    Lock {
        /// Declaring files (`.yaml`): WEAT tests files, declarations, corpus recipes.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Record each file as it is now, replacing the checksum the lock holds.
        #[arg(long)]
        refresh: bool,
    },
    /// Validate a pipeline and print the resolved plan, the jobs it implies and each job's
    /// memory.
    ///
    /// Every default is filled in, so the output is exactly what a run would do. Every word
    /// list, query and pair file the pipeline names is found and read, and on a corpus already
    /// prepared a job that needs more memory than this machine has is refused.
    #[command(after_help = READS_FOLDERS)]
    Plan {
        /// A pipeline file (`pipelines/du2021.yaml`) or the name of one in `pipelines/`.
        pipeline: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// Prepare a corpus from its recipe: find its files (explicit path, then the mirror folder
    /// named by RETEST_DATA_DIR, then the download cache, downloading if needed), verify their
    /// SHA-256, then read, tokenise, count and encode it under `<results>/corpora/`.
    ///
    /// Example: `RETEST_DATA_DIR=../shared/data retest corpus prepare wikitext-103-valid`
    #[command(after_help = READS_FOLDERS)]
    Prepare {
        /// A recipe file (`corpora/gutenberg.yaml`) or the name of one in the recipe folder.
        recipe: String,
        /// Keep words seen at least this often (overrides the recipe).
        #[arg(long, value_parser = positive::<u64>)]
        min_count: Option<u64>,
        /// Read only the first N tokens (overrides the recipe).
        #[arg(long, value_parser = positive::<u64>)]
        max_tokens: Option<u64>,
        /// Prepare again even if an identical preparation exists.
        #[arg(long)]
        force: bool,
    },
    /// List the corpus recipes in the recipe folder.
    #[command(after_help = READS_FOLDERS)]
    List,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Jobs to run at once (each training job uses one thread), at least 1. Default: all cores.
    #[arg(long, short = 'j', value_name = "N", value_parser = job_count)]
    pub jobs: Option<usize>,
    /// Redo jobs even if their outputs exist.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Embedding files (format told from their bytes, or given by --format).
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// Base pairs: one `masculine feminine` pair per line, `#` comments.
    #[arg(long)]
    pub pairs: PathBuf,
    /// Target words: one word per line, `#` comments (repeat for several files).
    #[arg(long, required = true)]
    pub words: Vec<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Look words up lowercased, for embeddings of a lowercased corpus (the table names the
    /// pairs and words lowercased).
    #[arg(long)]
    pub lowercase: bool,
    #[command(flatten)]
    pub table: TableOut,
}

/// The rules and their settings, shared by `retest score` and `retest validity`.
#[derive(Debug, Args)]
pub struct ScoringArgs {
    /// Scoring rules, comma-separated: dbwa, ripa, nbm.
    #[arg(long, value_delimiter = ',', default_value = "dbwa,ripa,nbm")]
    pub rules: Vec<retest_spec::Rule>,
    /// RIPA on the raw target vector (the paper) or the unit vector (Du et al.'s code).
    #[arg(long, default_value_t = retest_spec::defaults::RIPA_TARGET)]
    pub ripa_target: retest_spec::RipaTarget,
    /// NBM's neighbourhood size.
    #[arg(long, default_value_t = retest_spec::defaults::NBM_K, value_parser = positive::<u32>)]
    pub nbm_k: u32,
    /// Where NBM's neighbours come from: the whole vocabulary (the paper), or the neutral pool
    /// of Gonen & Goldberg and Zhang et al. (the 50,000 most frequent lowercase words, less the
    /// pairs' words and the --pool-exclude lists'; the file's words must be in decreasing
    /// frequency order).
    #[arg(long, default_value_t = retest_spec::defaults::NBM_POOL)]
    pub nbm_pool: retest_spec::NbmPool,
    /// With --nbm-pool neutral: lists whose words the pool leaves out (names in the word-list
    /// folder or files). Default: debiaswe's definitional pairs, equalize pairs and
    /// gender-specific words, as the base-pair analyses.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_values = retest_spec::defaults::ZHANG_POOL_EXCLUDE)]
    pub pool_exclude: Vec<String>,
    /// Threads for the neighbour search (results do not depend on it). Default: all cores.
    #[arg(long, value_parser = positive::<usize>)]
    pub threads: Option<usize>,
}

impl ScoringArgs {
    /// The words the neutral pool leaves out, from the --pool-exclude lists (none with the
    /// vocabulary as the pool).
    ///
    /// # Errors
    ///
    /// A list that cannot be found, read, verified or parsed.
    pub fn pool_exclude(&self, folders: &retest_pipeline::Folders) -> anyhow::Result<Vec<String>> {
        if self.nbm_pool == retest_spec::NbmPool::Vocabulary {
            return Ok(Vec::new());
        }
        let mut resolver = retest_pipeline::resolver(&retest_pipeline::lock_file(&folders.recipes(None)))?;
        retest_pipeline::pool_exclude_words(&self.pool_exclude, &folders.wordlists(None), &mut resolver)
    }

    /// The rules with their settings, the neutral pool leaving out `pool_exclude`.
    pub fn scoring<'a>(&'a self, pool_exclude: &'a [String]) -> retest_pipeline::Scoring<'a> {
        retest_pipeline::Scoring {
            rules: &self.rules,
            ripa_target: self.ripa_target,
            nbm_k: self.nbm_k as usize,
            nbm_pool: self.nbm_pool,
            pool_exclude,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
        }
    }
}

#[derive(Debug, Args)]
pub struct ValidityArgs {
    /// Embedding files (format told from their bytes, or given by --format).
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// The criterion: `census` (Garg et al.: the logit of each occupation's share of women),
    /// `mturk` (Garg et al.'s stereotype ratings), or a CSV of `word,value` lines.
    #[arg(long, value_name = "census|mturk|FILE")]
    pub criterion: String,
    /// The census year (1850–2015; default: the latest), with `--criterion census`.
    #[arg(long, value_name = "Y")]
    pub census_year: Option<u32>,
    /// Base pairs: one `masculine feminine` pair per line (default: the word-list folder's
    /// `du2021/base-pairs.txt`).
    #[arg(long)]
    pub pairs: Option<PathBuf>,
    #[command(flatten)]
    pub scoring: ScoringArgs,
    /// Look words up lowercased, for embeddings of a lowercased corpus.
    #[arg(long)]
    pub lowercase: bool,
    #[command(flatten)]
    pub table: TableOut,
}

/// How `retest debias` debiases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DebiasMethod {
    /// Neutralise and equalise (Bolukbasi et al. 2016).
    Hard,
}

#[derive(Debug, Args)]
pub struct DebiasArgs {
    /// The embedding file (format told from its bytes, or given by --format).
    pub embedding: PathBuf,
    #[command(flatten)]
    pub input: InputFormat,
    #[arg(long, value_enum, default_value_t = DebiasMethod::Hard)]
    pub method: DebiasMethod,
    /// Pairs whose first principal component is the gender direction: a declared list's name,
    /// a text file of `masculine feminine` lines or a JSON list of pairs.
    #[arg(long, value_name = "NAME|FILE", default_value = retest_pipeline::DebiasListNames::BOLUKBASI.definitional)]
    pub definitional: String,
    /// Pairs to equalise, each also looked up in title case and uppercased: a declared list's
    /// name, a text file of pairs or a JSON list of pairs.
    #[arg(long, value_name = "NAME|FILE", default_value = retest_pipeline::DebiasListNames::BOLUKBASI.equalize)]
    pub equalize: String,
    /// Words kept as they are: a declared list's name, a text file (words) or a JSON list.
    #[arg(long, value_name = "NAME|FILE", default_value = retest_pipeline::DebiasListNames::BOLUKBASI.gender_specific)]
    pub gender_specific: String,
    /// Look the listed words up lowercased, for embeddings of a lowercased corpus.
    #[arg(long)]
    pub lowercase: bool,
    /// The debiased embedding file; its name gives the format: `.fifu`, `.bin` (word2vec
    /// binary), `.vec` (word2vec text) or `.txt` (with --output-format).
    #[arg(long, visible_alias = "out")]
    pub output: PathBuf,
    /// Output format: fifu, word2vec-text, word2vec-binary, glove-text. Default: the one the
    /// output's name ends in.
    #[arg(long)]
    pub output_format: Option<retest_embeddings::Format>,
    /// Replace a file at --output (never the input).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct WeatArgs {
    /// Embedding files (format told from their bytes, or given by --format).
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    #[command(flatten)]
    pub tests: TestsArgs,
    #[command(flatten)]
    pub table: TableOut,
}

/// The tests and WEAT's settings, shared by `retest weat` and `retest query`.
#[derive(Debug, Args)]
pub struct TestsArgs {
    /// The tests file (YAML: `tests: {NAME: {x: …, y: …, a: …, b: …}}`, or `{targets: {NAME:
    /// …}, attributes: {NAME: …}}` for `retest query`; each set a list of words or a set of the
    /// file's declared `sets`), e.g. `wordlists/weat/caliskan.yaml`.
    #[arg(long, value_name = "FILE")]
    pub tests: PathBuf,
    /// Run only these tests, comma-separated (default: all, in the file's order).
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub tests_only: Vec<String>,
    /// The effect size's standard deviation: population (Caliskan et al., WEFE) or sample.
    #[arg(long, default_value_t = retest_spec::defaults::WEAT_SD)]
    pub sd: retest_spec::SdKind,
    /// Enumerate every partition of the permutation test when there are at most N; else sample.
    #[arg(long, value_name = "N", default_value_t = retest_spec::defaults::WEAT_EXACT_PARTITIONS_MAX, value_parser = whole::<u64>)]
    pub exact_max: u64,
    /// Partitions drawn when the permutation test samples.
    #[arg(
        long,
        value_name = "N",
        default_value_t = retest_spec::defaults::WEAT_SAMPLED_PARTITIONS,
        value_parser = whole_in::<u64, 1, { retest_spec::defaults::WEAT_MAX_SAMPLED_PARTITIONS }>
    )]
    pub samples: u64,
    /// Root seed of the sampled permutation tests (each test draws from its own stream, the
    /// same for every embedding).
    #[arg(long, default_value_t = retest_spec::defaults::WEAT_SEED, value_parser = whole::<u64>)]
    pub seed: u64,
    /// Look words up lowercased, for embeddings of a lowercased corpus (the Caliskan names are
    /// capitalised).
    #[arg(long)]
    pub lowercase: bool,
}

impl TestsArgs {
    pub fn weat_settings(&self) -> retest_pipeline::WeatSettings {
        retest_pipeline::WeatSettings {
            sd: self.sd,
            exact_max: self.exact_max,
            samples: self.samples,
            seed: self.seed,
        }
    }
}

#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Embedding files (format told from their bytes, or given by --format).
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    #[command(flatten)]
    pub tests: TestsArgs,
    /// The measures, comma-separated: weat, rnd, ect, mac, rnsb, ripa.
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,...",
        default_value = "weat,rnd,ect,mac,rnsb,ripa"
    )]
    pub measures: Vec<retest_spec::Measure>,
    /// The share of each attribute set RNSB's classifier does not see, drawn from --seed (0: fit
    /// on every attribute word, WEFE's `holdout=False`).
    #[arg(long, value_name = "F", default_value_t = retest_spec::defaults::RNSB_HOLDOUT)]
    pub rnsb_holdout: f64,
    #[command(flatten)]
    pub table: TableOut,
}

/// The table a file command writes.
#[derive(Debug, Args)]
pub struct TableOut {
    /// Output table: Parquet or CSV, as its name ends in `.parquet` or `.csv`.
    #[arg(long)]
    pub out: PathBuf,
    /// Replace a file at --out that is not a table of that format (never an input).
    #[arg(long)]
    pub force: bool,
}

impl TableOut {
    pub fn file(&self) -> retest_pipeline::TableFile<'_> {
        retest_pipeline::TableFile {
            path: &self.out,
            overwrite: retest_pipeline::Overwrite::forced(self.force),
        }
    }
}

#[derive(Debug, Args)]
pub struct DirectBiasArgs {
    /// Embedding files (format told from their bytes, or given by --format).
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// Base pairs: one `masculine feminine` pair per line, `#` comments.
    #[arg(long, value_name = "FILE")]
    pub pairs: PathBuf,
    /// Neutral words: one word per line, `#` comments.
    #[arg(long, value_name = "FILE")]
    pub words: PathBuf,
    /// The exponent c of |cos(w, g)|^c.
    #[arg(long, default_value_t = retest_spec::defaults::DIRECT_BIAS_C)]
    pub c: f64,
    /// Also Direct Bias on the span of the first 2, …, K principal components of the pairs
    /// (directions `pca:2` … `pca:K`: the mean of each word's cosine with its projection on the
    /// span; `explained_variance` the first K components' share). At most the pairs in the
    /// vocabulary.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = positive::<usize>)]
    pub components: usize,
    /// Look words up lowercased, for embeddings of a lowercased corpus.
    #[arg(long)]
    pub lowercase: bool,
    #[command(flatten)]
    pub table: TableOut,
}

#[derive(Debug, Args)]
pub struct AnalogiesArgs {
    /// Embedding files (format told from their bytes, or given by --format), words in
    /// descending frequency.
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// Queries: one `a b c` per line (the query a : b :: c : ?), optionally followed by a
    /// reported answer whose rank the table gives; `#` comments, blank lines.
    #[arg(long, value_name = "FILE")]
    pub queries: PathBuf,
    /// cosadd: cos(D,B) − cos(D,A) + cos(D,C); cosmul: s(D,B)·s(D,C)/(s(D,A) + 1e-6) with
    /// s = (1 + cos)/2, as gensim; cosmul_unshifted: the same on the cosines, as Nissim et al.
    /// print it; bolukbasi: cos(A − C, B − D) if B and D are within --delta, else 0.
    #[arg(long, value_parser = solver_kind())]
    pub solver: retest_spec::SolverKind,
    /// Allow the answer to be A, B or C.
    #[arg(long)]
    pub unconstrained: bool,
    /// Answers per query.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = positive::<usize>)]
    pub top_n: usize,
    /// Search only the N most frequent words (the first N of the file); a query word beyond
    /// them is out of vocabulary. Default: the whole vocabulary.
    #[arg(long, value_name = "N", value_parser = positive::<usize>)]
    pub restrict_vocab: Option<usize>,
    /// Bolukbasi's δ: D must be within δ of B (only with `--solver bolukbasi`).
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub delta: Option<f64>,
    /// Read δ as a bound on the squared distance ‖B − D‖², as debiaswe's code does, instead of
    /// the distance ‖B − D‖ of the paper (the two agree at δ = 1).
    #[arg(long)]
    pub squared_delta: bool,
    /// Look words up lowercased, for embeddings of a lowercased corpus.
    #[arg(long)]
    pub lowercase: bool,
    #[command(flatten)]
    pub table: TableOut,
}

#[derive(Debug, Args)]
pub struct BasePairsArgs {
    /// Embedding files (format told from their bytes, or given by --format), words in
    /// descending frequency.
    #[arg(required = true)]
    pub embeddings: Vec<PathBuf>,
    #[command(flatten)]
    pub input: InputFormat,
    /// The base pairs: `masculine feminine` per line.
    #[arg(long, value_name = "LIST", default_value = retest_spec::defaults::ZHANG_PAIRS)]
    pub pairs: String,
    /// The words the pairs must agree on (a word list, or a stereotype list such as Bolukbasi
    /// et al.'s professions.json).
    #[arg(long, value_name = "LIST", default_value = retest_spec::defaults::ZHANG_PROFESSIONS)]
    pub targets: String,
    /// Lists of words with their true gender, `word m|f` per line (repeat for several).
    #[arg(long, value_name = "LIST", default_values = retest_spec::defaults::ZHANG_TRUTH)]
    pub truth: Vec<String>,
    /// Lists whose words leave NBM's neutral pool (repeat for several).
    #[arg(long, value_name = "LIST", default_values = retest_spec::defaults::ZHANG_POOL_EXCLUDE)]
    pub pool_exclude: Vec<String>,
    /// The limited vocabulary and the neutral pool come from the N most frequent words.
    #[arg(long, value_name = "N", default_value_t = retest_spec::defaults::ZHANG_MOST_FREQUENT, value_parser = whole_in::<usize, 2, { u64::MAX }>)]
    pub most_frequent: usize,
    /// NBM's neighbourhood size.
    #[arg(long, value_name = "K", default_value_t = retest_spec::defaults::ZHANG_NBM_K, value_parser = positive::<u32>)]
    pub nbm_k: u32,
    /// RIPA on the raw target vector (the paper) or the unit vector.
    #[arg(long, default_value_t = retest_spec::defaults::RIPA_TARGET)]
    pub ripa_target: retest_spec::RipaTarget,
    /// Figure 1's word, shown with its forms.
    #[arg(long, value_name = "WORD", default_value = retest_spec::defaults::ZHANG_EXAMPLE)]
    pub example: String,
    /// Random word pairs per embedding for the cosine baselines.
    #[arg(long, value_name = "N", default_value_t = retest_spec::defaults::ZHANG_RANDOM_SAMPLES, value_parser = whole_in::<usize, 1, { retest_spec::defaults::ZHANG_MAX_RANDOM_SAMPLES as u64 }>)]
    pub random_samples: usize,
    /// Root seed of the random baselines.
    #[arg(long, default_value_t = retest_spec::defaults::WEAT_SEED, value_parser = whole::<u64>)]
    pub seed: u64,
    /// Look words up lowercased, for embeddings of a lowercased corpus (capitalised pairs and
    /// forms are then not applicable).
    #[arg(long)]
    pub lowercase: bool,
    /// A new folder for the tables (Parquet and CSV).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// The input, output and seed of `retest sgns` and `retest glove`.
#[derive(Debug, Args)]
pub struct ModelFileArgs {
    /// Training text: whitespace-separated tokens, one sentence per line.
    #[arg(long)]
    pub input: PathBuf,
    /// Output embedding file (`retest glove` writes W + W̃, as glove -model 2); its name gives
    /// the format: `.fifu`, `.bin` (word2vec binary), `.vec` (word2vec text) or `.txt` (with
    /// --format).
    #[arg(long)]
    pub output: PathBuf,
    /// Output format: fifu, word2vec-text, word2vec-binary, glove-text. Default: the one the
    /// output's name ends in (needed for `.txt`, word2vec or GloVe text).
    #[arg(long)]
    pub format: Option<retest_embeddings::Format>,
    /// Replace a file at --output (never the input).
    #[arg(long)]
    pub force: bool,
    /// Words occurring fewer times are left out of the vocabulary.
    #[arg(long, default_value_t = retest_spec::defaults::MIN_COUNT, value_parser = positive::<u64>)]
    pub min_count: u64,
    /// Root seed: the same seed and input give the same bytes.
    #[arg(long, default_value_t = retest_spec::defaults::SINGLE_MODEL_SEED, value_parser = whole::<u64>)]
    pub seed: u64,
}

impl ModelFileArgs {
    pub fn model(&self) -> retest_pipeline::SingleModel<'_> {
        retest_pipeline::SingleModel {
            input: &self.input,
            min_count: self.min_count,
            seed: self.seed,
            output: &self.output,
            format: self.format,
            overwrite: retest_pipeline::Overwrite::forced(self.force),
        }
    }
}

#[derive(Debug, Args)]
pub struct SgnsArgs {
    #[command(flatten)]
    pub file: ModelFileArgs,
    #[arg(long, default_value_t = retest_spec::defaults::DIM, value_parser = positive::<u32>)]
    pub dim: u32,
    /// Maximal context window (shrunk at random per word, as word2vec).
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_WINDOW, value_parser = positive::<u32>)]
    pub window: u32,
    /// Negative samples per positive pair.
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_NEGATIVE, value_parser = positive::<u32>)]
    pub negative: u32,
    /// Sub-sampling threshold (0 disables it).
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_SAMPLE)]
    pub sample: f64,
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_EPOCHS, value_parser = positive::<u32>)]
    pub epochs: u32,
    /// Initial learning rate.
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_ALPHA)]
    pub alpha: f64,
    /// Final learning rate.
    #[arg(long, default_value_t = retest_spec::defaults::SGNS_MIN_ALPHA)]
    pub min_alpha: f64,
    /// Train CBOW instead of skip-gram.
    #[arg(long)]
    pub cbow: bool,
    /// Training threads: only 1 (deterministic) is supported; train seeds in parallel instead.
    #[arg(long, default_value_t = 1, value_parser = one_thread)]
    pub threads: u32,
}

#[derive(Debug, Args)]
pub struct GloveArgs {
    #[command(flatten)]
    pub file: ModelFileArgs,
    #[arg(long, default_value_t = retest_spec::defaults::DIM, value_parser = positive::<u32>)]
    pub dim: u32,
    /// Symmetric co-occurrence window, weighted by 1/distance.
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_WINDOW, value_parser = positive::<u32>)]
    pub window: u32,
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_X_MAX)]
    pub x_max: f64,
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_ALPHA)]
    pub alpha: f64,
    /// AdaGrad initial learning rate.
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_ETA)]
    pub eta: f64,
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_ITERATIONS, value_parser = positive::<u32>)]
    pub iter: u32,
    /// Memory budget of co-occurrence counting in GiB (sorted runs spill to disk beyond it).
    #[arg(long, default_value_t = retest_spec::defaults::GLOVE_MEMORY_MB as f64 / 1024.0)]
    pub memory: f64,
    /// Training threads: only 1 (deterministic) is supported; train seeds in parallel instead.
    #[arg(long, default_value_t = 1, value_parser = one_thread)]
    pub threads: u32,
}

#[derive(Debug, Subcommand)]
pub enum EmbeddingsCommand {
    /// Print vocabulary size, dimension and metadata (training configuration, corpus, seed).
    Info {
        input: PathBuf,
        #[command(flatten)]
        format: InputFormat,
    },
    /// Convert to another format so gensim and other tools can load the vectors
    /// (written atomically). An existing file is replaced only with --force.
    Export {
        input: PathBuf,
        /// Format of the input: fifu, word2vec-text, word2vec-binary or glove-text. Default:
        /// told from its bytes.
        #[arg(long, value_name = "FORMAT")]
        input_format: Option<retest_embeddings::Format>,
        /// Output format: fifu, word2vec-text, word2vec-binary, glove-text. Default: the one
        /// the output's name ends in (needed for `.txt`, word2vec or GloVe text).
        #[arg(long)]
        format: Option<retest_embeddings::Format>,
        /// The new file; its name gives the format: `.fifu`, `.bin` (word2vec binary), `.vec`
        /// (word2vec text) or `.txt` (with --format).
        #[arg(long)]
        output: PathBuf,
        /// Replace a file at --output (never the input).
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum StatsCommand {
    /// Intraclass correlations: the six Shrout-Fleiss forms with F test, p-value and 95% CI
    /// (test-retest reliability is icc2_1, inter-rater consistency icc3_1).
    Icc {
        /// The CSV matrix: a row per subject, a column per rater.
        file: PathBuf,
        /// Only this form: icc1_1, icc2_1, icc3_1, icc1_k, icc2_k, icc3_k (or pingouin's names).
        #[arg(long)]
        form: Option<String>,
        #[command(flatten)]
        csv: CsvArgs,
    },
    /// Cronbach's alpha (columns are items) with Feldt's 95% CI.
    Alpha {
        /// The CSV matrix: a row per case, a column per item.
        file: PathBuf,
        #[command(flatten)]
        csv: CsvArgs,
    },
    /// Fleiss' kappa over all raters, plus Cohen's kappa when there are two (integer labels).
    Kappa {
        /// The CSV matrix: a row per rated item, a column per rater; integer labels.
        file: PathBuf,
        #[command(flatten)]
        csv: CsvArgs,
    },
}

/// The format of embedding files read.
#[derive(Debug, Args)]
pub struct InputFormat {
    /// Format of the embedding files: fifu, word2vec-text, word2vec-binary or glove-text.
    /// Default: told from each file's bytes.
    #[arg(long = "format", value_name = "FORMAT")]
    pub format: Option<retest_embeddings::Format>,
}

impl InputFormat {
    /// The embedding files of a command, read in this format.
    pub fn files<'a>(&self, paths: &'a [PathBuf], lowercase: bool) -> retest_pipeline::EmbeddingFiles<'a> {
        retest_pipeline::EmbeddingFiles {
            paths,
            format: self.format,
            lookup: retest_pipeline::WordLookup { lowercase },
        }
    }
}

#[derive(Debug, Args)]
pub struct CsvArgs {
    /// Field delimiter.
    #[arg(long, default_value_t = ',')]
    pub delimiter: char,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The resolved plan as YAML followed by the job list.
    Text,
    /// One JSON object with `plan` and `jobs`.
    Json,
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Cli, Command};

    #[test]
    fn score_rules_default_to_the_pipeline_default() {
        let cli = Cli::try_parse_from([
            "retest", "score", "e.vec", "--pairs", "p", "--words", "w", "--out", "o.csv",
        ])
        .unwrap();
        let Command::Score(args) = cli.command else {
            panic!("not score");
        };
        assert_eq!(args.scoring.rules, retest_spec::defaults::RULES);
    }

    #[test]
    fn query_measures_default_to_every_query_measure() {
        let cli =
            Cli::try_parse_from(["retest", "query", "e.vec", "--tests", "t.yaml", "--out", "o.csv"]).unwrap();
        let Command::Query(args) = cli.command else {
            panic!("not query");
        };
        assert_eq!(args.measures, retest_spec::defaults::QUERY_MEASURES);
    }
}
