//! Dependency invariants of the workspace: Polars, serde_yaml and clap each stay inside the one
//! crate that owns them (tables, spec, the binary), so every other crate sees rows, plans and
//! typed arguments instead.

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
