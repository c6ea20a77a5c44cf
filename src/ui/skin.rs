//! Faction skins (`ui/skins.ron`): the look a faction's player sees the battle's HUD in. A
//! skin swaps the layout's frame images for the faction's own art (`images`: the Coalition's
//! bevelled, chamfered steel, the Dominion's riveted, hazard-striped plates, drawn as painted),
//! multiplies a tint into the rest of the layout's draw data (images it does not swap, fills
//! and borders) and sets the colours its text takes; the window manager applies it to one
//! layout while drawing (`WindowManager::set_skin`), so the tree, the layout editor and a saved
//! patch never see it.
//!
//! Must not: change a window or a layout (the skin is a way of drawing them), or know which
//! player is local (the HUD chooses the skin).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::defs::{DefsError, DefsErrors, Source};
use crate::ui::images::ImageSet;
use crate::ui::window::GameWindow;
use crate::ui::wnd::model::{DrawEntry, Rgba};

/// Darkest text a skin may give (perceived brightness, 0–255): the HUD's frames are dark, and
/// darker text would not read on them.
pub const MIN_TEXT_BRIGHTNESS: u32 = 140;

/// One faction's look, an entry of `ui/skins.ron`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skin {
    /// The playable faction it is for (as `data/factions.ron` names it).
    pub name: String,
    /// Multiplied into every frame, fill and border colour of the skinned layout (255 keeps a
    /// channel as the layout draws it).
    pub frame: Rgba,
    /// The colour of enabled text (None: the layout's own).
    #[serde(default)]
    pub text: Option<Rgba>,
    /// The colour of text under the cursor (None: the layout's own).
    #[serde(default)]
    pub hilite: Option<Rgba>,
    /// The faction's own frame art: a layout's image name to the image drawn instead (both in
    /// `ui/images.ron` or a mod's image set), drawn as painted, without the tint.
    #[serde(default)]
    pub images: BTreeMap<String, String>,
}

impl Skin {
    /// `e` as this skin draws it: an image the skin swaps for the faction's own drawn as
    /// painted; any other image tinted, its fill and border colours multiplied.
    pub fn tinted(&self, e: &DrawEntry) -> DrawEntry {
        // An image with no colour is drawn untinted (white); the skin tints it all the same.
        let color = if e.has_image() && e.color[3] == 0 { [255; 4] } else { e.color };
        let border = multiply(e.border, self.frame);
        match self.images.get(&e.image).filter(|_| e.has_image()) {
            Some(own) => DrawEntry { image: own.clone(), color, border },
            None => DrawEntry { image: e.image.clone(), color: multiply(color, self.frame), border },
        }
    }

    /// The colour `w`'s text takes in this skin, where the skin says one: enabled text and
    /// text under the cursor; a disabled window keeps its own (the layouts' warning colours).
    pub fn text_color(&self, w: &GameWindow) -> Option<Rgba> {
        if !w.enabled() {
            None
        } else if w.hilited {
            self.hilite
        } else {
            self.text
        }
    }
}

/// Two colours multiplied channel by channel (255 is one).
fn multiply(a: Rgba, b: Rgba) -> Rgba {
    std::array::from_fn(|i| ((a[i] as u32 * b[i] as u32 + 127) / 255) as u8)
}

/// The line of skin `skin`'s image swap of `from` (its `images` line when not found on its own).
fn line_of_swap(src: &Source, skin: &str, from: &str) -> usize {
    let start = src.line_of_field(skin, "images");
    let key = format!("\"{from}\"");
    let found = src.text.lines().skip(start - 1).take_while(|l| !l.contains("name:") || l.contains(&key));
    found.enumerate().find(|(_, l)| l.contains(&key)).map_or(start, |(i, _)| start + i)
}

/// Perceived brightness of a colour, 0–255 (Rec. 601 weights).
fn brightness(c: Rgba) -> u32 {
    (299 * c[0] as u32 + 587 * c[1] as u32 + 114 * c[2] as u32) / 1000
}

/// Every faction's skin, `ui/skins.ron` through the content roots (a mod's replaces the game's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skins {
    skins: Vec<Skin>,
}

impl Skins {
    /// Reads the skins in `path` and checks each against `factions` (the playable ones) and
    /// `images` (the UI's image set): a skin for no such faction, one named twice, an
    /// invisible frame, text too dark to read or an image swap naming an image the set lacks
    /// is refused, naming its file and line.
    pub fn load(path: &Path, factions: &[String], images: &ImageSet) -> Result<Skins, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        Skins::parse(&src, factions, images)
    }

    /// The skins of `ui/skins.ron` in the first root that has one; none where no root has
    /// the file (every faction then sees the layouts' own look).
    pub fn find(
        roots: &crate::content::ContentRoots,
        factions: &[String],
        images: &ImageSet,
    ) -> Result<Skins, DefsErrors> {
        match roots.find("ui/skins.ron") {
            Some(path) => Skins::load(&path, factions, images),
            None => Ok(Skins::default()),
        }
    }

    /// Parses and checks skins from `src`, as [`Skins::load`] does.
    pub fn parse(src: &Source, factions: &[String], images: &ImageSet) -> Result<Skins, DefsErrors> {
        let skins: Vec<Skin> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors = Vec::new();
        let invalid = |s: &Skin, field: &'static str, message: String| DefsError::Invalid {
            path: src.path.clone(),
            line: src.line_of_field(&s.name, field),
            item: "skin",
            name: s.name.clone(),
            field,
            message,
        };
        for (i, s) in skins.iter().enumerate() {
            if !factions.contains(&s.name) {
                let known = factions.join(", ");
                errors.push(invalid(s, "name", format!("no playable faction is called that (known: {known})")));
            } else if skins[..i].iter().any(|o| o.name == s.name) {
                errors.push(invalid(s, "name", "has a skin already: each faction has one".into()));
            }
            if s.frame[3] == 0 {
                errors.push(invalid(s, "frame", "alpha 0 would hide the HUD's frames".into()));
            }
            for (field, c) in [("text", s.text), ("hilite", s.hilite)] {
                if let Some(c) = c.filter(|c| c[3] < 255 || brightness(*c) < MIN_TEXT_BRIGHTNESS) {
                    let message = format!(
                        "{c:?} would not read on the HUD's dark frames: opaque, brightness at least \
                         {MIN_TEXT_BRIGHTNESS} of 255 (it is {})",
                        brightness(c)
                    );
                    errors.push(invalid(s, field, message));
                }
            }
            for (from, to) in &s.images {
                for (name, role) in [(from, "the layout's image"), (to, "the faction's image")] {
                    if !images.images.contains_key(name) {
                        errors.push(DefsError::Invalid {
                            path: src.path.clone(),
                            line: line_of_swap(src, &s.name, from),
                            item: "skin",
                            name: s.name.clone(),
                            field: "images",
                            message: format!("{role} \"{name}\" is not in the UI's image set (ui/images.ron)"),
                        });
                    }
                }
            }
        }
        if errors.is_empty() { Ok(Skins { skins }) } else { Err(DefsErrors(errors)) }
    }

    /// The skin of the faction called `faction`, if it has one.
    pub fn of(&self, faction: &str) -> Option<&Skin> {
        self.skins.iter().find(|s| s.name == faction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skins(text: &str) -> Result<Skins, DefsErrors> {
        let mut images = ImageSet::default();
        for name in ["Panel", "PanelDominion"] {
            images.images.insert(name.into(), crate::ui::images::ImageRegion { rect: (0, 0, 8, 8), border: 0 });
        }
        Skins::parse(&Source::from_text("ui/skins.ron", text), &["Coalition".into(), "Dominion".into()], &images)
    }

    #[test]
    fn a_tint_multiplies_colours_and_tints_an_uncoloured_image() {
        let s = Skin {
            name: "Coalition".into(),
            frame: [128, 255, 0, 255],
            text: None,
            hilite: None,
            images: BTreeMap::new(),
        };
        let e = DrawEntry { image: "Panel".into(), color: [0; 4], border: [200, 200, 200, 0] };
        let t = s.tinted(&e);
        assert_eq!((t.color, t.border), ([128, 255, 0, 255], [100, 200, 0, 0]));
        let fill = DrawEntry { image: "NoImage".into(), color: [0; 4], border: [0; 4] };
        assert_eq!(s.tinted(&fill).color, [0; 4], "nothing drawn stays nothing");
    }

    #[test]
    fn dark_text_and_an_invisible_frame_are_refused_on_their_lines() {
        let text =
            "[\n  (\n    name: \"Dominion\",\n    frame: (255, 200, 150, 0),\n    text: (60, 40, 20, 255),\n  ),\n]\n";
        let e = skins(text).unwrap_err().to_string();
        assert!(e.contains("ui/skins.ron:4: skin \"Dominion\", field `frame`"), "{e}");
        assert!(e.contains("ui/skins.ron:5: skin \"Dominion\", field `text`"), "{e}");
        let good = "[(name: \"Dominion\", frame: (255, 200, 150, 255), text: (240, 220, 190, 255))]";
        assert_eq!(skins(good).unwrap().of("Dominion").map(|s| s.frame), Some([255, 200, 150, 255]));
    }

    #[test]
    fn a_swapped_image_is_the_factions_own_drawn_as_painted_and_the_rest_still_tinted() {
        let text = "[(name: \"Dominion\", frame: (200, 100, 50, 255), images: {\"Panel\": \"PanelDominion\"})]";
        let s = skins(text).unwrap();
        let d = s.of("Dominion").unwrap();
        let panel = DrawEntry { image: "Panel".into(), color: [0; 4], border: [255; 4] };
        let shown = d.tinted(&panel);
        assert_eq!((shown.image.as_str(), shown.color), ("PanelDominion", [255; 4]), "the faction's art, untinted");
        assert_eq!(shown.border, [200, 100, 50, 255], "a border colour is still the skin's");
        let other = DrawEntry { image: "ButtonNormal".into(), color: [0; 4], border: [0; 4] };
        assert_eq!(d.tinted(&other), DrawEntry { color: [200, 100, 50, 255], ..other.clone() }, "not swapped: tinted");
        let fill = DrawEntry { image: "NoImage".into(), color: [100; 4], border: [0; 4] };
        assert_eq!(d.tinted(&fill).image, "NoImage");
    }

    #[test]
    fn a_swap_naming_an_unknown_image_is_refused_on_its_line() {
        let text = "[\n  (\n    name: \"Dominion\",\n    frame: (255, 255, 255, 255),\n    images: {\n      \"Panel\": \"PanelDominion\",\n      \"HeaderBar\": \"BarDominion\",\n    },\n  ),\n]\n";
        let e = skins(text).unwrap_err().to_string();
        assert!(e.contains("ui/skins.ron:7: skin \"Dominion\", field `images`"), "{e}");
        assert!(e.contains("\"HeaderBar\" is not in the UI's image set"), "{e}");
        assert!(e.contains("\"BarDominion\" is not in the UI's image set"), "{e}");
        assert!(!e.contains("PanelDominion"), "{e}");
    }
}
