//! `ridgeline data-check`: every file in data/ and maps/ (with `--mod`, the mod's changes over
//! the game's), each problem on its own line.
//!
//! Must not: stop at the first problem.

use anyhow::{Result, bail};
use ridgeline::content::ContentRoots;

/// Runs `data-check`.
pub fn run(roots: &ContentRoots) -> Result<()> {
    let report = ridgeline::game::data_check::run(roots);
    for p in &report.problems {
        println!("{p}");
    }
    if !report.problems.is_empty() {
        bail!("{} problem(s) in the data", report.problems.len());
    }
    println!("ok: {}", report.checked.join(", "));
    Ok(())
}
