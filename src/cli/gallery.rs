//! `ridgeline gallery`: the fixed set of close-ups for review (every unit and structure of
//! each faction, damage stages, construction, motion, a base, a battle and the ground) rendered to PNGs in
//! a folder, through the game's own renderer.
//!
//! Must not: open a window.

use std::path::PathBuf;

use anyhow::Result;
use ridgeline::content::ContentRoots;

use super::args::parse_size;

/// `gallery`'s arguments.
#[derive(clap::Args)]
pub struct GalleryArgs {
    /// The folder the PNGs go into (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// Size of each picture as WxH.
    #[arg(long, default_value = "960x600", value_parser = parse_size)]
    size: (u32, u32),
}

/// Runs `gallery`.
pub fn run(roots: &ContentRoots, args: GalleryArgs) -> Result<()> {
    let written = ridgeline::game::gallery::render(roots, &args.out, args.size)?;
    println!("wrote {} pictures to {}", written.len(), args.out.display());
    Ok(())
}
