//! The `ridgeline` binary: parse the command line, set up logging, run the command (`cli/`) and
//! turn its result into an exit code.
//!
//! Exit codes: 0 success, 1 the input is wrong (the message says where), 2 usage.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,wgpu_hal=off")).init();
    let cli = cli::Cli::parse();
    if cfg!(feature = "hash-upkeep-off") && !cli.only_measures() {
        eprintln!("error: this build does not keep the state hash (feature hash-upkeep-off); it can only run `bench`");
        return ExitCode::from(2);
    }
    match cli.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
