//! `ridgeline ui-import <mapped-images.ini>… --textures DIR --mod DIR [--set NAME]
//! [--preview PNG]`: another game's mapped images (Generals-style INI blocks and their
//! textures) become a mod's own atlas and image table, so layouts brought over from that game
//! draw their pictures; it says how it read each texture and can draw what it imported.
//!
//! Must not: write outside the mod folder it is given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

/// `ui-import`'s arguments.
#[derive(Args)]
pub struct UiImportArgs {
    /// INI files with `MappedImage` blocks.
    #[arg(required_unless_present = "csf")]
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
    /// A Generals string table (`generals.csf`) whose labels and texts go into the mod's
    /// `ui/strings.ron` (or `ui/strings.<language>.ron` with --language), beside what is there.
    #[arg(long)]
    pub csf: Option<PathBuf>,
    /// With --csf: the language code the texts are in (`de`, `es`…); without it they become the
    /// mod's own texts (`ui/strings.ron`).
    #[arg(long, requires = "csf")]
    pub language: Option<String>,
}

/// Runs `ui-import`.
pub fn run(a: UiImportArgs) -> Result<()> {
    if let Some(csf) = &a.csf {
        import_csf(csf, &a.into, a.language.as_deref())?;
        if a.ini.is_empty() {
            return Ok(());
        }
    }
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

/// Brings a `.csf` string table's labels into the mod's string table for `language`.
fn import_csf(path: &Path, mod_dir: &Path, language: Option<&str>) -> Result<()> {
    use ridgeline::content::limits::MAX_TEXT_FILE_BYTES;
    let bytes = ridgeline::content::read_bytes_limited(path, MAX_TEXT_FILE_BYTES)?;
    let csf = ridgeline::content::csf::parse(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let file = match language {
        Some(code) if !ridgeline::ui::labels::is_language_code(code) => {
            bail!("--language {code}: a language code is 1 to 16 letters, digits, '-' and '_'")
        }
        Some(code) => format!("strings.{code}.ron"),
        None => "strings.ron".to_string(),
    };
    let target = mod_dir.join("ui").join(&file);
    let mut table: BTreeMap<String, String> =
        if target.is_file() { ridgeline::content::read_ron(&target)? } else { BTreeMap::new() };
    let kept = table.len();
    let mut replaced = 0;
    for (label, text) in &csf.entries {
        replaced += usize::from(table.insert(label.clone(), text.clone()).is_some());
    }
    let body = ron::ser::to_string_pretty(&table, ron::ser::PrettyConfig::default())?;
    let text = format!(
        "// Labels from {} (ridgeline ui-import --csf), with the entries that were here.\n{body}\n",
        path.display()
    );
    ridgeline::content::write_file(&target, text.as_bytes())?;
    println!(
        "wrote {}: {} labels from {} ({} replaced an entry, {} entries were already there)",
        target.display(),
        csf.entries.len(),
        path.display(),
        replaced,
        kept
    );
    if language.is_none() && csf.language > 1 {
        println!(
            "  the table says it is not in English (language {}): give --language CODE to make it a translation",
            csf.language
        );
    }
    Ok(())
}
