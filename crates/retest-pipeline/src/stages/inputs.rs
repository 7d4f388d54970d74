//! Where stages look beyond the plan's lists: whether a corpus's words are lowercased, and the
//! benchmark files of the data mirror.

use std::path::{Path, PathBuf};

use retest_spec::Plan;

/// Whether corpus `corpus`'s reader lowercases (plain text and Reddit, unless read with
/// `case: keep`): the set-level and analogy lists are then looked up lowercased.
pub(crate) fn lowercases(plan: &Plan, corpus: &str) -> bool {
    (plan.corpora.iter())
        .find(|c| c.name == corpus)
        .is_some_and(|c| c.reader.lowercases())
}

/// The benchmark file `relative` in the data mirror (`$RETEST_DATA_DIR/benchmarks/`), or why it
/// is not there.
pub(crate) fn benchmark_file(relative: &str) -> Result<PathBuf, String> {
    let Some(data) = std::env::var_os("RETEST_DATA_DIR") else {
        return Err("RETEST_DATA_DIR is not set".to_owned());
    };
    let path = Path::new(&data).join("benchmarks").join(relative);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("{} is missing", path.display()))
    }
}
