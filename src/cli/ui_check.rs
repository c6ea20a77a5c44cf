//! `ridgeline ui-check` and `ui-fmt`: lint layouts (syntax, then callbacks, images and fonts),
//! and write one through the canonical layout writer the editor uses.
//!
//! Must not: change a layout in place unless `--out` names it.

use std::path::PathBuf;

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;
use ridgeline::game::shell::callbacks;
use ridgeline::game::shell::layout_check::{self, Options};

/// `ui-check`'s arguments.
#[derive(clap::Args)]
pub struct UiCheckArgs {
    /// Layout files; none means every layout under ui/.
    paths: Vec<PathBuf>,
    /// Only check the syntax.
    #[arg(long)]
    syntax_only: bool,
    /// Treat notes (keys and flags kept but unused, often misspellings) as problems.
    #[arg(long)]
    strict: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `ui-fmt`'s arguments.
#[derive(clap::Args)]
pub struct UiFmtArgs {
    /// The layout.
    path: PathBuf,
    /// Where to write it (standard output without).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `ui-check`.
pub fn check(roots: &ContentRoots, args: UiCheckArgs) -> Result<()> {
    let opts = Options { syntax_only: args.syntax_only, strict: args.strict };
    let outcome = layout_check::run(roots, &callbacks::lexicon(), args.paths, opts)?;
    if args.json {
        println!("{}", outcome.json());
    } else {
        for line in outcome.lines() {
            println!("{line}");
        }
    }
    let n = outcome.problems.len();
    if n > 0 {
        bail!("{n} problem(s) in layouts");
    }
    Ok(())
}

/// Runs `ui-fmt`.
pub fn fmt(args: UiFmtArgs) -> Result<()> {
    let text = ridgeline::content::read_text(&args.path)?;
    let tree = ridgeline::ui::wnd::parse(&args.path.display().to_string(), &text)?;
    let written = ridgeline::ui::wnd::write(&tree);
    match &args.out {
        Some(o) => ridgeline::content::write_file(o, written.as_bytes())?,
        None => print!("{written}"),
    }
    Ok(())
}
