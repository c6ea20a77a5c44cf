//! The client's dynamic images by typed key: a map's preview, an object's icon and the effects'
//! puff. The shell makes them when it starts; the battle, the HUD and the screens draw them by
//! [`ImageKey`], never by a hand-written string.
//!
//! Must not: know who makes or draws an image (a leaf both the battle and the shell import).

use std::fmt;

/// The name of a dynamic image.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImageKey {
    /// A map's top view (the skirmish screen's preview and the radar's ground), by map name.
    Preview(String),
    /// An object's icon (control bar, selection panel), by template name.
    Icon(String),
    /// The soft round sprite every smoke and fire puff is drawn with.
    Puff,
}

impl ImageKey {
    /// The preview of the map named `map`.
    pub fn preview(map: &str) -> ImageKey {
        ImageKey::Preview(map.to_string())
    }

    /// The icon of the template named `template`.
    pub fn icon(template: &str) -> ImageKey {
        ImageKey::Icon(template.to_string())
    }

    /// The name the UI's image table and draw commands know it by.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ImageKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The leading @ keeps every dynamic image apart from the atlas's names.
        match self {
            ImageKey::Preview(map) => write!(f, "@preview/{map}"),
            ImageKey::Icon(template) => write!(f, "@icon/{template}"),
            ImageKey::Puff => write!(f, "@fx/puff"),
        }
    }
}

/// The puff sprite: a white disc whose alpha falls off softly from the middle.
pub fn puff_image(side: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(side, side, |x, y| {
        let c = (side as f32 - 1.0) / 2.0;
        let d = ((x as f32 - c).powi(2) + (y as f32 - c).powi(2)).sqrt() / c.max(1.0);
        let a = (1.0 - d).clamp(0.0, 1.0);
        image::Rgba([255, 255, 255, (255.0 * a * a * (3.0 - 2.0 * a)).round() as u8])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_their_images_apart() {
        assert_eq!(ImageKey::preview("Crossroads").name(), "@preview/Crossroads");
        assert_eq!(ImageKey::icon("Rifleman").name(), "@icon/Rifleman");
        assert_eq!(ImageKey::Puff.name(), "@fx/puff");
    }

    #[test]
    fn the_puff_is_opaque_in_the_middle_and_clear_at_the_edge() {
        let img = puff_image(32);
        assert!(img.get_pixel(16, 16).0[3] > 240);
        assert_eq!(img.get_pixel(0, 0).0[3], 0);
        assert_eq!(img.get_pixel(31, 16).0[3], 0);
    }
}
