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
    /// The atlas files the drawn atlas is put together from, top to bottom (the game's, then
    /// each extra set's); empty for a set read on its own.
    #[serde(skip)]
    pub parts: Vec<AtlasPart>,
}

/// One atlas file within the atlas the renderer draws from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtlasPart {
    /// The image file.
    pub path: std::path::PathBuf,
    /// Its size, as its image set declares.
    pub size: (u32, u32),
    /// Where its top edge lies in the combined atlas.
    pub y: u32,
}

/// Tallest combined atlas (the game's and every extra set's, stacked).
pub const MAX_ATLAS_HEIGHT: u32 = 8192;

impl ImageSet {
    /// Reads `images.ron`; every image's rectangle must lie inside the atlas size it declares.
    pub fn load(path: &Path) -> Result<ImageSet, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        let set: ImageSet = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        // The atlas is allocated at the size declared here: past the image limits it is
        // refused before anything is made.
        // The atlas lies in the set's own `ui/` folder: a path that climbs out of it (`..`, a
        // root) would read a file that is no part of the mod.
        let plain = !set.atlas.is_empty()
            && Path::new(&set.atlas).components().all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain {
            let line = src.text.lines().position(|l| l.trim_start().starts_with("atlas")).map_or(1, |i| i + 1);
            return Err(DefsErrors(vec![DefsError::Invalid {
                path: path.to_path_buf(),
                line,
                item: "image set",
                name: set.atlas.clone(),
                field: "atlas",
                message: "must name a file in this ui/ folder (no \"..\", no root): refused".into(),
            }]));
        }
        let side = crate::content::limits::MAX_IMAGE_SIDE;
        let (w, h) = set.size;
        if w == 0 || h == 0 || w > side || h > side {
            let line = src.text.lines().position(|l| l.trim_start().starts_with("size")).map_or(1, |i| i + 1);
            return Err(DefsErrors(vec![DefsError::Invalid {
                path: path.to_path_buf(),
                line,
                item: "image set",
                name: set.atlas.clone(),
                field: "size",
                message: format!("{w}×{h}: each side 1 to {side} pixels (the limit)"),
            }]));
        }
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

    /// The game's image set (`ui/images.ron` through the roots, so a mod may replace it) with
    /// every extra set beside it: each `ui/images-*.ron` of every root (a mod's own art, with
    /// its own atlas file next to it). Extra sets' atlases are stacked under the game's into one
    /// atlas; an extra image of the same name as another replaces it.
    pub fn load_all(roots: &crate::content::ContentRoots) -> Result<ImageSet, DefsErrors> {
        let missing = |what: &str| {
            DefsErrors(vec![DefsError::File(crate::content::FileError::Io {
                path: what.into(),
                message: "not found in any content root".into(),
            })])
        };
        let base_path = roots.find("ui/images.ron").ok_or_else(|| missing("ui/images.ron"))?;
        let mut set = ImageSet::load(&base_path)?;
        let atlas = roots.find(format!("ui/{}", set.atlas)).ok_or_else(|| missing(&format!("ui/{}", set.atlas)))?;
        set.parts = vec![AtlasPart { path: atlas, size: set.size, y: 0 }];
        let mut extras: Vec<std::path::PathBuf> = Vec::new();
        for root in roots.roots().iter().rev() {
            let Ok(entries) = std::fs::read_dir(root.join("ui")) else { continue };
            let mut found: Vec<std::path::PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("images-") && n.ends_with(".ron"))
                })
                .collect();
            found.sort();
            extras.extend(found);
        }
        for path in extras {
            let extra = ImageSet::load(&path)?;
            let y = set.size.1;
            let height = y.saturating_add(extra.size.1);
            if height > MAX_ATLAS_HEIGHT {
                return Err(DefsErrors(vec![DefsError::Invalid {
                    path: path.clone(),
                    line: 1,
                    item: "image set",
                    name: extra.atlas.clone(),
                    field: "size",
                    message: format!(
                        "the atlases together would be {height} pixels tall; the limit is {MAX_ATLAS_HEIGHT}"
                    ),
                }]));
            }
            let file = path.parent().map_or_else(|| extra.atlas.clone().into(), |d| d.join(&extra.atlas));
            set.parts.push(AtlasPart { path: file, size: extra.size, y });
            for (name, r) in extra.images {
                let (x, ry, w, h) = r.rect;
                set.images.insert(name, ImageRegion { rect: (x, ry + y, w, h), border: r.border });
            }
            set.size = (set.size.0.max(extra.size.0), height);
        }
        Ok(set)
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
    /// The names the mods' font files give (`ui/fonts/<Name>.ttf`): drawn in their own face.
    #[serde(skip)]
    pub files: Vec<String>,
}

impl FontBook {
    /// Reads `fonts.ron`.
    pub fn load(path: &Path) -> Result<FontBook, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        src.parse().map_err(|e| DefsErrors(vec![e]))
    }

    /// True if layouts may name this family.
    pub fn knows(&self, family: &str) -> bool {
        self.has_file(family) || self.families.iter().any(|f| f.eq_ignore_ascii_case(family))
    }

    /// True if a mod's font file gives this name (else it draws in the game's own face).
    pub fn has_file(&self, family: &str) -> bool {
        self.files.iter().any(|f| f.eq_ignore_ascii_case(family))
    }
}
