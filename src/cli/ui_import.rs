//! `ridgeline ui-import <mapped-images.ini>… --textures DIR --mod DIR [--set NAME]
//! [--preview PNG]`: another game's mapped images (Generals-style INI blocks and their
//! textures) become a mod's own atlas and image table, so layouts brought over from that game
//! draw their pictures; it says how it read each texture and can draw what it imported.
//!
//! Must not: write outside the mod folder it is given.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

/// `ui-import`'s arguments.
#[derive(Args)]
pub struct UiImportArgs {
    /// INI files with `MappedImage` blocks.
    #[arg(required = true)]
    pub ini: Vec<PathBuf>,
    /// The folder holding the textures the blocks name (TGA or PNG; a `.tga` named may be
    /// given as a `.png` of the same name). Default: each INI's own folder.
    #[arg(long)]
    pub textures: Option<PathBuf>,
    /// The mod folder whose ui/ receives images-<set>.png and images-<set>.ron.
    #[arg(long = "into")]
    pub into: PathBuf,
    /// The set's name.
    #[arg(long, default_value = "imported")]
    pub set: String,
    /// Also write a picture of every imported image cut out of the atlas and labelled with its
    /// name, to see a flipped texture or a bad rectangle at once.
    #[arg(long)]
    pub preview: Option<PathBuf>,
}

/// Runs `ui-import`.
pub fn run(a: UiImportArgs) -> Result<()> {
    let mut images = Vec::new();
    for ini in &a.ini {
        let text = ridgeline::content::ron_file::read_text(ini)?;
        images.extend(ridgeline::content::mapped_images::parse(ini, &text)?);
    }
    if images.is_empty() {
        bail!(
            "no MappedImage blocks in {}",
            a.ini.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    let textures = a.textures.clone().or_else(|| a.ini[0].parent().map(PathBuf::from)).unwrap_or_default();
    let done = ridgeline::content::mapped_images::import(&images, &textures, &a.into, &a.set)?;
    println!(
        "wrote {} and {}: {} images from {} texture(s); layouts in that mod now draw them",
        done.atlas.display(),
        done.table.display(),
        done.images,
        done.textures
    );
    for line in &done.read {
        println!("  read {line}");
    }
    if let Some(preview) = &a.preview {
        let set = ridgeline::ui::images::ImageSet::load(&done.table)?;
        let atlas = ridgeline::content::open_image(&done.atlas)?.into_rgba8();
        let fonts = ridgeline::ui::font::Fonts::load().map_err(anyhow::Error::msg)?;
        let title = done.table.display().to_string();
        let sheet = ridgeline::ui::atlas_preview::picture(&set, &atlas, &fonts, &title);
        ridgeline::content::write_image(preview, &sheet)?;
        println!("wrote {}: each image cut out and labelled", preview.display());
    }
    Ok(())
}
