//! What the shell's screens show that comes from the content roots: the roots themselves, the
//! maps (with their previews among the pictures made at run time, beside the object icons and
//! the puff), the playable factions, the interface's images and fonts, and what the layout
//! editor offers (font families, callback names). Taken up again when a modder changes files.
//!
//! Must not: open a screen or hold what a screen edits.

use std::collections::BTreeMap;
use std::sync::Arc;

use image::RgbaImage;

use crate::content::ContentRoots;
use crate::defs::Definitions;
use crate::game::images::{ImageKey, puff_image};
use crate::ui::font::{FontFile, Fonts};
use crate::ui::images::ImageSet;
use crate::ui::lexicon::Lexicon;
use crate::ui::skin::Skins;

use super::error::ShellError;
use super::icons::icons;
use super::loading::{MapEntry, find_maps};

/// The game's fonts with the mods' (`ui/fonts/*.ttf|otf` in each root, the front one's
/// first); a font file that cannot be read or is no font is left out, said in the log.
pub fn load_fonts(roots: &ContentRoots) -> Result<Fonts, ShellError> {
    let mut files = Vec::new();
    for (name, bold, path) in roots.font_files() {
        match crate::content::read_bytes_limited(&path, crate::content::limits::MAX_FONT_BYTES) {
            Ok(bytes) => files.push(FontFile { name, bold, bytes, path: path.display().to_string() }),
            Err(e) => log::warn!("{e}: the font is left out"),
        }
    }
    let (fonts, problems) = Fonts::load().map_err(ShellError::Fonts)?.with_files(&files);
    for p in problems {
        log::warn!("{p}");
    }
    Ok(fonts)
}

/// The shell's content.
#[derive(Debug)]
pub struct Content {
    /// Where the shell's content came from (mods first).
    pub roots: ContentRoots,
    /// Maps found in the content roots.
    pub maps: Vec<MapEntry>,
    /// Playable faction names.
    pub factions: Vec<String>,
    /// Pictures made at run time (map previews, object icons), by `@name`.
    pub dynamic_images: BTreeMap<String, RgbaImage>,
    /// Dynamic images added since the client last took them (a saved game's thumbnail), for it
    /// to upload.
    pub fresh_images: Vec<String>,
    /// UI images (atlas regions).
    pub images: ImageSet,
    /// The game's fonts and the mods': the UI measures with them and the renderer draws them.
    pub fonts: Arc<Fonts>,
    /// The mods' font files the fonts were read from.
    font_files: Vec<(String, bool, std::path::PathBuf)>,
    /// The font families layouts may name (`ui/fonts.ron`), for the editor's choice.
    pub font_families: Vec<String>,
    /// The callback names layouts may use, for the editor's choice.
    pub lexicon: Lexicon,
    /// Each playable faction's look of the battle's HUD (`ui/skins.ron`).
    pub skins: Skins,
}

impl Content {
    /// Loads the definitions (for the factions and the icons), the maps with their previews
    /// and the fonts; `images`, `font_families` and `lexicon` come with the layouts' bindings.
    /// The maps that could not be loaded come back beside it, each naming its file.
    pub fn load(
        roots: &ContentRoots,
        images: ImageSet,
        font_families: Vec<String>,
        lexicon: Lexicon,
    ) -> Result<(Content, Vec<String>), ShellError> {
        let defs = Definitions::load(roots)?;
        let factions = defs.playable_factions();
        let skins = Skins::find(roots, &factions, &images)?;
        let (maps, mut dynamic_images, refused_maps) = find_maps(roots);
        dynamic_images.extend(icons(roots, &defs)?);
        dynamic_images.insert(ImageKey::Puff.name(), puff_image(32));
        let fonts = Arc::new(load_fonts(roots)?);
        let content = Content {
            roots: roots.clone(),
            maps,
            factions,
            dynamic_images,
            fresh_images: Vec::new(),
            images,
            fonts,
            font_files: roots.font_files(),
            font_families,
            lexicon,
            skins,
        };
        Ok((content, refused_maps))
    }

    /// Reads the images (the game's atlas and every extra set the roots hold, mods' included),
    /// the factions' skins and the mods' fonts again; true when the images or fonts changed,
    /// and the client must then rebuild its atlas from them (and its text from the fonts).
    pub fn reload_images(&mut self, roots: &ContentRoots) -> Result<bool, String> {
        let images = ImageSet::load_all(roots).map_err(|e| e.to_string())?;
        self.skins = Skins::find(roots, &self.factions, &images).map_err(|e| e.to_string())?;
        // The mods' fonts come and go with them too.
        let font_files = roots.font_files();
        let fonts_changed = font_files != self.font_files;
        if fonts_changed {
            self.fonts = Arc::new(load_fonts(roots).map_err(|e| e.to_string())?);
            self.font_files = font_files;
        }
        if images == self.images {
            return Ok(fonts_changed);
        }
        self.images = images;
        Ok(true)
    }

    /// Looks for maps again; the maps that cannot be loaded are named in the log. True when
    /// the list or a preview changed.
    pub fn refresh_maps(&mut self, roots: &ContentRoots) -> bool {
        let (maps, previews, refused) = find_maps(roots);
        for problem in &refused {
            log::warn!("a map was left out: {problem}");
        }
        let same_previews = previews.iter().all(|(k, v)| self.dynamic_images.get(k) == Some(v));
        if maps == self.maps && same_previews {
            return false;
        }
        self.maps = maps;
        self.dynamic_images.extend(previews);
        true
    }

    /// The preview picture of map `index`, by its dynamic image name, when there is one.
    pub fn preview(&self, index: usize) -> Option<String> {
        let key = ImageKey::preview(&self.maps.get(index)?.name).name();
        self.dynamic_images.contains_key(&key).then_some(key)
    }
}
