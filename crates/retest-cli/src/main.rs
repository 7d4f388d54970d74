//! The `retest` binary: parses the command line and reports errors as one clear line.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

mod cli;
mod cluster;
mod commands;
mod reliability;
mod report;
mod stats;
mod study;

fn main() -> ExitCode {
    let cli = parse_arguments();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {}", retest_pipeline::one_line(&error));
            }
            ExitCode::FAILURE
        }
    }
}

/// The command line, where a negative number is a value (refused by the option's own range,
/// `--nbm-k -1`) rather than taken for an unknown option.
fn parse_arguments() -> cli::Cli {
    fn negative_numbers(command: clap::Command) -> clap::Command {
        command
            .allow_negative_numbers(true)
            .mut_subcommands(negative_numbers)
    }
    let matches = negative_numbers(cli::Cli::command()).get_matches();
    cli::Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}
