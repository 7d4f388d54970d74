//! The `retest` binary.
fn main() {}
