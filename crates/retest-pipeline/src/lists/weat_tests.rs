//! WEAT tests files: the tests with every set as words, the declared file of named sets found
//! and verified through the resolver; read by the set-level stage and by `retest weat`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use retest_data::{LockPlace, Owner, Resolver};
use retest_spec::{QueryTest, WeatTest, WeatTestsFile, parse_named_sets};

/// The tests of a tests file with every set as words: the declared JSON file of named sets, if
/// any, is found by `resolver` (a `path:`, mirror, cache, download) and verified against its
/// checksum; one learnt on first use is recorded in `checksums.lock` beside the tests file.
///
/// # Errors
///
/// The tests file or the sets file cannot be read, found, verified or parsed, or a test names
/// a set the sets file does not hold.
pub fn read_weat_tests(file: &Path, resolver: &mut Resolver) -> Result<Vec<WeatTest>> {
    let (tests, sets) = read_tests_file(file, resolver)?;
    Ok(tests.resolve(sets.as_ref())?)
}

/// The tests of a tests file as queries (any number of target and attribute sets), found and
/// verified as [`read_weat_tests`] finds them.
///
/// # Errors
///
/// As [`read_weat_tests`], except that a test need not be WEAT's shape.
pub fn read_query_tests(file: &Path, resolver: &mut Resolver) -> Result<Vec<QueryTest>> {
    let (tests, sets) = read_tests_file(file, resolver)?;
    Ok(tests.resolve_queries(sets.as_ref())?)
}

/// The sets of a declared JSON file of named word sets, by name.
type NamedSets = BTreeMap<String, Vec<String>>;

/// A tests file and the named sets of its declared JSON file, if any.
fn read_tests_file(file: &Path, resolver: &mut Resolver) -> Result<(WeatTestsFile, Option<NamedSets>)> {
    let tests = WeatTestsFile::read(file)?;
    let sets: Option<NamedSets> = match &tests.sets {
        None => None,
        Some(declaration) => {
            let name = super::declaration_name(file);
            let owner = Owner {
                kind: "WEAT sets",
                name: &name,
                file,
                lock: LockPlace::BesideFile,
            };
            let path = resolver.resolve_declared(&owner, &declaration.source)?.path;
            let text =
                std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let sets = parse_named_sets(&text, &path)?;
            resolver.record_learnt(&name)?;
            Some(sets)
        }
    };
    Ok((tests, sets))
}
