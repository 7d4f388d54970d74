//! The base-pair tables against `retest base-pairs` on the run's own seeds.

use crate::csv::Csv;
use crate::{command, sgns_seeds, smoke_run, succeed};

/// The base-pair tables of the SGNS configuration hold what `retest base-pairs` gives on the
/// pipeline's own seeds, row for row (the random baselines draw from other streams).
#[test]
fn base_pair_tables_agree_with_retest_base_pairs() {
    let run = smoke_run();
    let seeds = sgns_seeds(&run.results);
    let out = run.results.join("base-pairs-check");
    succeed(command().arg("base-pairs").args(&seeds).arg("--out").arg(&out));
    let tables = run.tables_dir();
    for name in [
        "base_pair_summary",
        "base_pair_agreement",
        "base_pair_kappa",
        "base_pair_directions",
        "base_pair_correlations",
        "base_pair_flips",
        "base_pair_examples",
        "base_pair_scores",
        "base_pair_seeds",
        "base_pair_variance",
    ] {
        // Every column but corpus and algorithm, in file order.
        let fields = |csv: &Csv, keep: &dyn Fn(&[String]) -> bool| -> Vec<Vec<String>> {
            (csv.rows.iter())
                .filter(|row| keep(row))
                .map(|row| row[2..].to_vec())
                .collect()
        };
        let pipeline = Csv::read(&tables.join(format!("{name}.csv")));
        assert_eq!(pipeline.header[..2], ["corpus", "algorithm"]);
        let pipeline = fields(&pipeline, &|row| row[1] == "sgns");
        let cli = fields(&Csv::read(&out.join(format!("{name}.csv"))), &|_| true);
        assert!(!pipeline.is_empty(), "{name} has no SGNS rows");
        assert_eq!(pipeline, cli, "{name}");
    }
}
