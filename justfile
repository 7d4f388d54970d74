# retest — common tasks. `just` lists them.

set shell := ["bash", "-euo", "pipefail", "-c"]

# The data mirror: real corpora, word lists and benchmarks (see README "Data").
export RETEST_DATA_DIR := env_var_or_default("RETEST_DATA_DIR", justfile_directory() / ".." / "shared" / "data")

retest := "cargo run --quiet --release --locked -p retest-cli --"

# List the recipes.
default:
    @just --list

# Run the study end to end for a pipeline in pipelines/ (default: the paper's).
reproduce-du2021 pipeline="du2021":
    {{retest}} run {{pipeline}}

# Put the `retest` binary on the PATH (cargo's bin folder).
install:
    cargo install --locked --path crates/retest-cli

# Rebuild the report of a finished run from its tables (results/<pipeline>/report/).
report pipeline="du2021":
    {{retest}} report {{pipeline}}

# Fit the paper's multilevel regression on a finished run (R with lme4 and performance).
regress pipeline="du2021" *args="":
    Rscript analysis/multilevel.R "${RETEST_RESULTS_DIR:-results}/{{pipeline}}/tables/regression.csv" \
        --out "${RETEST_RESULTS_DIR:-results}/{{pipeline}}/multilevel" {{args}}

# Run every test (release mode: the tests read and encode real corpora), then the Python
# package's (built into target/python-venv; needs python3 and the package registry).
test:
    cargo test --workspace --release --locked
    python/test.sh

# The Slurm executor against a real single-node Slurm started (and stopped) for the test: needs
# the Debian packages slurmctld slurmd slurm-client munge, and root or sudo. About 90 s once built.
test-slurm:
    scripts/slurm/test.sh

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --locked -- -D warnings

# Print the resolved plan and the jobs of a pipeline.
plan pipeline="smoke":
    {{retest}} plan {{pipeline}}

# Prepare one corpus from its recipe in corpora/.
prepare corpus:
    {{retest}} corpus prepare {{corpus}}

# Benchmarks of corpus preparation (WikiText whitespace path, Gutenberg through tokenizers).
bench-corpus:
    cargo bench --locked -p retest-corpus

# Every benchmark.
bench:
    cargo bench --workspace --locked
