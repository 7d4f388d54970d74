//! Dependency invariants of the workspace: Polars, serde_yaml and clap each stay inside the one
//! crate that owns them (tables, spec, the binary), so every other crate sees rows, plans and
//! typed arguments instead; and the binary does no work of its own: it reaches the trainers,
//! corpora, measures and tables only through retest-pipeline. The CLI's tests start the binary
//! only through `retest_test_support::retest` (or `hermetic`), so every one of them runs it under
//! the same environment policy. Library error messages say their own layer and leave the cause
//! to `Error::source`.

use std::path::Path;

use retest_test_support::sources::source_files;

/// (dependency, the only crate that may name it).
const OWNED: &[(&str, &str)] = &[
    ("polars", "retest-tables"),
    ("serde_yaml", "retest-spec"),
    ("clap", "retest-cli"),
];

/// The crates of `crates/` that name `dependency` in any dependency table of their manifest.
fn crates_using(crates: &Path, dependency: &str) -> Vec<String> {
    let mut users = Vec::new();
    for entry in std::fs::read_dir(crates).expect("crates/ is readable") {
        let dir = entry.expect("a directory entry").path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if names_dependency(&manifest, dependency) {
            users.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    users.sort();
    users
}

/// Whether a manifest's text declares `dependency` (`name = …` or `name.workspace = …`) in a
/// `[dependencies]`, `[dev-dependencies]` or `[build-dependencies]` table.
fn names_dependency(manifest: &str, dependency: &str) -> bool {
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line.ends_with("dependencies]");
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_dependencies && key == dependency {
            return true;
        }
    }
    false
}

/// Crates whose work the binary reaches only through retest-pipeline.
const BEHIND_THE_PIPELINE: &[&str] = &[
    "retest-analyses",
    "retest-corpus",
    "retest-data",
    "retest-geometry",
    "retest-glove",
    "retest-lexicon",
    "retest-measures",
    "retest-rng",
    "retest-sgns",
    "retest-tables",
];

/// The names in the `[dependencies]` table of a manifest (not dev or build dependencies).
fn normal_dependencies(manifest: &str) -> Vec<String> {
    let mut in_table = false;
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_table = line == "[dependencies]";
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_table && !key.is_empty() && !key.starts_with('#') {
            names.push(key.to_owned());
        }
    }
    names
}

#[test]
fn the_binary_reaches_the_work_through_the_pipeline() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("the binary's manifest is readable");
    let direct: Vec<String> = normal_dependencies(&manifest)
        .into_iter()
        .filter(|name| BEHIND_THE_PIPELINE.contains(&name.as_str()))
        .collect();
    assert_eq!(direct, Vec::<String>::new(), "retest-cli depends directly on");
    let sample = "[dependencies]\nretest-sgns.workspace = true\n[dev-dependencies]\ntempfile = 1\n";
    assert_eq!(normal_dependencies(sample), ["retest-sgns"]);
}

#[test]
fn owned_dependencies_stay_in_their_crate() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for &(dependency, owner) in OWNED {
        assert_eq!(
            crates_using(&crates, dependency),
            [owner],
            "crates that depend on `{dependency}`"
        );
    }
}

#[test]
fn the_check_sees_every_way_to_declare_a_dependency() {
    let manifest = "[package]\nname = \"x\"\nclap = 1\n[dependencies]\nrayon.workspace = true\n";
    assert!(
        !names_dependency(manifest, "clap"),
        "a key outside a dependency table"
    );
    assert!(names_dependency(manifest, "rayon"));
    let dev = "[dev-dependencies]\npolars = { workspace = true }\n";
    assert!(names_dependency(dev, "polars"));
    assert!(!names_dependency(dev, "polars-io"));
    assert!(names_dependency(
        "[dependencies]\nserde_yaml = \"0.9\"\n",
        "serde_yaml"
    ));
}

/// Programs other than `retest` that the CLI's tests start themselves, as `Command::new`'s
/// argument is written.
const OTHER_PROGRAMS: &[&str] = &["\"kill\"", "\"sha256sum\"", "\"Rscript\""];

/// The commands of `source` built with `Command::new` for a program that may be `retest`,
/// outside the support builder: every `Command::new(…)` starts one of [`OTHER_PROGRAMS`], or is
/// `sh` handed straight to `hermetic(…)`. Comment lines are skipped; whitespace is ignored.
fn commands_outside_the_builder(source: &str) -> Vec<String> {
    let text: String = (source.lines())
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut found = Vec::new();
    for (at, call) in text.match_indices("Command::new(") {
        let start = at + call.len();
        let mut depth = 1;
        let end = (text[start..].char_indices())
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(text.len(), |(i, _)| start + i);
        let program = &text[start..end];
        let before = text[..at].trim_end_matches("std::process::");
        let wrapped = program == "\"sh\"" && before.ends_with("hermetic(");
        if !OTHER_PROGRAMS.contains(&program) && !wrapped {
            found.push(format!("Command::new({program})"));
        }
    }
    found
}

#[test]
fn cli_tests_start_the_binary_only_through_the_support_builder() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let files = source_files(&tests);
    assert!(files.len() > 10, "{} test files", files.len());
    let mut outside = Vec::new();
    // This file names the forbidden calls in its samples.
    for file in files.iter().filter(|f| !f.path.ends_with("tests/tidy.rs")) {
        for command in commands_outside_the_builder(&file.text) {
            outside.push(format!(
                "{}: {command}",
                file.path.strip_prefix(&tests).unwrap().display()
            ));
        }
    }
    assert_eq!(
        outside,
        Vec::<String>::new(),
        "commands built without retest_test_support::retest or hermetic"
    );
}

/// `check` finds exactly one thing in each of `refused` and nothing in any of `allowed`.
fn assert_check_tells_apart(check: fn(&str) -> Vec<String>, refused: &[&str], allowed: &[&str]) {
    for refused in refused {
        assert_eq!(check(refused).len(), 1, "{refused}");
    }
    for allowed in allowed {
        assert_eq!(check(allowed), Vec::<String>::new(), "{allowed}");
    }
}

#[test]
fn the_builder_check_sees_every_way_around_the_builder() {
    assert_check_tells_apart(
        commands_outside_the_builder,
        &[
            "Command::new(env!(\"CARGO_BIN_EXE_retest\"))",
            "std::process::Command::new(\n    env!(\"CARGO_BIN_EXE_retest\"),\n)",
            "let bin = env!(\"CARGO_BIN_EXE_retest\");\nCommand::new(bin).arg(\"run\")",
            "Command::new(\"sh\").args([\"-c\", \"exec \\\"$0\\\"\", env!(\"CARGO_BIN_EXE_retest\")])",
            "Command::new(PathBuf::from(\"target/release/retest\"))",
        ],
        &[
            "retest_test_support::retest(env!(\"CARGO_BIN_EXE_retest\")).args([\"plan\"])",
            "hermetic(Command::new(\"sh\").args([\"-c\", \"umask 027\"]))",
            "hermetic(\n    std::process::Command::new(\"sh\")\n        .arg(\"-c\"),\n)",
            "Command::new(\"kill\").args([\"-INT\", &pid])",
            "// Command::new(env!(\"CARGO_BIN_EXE_retest\")) is refused.",
        ],
    );
}

/// The `#[error(…)]` messages of `source` that print the error's own cause (`{source}`, or `{0}`
/// of a tuple variant whose field is its `#[source]` or `#[from]`): a library error says its own
/// layer and leaves the cause to `Error::source`, which the CLI prints after it.
fn messages_printing_their_source(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("#[error(") {
        rest = &rest[at..];
        let end = rest.find(")]").map_or(rest.len(), |end| end + 2);
        let (message, after) = rest.split_at(end);
        let variant = after.trim_start().lines().next().unwrap_or("");
        let tuple_cause = variant.contains("(#[source]") || variant.contains("(#[from]");
        if message.contains("{source") || (tuple_cause && message.contains("{0")) {
            found.push(format!("{message} {}", variant.trim()));
        }
        rest = after;
    }
    found
}

#[test]
fn library_errors_leave_their_cause_to_source() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for file in source_files(&crates)
        .iter()
        .filter(|f| f.path.components().any(|c| c.as_os_str() == "src"))
    {
        for message in messages_printing_their_source(&file.text) {
            let file = file.path.strip_prefix(&crates).unwrap().display();
            found.push(format!("{file}: {message}"));
        }
    }
    assert_eq!(
        found,
        Vec::<String>::new(),
        "error messages that print their source"
    );
}

#[test]
fn the_source_check_sees_every_way_to_print_the_cause() {
    assert_check_tells_apart(
        messages_printing_their_source,
        &[
            "#[error(\"{}: {source}\", path.display())]\nIo { path: PathBuf, source: io::Error },",
            "#[error(\"{path}: {source:?}\")]\nIo { path: PathBuf, #[source] source: E },",
            "#[error(\"reading: {0}\")]\nRead(#[source] io::Error),",
            "#[error(\"search: {0}\")]\n    Geometry(#[from] GeometryError),",
        ],
        &[
            "#[error(\"cannot read {}\", path.display())]\nIo { path: PathBuf, source: io::Error },",
            "#[error(\"reading co-occurrence file\")]\nRead(#[source] io::Error),",
            "#[error(\"corrupt encoded corpus: {0}\")]\nCorrupt(String),",
            "#[error(transparent)]\nOther(#[from] E),",
        ],
    );
}

/// The crates whose product code may read environment variables: the binary, the pipeline (whose
/// own architecture test confines it to the project and the cluster executor) and the test
/// support. A library below them is given folders and switches, never reads them itself.
const READ_THE_ENVIRONMENT: [&str; 3] = ["retest-cli", "retest-pipeline", "retest-test-support"];

/// The places in `source` that read an environment variable.
fn environment_reads(source: &str) -> Vec<&str> {
    ["env::var(", "env::var_os(", "env::vars(", "env::vars_os("]
        .into_iter()
        .filter(|read| source.contains(read))
        .collect()
}

#[test]
fn libraries_do_not_read_the_environment() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for file in source_files(&crates) {
        let (Some(krate), Some(folder)) = (file.module.first(), file.module.get(1)) else {
            continue;
        };
        if folder != "src" || READ_THE_ENVIRONMENT.contains(&krate.as_str()) {
            continue;
        }
        for read in environment_reads(&file.text) {
            let path = file.path.strip_prefix(&crates).unwrap().display();
            found.push(format!("{path}: {read}"));
        }
    }
    assert_eq!(
        found,
        Vec::<String>::new(),
        "library code that reads the environment"
    );
}

#[test]
fn the_environment_check_sees_every_way_to_read_it() {
    let source =
        "let a = std::env::var(\"A\");\nlet b = env::var_os(\"B\");\nfor (k, v) in std::env::vars() {}";
    assert_eq!(
        environment_reads(source),
        ["env::var(", "env::var_os(", "env::vars("]
    );
    assert!(environment_reads("let x = env!(\"CARGO_MANIFEST_DIR\");").is_empty());
}
