//! The `retest` binary: parses the command line and reports errors as one clear line.

use std::process::ExitCode;

use clap::Parser;

mod cli;
mod cluster;
mod commands;
mod report;
mod stats;
mod study;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {error:#}");
            }
            ExitCode::FAILURE
        }
    }
}
