//! Pipeline and recipe validation: defaults, and every error message (a test, or a table of cases,
//! per kind of error).

use std::path::Path;

use crate::{
    Algorithm, CaseHandling, CorpusRecipe, Job, ModelParams, NewlineHandling, Plan, ReaderSpec, RecipeFolder,
    SentenceSplitting, SpecError, UnkHandling,
};

const RECIPE: &str = "\
name: tiny
description: a test corpus
reader:
  format: wikitext
sources:
  - file: tiny.txt
";

/// A temporary project with a recipe folder holding `tiny.yaml`.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("corpora")).unwrap();
        std::fs::write(dir.path().join("corpora/tiny.yaml"), RECIPE).unwrap();
        Project { dir }
    }

    fn recipes(&self) -> RecipeFolder {
        RecipeFolder {
            dir: self.dir.path().join("corpora"),
        }
    }

    fn plan(&self, text: &str) -> Result<Plan, SpecError> {
        Plan::parse(text, Path::new("pipelines/p.yaml"), &self.recipes())
    }

    fn error(&self, text: &str) -> String {
        self.plan(text)
            .expect_err("the pipeline should be rejected")
            .to_string()
    }
}

/// Each `(pipeline text, message)`: the text, alone in a fresh project, is rejected with exactly
/// that message.
fn assert_rejected(cases: &[(&str, &str)]) {
    for &(text, expected) in cases {
        assert_eq!(Project::new().error(text), expected, "{text}");
    }
}

#[test]
fn minimal_pipeline_resolves_every_default() {
    let plan = Project::new()
        .plan("name: p\ncorpora:\n  - recipe: tiny\n")
        .unwrap();
    assert_eq!(plan.n_seeds, 32);
    assert_eq!(plan.seed, 2021);
    assert_eq!(plan.algorithms, vec![Algorithm::Sgns, Algorithm::Glove]);
    let sgns = plan.sgns.as_ref().unwrap();
    assert_eq!(
        (sgns.dim, sgns.window, sgns.negative, sgns.epochs),
        (300, 5, 5, 5)
    );
    assert_eq!((sgns.sample, sgns.alpha, sgns.min_alpha), (1e-3, 0.025, 0.0001));
    let glove = plan.glove.as_ref().unwrap();
    assert_eq!((glove.dim, glove.window, glove.iterations), (300, 15, 15));
    assert_eq!((glove.x_max, glove.alpha, glove.eta), (100.0, 0.75, 0.05));
    assert_eq!(plan.corpora[0].min_count, 5);
    assert_eq!(
        plan.corpora[0].reader,
        ReaderSpec::Wikitext {
            unk: UnkHandling::Keep
        }
    );
    assert_eq!(plan.measures.nbm_k, 100);
    assert_eq!(plan.measures.target_lists.len(), 5);
}

#[test]
fn pipeline_overrides_reach_the_plan() {
    let plan = Project::new()
        .plan(
            "name: p\nseed: 9\nn_seeds: 3\ncorpora:\n  - recipe: tiny\n    min_count: 2\n    max_tokens: 1000\n\
             algorithms: [sgns]\nsgns: {dim: 20, architecture: cbow}\n",
        )
        .unwrap();
    assert_eq!((plan.seed, plan.n_seeds), (9, 3));
    assert_eq!(
        (plan.corpora[0].min_count, plan.corpora[0].max_tokens),
        (2, Some(1000))
    );
    assert!(plan.glove.is_none());
    assert_eq!(plan.sgns.unwrap().dim, 20);
}

#[test]
fn jobs_cover_every_stage_with_distinct_seeds() {
    let plan = Project::new()
        .plan("name: p\nn_seeds: 3\ncorpora:\n  - recipe: tiny\n")
        .unwrap();
    let jobs = plan.jobs();
    // prepare + cooccurrence, 2 algorithms × 3 seeds, 2 measure jobs, 1 aggregate.
    assert_eq!(jobs.len(), 2 + 6 + 2 + 1);
    assert_eq!(
        jobs[0],
        Job::PrepareCorpus {
            corpus: "tiny".into()
        }
    );
    let seeds: std::collections::BTreeSet<u64> = plan
        .training_jobs()
        .iter()
        .map(|job| match job {
            Job::Train { seed, .. } => *seed,
            _ => unreachable!("training_jobs holds training jobs only"),
        })
        .collect();
    assert_eq!(seeds.len(), 6, "every training job has its own seed");
    // Same plan, same seeds.
    assert_eq!(
        plan.training_jobs(),
        Project::new()
            .plan("name: p\nn_seeds: 3\ncorpora:\n  - recipe: tiny\n")
            .unwrap()
            .training_jobs()
    );
}

/// Type errors speak of YAML values, never of the Rust types behind them.
#[test]
fn wrong_types_name_yaml_values_not_rust_types() {
    let cases = [
        (
            "- a\n- b\n",
            "pipelines/p.yaml:1:1: invalid type: sequence, expected a mapping",
        ),
        (
            "name: p\nsgns: 5\n",
            "pipelines/p.yaml:2:7: field `sgns`: invalid type: integer `5`, expected a mapping",
        ),
        (
            "name: p\nn_seeds: 99999999999999999999\n",
            "pipelines/p.yaml:2:10: field `n_seeds`: invalid type: integer `99999999999999999999`, \
             expected a whole number up to 4294967295",
        ),
        (
            "name: p\nseed: -1\n",
            "pipelines/p.yaml:2:7: field `seed`: invalid type: integer `-1`, expected a whole number \
             up to 18446744073709551615",
        ),
        (
            "name: p\nsgns:\n  dim: 1.5\n",
            "pipelines/p.yaml:3:8: field `sgns.dim`: invalid type: number `1.5`, expected a whole \
             number up to 4294967295",
        ),
        (
            "name: p\nsgns:\n  alpha: [1]\n",
            "pipelines/p.yaml:3:10: field `sgns.alpha`: invalid type: sequence, expected a number",
        ),
        (
            "name: p\nmeasures:\n  rules: [{a: 1}]\n",
            "pipelines/p.yaml:3:11: field `measures.rules[0]`: invalid type: mapping, expected a \
             plain value",
        ),
        (
            "name: p\nalgorithms: {a: 1}\n",
            "pipelines/p.yaml:2:13: field `algorithms`: invalid type: mapping, expected a sequence",
        ),
    ];
    assert_rejected(&cases);
}

/// A key given twice is reported where it is given the second time; a syntax error names
/// no field it cannot know.
#[test]
fn repeated_keys_and_syntax_errors_have_real_positions() {
    let cases = [
        (
            "name: p\nn_seeds: 2\nn_seeds: 3\n",
            "pipelines/p.yaml:3:1: duplicate field `n_seeds`",
        ),
        (
            "name: p\nsgns:\n  dim: 10\n  dim: 12\n",
            "pipelines/p.yaml:4:3: field `sgns`: duplicate field `dim`",
        ),
        (
            "name: p\n  n_seeds: 2\n",
            "pipelines/p.yaml:2:10: mapping values are not allowed in this context",
        ),
    ];
    assert_rejected(&cases);
}

#[test]
fn unknown_corpus_lists_the_known_ones() {
    let project = Project::new();
    let message = project.error("name: p\ncorpora:\n  - recipe: tiny\n  - recipe: wikitext-9\n");
    let expected = format!(
        "pipelines/p.yaml:4:13: field `corpora[1].recipe`: unknown corpus `wikitext-9`: no recipe file {}; \
         known corpora in {}: tiny",
        project.dir.path().join("corpora/wikitext-9.yaml").display(),
        project.dir.path().join("corpora").display()
    );
    assert_eq!(message, expected);
}

#[test]
fn invalid_yaml_names_the_line() {
    let message = Project::new().error("name: p\ncorpora:\n  - recipe: tiny\n bad: [\n");
    assert!(message.starts_with("pipelines/p.yaml:4:"), "{message}");
}

/// Values a pipeline may not hold: one line naming the place, the field and what is wrong.
#[test]
fn invalid_pipeline_values_are_rejected_at_their_place() {
    let cases = [
        // An unknown key names its line and field.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nsgns:\n  windw: 5\n",
            "pipelines/p.yaml:5:3: field `sgns.windw`: unknown field `windw`, expected one of \
             `architecture`, `dim`, `window`, `negative`, `ns_exponent`, `sample`, `epochs`, `alpha`, \
             `min_alpha`, `threads_per_model`",
        ),
        // A value of the wrong type names its line and field.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nglove:\n  dim: big\n",
            "pipelines/p.yaml:5:8: field `glove.dim`: invalid type: string \"big\", expected a whole \
             number up to 4294967295",
        ),
        // A window of 0.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nsgns:\n  dim: 10\n  window: 0\n",
            "pipelines/p.yaml:6:11: field `sgns.window`: 0 is too small: must be at least 1",
        ),
        // Fewer than two seeds.
        (
            "name: p\nn_seeds: 1\ncorpora:\n  - recipe: tiny\n",
            "pipelines/p.yaml:2:10: field `n_seeds`: 1 seed(s): test-retest reliability needs at least 2 seeds \
             per corpus and algorithm",
        ),
        // A min_count of 0.
        (
            "name: p\ncorpora:\n  - recipe: tiny\n    min_count: 0\n",
            "pipelines/p.yaml:4:16: field `corpora[0].min_count`: must be at least 1 (a word must occur to be in \
             the vocabulary)",
        ),
        // Parameters for an algorithm that is not trained.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nalgorithms: [sgns]\nglove: {dim: 5}\n",
            "pipelines/p.yaml:5:8: field `glove`: parameters given for `glove`, which is not in `algorithms`",
        ),
        // min_alpha above alpha.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nsgns: {alpha: 0.01, min_alpha: 0.1}\n",
            "pipelines/p.yaml:4:32: field `sgns.min_alpha`: 0.1 must lie between 0 and alpha (0.01)",
        ),
        // A rule listed twice.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nmeasures:\n  rules: [ripa, ripa]\n",
            "pipelines/p.yaml:5:17: field `measures.rules[1]`: `ripa` is listed twice",
        ),
        // Hogwild threads.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nsgns:\n  threads_per_model: 4\n",
            "pipelines/p.yaml:5:22: field `sgns.threads_per_model`: 4 threads per model: only 1 is supported (one \
             deterministic thread per training run; runs of different seeds train in parallel, see --jobs)",
        ),
        // A dimension or a seed count beyond reason.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nsgns:\n  dim: 4000000000\n",
            "pipelines/p.yaml:5:8: field `sgns.dim`: 4000000000 is too large: must be at most 10000",
        ),
        (
            "name: p\nn_seeds: 100000000\ncorpora:\n  - recipe: tiny\n",
            "pipelines/p.yaml:2:10: field `n_seeds`: 100000000 seeds is too many: must be at most 10000",
        ),
        // Counts that size memory.
        (
            "name: p\ncorpora:\n  - recipe: tiny\nset_level:\n  samples: 1000000000000\n",
            "pipelines/p.yaml:5:12: field `set_level.samples`: 1000000000000 is too large: must be at most 10000000",
        ),
        (
            "name: p\ncorpora:\n  - recipe: tiny\nbase_pairs:\n  random_samples: 1000000000000\n",
            "pipelines/p.yaml:5:19: field `base_pairs.random_samples`: 1000000000000 is too large: must be at most \
             10000000",
        ),
    ];
    assert_rejected(&cases);
}

#[test]
fn errors_in_a_recipe_name_the_recipe_file() {
    let project = Project::new();
    std::fs::write(
        project.dir.path().join("corpora/tiny.yaml"),
        RECIPE.replace("format: wikitext", "format: wikitext\n  newlines: glue"),
    )
    .unwrap();
    let message = project.error("name: p\ncorpora:\n  - recipe: tiny\n");
    let expected = format!(
        "{}:5:13: field `reader.newlines`: `newlines` applies only to format `reddit`",
        project.dir.path().join("corpora/tiny.yaml").display()
    );
    assert_eq!(message, expected);
}

#[test]
fn a_recipe_is_named_after_its_file() {
    let text = "description: x\nname: bar\nreader: {format: plain-text}\nsources:\n  - file: a.txt\n";
    let message = CorpusRecipe::parse(text, Path::new("corpora/foo.yaml"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "corpora/foo.yaml:2:7: field `name`: `bar` is not the file's name `foo`: a recipe is named after \
         its file (write `name: foo` or rename the file to `bar.yaml`)"
    );
    // A pipeline naming the file reports the recipe's own place.
    let project = Project::new();
    std::fs::write(project.dir.path().join("corpora/small.yaml"), RECIPE).unwrap();
    let message = project.error("name: p\ncorpora:\n  - recipe: small\n");
    assert_eq!(
        message,
        format!(
            "{}:1:7: field `name`: `tiny` is not the file's name `small`: a recipe is named after its \
             file (write `name: small` or rename the file to `tiny.yaml`)",
            project.dir.path().join("corpora/small.yaml").display()
        )
    );
}

#[test]
fn every_committed_recipe_loads() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora");
    let recipes = RecipeFolder { dir: folder.clone() };
    let names = recipes.names();
    assert!(names.len() >= 9, "{names:?}");
    for name in names {
        let recipe = CorpusRecipe::load(&folder.join(format!("{name}.yaml"))).unwrap();
        assert_eq!(recipe.name, name);
    }
}

#[test]
fn recipe_checksum_must_be_sha256() {
    let text = "name: t\nreader: {format: plain-text}\nsources:\n  - file: a.txt\n    sha256: ABC\n";
    let message = CorpusRecipe::parse(text, Path::new("corpora/t.yaml"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "corpora/t.yaml:5:13: field `sources[0].sha256`: `ABC` is not a SHA-256: expected 64 lowercase hex digits"
    );
}

#[test]
fn recipe_reader_options() {
    let text = "name: r\nreader:\n  format: reddit\n  subreddits: [AskScience]\n  years: [2014]\n  newlines: glue\nsources:\n  - file: RC_2014-01.bz2\n";
    let recipe = CorpusRecipe::parse(text, Path::new("corpora/r.yaml")).unwrap();
    assert_eq!(
        recipe.reader,
        ReaderSpec::Reddit {
            subreddits: vec!["AskScience".into()],
            years: vec![2014],
            newlines: NewlineHandling::Glue,
            sentences: SentenceSplitting::Split,
            case: CaseHandling::Lower,
        }
    );
    let bad = CorpusRecipe::parse(
        &text.replace("format: reddit", "format: tsv"),
        Path::new("corpora/r.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        bad.starts_with("corpora/r.yaml:3:11: field `reader.format`: unknown variant `tsv`"),
        "{bad}"
    );
}

#[test]
fn reddit_reader_defaults_split_sentences_and_space_newlines() {
    let text = "name: r\nreader: {format: reddit}\nsources:\n  - file: RC_2014-01.bz2\n";
    let recipe = CorpusRecipe::parse(text, Path::new("corpora/r.yaml")).unwrap();
    assert_eq!(
        recipe.reader,
        ReaderSpec::Reddit {
            subreddits: vec![],
            years: vec![],
            newlines: NewlineHandling::Space,
            sentences: SentenceSplitting::Split,
            case: CaseHandling::Lower,
        }
    );
}

#[test]
fn reddit_sentences_option() {
    let text =
        "name: r\nreader:\n  format: reddit\n  sentences: comment\nsources:\n  - file: RC_2014-01.bz2\n";
    let recipe = CorpusRecipe::parse(text, Path::new("corpora/r.yaml")).unwrap();
    let ReaderSpec::Reddit { sentences, .. } = recipe.reader else {
        panic!("a reddit reader: {:?}", recipe.reader);
    };
    assert_eq!(sentences, SentenceSplitting::Comment);
    assert_eq!(
        (
            SentenceSplitting::Split.as_str(),
            SentenceSplitting::Comment.as_str()
        ),
        ("split", "comment")
    );

    let unknown = CorpusRecipe::parse(
        &text.replace("sentences: comment", "sentences: paragraph"),
        Path::new("corpora/r.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        unknown,
        "corpora/r.yaml:4:14: field `reader.sentences`: unknown variant `paragraph`, expected `split` or \
         `comment`"
    );
}

#[test]
fn sentences_apply_only_to_reddit() {
    let text = "name: w\nreader:\n  format: plain-text\n  sentences: split\nsources:\n  - file: a.txt\n";
    let message = CorpusRecipe::parse(text, Path::new("corpora/w.yaml"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "corpora/w.yaml:4:14: field `reader.sentences`: `sentences` applies only to format `reddit`"
    );
}

/// `case` of the tokenising readers: `lower` by default (word lists are then looked up
/// lowercased), `keep` keeps case and the lookup as written.
#[test]
fn case_option_of_plain_text_and_reddit() {
    let parse = |reader: &str| {
        let text = format!("name: c\nreader: {reader}\nsources:\n  - file: a.txt\n");
        CorpusRecipe::parse(&text, Path::new("corpora/c.yaml")).map(|r| r.reader)
    };
    let plain = parse("{format: plain-text}").unwrap();
    assert_eq!(
        plain,
        ReaderSpec::PlainText {
            case: CaseHandling::Lower
        }
    );
    assert!(plain.lowercases());
    let plain = parse("{format: plain-text, case: lower}").unwrap();
    assert_eq!(
        plain,
        ReaderSpec::PlainText {
            case: CaseHandling::Lower
        }
    );
    let plain = parse("{format: plain-text, case: keep}").unwrap();
    assert_eq!(
        plain,
        ReaderSpec::PlainText {
            case: CaseHandling::Keep
        }
    );
    assert!(!plain.lowercases());
    assert_eq!(plain.case(), Some(CaseHandling::Keep));

    let reddit = parse("{format: reddit}").unwrap();
    assert_eq!(reddit.case(), Some(CaseHandling::Lower));
    assert!(reddit.lowercases());
    let reddit = parse("{format: reddit, case: keep}").unwrap();
    assert_eq!(
        reddit,
        ReaderSpec::Reddit {
            subreddits: vec![],
            years: vec![],
            newlines: NewlineHandling::Space,
            sentences: SentenceSplitting::Split,
            case: CaseHandling::Keep,
        }
    );
    assert!(!reddit.lowercases());

    let wikitext = parse("{format: wikitext}").unwrap();
    assert_eq!((wikitext.case(), wikitext.lowercases()), (None, false));
}

/// Recipe values that are not allowed: one line naming the file, the place and the field.
#[test]
fn invalid_recipe_values_are_one_line_with_their_place() {
    let cases = [
        // An unknown case.
        (
            "corpora/c.yaml",
            "name: c\nreader:\n  format: plain-text\n  case: upper\nsources:\n  - file: a.txt\n",
            "corpora/c.yaml:4:9: field `reader.case`: unknown variant `upper`, expected `lower` or `keep`",
        ),
        // `case` for a reader without it.
        (
            "corpora/w.yaml",
            "name: w\nreader:\n  format: wikitext\n  case: keep\nsources:\n  - file: a.tokens\n",
            "corpora/w.yaml:4:9: field `reader.case`: `case` applies only to format `plain-text or reddit`",
        ),
        // A source file in a folder.
        (
            "corpora/r.yaml",
            "name: r\nreader: {format: plain-text}\nsources:\n  - file: data/a.txt\n",
            "corpora/r.yaml:4:11: field `sources[0].file`: must be a plain file name (no folders); use `path` for a \
             local copy elsewhere",
        ),
    ];
    for (file, text, expected) in cases {
        let message = CorpusRecipe::parse(text, Path::new(file))
            .unwrap_err()
            .to_string();
        assert_eq!(message, expected, "{text}");
    }
}

#[test]
fn file_declarations_read_with_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("list.yaml");
    let good = "description: d\nlicence: l\nsource:\n  file: words.txt\n  sha256: 0416c306b99430382a61b68f60ef71834ebf4ef9975ec0691976b89311d5a0db\n";
    std::fs::write(&path, good).unwrap();
    let declaration = crate::FileDeclaration::read(&path).unwrap();
    assert_eq!(declaration.source.file, "words.txt");
    std::fs::write(&path, good.replace("  file: words.txt", "  fiel: words.txt")).unwrap();
    let message = crate::FileDeclaration::read(&path).unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "{}:4:3: field `source.fiel`: unknown field `fiel`, expected one of `file`, `url`, `sha256`, `path`",
            path.display()
        )
    );
}

#[test]
fn variants_are_models_over_their_algorithms_block() {
    let plan = Project::new()
        .plan(
            "name: p\nn_seeds: 2\ncorpora:\n  - recipe: tiny\nsgns: {dim: 20, epochs: 4}\nglove: {window: 10}\n\
             variants:\n  - {name: sgns-3-epochs, sgns: {epochs: 3}}\n  - {name: glove-w5, glove: {window: 5}}\n",
        )
        .unwrap();
    let models = plan.models();
    let names: Vec<&str> = models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["sgns", "glove", "sgns-3-epochs", "glove-w5"]);
    let ModelParams::Sgns(short) = &models[2].params else {
        panic!("sgns-3-epochs is an SGNS model")
    };
    // The pipeline's block, with the variant's field over it.
    assert_eq!((short.dim, short.epochs), (20, 3));
    assert_eq!(models[3].algorithm(), Algorithm::Glove);
    let windows: Vec<u32> = plan.cooccurrence_counts().iter().map(|c| c.window).collect();
    assert_eq!(windows, [10, 5]);
    // A variant draws its algorithm's seeds, so variant and default are paired seed by seed.
    assert_eq!(
        plan.seed_path("tiny", &models[2], 1),
        plan.seed_path("tiny", &models[0], 1)
    );
    let measured: Vec<String> = plan
        .jobs()
        .into_iter()
        .filter_map(|job| match job {
            Job::Measure { model, .. } => Some(model),
            _ => None,
        })
        .collect();
    assert_eq!(measured, names);
    assert_eq!(plan.training_jobs().len(), 4 * 2);
    assert!(
        plan.to_yaml()
            .contains("variants:\n- name: sgns-3-epochs\n  sgns:\n    architecture: skipgram\n    dim: 20\n"),
        "{}",
        plan.to_yaml()
    );
}

#[test]
fn a_plan_without_variants_prints_none() {
    let plan = Project::new()
        .plan("name: p\ncorpora:\n  - recipe: tiny\n")
        .unwrap();
    assert!(plan.variants.is_empty());
    assert!(!plan.to_yaml().contains("variants"));
}

#[test]
fn variant_errors_name_the_variant() {
    let p = Project::new();
    let head = "name: p\ncorpora:\n  - recipe: tiny\nalgorithms: [sgns]\nvariants:\n";
    assert_eq!(
        p.error(&format!("{head}  - {{name: sgns, sgns: {{dim: 10}}}}\n")),
        "pipelines/p.yaml:6:12: field `variants[0].name`: another model is already named `sgns`"
    );
    assert_eq!(
        p.error(&format!("{head}  - {{name: Big, sgns: {{dim: 10}}}}\n")),
        "pipelines/p.yaml:6:12: field `variants[0].name`: `Big` is not a valid model name: use \
         lowercase letters, digits, `-` and `_`"
    );
    assert_eq!(
        p.error(&format!("{head}  - {{name: g, glove: {{dim: 10}}}}\n")),
        "pipelines/p.yaml:6:5: field `variants[0]`: a variant of `glove`, which is not in \
         `algorithms`: add `glove` there"
    );
    assert_eq!(
        p.error(&format!("{head}  - {{name: s}}\n")),
        "pipelines/p.yaml:6:5: field `variants[0]`: a variant gives the parameters of exactly one \
         algorithm: `sgns: {…}` or `glove: {…}`"
    );
    assert_eq!(
        p.error(&format!("{head}  - {{name: s, sgns: {{window: 0}}}}\n")),
        "pipelines/p.yaml:6:30: field `variants[0].sgns.window`: 0 is too small: must be at least 1"
    );
}

#[test]
fn analogy_defaults_are_nissims_queries_with_every_solver() {
    let project = Project::new();
    let plan = project.plan("name: p\ncorpora:\n  - recipe: tiny\n").unwrap();
    assert_eq!(plan.analogies, None);
    let plan = project
        .plan("name: p\ncorpora:\n  - recipe: tiny\nanalogies: {}\n")
        .unwrap();
    let a = plan.analogies.as_ref().unwrap();
    assert_eq!(
        (a.queries.as_str(), a.top_n, a.restrict_vocab, a.google),
        ("bias-queries", 10, None, true)
    );
    assert_eq!(
        a.solvers(),
        [
            retest_measures::Solver::CosAdd,
            retest_measures::Solver::CosMul { epsilon: 1e-6 },
            retest_measures::Solver::Bolukbasi {
                delta: 1.0,
                bound: retest_measures::DeltaBound::Distance
            }
        ]
    );
    let plan = project
        .plan(
            "name: p\ncorpora:\n  - recipe: tiny\nanalogies: {solvers: [bolukbasi], delta: 0.9, delta_bound: \
             squared-distance}\n",
        )
        .unwrap();
    assert_eq!(
        plan.analogies.unwrap().solvers(),
        [retest_measures::Solver::Bolukbasi {
            delta: 0.9,
            bound: retest_measures::DeltaBound::SquaredDistance
        }]
    );
    // Both readings of 3CosMul, one ε.
    let plan = project
        .plan("name: p\ncorpora:\n  - recipe: tiny\nanalogies: {solvers: [cosmul, cosmul_unshifted], epsilon: 0.01}\n")
        .unwrap();
    assert_eq!(
        plan.analogies.unwrap().solvers(),
        [
            retest_measures::Solver::CosMul { epsilon: 0.01 },
            retest_measures::Solver::CosMulUnshifted { epsilon: 0.01 }
        ]
    );
    assert_eq!(
        project.error("name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  delta: -1\n"),
        "pipelines/p.yaml:5:10: field `analogies.delta`: -1 must be a finite number > 0"
    );
    assert_eq!(
        project.error(
            "name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  solver_restrict_vocab: {bolukbasi: 0}\n"
        ),
        "pipelines/p.yaml:5:38: field `analogies.solver_restrict_vocab.bolukbasi`: 0 is too small: must be at \
         least 1"
    );
    assert_eq!(
        project.error(
            "name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  solvers: [cosadd]\n  solver_restrict_vocab: \
             {bolukbasi: 50000}\n"
        ),
        "pipelines/p.yaml:6:38: field `analogies.solver_restrict_vocab.bolukbasi`: `bolukbasi` is not among \
         analogies.solvers"
    );
    assert_eq!(
        project.error("name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  zhang_restrict_vocab: 0\n"),
        "pipelines/p.yaml:5:25: field `analogies.zhang_restrict_vocab`: 0 is too small: must be at least 1"
    );
    assert_eq!(
        project.error(
            "name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  solver_restrict_vocab: {cosine: 50000}\n"
        ),
        "pipelines/p.yaml:5:27: field `analogies.solver_restrict_vocab`: unknown variant `cosine`, expected one of \
         `cosadd`, `cosmul`, `cosmul_unshifted`, `bolukbasi`"
    );
    assert_eq!(
        project.error("name: p\ncorpora:\n  - recipe: tiny\nanalogies:\n  solvers: [cosine]\n"),
        "pipelines/p.yaml:5:13: field `analogies.solvers[0]`: unknown variant `cosine`, expected one of \
         `cosadd`, `cosmul`, `cosmul_unshifted`, `bolukbasi`"
    );
}

#[test]
fn set_level_defaults_are_caliskans_gender_tests_and_the_query_pairs() {
    let project = Project::new();
    let plan = project.plan("name: p\ncorpora:\n  - recipe: tiny\n").unwrap();
    assert_eq!(plan.set_level, None);
    let plan = project
        .plan("name: p\ncorpora:\n  - recipe: tiny\nset_level: {}\n")
        .unwrap();
    let s = plan.set_level.as_ref().unwrap();
    assert_eq!(s.tests_file, "caliskan");
    assert_eq!(s.tests, ["weat6", "weat7", "weat8"]);
    let pair = |x: &str, y: &str| (x.to_owned(), y.to_owned());
    assert_eq!(
        s.single_pair,
        [
            pair("career", "family"),
            pair("math", "arts"),
            pair("science", "arts_2")
        ]
    );
    assert_eq!((s.exact_max, s.samples, s.c), (1_000_000, 100_000, 1.0));
    assert_eq!(
        (
            s.neutral.as_str(),
            s.definitional_pairs.as_str(),
            s.detector_pairs.as_str(),
            s.stereotypes.as_str()
        ),
        ("occ16", "definitional-pairs", "gender-pairs", "professions")
    );
    // Without `single_pair`, the default pairs whose queries the plan has.
    let plan = project
        .plan("name: p\ncorpora:\n  - recipe: tiny\nmeasures: {queries: [math, arts]}\nset_level: {}\n")
        .unwrap();
    assert_eq!(plan.set_level.unwrap().single_pair, [pair("math", "arts")]);
}

#[test]
fn a_single_pair_weat_names_two_queries_of_the_plan() {
    let project = Project::new();
    let message = project.error("name: p\ncorpora:\n  - recipe: tiny\nset_level:\n  single_pair: [career]\n");
    assert_eq!(
        message,
        "pipelines/p.yaml:5:17: field `set_level.single_pair[0]`: `career` is not a query pair: expected \
         `x/y`, e.g. `career/family`"
    );
    let message = project.error(
        "name: p\ncorpora:\n  - recipe: tiny\nmeasures:\n  queries: [career, family]\nset_level:\n  \
         single_pair: [career/family, math/arts]\n",
    );
    assert_eq!(
        message,
        "pipelines/p.yaml:7:32: field `set_level.single_pair[1]`: `math` is not a query of the plan \
         (measures.queries: career, family)"
    );
}

#[test]
fn one_recipe_is_listed_twice_under_two_names() {
    let project = Project::new();
    let plan = project
        .plan("name: p\ncorpora:\n  - { recipe: tiny, name: tiny-small, max_tokens: 10 }\n  - recipe: tiny\n")
        .unwrap();
    let names: Vec<&str> = plan.corpora.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["tiny-small", "tiny"]);
    assert_eq!(plan.corpora[0].max_tokens, Some(10));
    let message = project.error("name: p\ncorpora:\n  - recipe: tiny\n  - recipe: tiny\n");
    assert_eq!(
        message,
        "pipelines/p.yaml:4:13: field `corpora[1].recipe`: corpus `tiny` is listed twice (give one of them its \
         own `name`)"
    );
    let message = project.error("name: p\ncorpora:\n  - { recipe: tiny, name: Tiny }\n");
    assert_eq!(
        message,
        "pipelines/p.yaml:3:27: field `corpora[0].name`: `Tiny` is not a valid corpus name: use lowercase \
         letters, digits, `-` and `_`"
    );
}

/// The pipeline file spells rules and analogy solvers as the registry of measures names them.
#[test]
fn rules_and_solvers_are_spelled_as_the_registry_names_them() {
    for rule in crate::Rule::ALL {
        assert_eq!(
            serde_yaml::to_string(&rule).unwrap().trim(),
            rule.measure().name()
        );
    }
    for solver in retest_measures::SolverKind::ALL {
        assert_eq!(
            serde_yaml::to_string(&solver).unwrap().trim(),
            solver.measure().name()
        );
    }
}

/// A project whose `vectors/` folder holds `names` (empty files: the plan checks only that they
/// exist) and whose pipeline file is `pipelines/p.yaml`.
fn project_with_vectors(names: &[&str]) -> (Project, std::path::PathBuf) {
    let p = Project::new();
    let vectors = p.dir.path().join("pipelines/vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    for name in names {
        std::fs::write(vectors.join(name), "").unwrap();
    }
    let file = p.dir.path().join("pipelines/p.yaml");
    (p, file)
}

#[test]
fn models_read_their_seeds_from_files_sorted_by_path() {
    let (p, file) = project_with_vectors(&["b-2.vec", "b-10.vec", "b-1.vec", "other.txt", "counts.txt"]);
    let text = "name: p\nmodels:\n  - name: ft\n    files: vectors/b-*.vec\n    corpus: wiki\n    \
                format: word2vec-text\n    lowercase: true\n    counts: vectors/counts.txt\n  - name: listed\n    \
                files: [vectors/other.txt, vectors/b-1.vec]\n";
    let plan = Plan::parse(text, &file, &p.recipes()).unwrap();
    let vectors = file.parent().unwrap().join("vectors");
    let [ft, listed] = &plan.model_files[..] else {
        panic!("two models: {:?}", plan.model_files)
    };
    assert_eq!(
        ft.files,
        ["b-1.vec", "b-10.vec", "b-2.vec"].map(|f| vectors.join(f)),
        "sorted by path, as `ls` sorts"
    );
    assert_eq!(
        (ft.corpus.as_str(), ft.format, ft.lowercase),
        ("wiki", Some(retest_embeddings::Format::Word2VecText), true)
    );
    assert_eq!(ft.counts, Some(vectors.join("counts.txt")));
    assert_eq!(listed.files, ["b-1.vec", "other.txt"].map(|f| vectors.join(f)));
    assert_eq!(
        (listed.corpus.as_str(), listed.format, listed.lowercase),
        ("listed", None, false)
    );
    // A plan of models alone trains nothing and measures each model once.
    assert!(plan.corpora.is_empty() && plan.models().is_empty());
    let jobs: Vec<String> = plan.jobs().iter().map(ToString::to_string).collect();
    assert_eq!(
        jobs,
        [
            "measure        wiki ft",
            "measure        listed listed",
            "aggregate      reliability tables, regression input, report"
        ]
    );
    assert!(
        plan.to_yaml().contains("models:\n- name: ft\n  corpus: wiki\n"),
        "{}",
        plan.to_yaml()
    );
}

#[test]
fn models_beside_trained_configurations_are_measured_after_them() {
    let (p, file) = project_with_vectors(&["a.vec", "b.vec"]);
    let text = "name: p\ncorpora:\n  - recipe: tiny\nalgorithms: [sgns]\nmodels:\n  - {name: mine, files: vectors/*.vec}\n";
    let plan = Plan::parse(text, &file, &p.recipes()).unwrap();
    let measures: Vec<String> = (plan.jobs().iter())
        .filter(|j| matches!(j, Job::Measure { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(measures, ["measure        tiny sgns", "measure        mine mine"]);
}

#[test]
fn model_file_errors_name_the_entry() {
    let (p, file) = project_with_vectors(&["a.vec", "b.vec"]);
    let f = file.display();
    let v = file.parent().unwrap().join("vectors");
    let v = v.display();
    let cases = [
        (
            "name: p\nmodels:\n  - {name: m, files: vectors/*.bin}\n".to_owned(),
            format!("{f}:3:22: field `models[0].files`: `{v}/*.bin` matches no file"),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: vectors/a.vec}\n".to_owned(),
            format!(
                "{f}:3:22: field `models[0].files`: 1 file: reliability across seeds needs at least 2 \
                 files, one per seed"
            ),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: [vectors/a.vec, vectors/c.vec]}\n".to_owned(),
            format!("{f}:3:38: field `models[0].files[1]`: no file {v}/c.vec"),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: [vectors/a.vec, vectors/a.vec]}\n".to_owned(),
            format!("{f}:3:38: field `models[0].files[1]`: `vectors/a.vec` is listed twice"),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: vectors/*.vec, format: csv}\n".to_owned(),
            format!(
                "{f}:3:45: field `models[0].format`: unknown format `csv`: expected one of fifu, \
                 word2vec-text, word2vec-binary, glove-text"
            ),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: vectors/*.vec, counts: c.txt}\n".to_owned(),
            format!(
                "{f}:3:45: field `models[0].counts`: no word-count file {}",
                file.parent().unwrap().join("c.txt").display()
            ),
        ),
        (
            "name: p\nmodels:\n  - {name: m, files: vectors/*.vec}\n  - {name: m, files: vectors/*.vec}\n"
                .to_owned(),
            format!("{f}:4:12: field `models[1].name`: another model is already named `m`"),
        ),
        (
            "name: p\ncorpora:\n  - recipe: tiny\nalgorithms: [sgns]\nmodels:\n  - {name: sgns, files: vectors/*.vec}\n"
                .to_owned(),
            format!("{f}:6:12: field `models[0].name`: another model is already named `sgns`"),
        ),
        (
            "name: p\nalgorithms: [sgns]\nmodels:\n  - {name: m, files: vectors/*.vec}\n".to_owned(),
            format!(
                "{f}:2:13: field `algorithms`: trains on the pipeline's corpora, and it lists none (`corpora`)"
            ),
        ),
        (
            "name: p\n".to_owned(),
            format!(
                "{f}: field `corpora`: a pipeline needs at least one corpus to train on or one entry of `models`"
            ),
        ),
    ];
    for (text, expected) in cases {
        let error = Plan::parse(&text, &file, &p.recipes())
            .expect_err(&text)
            .to_string();
        assert_eq!(error, expected, "{text}");
    }
}

#[test]
fn a_debias_section_adds_a_debiased_model_after_each_model_it_names() {
    let plan = Project::new()
        .plan(
            "name: p\nn_seeds: 2\ncorpora:\n  - recipe: tiny\n\
             variants:\n  - {name: sgns-3-epochs, sgns: {epochs: 3}}\ndebias: {models: [sgns-3-epochs, sgns]}\n",
        )
        .unwrap();
    let debias = plan.debias.as_ref().unwrap();
    // In the plan's order, with debiaswe's lists.
    assert_eq!(debias.models, ["sgns", "sgns-3-epochs"]);
    assert_eq!(
        (
            debias.definitional.as_str(),
            debias.equalize.as_str(),
            debias.gender_specific.as_str()
        ),
        ("definitional-pairs", "equalize-pairs", "gender-specific-full")
    );
    let measured: Vec<String> = (plan.jobs().into_iter())
        .filter_map(|job| match job {
            Job::Measure { model, .. } => Some(model),
            _ => None,
        })
        .collect();
    assert_eq!(
        measured,
        [
            "sgns",
            "sgns+hard",
            "glove",
            "sgns-3-epochs",
            "sgns-3-epochs+hard"
        ]
    );
    // Nothing more to train: the debiased models read their models' seeds.
    assert_eq!(plan.training_jobs().len(), 3 * 2);
    assert_eq!(plan.debiased_base("sgns+hard"), Some("sgns"));
    assert_eq!(plan.debiased_base("sgns-3-epochs+hard"), Some("sgns-3-epochs"));
    assert_eq!(plan.debiased_base("sgns"), None);
    assert_eq!(plan.debiased_base("glove+hard"), None);
    assert_eq!(plan.debiased_of("glove"), None);
    assert_eq!(plan.seeds_of("sgns+hard"), 2);
    assert!(
        plan.to_yaml()
            .contains("debias:\n  method: hard\n  models:\n  - sgns\n  - sgns-3-epochs\n")
    );

    let every = Project::new()
        .plan("name: p\ncorpora:\n  - recipe: tiny\ndebias: {equalize: my-pairs.json}\n")
        .unwrap();
    let debias = every.debias.as_ref().unwrap();
    assert_eq!(debias.models, ["sgns", "glove"]);
    assert_eq!(debias.equalize, "my-pairs.json");
    assert_eq!(every.debiased_of("glove").as_deref(), Some("glove+hard"));
}

#[test]
fn debias_errors_are_one_line_at_their_place() {
    let head = "name: p\ncorpora:\n  - recipe: tiny\ndebias:\n";
    assert_rejected(&[
        (
            &format!("{head}  models: [cbow]\n"),
            "pipelines/p.yaml:5:12: field `debias.models[0]`: `cbow` is not a model of the pipeline; its \
             models are `sgns`, `glove`",
        ),
        (
            &format!("{head}  models: [sgns, sgns]\n"),
            "pipelines/p.yaml:5:18: field `debias.models[1]`: `sgns` is listed twice",
        ),
        (
            &format!("{head}  models: []\n"),
            "pipelines/p.yaml:5:11: field `debias.models`: must list at least one entry",
        ),
        (
            &format!("{head}  method: soft\n"),
            "pipelines/p.yaml:5:11: field `debias.method`: unknown variant `soft`, expected `hard`",
        ),
    ]);
}

#[test]
fn a_residual_bias_section_takes_gonen_and_goldbergs_sizes_by_default() {
    let plan = Project::new()
        .plan("name: p\ncorpora:\n  - recipe: tiny\nresidual_bias: {clustered: 100}\n")
        .unwrap();
    let p = plan.residual_bias.as_ref().unwrap();
    assert_eq!(p.exclude, ["gonen-male-words", "gonen-female-words"]);
    assert_eq!(p.targets, "professions");
    assert_eq!(
        (p.vocabulary, p.clustered, p.classified, p.trained, p.neighbours),
        (50_000, 100, 2_500, 500, 100)
    );
    let head = "name: p\ncorpora:\n  - recipe: tiny\nresidual_bias:\n";
    assert_rejected(&[
        (
            &format!("{head}  trained: 2500\n"),
            "pipelines/p.yaml:5:12: field `residual_bias.trained`: 2500 words per gender are trained on of \
             2500 classified: leave some to test (trained < classified)",
        ),
        (
            &format!("{head}  neighbours: 0\n"),
            "pipelines/p.yaml:5:15: field `residual_bias.neighbours`: 0 is too small: must be at least 1",
        ),
    ]);
}

#[test]
fn a_bias_subspace_section_takes_bolukbasis_lists_by_default() {
    let plan = Project::new()
        .plan("name: p\ncorpora:\n  - recipe: tiny\nbias_subspace: {components: 4}\n")
        .unwrap();
    let p = plan.bias_subspace.as_ref().unwrap();
    assert_eq!(
        (
            p.components,
            p.definitional_pairs.as_str(),
            p.neutral.as_str(),
            p.c
        ),
        (4, "definitional-pairs", "occ16", 1.0)
    );
    assert_eq!(p.anchors, ["softball", "football"]);
    let head = "name: p\ncorpora:\n  - recipe: tiny\nbias_subspace:\n";
    assert_rejected(&[
        (
            &format!("{head}  components: 0\n"),
            "pipelines/p.yaml:5:15: field `bias_subspace.components`: 0 is too small: must be at least 1",
        ),
        (
            &format!("{head}  c: -1\n"),
            "pipelines/p.yaml:5:6: field `bias_subspace.c`: -1 must be a finite number ≥ 0",
        ),
        (
            &format!("{head}  anchors: [softball, softball]\n"),
            "pipelines/p.yaml:5:23: field `bias_subspace.anchors[1]`: `softball` is listed twice",
        ),
    ]);
}

#[test]
fn the_neutral_pool_leaves_out_the_base_pair_analyses_lists_by_default() {
    let plan = |measures: &str| {
        Project::new().plan(&format!(
            "name: p\ncorpora:\n  - recipe: tiny\nmeasures: {measures}\n"
        ))
    };
    let neutral = plan("{nbm_pool: neutral}").unwrap();
    assert_eq!(
        neutral.measures.nbm_pool_exclude,
        ["definitional-pairs", "equalize-pairs", "gender-specific-full"]
    );
    let own = plan("{nbm_pool: neutral, nbm_pool_exclude: [mine]}").unwrap();
    assert_eq!(own.measures.nbm_pool_exclude, ["mine"]);
    // With the vocabulary nothing is left out, and the field is not in the measure key.
    let vocabulary = plan("{nbm_pool: vocabulary}").unwrap();
    assert!(vocabulary.measures.nbm_pool_exclude.is_empty());
    let key = serde_json::to_value(&vocabulary.measures).unwrap();
    assert!(key.get("nbm_pool_exclude").is_none());
    assert_rejected(&[(
        "name: p\ncorpora:\n  - recipe: tiny\nmeasures: {nbm_pool_exclude: [mine]}\n",
        "pipelines/p.yaml:4:30: field `measures.nbm_pool_exclude`: only the neutral pool leaves words out: set \
         `nbm_pool: neutral`",
    )]);
}
