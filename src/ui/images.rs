//! Named UI images: regions of the UI atlas (`ui/images.ron`, generated with the atlas by
//! `ridgeline gen-art`), optionally nine-sliced, and the font names layouts may use
//! (`ui/fonts.ron`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::defs::{DefsError, DefsErrors, Source};

/// One image: a rectangle of the atlas and the width of its nine-slice border.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageRegion {
    /// x, y, width, height in atlas pixels.
    pub rect: (u32, u32, u32, u32),
    /// Corner size kept unscaled when stretched (0: plain stretch).
    #[serde(default)]
    pub border: u32,
}

/// `ui/images.ron`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSet {
    /// Atlas file, relative to `ui/`.
    pub atlas: String,
    /// Atlas size in pixels.
    pub size: (u32, u32),
    /// Images by name.
    pub images: BTreeMap<String, ImageRegion>,
}

impl ImageSet {
    /// Reads `images.ron`; every image's rectangle must lie inside the atlas size it declares.
    pub fn load(path: &Path) -> Result<ImageSet, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        let set: ImageSet = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let errors: Vec<DefsError> = set
            .images
            .iter()
            .filter(|(_, r)| {
                let (x, y, w, h) = r.rect;
                w == 0 || h == 0 || x as u64 + w as u64 > set.size.0 as u64 || y as u64 + h as u64 > set.size.1 as u64
            })
            .map(|(name, r)| {
                let (x, y, w, h) = r.rect;
                let needle = format!("\"{name}\"");
                DefsError::Invalid {
                    path: path.to_path_buf(),
                    line: src.text.lines().position(|l| l.contains(&needle)).map_or(1, |i| i + 1),
                    item: "image",
                    name: name.clone(),
                    field: "rect",
                    message: format!(
                        "{w}×{h} at ({x}, {y}) is empty or lies outside the {}×{} atlas",
                        set.size.0, set.size.1
                    ),
                }
            })
            .collect();
        if errors.is_empty() { Ok(set) } else { Err(DefsErrors(errors)) }
    }

    /// True if the name is an image (or the original game's "no image").
    pub fn knows(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case("NoImage") || self.images.contains_key(name)
    }
}

/// `ui/fonts.ron`: font names layouts may use, each mapped to one of the game's faces.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FontBook {
    /// Family names (any case) that map to the bundled Noto Sans.
    pub families: Vec<String>,
}

impl FontBook {
    /// Reads `fonts.ron`.
    pub fn load(path: &Path) -> Result<FontBook, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        src.parse().map_err(|e| DefsErrors(vec![e]))
    }

    /// True if layouts may name this family.
    pub fn knows(&self, family: &str) -> bool {
        self.families.iter().any(|f| f.eq_ignore_ascii_case(family))
    }
}
