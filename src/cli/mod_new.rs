//! `ridgeline mod new <name|path> [layout.wnd…]`: a new mod folder with `mod.ron` and copies of
//! the named layouts, ready for the layout editor or hand edits. A bare name goes into the
//! player's mods folder (beside the settings file), where the Mods screen finds it.
//!
//! Must not: overwrite a folder that already holds a mod.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use ridgeline::content::ContentRoots;
use ridgeline::content::new_mod::{self, LayoutCopy};
use ridgeline::game::settings::Settings;

use super::args::resolve_layout;

/// What `mod` does.
#[derive(Subcommand)]
pub enum ModCommand {
    /// Make a new mod folder: mod.ron and copies of the named layouts under its ui/.
    New {
        /// A bare name (the folder goes into the player's mods folder) or a folder path.
        target: String,
        /// Layouts to start from, by file name under ui/ (InGame.wnd) or by path.
        layouts: Vec<PathBuf>,
    },
}

/// Runs `mod`.
pub fn run(roots: &ContentRoots, command: ModCommand) -> Result<()> {
    let ModCommand::New { target, layouts } = command;
    // A bare name always means the player's mods folder (write `./name` for a folder here).
    let (dir, name) = if new_mod::is_mod_name(&target) {
        let settings = Settings::default_path().map_err(anyhow::Error::msg)?;
        let folder = settings.parent().map(|d| d.join("mods")).unwrap_or_else(|| "mods".into());
        (folder.join(&target), target.clone())
    } else {
        let dir = PathBuf::from(&target);
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| target.clone());
        (dir, name)
    };
    let mut copies = Vec::with_capacity(layouts.len());
    for l in &layouts {
        let path = resolve_layout(roots, l);
        if !path.is_file() {
            bail!("{}: no such layout (give a file name under ui/, such as InGame.wnd, or a path)", l.display());
        }
        let text = ridgeline::content::read_text(&path)?;
        // A layout that does not parse would only give the modder a broken start.
        ridgeline::ui::wnd::parse(&path.display().to_string(), &text)?;
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).context("a layout without a name")?;
        copies.push(LayoutCopy { name: file, text });
    }
    let written = new_mod::create(&dir, &name, &copies)?;
    for f in &written {
        println!("wrote {}", f.display());
    }
    println!("mod \"{name}\" is at {}: turn it on in Mods, or run with --mod {}", dir.display(), dir.display());
    Ok(())
}
