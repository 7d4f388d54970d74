//! Evaluates one embedding file on the standard suite and prints the table (and, with `--json`,
//! the JSON report): `cargo run --release -p retest-eval --example eval -- EMB [--json]`.
//! The benchmarks come from `$RETEST_DATA_DIR/benchmarks` (default `../shared/data`).
#![allow(clippy::print_stdout)]

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with("--")) else {
        return Err("usage: eval EMBEDDINGS [--json]".into());
    };
    let data = retest_test_support::data_dir();
    let emb = retest_embeddings::read(path.as_ref(), None)?;
    let report = retest_eval::standard_suite(&data.join("benchmarks"), &emb)?;
    if args.iter().any(|a| a == "--json") {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    print!("{report}");
    Ok(())
}
