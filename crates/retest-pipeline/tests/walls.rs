//! The walls of retest-pipeline, as failing tests: its modules sit in layers, and a module
//! imports only modules of its own layer or the layers below; no two files import each other
//! through any chain but the driver's `run` ↔ `manifest`.
//!
//! The layers, bottom to top:
//!
//! 1. `message`, `progress`, `corpus` — leaf helpers every layer may use;
//! 2. `lists` — the plan's word lists and the parsers of list, query and tests files;
//! 3. `stages` — the measure job and its stages;
//! 4. `driver` — run, train, task, aggregate, layout, project, cluster, Slurm, status;
//! 5. `tools` — the commands over a user's own vector files;
//! 6. the crate root, which re-exports.
//!
//! So a stage never imports a tool or the driver, and a tool may import a stage.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use retest_test_support::sources::{crate_paths, source_files};

/// The layer of each top-level module (see the module docs).
const LAYERS: &[(&str, usize)] = &[
    ("message", 1),
    ("progress", 1),
    ("corpus", 1),
    ("lists", 2),
    ("stages", 3),
    ("driver", 4),
    ("tools", 5),
];

/// The one import circle the walls allow: the run writes the manifest of what it ran.
const ALLOWED_CIRCLE: &[&str] = &["driver::manifest", "driver::run"];

/// The modules named by the `crate::…` and `super::…` paths of `text`, written in a file of
/// module `module`, resolved to the deepest module of `known`; a `crate::` path whose first
/// name is no module (an item re-exported at the root) is reported as an error.
fn imported_modules(
    module: &[String],
    text: &str,
    known: &BTreeSet<Vec<String>>,
) -> Result<BTreeSet<Vec<String>>, String> {
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let text = code.as_str();
    let mut found = BTreeSet::new();
    // A module file names its own submodules without `crate::` (`use stage::Family;`).
    for child in known
        .iter()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
    {
        let name = format!("{}::", child.last().unwrap());
        let named = text.match_indices(&name).any(|(start, _)| {
            !text[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
        });
        if named {
            found.insert(child.clone());
        }
    }
    for named in crate_paths(module, text) {
        let Some((first, rest)) = named.names.split_first() else {
            continue;
        };
        let mut path = named.start;
        path.push(first.clone());
        if !known.contains(&path) {
            if named.from_crate {
                return Err(format!("`crate::{}` names no module", path.join("::")));
            }
            continue;
        }
        for name in rest {
            let mut deeper = path.clone();
            deeper.push(name.clone());
            if !known.contains(&deeper) {
                break;
            }
            path = deeper;
        }
        found.insert(path);
    }
    Ok(found)
}

fn layer(module: &[String]) -> usize {
    match module.first() {
        None => 6,
        Some(top) => LAYERS
            .iter()
            .find(|(name, _)| name == top)
            .map(|&(_, layer)| layer)
            .unwrap_or_else(|| panic!("module `{top}` is in no layer: add it to LAYERS")),
    }
}

/// Every file's imported modules, keyed by the file's module path.
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = source_files(src);
    let known: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let imports = imported_modules(&file.module, &file.text, &known).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; import from the module that defines it",
                file.path.display()
            )
        });
        let entry: &mut BTreeSet<String> = graph.entry(file.module.join("::")).or_default();
        entry.extend(
            imports
                .into_iter()
                .filter(|m| *m != file.module)
                .map(|m| m.join("::")),
        );
    }
    graph
}

/// The imports that go up a layer: (importer, imported).
fn upward_imports(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let split = |m: &str| -> Vec<String> {
        if m.is_empty() {
            Vec::new()
        } else {
            m.split("::").map(str::to_owned).collect()
        }
    };
    let mut up = Vec::new();
    for (from, imports) in graph {
        for to in imports {
            if layer(&split(to)) > layer(&split(from)) {
                up.push((from.clone(), to.clone()));
            }
        }
    }
    up
}

/// The import circles of `graph`: every strongly connected set of more than one module.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reaches = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(m) = stack.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|m| (m, reaches(m))).collect();
    let mut done = BTreeSet::new();
    let mut found = Vec::new();
    for m in graph.keys() {
        if done.contains(m) {
            continue;
        }
        let circle: Vec<String> = graph
            .keys()
            .filter(|o| reach[m].contains(*o) && reach[*o].contains(m))
            .cloned()
            .collect();
        done.extend(circle.iter().cloned());
        if circle.len() > 1 {
            found.push(circle);
        }
    }
    found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn modules_import_only_their_layer_and_the_layers_below() {
    let up = upward_imports(&import_graph(&src()));
    assert!(
        up.is_empty(),
        "imports that go up a layer (importer, imported): {up:?}"
    );
}

#[test]
fn no_import_circle_but_run_and_manifest() {
    let found = circles(&import_graph(&src()));
    let allowed: Vec<String> = ALLOWED_CIRCLE.iter().map(|s| (*s).to_owned()).collect();
    let others: Vec<&Vec<String>> = found.iter().filter(|c| **c != allowed).collect();
    assert!(others.is_empty(), "import circles: {others:?}");
}

/// The checks see what they are meant to: a stage importing a tool or the driver, a path through
/// the crate root, grouped imports, `super::` paths, and a circle.
#[test]
fn the_checks_see_every_kind_of_import() {
    let known: BTreeSet<Vec<String>> = [
        &["stages"][..],
        &["stages", "job"],
        &["stages", "rules"],
        &["stages", "stage"],
        &["tools"],
        &["tools", "score"],
        &["driver"],
        &["driver", "layout"],
        &["lists"],
    ]
    .iter()
    .map(|m| m.iter().map(|s| (*s).to_owned()).collect())
    .collect();
    let job: Vec<String> = vec!["stages".into(), "job".into()];
    let text = "use crate::tools::score::read_word_file;\n\
                use crate::{driver::layout::Layout, lists};\n\
                use super::rules::Rules;\n\
                fn f() { let _ = crate::driver::layout::DONE; let _ = my_crate::x; }\n";
    let imports = imported_modules(&job, text, &known).unwrap();
    let names: Vec<String> = imports.iter().map(|m| m.join("::")).collect();
    assert_eq!(
        names,
        ["driver::layout", "lists", "stages::rules", "tools::score"]
    );

    let graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::from([
        (
            "stages::job".to_owned(),
            imports.iter().map(|m| m.join("::")).collect(),
        ),
        (
            "tools::score".to_owned(),
            BTreeSet::from(["stages::job".to_owned()]),
        ),
    ]);
    assert_eq!(
        upward_imports(&graph),
        [
            ("stages::job".to_owned(), "driver::layout".to_owned()),
            ("stages::job".to_owned(), "tools::score".to_owned())
        ]
    );
    assert_eq!(
        circles(&graph),
        [vec!["stages::job".to_owned(), "tools::score".to_owned()]]
    );

    let stages = vec!["stages".to_owned()];
    let text = "use stage::Family;\nconst F: &[Family] = &[rules::FAMILY, job_rules::X];";
    let imports = imported_modules(&stages, text, &known).unwrap();
    let names: Vec<String> = imports.iter().map(|m| m.join("::")).collect();
    assert_eq!(names, ["stages::rules", "stages::stage"]);

    let err = imported_modules(&job, "use crate::Layout;", &known).unwrap_err();
    assert_eq!(err, "`crate::Layout` names no module");
}

/// The modules that may read environment variables: the project (the data mirror, the download
/// cache and offline mode of its resolver) and the cluster executor, which passes the `RETEST_*`
/// settings on to the jobs it submits. Everything else is given its inputs (folders, declared
/// files), so a result never depends on an environment variable a stage read.
const READS_ENVIRONMENT: &[&str] = &["driver::project", "driver::cluster"];

/// The modules that build a resolver from the environment (the data mirror, the download cache,
/// offline mode): the driver's commands and the tools, never a stage or the lists.
const RESOLVES_FROM_ENVIRONMENT: &[&str] = &["driver", "tools"];

#[test]
fn only_the_driver_reads_the_environment() {
    let files = source_files(&src());
    let mut readers = Vec::new();
    for file in &files {
        let module = file.module.join("::");
        let reads = ["env::var(", "env::var_os(", "env::vars("]
            .iter()
            .any(|r| file.text.contains(r));
        if reads && !READS_ENVIRONMENT.contains(&module.as_str()) {
            readers.push(module.clone());
        }
        let top = file.module.first().map_or("", String::as_str);
        if file.text.contains("resolver(&") && !RESOLVES_FROM_ENVIRONMENT.contains(&top) {
            readers.push(module);
        }
    }
    assert!(
        readers.is_empty(),
        "modules that read the environment: {readers:?}"
    );
}

/// Tables are named through `retest_tables::names` (name and row type stated once), never by a
/// string written here.
#[test]
fn tables_are_named_through_the_table_names() {
    let files = source_files(&src());
    let by_string: Vec<String> = (files.iter())
        .filter(|f| {
            ["Table::from_rows(", "Table::from_rows_in("]
                .iter()
                .any(|c| f.text.contains(c))
        })
        .map(|f| f.module.join("::"))
        .collect();
    assert!(
        by_string.is_empty(),
        "modules that name a table by a string: {by_string:?}"
    );
}
