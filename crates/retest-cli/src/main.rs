//! The `retest` binary: parses the command line and reports errors as one clear line.

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

mod cli;
mod cluster;
mod commands;
mod reliability;
mod report;
mod stats;
mod stdout;
mod study;

fn main() -> ExitCode {
    let cli = parse_arguments();
    // What the commands wrote to standard output is flushed here, where a failure is still said.
    match commands::run(cli).and_then(|()| Ok(std::io::stdout().flush().map_err(stdout::named)?)) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`retest plan smoke | head`) has all it wanted.
        Err(error) if stdout::is_closed_pipe(&error) => ExitCode::SUCCESS,
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
    let matches = negative_numbers(cli::Cli::command())
        .try_get_matches()
        .unwrap_or_else(|error| exit_with(&error));
    cli::Cli::from_arg_matches(&matches).unwrap_or_else(|error| exit_with(&error))
}

/// Prints what clap has to say (help and version on standard output, errors on standard error)
/// and exits as clap would, or with 1 when standard output cannot be written.
fn exit_with(error: &clap::Error) -> ! {
    if error.use_stderr() {
        error.exit()
    }
    match error.print().and_then(|()| std::io::stdout().flush()) {
        Ok(()) => std::process::exit(error.exit_code()),
        Err(write_error) if write_error.kind() == std::io::ErrorKind::BrokenPipe => {
            std::process::exit(error.exit_code())
        }
        Err(write_error) => {
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {}", stdout::named(write_error));
            }
            std::process::exit(1)
        }
    }
}
