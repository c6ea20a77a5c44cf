//! A saved game's thumbnail: the map's picture, small, with every object a dot in its owner's
//! colour — the game as it stood, at a glance, for the Load screen.
//!
//! Must not: be read as anything but a picture (the state is in the save's body).

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::content::limits::MAX_THUMBNAIL_SIDE;
use crate::map::preview::StartMarks;
use crate::sim::ids::PlayerId;
use crate::sim::world::World;

/// Pixels along a thumbnail's longer side, as saves are made.
pub const THUMBNAIL_SIDE: u32 = 96;

/// A small RGB picture, its pixels in base64 (row-major, top row first, 3 bytes each).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thumbnail {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, base64.
    pub rgb: String,
}

impl Thumbnail {
    /// The thumbnail of `game` as it stands, over its map's picture, each player a dot in its
    /// slot's colour from `palette` (linear RGB, by colour index); with a `viewer`, only what
    /// that player may see now (a save's picture gives away nothing hidden under the shroud).
    /// None when the map's roads cannot be built (the picture needs them).
    pub fn of_game(
        game: super::Parts<'_>,
        world: &World,
        viewer: Option<PlayerId>,
        palette: &[[f32; 3]],
    ) -> Option<Thumbnail> {
        let map = &game.content.map;
        let mesh = map.road_mesh(&game.content.map_content.roads).ok()?;
        let ground = crate::map::preview::render(map, &game.content.map_content.classes, &mesh, 1, StartMarks::Plain);
        let colours: Vec<[u8; 3]> =
            game.slots.iter().map(|s| palette.get(s.colour).map_or([255; 3], |&c| srgb8(c))).collect();
        Some(Thumbnail::of(world, viewer, &ground, &colours))
    }

    /// The thumbnail of `world` over `ground` (the map's picture, north up: its top row is the
    /// map's far edge), each object a dot in `colours[owner]` (neutral ones grey), only those
    /// `viewer` may see when one is given.
    pub fn of(world: &World, viewer: Option<PlayerId>, ground: &image::RgbImage, colours: &[[u8; 3]]) -> Thumbnail {
        let (gw, gh) = (ground.width().max(1), ground.height().max(1));
        let scale = THUMBNAIL_SIDE as f32 / gw.max(gh) as f32;
        let (w, h) = (((gw as f32 * scale) as u32).max(1), ((gh as f32 * scale) as u32).max(1));
        let mut img = image::imageops::resize(ground, w, h, image::imageops::FilterType::Triangle);
        let size = world.terrain().world_size();
        let (sx, sy) = (size.x.raw().max(1), size.y.raw().max(1));
        for o in world.objects().filter(|o| viewer.is_none_or(|v| world.can_see(v, o))) {
            let colour = if o.owner == PlayerId::NEUTRAL {
                [170, 170, 150]
            } else {
                colours.get(o.owner.index()).copied().unwrap_or([255, 255, 255])
            };
            let x = o.pos.x.raw().saturating_mul(w as i64) / sx;
            let y = h as i64 - 1 - o.pos.y.raw().saturating_mul(h as i64) / sy;
            let r = if o.kind.blocks_ground() { 1 } else { 0 };
            for dy in -r..=r {
                for dx in -r..=r {
                    let (px, py) = (x + dx, y + dy);
                    if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                        img.put_pixel(px as u32, py as u32, image::Rgb(colour));
                    }
                }
            }
        }
        Thumbnail { width: w, height: h, rgb: base64::engine::general_purpose::STANDARD.encode(img.as_raw()) }
    }

    /// The picture, or none when its size or pixels do not add up (a damaged header).
    pub fn image(&self) -> Option<image::RgbImage> {
        if self.width == 0 || self.height == 0 || self.width.max(self.height) > MAX_THUMBNAIL_SIDE {
            return None;
        }
        let bytes = base64::engine::general_purpose::STANDARD.decode(&self.rgb).ok()?;
        image::RgbImage::from_raw(self.width, self.height, bytes)
    }
}

/// A linear colour as 8-bit sRGB.
fn srgb8(c: [f32; 3]) -> [u8; 3] {
    c.map(|v| {
        let v = v.clamp(0.0, 1.0);
        let s = if v <= 0.003_130_8 { v * 12.92 } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as u8
    })
}
