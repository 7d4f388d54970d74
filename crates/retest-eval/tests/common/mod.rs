//! Locating the data mirror for the integration tests: a missing mirror fails, never skips.

use std::path::PathBuf;

/// The mirror's `benchmarks/` folder: `$RETEST_DATA_DIR/benchmarks`, by default
/// `../shared/data/benchmarks` next to the workspace. Panics with a message saying how to fix
/// it when the folder is missing.
pub fn benchmarks_dir() -> PathBuf {
    let data = std::env::var_os("RETEST_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
    let dir = data.join("benchmarks");
    assert!(
        dir.is_dir(),
        "data mirror not found: {} does not exist. Set RETEST_DATA_DIR to the folder holding the \
         mirror's MANIFEST.md (shared/data), e.g. RETEST_DATA_DIR=/path/to/shared/data cargo test",
        dir.display()
    );
    dir
}
