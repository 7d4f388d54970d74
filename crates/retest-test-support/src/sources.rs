//! A crate's own source, read by its architecture tests: the `.rs` files under a folder with
//! their module paths, and the `crate::…` and `super::…` paths their code names.

use std::path::{Path, PathBuf};

/// A source file: its module path (`["driver", "run"]` for `driver/run.rs` and for
/// `driver/run/mod.rs`; empty for `lib.rs`), where it is and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub module: Vec<String>,
    pub path: PathBuf,
    pub text: String,
}

/// Every `.rs` file under `dir`, in path order, with its module path relative to `dir`.
///
/// # Panics
/// If a folder or a file cannot be read, naming it.
pub fn source_files(dir: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    read_sources(dir, &[], &mut files);
    files
}

fn read_sources(dir: &Path, module: &[String], out: &mut Vec<SourceFile>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut inner = module.to_vec();
        if path.is_dir() {
            inner.push(name);
            read_sources(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            // `mod.rs` is its folder's module, and `lib.rs` the crate root.
            let names_its_folder = name == "mod" || (name == "lib" && module.is_empty());
            if !names_its_folder {
                inner.push(name);
            }
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push(SourceFile {
                module: inner,
                path,
                text,
            });
        }
    }
}

/// A path that code names through `crate::` or `super::`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CratePath {
    /// Whether the path starts with `crate::` (else with `super::`).
    pub from_crate: bool,
    /// The module it starts from: the crate root (empty) for `crate::`, the parent of the
    /// naming module for `super::`, one level further up for each further `super::`.
    pub start: Vec<String>,
    /// The names after `crate::` or the last `super::` (`["driver", "layout", "Layout"]`).
    pub names: Vec<String>,
}

/// Every `crate::…` and `super::…` path of `code`, written in a file of module `module` (see
/// [`SourceFile::module`]), use trees expanded: `crate::{a::B, c}` is two paths. A `crate::`
/// or `super::` that continues another path (`my_crate::…`) is not one.
pub fn crate_paths(module: &[String], code: &str) -> Vec<CratePath> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let (paths, _) = use_tree(&code[at..]);
        for path in paths {
            let mut names = path.into_iter().peekable();
            let from_crate = match names.next().as_deref() {
                Some("crate") => true,
                Some("super") => false,
                _ => continue,
            };
            let mut start = Vec::new();
            if !from_crate {
                // `super` of `a/b.rs` and of `a/b/mod.rs` (both module a::b) is `a`.
                start = module[..module.len().saturating_sub(1)].to_vec();
                while names.next_if(|name| name == "super").is_some() {
                    start.pop();
                }
            }
            found.push(CratePath {
                from_crate,
                start,
                names: names.collect(),
            });
        }
    }
    found
}

/// The paths of the use tree at the start of `text` (`a::b`, `a::{b, c::{d}}`, `{a, b}`), each
/// as its names; returns them with the rest of `text`.
pub fn use_tree(text: &str) -> (Vec<Vec<String>>, &str) {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut paths = Vec::new();
        let mut rest = group;
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('}') {
                return (paths, after);
            }
            let (inner, after) = use_tree(rest);
            paths.extend(inner);
            rest = match after.trim_start().strip_prefix(',') {
                Some(next) => next,
                None if after.len() == rest.len() => &after[after.chars().next().map_or(0, char::len_utf8)..],
                None => after,
            };
            if rest.is_empty() {
                return (paths, rest);
            }
        }
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
        .unwrap_or(text.len());
    let (ident, rest) = text.split_at(end);
    match rest.strip_prefix("::") {
        Some(rest) => {
            let (inner, rest) = use_tree(rest);
            let paths = inner
                .into_iter()
                .map(|mut p| {
                    p.insert(0, ident.to_owned());
                    p
                })
                .collect();
            (paths, rest)
        }
        None => (vec![vec![ident.to_owned()]], rest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(from_crate: bool, start: &[&str], names: &[&str]) -> CratePath {
        let strings = |s: &[&str]| s.iter().map(|s| (*s).to_owned()).collect();
        CratePath {
            from_crate,
            start: strings(start),
            names: strings(names),
        }
    }

    #[test]
    fn use_trees_are_expanded_and_super_climbs_from_the_parent() {
        let module = ["stages".to_owned(), "job".to_owned()];
        let code = "use crate::{driver::layout::Layout, lists};\n\
                    use super::super::x::{a, b::{c, d}};\n\
                    fn f() { super::g(); my_crate::h(); }\n";
        assert_eq!(
            crate_paths(&module, code),
            [
                path(true, &[], &["driver", "layout", "Layout"]),
                path(true, &[], &["lists"]),
                path(false, &[], &["x", "a"]),
                path(false, &[], &["x", "b", "c"]),
                path(false, &[], &["x", "b", "d"]),
                path(false, &["stages"], &["g"]),
            ]
        );
    }

    #[test]
    fn files_are_named_by_their_module() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path();
        std::fs::create_dir_all(src.join("a/b")).unwrap();
        for file in "lib.rs a/mod.rs a/b/mod.rs a/b/lib.rs a/c.rs notes.txt".split(' ') {
            std::fs::write(src.join(file), file).unwrap();
        }
        let modules: Vec<(String, String)> = source_files(src)
            .into_iter()
            .map(|f| (f.module.join("::"), f.text))
            .collect();
        let expected = [
            ("a::b::lib", "a/b/lib.rs"),
            ("a::b", "a/b/mod.rs"),
            ("a::c", "a/c.rs"),
            ("a", "a/mod.rs"),
            ("", "lib.rs"),
        ];
        assert_eq!(modules, expected.map(|(m, t)| (m.to_owned(), t.to_owned())));
    }
}
