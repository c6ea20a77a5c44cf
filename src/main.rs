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
            eprintln!("error: {}", describe(&e));
            ExitCode::from(1)
        }
    }
}

/// The error and its causes on one line, each joined by ": ", leaving out a cause whose text the
/// line already ends with (errors that quote their source in their own message would otherwise
/// repeat it once per level).
fn describe(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[derive(Debug, thiserror::Error)]
    #[error("slot 0: unknown faction")]
    struct Inner;

    #[derive(Debug, thiserror::Error)]
    #[error("match setup: {0}")]
    struct Quoting(#[source] Inner);

    #[derive(Debug, thiserror::Error)]
    #[error("seed 1")]
    struct Plain(#[source] Quoting);

    #[test]
    fn a_cause_the_message_already_quotes_is_said_once() {
        let e = anyhow::Error::new(Plain(Quoting(Inner)));
        assert_eq!(describe(&e), "seed 1: match setup: slot 0: unknown faction");
        let e = anyhow::Error::new(Quoting(Inner)).context("reading match.ron");
        assert_eq!(describe(&e), "reading match.ron: match setup: slot 0: unknown faction");
    }
}
