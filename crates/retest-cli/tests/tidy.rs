//! Dependency invariants of the workspace: Polars, serde_yaml and clap each stay inside the one
//! crate that owns them (tables, spec, the binary), so every other crate sees rows, plans and
//! typed arguments instead; and the binary does no work of its own: it reaches the trainers,
//! corpora, measures and tables only through retest-pipeline.

use std::path::Path;

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
