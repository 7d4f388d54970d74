//! The `retest` binary end to end: plans, corpus preparation and error output.

use std::path::{Path, PathBuf};
use std::process::Output;

use retest_test_support::{arg, data_dir, output, workspace_dir, write_file};

/// Runs `retest` in the project folder with results going to `results`.
fn retest(args: &[&str], results: &Path) -> Output {
    output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .args(args)
            .env("RETEST_RESULTS_DIR", results)
            .env("RETEST_CACHE_DIR", results.join("cache")),
    )
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn plan_prints_resolved_plan_and_jobs() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["plan", "smoke"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("n_seeds: 3"), "{stdout}");
    assert!(
        stdout.contains("ns_exponent: 0.75"),
        "defaults are printed: {stdout}"
    );
    assert!(stdout.contains("# Jobs (12), in dependency order"), "{stdout}");
    assert!(
        stdout.contains("train          wikitext-103-valid glove seed-02"),
        "{stdout}"
    );
    // The debiased SGNS seeds are measured after SGNS's, and not trained.
    assert!(
        stdout.contains(
            "measure        wikitext-103-valid sgns\nmeasure        wikitext-103-valid sgns+hard\n"
        ),
        "{stdout}"
    );
}

#[test]
fn plan_json_gives_each_training_seed_as_the_hex_string_the_text_shows() {
    let results = tempfile::tempdir().unwrap();
    let plan_text = text(&retest(&["plan", "smoke"], results.path()).stdout);
    let json = retest(&["plan", "--format", "json", "smoke"], results.path());
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let seeds: Vec<&str> = value["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|job| job["kind"] == "train")
        .map(|job| job["seed"].as_str().expect("a string"))
        .collect();
    assert_eq!(seeds.len(), 6);
    for seed in seeds {
        assert_eq!(seed.len(), 18, "{seed}");
        assert!(plan_text.contains(&format!("(seed {seed})")), "{seed}");
    }
}

#[test]
fn every_shipped_pipeline_is_valid() {
    let results = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(workspace_dir().join("pipelines")).unwrap() {
        let path = entry.unwrap().path();
        let out = retest(&["plan", "--format", "json", arg(&path)], results.path());
        assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
    }
}

#[test]
fn invalid_pipeline_gives_one_line_with_file_line_and_field() {
    let results = tempfile::tempdir().unwrap();
    let pipeline = write_file(
        results.path(),
        "bad.yaml",
        "name: bad\ncorpora:\n  - recipe: wikitext-103-valid\nsgns:\n  window: 0\n",
    );
    let out = retest(&["--corpora", "corpora", "plan", arg(&pipeline)], results.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:5:11: field `sgns.window`: 0 is too small: must be at least 1\n",
            pipeline.display()
        )
    );
}

#[test]
fn corpus_prepare_writes_the_encoded_corpus_and_reuses_it() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["corpus", "prepare", "wikitext-103-valid"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = PathBuf::from(text(&out.stdout).trim());
    assert!(dir.starts_with(results.path().join("corpora")));
    for file in ["corpus.bin", "vocab.tsv", "stats.json"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    assert!(
        text(&out.stderr).contains("corpus wikitext-103-valid: prepared in"),
        "{}",
        text(&out.stderr)
    );
    let again = retest(&["corpus", "prepare", "wikitext-103-valid"], results.path());
    assert!(
        text(&again.stderr).contains("already prepared"),
        "{}",
        text(&again.stderr)
    );
}

#[test]
fn corpus_list_shows_every_recipe() {
    let results = tempfile::tempdir().unwrap();
    let out = retest(&["corpus", "list"], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for name in [
        "wikitext-103 ",
        "wikitext-2 ",
        "reddit-askscience-2014",
        "reddit-askhistorians-2014",
        "gutenberg ",
    ] {
        assert!(stdout.contains(name), "{name} missing from:\n{stdout}");
    }
}

/// Shrout & Fleiss (1979), Table 2: six subjects rated by four judges.
const SHROUT_FLEISS: &str =
    "target,j1,j2,j3,j4\n1,9,2,5,8\n2,6,1,3,2\n3,8,4,6,8\n4,7,1,2,6\n5,10,5,6,9\n6,6,2,4,7\n";

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn stats_icc_reproduces_shrout_fleiss_table_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sf.csv");
    // Without the header and the subject column: a bare numeric matrix.
    let bare: String = SHROUT_FLEISS
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1.to_owned() + "\n")
        .collect();
    std::fs::write(&file, bare).unwrap();
    let all = json(&retest(&["stats", "icc", arg(&file)], dir.path()));
    let values: Vec<f64> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["value"].as_f64().unwrap() * 100.0).round() / 100.0)
        .collect();
    assert_eq!(values, vec![0.17, 0.29, 0.71, 0.44, 0.62, 0.91]);
    let one = json(&retest(
        &["stats", "icc", "--form", "ICC(C,1)", arg(&file)],
        dir.path(),
    ));
    assert_eq!(one["form"], "icc3_1");
    assert_eq!(one["status"], "ok");
}

#[test]
fn stats_alpha_equals_icc3k_and_reads_labelled_rows() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sf.csv");
    // With the header and labelled subjects.
    let labelled: String = SHROUT_FLEISS
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 0 { l.to_owned() } else { format!("s{l}") } + "\n")
        .collect();
    std::fs::write(&file, labelled).unwrap();
    let alpha = json(&retest(&["stats", "alpha", arg(&file)], dir.path()));
    assert_eq!(alpha["n_items"], 4);
    assert_eq!(alpha["n_cases"], 6);
    assert!(
        (alpha["alpha"].as_f64().unwrap() - 0.9093).abs() < 1e-4,
        "{alpha}"
    );
}

#[test]
fn stats_kappa_gives_cohen_for_two_raters() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "k.csv", "1,1\n1,0\n0,0\n0,0\n");
    let kappa = json(&retest(&["stats", "kappa", arg(&file)], dir.path()));
    // po = 3/4, pe = (2/4·1/4 + 2/4·3/4) = 1/2, κ = (0.75 − 0.5)/(1 − 0.5) = 0.5.
    assert!(
        (kappa["cohen"]["kappa"].as_f64().unwrap() - 0.5).abs() < 1e-12,
        "{kappa}"
    );
    assert!(kappa["fleiss"]["kappa"].is_number());
}

#[test]
fn stats_rejects_a_non_number_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "bad.csv", "a,b\n1,2\n3,x\n");
    let out = retest(&["stats", "icc", arg(&file)], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {}:3: column 2: `x` is not a number (missing values: empty, NA, NaN)\n",
            file.display()
        )
    );
}

#[test]
fn embeddings_export_info_and_eval_work_together() {
    let dir = tempfile::tempdir().unwrap();
    let w2v = write_file(
        dir.path(),
        "tiny.txt",
        "4 3\nking 1 0.5 0\nqueen 0.9 0.6 0.1\nman 0.2 1 0\nwoman 0.1 1 0.2\n",
    );
    let fifu = dir.path().join("tiny.fifu");
    let out = retest(
        &[
            "embeddings",
            "export",
            arg(&w2v),
            "--format",
            "fifu",
            "--output",
            arg(&fifu),
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = retest(&["embeddings", "info", arg(&fifu)], dir.path());
    assert!(info.status.success(), "{}", text(&info.stderr));
    let stdout = text(&info.stdout);
    assert!(stdout.contains('4') && stdout.contains('3'), "{stdout}");
    let back = dir.path().join("back.txt");
    let out = retest(
        &[
            "embeddings",
            "export",
            arg(&fifu),
            "--format",
            "word2vec-text",
            "--output",
            arg(&back),
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&std::fs::read(&back).unwrap()).starts_with("4 3\nking "));
    let eval = json(&retest(&["eval", "--json", arg(&fifu)], dir.path()));
    assert_eq!(eval["report"]["n_words"], 4, "{eval}");
}

/// The first 2,000 lines of WikiText-103 valid as a training text.
fn training_text(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(data_dir().join("wikitext-103/wiki.valid.tokens")).unwrap();
    let first_lines = text.lines().take(2000).collect::<Vec<_>>().join("\n");
    write_file(dir, "train.txt", first_lines)
}

#[test]
fn sgns_and_glove_commands_are_byte_reproducible_per_seed() {
    let dir = tempfile::tempdir().unwrap();
    let input = training_text(dir.path());
    for (command, extra) in [("sgns", ["--epochs", "1"]), ("glove", ["--iter", "2"])] {
        let run = |seed: &str, name: &str| {
            let out = dir.path().join(name);
            let args = [
                command,
                "--input",
                arg(&input),
                "--output",
                arg(&out),
                "--dim",
                "10",
                "--seed",
                seed,
                extra[0],
                extra[1],
            ];
            let result = retest(&args, dir.path());
            assert!(result.status.success(), "{command}: {}", text(&result.stderr));
            std::fs::read(out).unwrap()
        };
        let a = run("1", &format!("{command}-a.fifu"));
        let b = run("1", &format!("{command}-b.fifu"));
        let c = run("2", &format!("{command}-c.fifu"));
        assert_eq!(a, b, "{command}: same seed, same bytes");
        assert_ne!(a, c, "{command}: another seed, other vectors");
    }
}

#[test]
fn a_variant_is_a_configuration_of_its_own_paired_with_its_algorithm() {
    let results = tempfile::tempdir().unwrap();
    let pipeline = write_file(
        results.path(),
        "variants.yaml",
        "name: variants\nseed: 7\nn_seeds: 2\ncorpora:\n  - recipe: wikitext-103-valid\n    max_tokens: 400000\n\
         algorithms: [sgns]\nsgns: {dim: 10, epochs: 2}\nvariants:\n  - {name: sgns-1-epoch, sgns: {epochs: 1}}\n\
         measures: {target_lists: [occ16]}\n",
    );
    let out = retest(&["run", arg(&pipeline)], results.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table =
        std::fs::read_to_string(results.path().join("variants/tables/test_retest_words.csv")).unwrap();
    let mut configurations: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(1).unwrap())
        .collect();
    configurations.dedup();
    assert_eq!(configurations, ["sgns", "sgns-1-epoch"]);
    let status = retest(&["status", arg(&pipeline)], results.path());
    let status = text(&status.stdout);
    assert!(
        status.contains("  done     measure        wikitext-103-valid sgns-1-epoch\n"),
        "{status}"
    );
    assert!(status.contains("  all jobs        8/8 done\n"), "{status}");
    // The report puts the variant beside its algorithm (App. E), also when rebuilt alone.
    let report = results.path().join("variants/report/report.md");
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(written.contains("\n## Hyper-parameters (App. E)\n"), "{written}");
    assert!(
        written.contains("| wikitext-103-valid | sgns-1-epoch | "),
        "{written}"
    );
    let rebuilt = retest(&["report", arg(&pipeline)], results.path());
    assert!(rebuilt.status.success(), "{}", text(&rebuilt.stderr));
    assert_eq!(std::fs::read_to_string(&report).unwrap(), written);
    // Seed by seed, the variant draws its algorithm's seeds.
    assert!(
        status.contains("sgns seed-01 (seed 0x3ef5126ff6a21727)")
            && status.contains("sgns-1-epoch seed-01 (seed 0x3ef5126ff6a21727)"),
        "{status}"
    );
}

/// `retest score e.vec --pairs pairs.txt --words words.txt FLAGS --out o.csv` in `root`: the
/// table and stderr, with `{e}` standing for the embedding's path.
fn score_table(root: &Path, flags: &[&str]) -> (String, String) {
    let path = |name: &str| root.join(name).to_str().unwrap().to_owned();
    let (e, pairs, words, table) = (path("e.vec"), path("pairs.txt"), path("words.txt"), path("o.csv"));
    let mut args = vec!["score", &e, "--pairs", &pairs, "--words", &words];
    args.extend(flags);
    args.extend(["--out", &table]);
    let out = retest(&args, root);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = std::fs::read_to_string(&table).unwrap().replace(&e, "{e}");
    (table, text(&out.stderr).replace(&e, "{e}"))
}

/// `he`, `she` and `nurse` in 2-d (word2vec text).
const THREE_WORDS: &str = "3 2\nhe 1 0\nshe 0 1\nnurse 0.2 0.9\n";
/// The same with `pad`, an all-zero vector.
const WITH_PAD: &str = "4 2\nhe 1 0\nshe 0 1\nnurse 0.2 0.9\npad 0 0\n";

/// In `root`: `e.vec` holding `vectors`, and the files `pairs.txt` and `words.txt` holding
/// `pairs` and `words`.
fn list_inputs(root: &Path, vectors: &str, pairs: &str, words: &str) {
    std::fs::write(root.join("e.vec"), vectors).unwrap();
    std::fs::write(root.join("pairs.txt"), pairs).unwrap();
    std::fs::write(root.join("words.txt"), words).unwrap();
}

#[test]
fn a_zero_vector_gets_no_score_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    list_inputs(root, WITH_PAD, "he she\n", "nurse\npad\n");
    // DB/WA(nurse) = (0.2 − 0.9)/√0.85 = −0.75926, RIPA(nurse) = (0.2 − 0.9)/√2 = −0.49497,
    // each rounded to f32.
    assert_eq!(
        score_table(root, &["--rules", "dbwa,ripa"]).0,
        "embedding,rule,male,female,word,score,status\n\
         {e},dbwa,he,she,nurse,-0.7592566013336182,ok\n\
         {e},dbwa,he,she,pad,NaN,zero_vector\n\
         {e},ripa,he,she,nurse,-0.4949747323989868,ok\n\
         {e},ripa,he,she,pad,NaN,zero_vector\n"
    );
}

#[test]
fn a_killed_writes_temporary_of_the_table_is_removed_by_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    list_inputs(root, THREE_WORDS, "he she\n", "nurse\n");
    // What a write of o.csv killed mid-way leaves, beside a file of a similar name.
    std::fs::write(root.join(".o.csv.Ab3xY9.tmp"), "half").unwrap();
    std::fs::write(root.join(".o.csv.notes"), "mine").unwrap();
    score_table(root, &["--rules", "dbwa"]);
    assert!(!root.join(".o.csv.Ab3xY9.tmp").exists());
    assert!(root.join(".o.csv.notes").exists());
}

#[test]
fn score_lowercase_looks_lists_up_lowercased_and_names_them_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Two spellings of one word are one word once lowercased.
    list_inputs(root, THREE_WORDS, "He She\n", "Nurse\nnurse\n");
    assert_eq!(
        score_table(root, &["--rules", "dbwa", "--lowercase"]).0,
        "embedding,rule,male,female,word,score,status\n\
         {e},dbwa,he,she,nurse,-0.7592566013336182,ok\n"
    );
}

#[test]
fn a_vocabulary_smaller_than_nbms_neighbourhood_keeps_the_other_rules_scores() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    list_inputs(root, THREE_WORDS, "he she\n", "nurse\n");
    let (table, stderr) = score_table(root, &["--nbm-k", "3"]);
    assert_eq!(
        table,
        "embedding,rule,male,female,word,score,status\n\
         {e},dbwa,he,she,nurse,-0.7592566013336182,ok\n\
         {e},ripa,he,she,nurse,-0.4949747323989868,ok\n\
         {e},nbm,he,she,nurse,NaN,not_computed\n"
    );
    assert_eq!(
        stderr.lines().nth(1),
        Some(
            "warning: {e}: nbm not computed (NaN, status not_computed): --nbm-k 3 is more than the 2 \
             words NBM can take as a word's neighbours here"
        )
    );
}

#[test]
fn eval_out_writes_the_printed_reports_numbers_as_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let model = workspace_dir().join("crates/retest-eval/tests/data/analogy_wt103_3000.w2v.txt");
    let table = dir.path().join("eval.csv");
    let out = retest(&["eval", "--json", arg(&model), "--out", arg(&table)], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = &json(&out)["report"];
    let csv = std::fs::read_to_string(&table).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let find = |benchmark: &str, section: &str, metric: &str| -> &Vec<&str> {
        rows.iter()
            .find(|r| r[1] == benchmark && r[2] == section && r[3] == metric)
            .unwrap_or_else(|| panic!("no row {benchmark} {section} {metric}"))
    };
    let sections = report["analogy"]["sections"].as_array().unwrap();
    // 5 similarity sets × 2 correlations, Google's sections and total, MSR (not in the mirror).
    assert_eq!(rows.len(), 10 + sections.len() + 1 + 1);
    for s in report["similarity"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        for metric in ["spearman", "pearson"] {
            let row = find(name, "\"\"", metric);
            let value: f64 = row[4].parse().unwrap();
            assert!((value - s[metric].as_f64().unwrap()).abs() < 1e-12, "{row:?}");
            assert_eq!(
                row[6..],
                [
                    s["pairs_used"].to_string(),
                    s["pairs_skipped"].to_string(),
                    "ok".to_owned()
                ]
            );
        }
    }
    let total = find("google", "total", "accuracy");
    let a = &report["analogy"];
    assert!((total[4].parse::<f64>().unwrap() - a["total_accuracy"].as_f64().unwrap()).abs() < 1e-12);
    assert_eq!(
        total[5..8],
        [
            a["correct"].to_string(),
            a["attempted"].to_string(),
            a["skipped"].to_string()
        ]
    );
    assert_eq!(
        find("msr", "total", "accuracy")[4..],
        ["NaN", "0", "0", "0", "not_available"]
    );
}

#[test]
fn a_study_without_recipes_or_lists_of_its_own_uses_retests_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    let smoke = std::fs::read_to_string(workspace_dir().join("pipelines/smoke.yaml")).unwrap();
    let pipelines = dir.path().join("study/pipelines");
    std::fs::create_dir_all(&pipelines).unwrap();
    let pipeline = write_file(
        &pipelines,
        "mine.yaml",
        smoke.replace("name: smoke", "name: mine"),
    );
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = output(
        retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
            .args(["plan", arg(&pipeline)])
            .current_dir(&elsewhere)
            .env("RETEST_RESULTS_DIR", dir.path().join("results")),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("# Jobs (12), in dependency order"));
}

/// The command list of README's "Command line" section: each line's subcommand path (e.g.
/// `corpus prepare`; `stats icc|alpha|kappa` gives three) and the options it shows.
fn readme_commands() -> Vec<(Vec<String>, Vec<String>)> {
    let readme = std::fs::read_to_string(workspace_dir().join("README.md")).unwrap();
    let section = readme.split("\n## Command line\n").nth(1).unwrap();
    let block = section.split("```").nth(1).unwrap();
    let mut commands = Vec::new();
    for line in block.lines().filter(|l| l.starts_with("retest ")) {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let path: Vec<&str> = words
            .iter()
            .take_while(|w| {
                !w.starts_with('-') && w.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '|')
            })
            .copied()
            .collect();
        let flags: Vec<String> = words
            .iter()
            .filter_map(|w| w.trim_start_matches('[').strip_prefix("--"))
            .map(|f| format!("--{}", f.trim_end_matches([']', '.'])))
            .collect();
        let (last, head) = path.split_last().unwrap();
        for alternative in last.split('|') {
            let mut full: Vec<String> = head.iter().map(|w| (*w).to_owned()).collect();
            full.push(alternative.to_owned());
            commands.push((full, flags.clone()));
        }
    }
    commands
}

#[test]
fn readme_lists_every_command_with_options_its_help_shows() {
    let results = tempfile::tempdir().unwrap();
    let commands = readme_commands();
    let help = text(&retest(&["--help"], results.path()).stdout);
    let listed: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("  ").filter(|l| !l.starts_with(' ')))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    let mut in_readme: Vec<&str> = commands.iter().map(|(path, _)| path[0].as_str()).collect();
    in_readme.sort_unstable();
    in_readme.dedup();
    let mut in_help = listed.clone();
    in_help.sort_unstable();
    in_help.dedup();
    assert_eq!(in_readme, in_help);
    for (path, flags) in &commands {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = text(&retest(&args, results.path()).stdout);
        for flag in flags {
            assert!(
                help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                "`retest {}` has no {flag}",
                path.join(" ")
            );
        }
    }
}

#[test]
fn only_commands_that_read_the_folders_name_them_in_their_help() {
    let results = tempfile::tempdir().unwrap();
    let help = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push("--help");
        text(&retest(&all, results.path()).stdout)
    };
    for args in [
        &["score"][..],
        &["direct-bias"],
        &["analogies"],
        &["sgns"],
        &["glove"],
        &["eval"],
        &["embeddings", "info"],
        &["stats", "icc"],
        &["measures"],
    ] {
        let text = help(args);
        for option in ["--results", "--corpora", "--wordlists"] {
            assert!(
                !text.contains(option),
                "`retest {}` lists {option}",
                args.join(" ")
            );
        }
    }
    for args in [&["run"][..], &["plan"], &["status"], &["corpus", "prepare"]] {
        assert!(
            help(args).contains("Folders: --results DIR, --corpora DIR and --wordlists DIR"),
            "`retest {}`",
            args.join(" ")
        );
    }
    let top = help(&[]);
    assert!(top.contains(
        "--results <DIR>    Outputs: prepared corpora, embeddings, tables [env: RETEST_RESULTS_DIR=]"
    ));
}

#[test]
fn weat_and_direct_bias_leave_a_zero_vector_out_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    list_inputs(root, WITH_PAD, "he she\npad she\n", "nurse\npad\n");
    std::fs::write(
        root.join("t.yaml"),
        "tests:\n  t: {x: [nurse, pad], y: [she], a: [he], b: [she]}\n",
    )
    .unwrap();
    let path = |name: &str| root.join(name).to_str().unwrap().to_owned();
    let e = path("e.vec");
    let weat = retest(
        &["weat", &e, "--tests", &path("t.yaml"), "--out", &path("w.csv")],
        root,
    );
    assert!(weat.status.success(), "{}", text(&weat.stderr));
    assert_eq!(
        text(&weat.stderr).lines().next(),
        Some(
            format!("warning: {e}: test `t`: left out for an all-zero vector (no direction): x:pad").as_str()
        )
    );
    let table = std::fs::read_to_string(root.join("w.csv")).unwrap();
    let row = table.lines().nth(1).unwrap();
    // n_x = 1: only nurse is measured; pad is listed among the words left out.
    assert!(
        row.starts_with(&format!("{e},t,1,1,1,1,")) && row.ends_with(",x:pad"),
        "{table}"
    );
    let direct = retest(
        &[
            "direct-bias",
            &e,
            "--pairs",
            &path("pairs.txt"),
            "--words",
            &path("words.txt"),
            "--out",
            &path("d.csv"),
        ],
        root,
    );
    assert_eq!(
        direct.status.code(),
        Some(1),
        "one pair is left, too few for `pca`"
    );
    assert_eq!(
        text(&direct.stderr),
        format!(
            "warning: {e}: left out for an all-zero vector (no direction): pad:she pad\n\
             error: {e}: direction `pca` needs at least 2 pairs in the vocabulary, found 1 of the 2 in {}\n",
            path("pairs.txt")
        )
    );
}

#[test]
fn analogies_never_answer_a_zero_vector_and_do_not_answer_with_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("e.vec"),
        "5 2\nhe 1 0\nshe 0 1\npad 0 0\nman 0.9 0.1\nnurse 0.2 0.9\n",
    )
    .unwrap();
    std::fs::write(root.join("q.txt"), "he she man nurse\nhe pad man\n").unwrap();
    let path = |name: &str| root.join(name).to_str().unwrap().to_owned();
    let (e, q) = (path("e.vec"), path("q.txt"));
    let out = retest(
        &[
            "analogies",
            &e,
            "--queries",
            &q,
            "--solver",
            "cosadd",
            "--unconstrained",
            "--top-n",
            "5",
            "--out",
            &path("a.csv"),
        ],
        root,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "warning: {e}: 1 word(s) with an all-zero vector (no direction) are never answers: pad\n\
             warning: {e}: query `he pad man` ({q}:2): pad has an all-zero vector; its row has status zero_vector\n\
             {e}: 1 of 2 queries answered among 5 words, 1 with a word of all-zero vector\n\
             5 analogy rows → {}\n",
            path("a.csv")
        )
    );
    let table = std::fs::read_to_string(root.join("a.csv")).unwrap();
    let rows: Vec<Vec<&str>> = table.lines().skip(1).map(|l| l.split(',').collect()).collect();
    // Four answers (every word but pad), then the unanswered query.
    assert_eq!(rows.len(), 5);
    assert!(rows[..4].iter().all(|r| r[7] != "pad" && r[9] == "ok"), "{table}");
    assert_eq!(
        rows[0][11..],
        ["nurse", rows.iter().find(|r| r[7] == "nurse").unwrap()[6], "ok"]
    );
    assert_eq!(rows[4][9..11], ["zero_vector", "pad"]);
}

#[test]
fn eval_says_why_a_number_is_nan() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    list_inputs(root, THREE_WORDS, "he she\n", "nurse\n");
    let table = root.join("eval.csv");
    let out = retest(&["eval", arg(&root.join("e.vec")), "--out", arg(&table)], root);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "  wordsim353: NaN: fewer than 2 pairs have both words in the vocabulary",
        "  total: NaN: no question has its four words in the vocabulary",
    ] {
        assert!(stdout.lines().any(|l| l == line), "no line `{line}` in\n{stdout}");
    }
    let csv = std::fs::read_to_string(&table).unwrap();
    let wordsim = csv
        .lines()
        .find(|l| l.contains(",wordsim353,\"\",spearman,"))
        .unwrap();
    assert!(wordsim.ends_with(",NaN,0,0,353,too_few_pairs"), "{wordsim}");
}

/// A word with an all-zero vector is named once, and the figures computed with it say so: its
/// cosine is 0, as gensim's, so the numbers stay comparable.
#[test]
fn eval_names_zero_vectors_and_marks_their_figures() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let vectors = "6 2\ntiger 1 0.5\ncat 0 0\nbook 0.3 1\npaper 0.5 0.8\ncomputer 1 0.1\nkeyboard 0.9 0.3\n";
    std::fs::write(root.join("e.vec"), vectors).unwrap();
    let table = root.join("eval.csv");
    let out = retest(&["eval", arg(&root.join("e.vec")), "--out", arg(&table)], root);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!(
            "warning: {}: 1 word has an all-zero vector, whose cosine with every word is 0 as in gensim \
             (the figures' rows say `zero_vector`): cat\n26 eval rows → {}\n",
            root.join("e.vec").display(),
            table.display()
        )
    );
    let stdout = text(&out.stdout);
    let line = "  wordsim353: 1 of the pairs has a word with an all-zero vector (cosine 0)";
    assert!(stdout.lines().any(|l| l == line), "no line `{line}` in\n{stdout}");
    let csv = std::fs::read_to_string(&table).unwrap();
    let status = |benchmark: &str| -> Vec<&str> {
        (csv.lines())
            .filter(|l| l.contains(&format!(",{benchmark},")))
            .map(|l| l.rsplit(',').next().unwrap())
            .collect()
    };
    assert_eq!(status("wordsim353"), ["zero_vector", "zero_vector"]);
    assert_eq!(status("simlex999"), ["too_few_pairs", "too_few_pairs"]);
    assert!(status("google").iter().all(|&s| s == "zero_vector"), "{csv}");
}

/// What a command prints to standard output, and the help, fail with one line naming standard
/// output when it cannot be written (a full disk here), never silently with exit code 0.
#[test]
fn a_standard_output_that_cannot_be_written_is_named() {
    let results = tempfile::tempdir().unwrap();
    for args in [&["--help"][..], &["--version"], &["measures"], &["plan", "smoke"]] {
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = output(
            retest_test_support::retest(env!("CARGO_BIN_EXE_retest"))
                .args(args)
                .env("RETEST_RESULTS_DIR", results.path())
                .stdout(full),
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            text(&out.stderr),
            "error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
