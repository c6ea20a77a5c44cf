//! The radar: the map's top view in the radar window, the shroud over it, every object the
//! local player sees as a dot in its owner's colour, pings flashing where alerts happened, and
//! the camera's outline; a left click moves the camera there, a right click orders the
//! selection to move there. Without power the radar goes dark (the camera's outline stays).
//!
//! The HUD draws it from what the battle shows its player; a click becomes the battle's own
//! camera move or order.
//!
//! Must not: show what the local player cannot see, or change the world but through the
//! battle's orders.

use glam::Vec2;

use crate::sim::PlayerId;
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;

use super::super::battle::Battle;
use super::super::display::to_display;
use super::super::scene::PLAYER_COLORS;
use super::super::shroud;

/// How dark the radar draws ground never seen (of 255); ground seen before and now out of
/// sight is drawn at 110.
const UNSEEN_ALPHA: u8 = 200;

/// Where a map of `size` world units shows inside the radar window `rect`: as large as fits,
/// keeping the map's shape, centred.
fn radar_square(rect: Rect, size: Vec2) -> Rect {
    let r = rect.inset(4.0);
    let size = size.max(Vec2::ONE);
    let scale = (r.w / size.x).min(r.h / size.y).max(0.0);
    let (w, h) = ((size.x * scale).max(1.0), (size.y * scale).max(1.0));
    Rect::new(r.x + (r.w - w) / 2.0, r.y + (r.h - h) / 2.0, w, h)
}

/// Where a ground point appears on the radar square `sq` of a map `size` world units wide.
fn to_radar(size: Vec2, sq: Rect, p: Vec2) -> Vec2 {
    let size = size.max(Vec2::ONE);
    Vec2::new(sq.x + p.x / size.x * sq.w, sq.y + (1.0 - p.y / size.y) * sq.h)
}

/// The ground point under a pixel of the radar window `rect` (clamped to the map).
fn ground_on_radar(battle: &Battle, rect: Rect, at: Vec2) -> Vec2 {
    let size = battle.scene.size();
    let sq = radar_square(rect, size);
    let u = ((at.x - sq.x) / sq.w).clamp(0.0, 1.0);
    let v = ((at.y - sq.y) / sq.h).clamp(0.0, 1.0);
    Vec2::new(u * size.x, (1.0 - v) * size.y)
}

/// The radar drawn into the radar window `rect`, over the map's top-view `image`.
pub fn draw(battle: &Battle, rect: Rect, image: &str) -> Vec<DrawCmd> {
    let scene = &battle.scene;
    let size = scene.size();
    let sq = radar_square(rect, size);
    let mut out = vec![DrawCmd::Image { rect: sq, name: image.to_string(), tint: [255; 4] }];
    // The shroud over the radar, in blocks of about 1/32 of the map. Ground never seen is
    // darkened, not blacked out: the map's shape (public in every lobby's preview) stays
    // readable, so a new player's radar is a map from the first second, not a black square.
    let fog = battle.picture().shroud();
    let (cw, ch) = fog.size();
    let block = (cw.max(ch) / 32).max(1);
    let cell = scene.map.file.cell_size as f32;
    for by in (0..ch).step_by(block as usize) {
        for bx in (0..cw).step_by(block as usize) {
            let mut best = shroud::UNKNOWN;
            for y in by..(by + block).min(ch) {
                for x in bx..(bx + block).min(cw) {
                    best = best.max(fog.at(Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * cell));
                }
            }
            let alpha = match best {
                shroud::VISIBLE => continue,
                shroud::UNKNOWN => UNSEEN_ALPHA,
                _ => 110,
            };
            let (x0, y1) = (bx as f32 * cell, by as f32 * cell);
            let (x1, y0) = (((bx + block).min(cw)) as f32 * cell, ((by + block).min(ch)) as f32 * cell);
            let a = to_radar(size, sq, Vec2::new(x0, y0));
            let b = to_radar(size, sq, Vec2::new(x1, y1));
            out.push(DrawCmd::Fill { rect: Rect::new(a.x, a.y, b.x - a.x, b.y - a.y), color: [0, 0, 0, alpha] });
        }
    }
    // Without power the radar goes dark: the ground dimmed, no dots.
    let dark = battle.power().low();
    if dark {
        out.push(DrawCmd::Fill { rect: sq, color: [0, 0, 0, 200] });
        out.push(DrawCmd::Text {
            x: sq.x + 6.0,
            y: sq.y + sq.h / 2.0 - 8.0,
            text: battle.look().labels().say("Power:RadarDark", &[]),
            px: 13.0,
            bold: true,
            color: [230, 90, 60, 255],
            shadow: Some([0, 0, 0, 255]),
        });
    }
    for o in battle.world().objects() {
        if dark || o.owner == PlayerId::NEUTRAL || !battle.look().sees(o.id) {
            continue;
        }
        let color = scene.colors.get(o.owner.index()).and_then(|&c| PLAYER_COLORS.get(c)).copied().unwrap_or([1.0; 3]);
        let p = to_radar(size, sq, to_display(o.pos));
        let s = if o.kind.blocks_ground() { 5.0 } else { 3.0 };
        out.push(DrawCmd::Fill { rect: Rect::new(p.x - s / 2.0, p.y - s / 2.0, s, s), color: srgb8(color, 255) });
    }
    // Enemy structures the fog hides, where they were last seen: dimmer.
    for r in battle.look().remembered().filter(|_| !dark) {
        let color = scene.colors.get(r.owner.index()).and_then(|&c| PLAYER_COLORS.get(c)).copied().unwrap_or([1.0; 3]);
        let p = to_radar(size, sq, r.pos);
        out.push(DrawCmd::Fill {
            rect: Rect::new(p.x - 2.5, p.y - 2.5, 5.0, 5.0),
            color: srgb8(color.map(|c| c * 0.45), 255),
        });
    }
    // Alerts flash where they happened: a frame closing in on the place, once a second.
    for (place, age) in battle.alerts().pings(battle.display_seconds()).filter(|_| !dark) {
        let p = to_radar(size, sq, place);
        let beat = age.fract();
        let half = 3.0 + 12.0 * (1.0 - beat);
        let alpha = (255.0 * (1.0 - 0.6 * beat)) as u8;
        let r = Rect::new(p.x - half, p.y - half, 2.0 * half, 2.0 * half);
        out.push(DrawCmd::Frame { rect: r, color: [255, 90, 60, alpha], width: 2.0 });
    }
    // The view's frame: the ground under the screen's corners (a view tilted toward the
    // horizon, cut at a reach, so its frame stays a frame).
    let ground = battle.look().view_outline().map(|g| to_radar(size, sq, g.clamp(Vec2::ZERO, size)));
    for i in 0..4 {
        let (a, b) = (ground[i], ground[(i + 1) % 4]);
        out.push(DrawCmd::Line { from: (a.x, a.y), to: (b.x, b.y), color: [240, 240, 230, 220], width: 1.0 });
    }
    out.push(DrawCmd::Frame { rect: sq, color: [20, 20, 20, 255], width: 1.0 });
    out
}

/// A click (or drag) on the radar window `rect` centres the camera on that ground point.
pub fn click(battle: &mut Battle, rect: Rect, at: Vec2) {
    let p = ground_on_radar(battle, rect, at);
    battle.controls().look_at(p);
}

/// A left click on the radar while an attack-move is armed (A): the selection attack-moves to
/// that ground point, as a click on the battlefield would. False, and nothing happens, when no
/// attack-move is armed (the click then moves the camera).
pub fn armed_order(battle: &mut Battle, rect: Rect, at: Vec2) -> bool {
    let p = ground_on_radar(battle, rect, at);
    battle.controls().attack_move_to(p)
}

/// A right click on the radar: the selection moves to that ground point.
pub fn order(battle: &mut Battle, rect: Rect, at: Vec2) {
    let p = ground_on_radar(battle, rect, at);
    battle.controls().move_selection_to(p);
}

/// A linear colour as 8-bit sRGB.
fn srgb8(c: [f32; 3], alpha: u8) -> [u8; 4] {
    let f = |v: f32| {
        let v = v.clamp(0.0, 1.0);
        let s = if v <= 0.003_130_8 { v * 12.92 } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as u8
    };
    [f(c[0]), f(c[1]), f(c[2]), alpha]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_fills_the_radar_keeping_its_shape() {
        let rect = Rect::new(0.0, 0.0, 208.0, 158.0);
        let square = radar_square(rect, Vec2::new(1000.0, 1000.0));
        assert_eq!((square.w, square.h), (150.0, 150.0));
        assert_eq!((square.x, square.y), (29.0, 4.0));
        let wide = radar_square(rect, Vec2::new(2000.0, 1000.0));
        assert_eq!((wide.w, wide.h), (200.0, 100.0));
        assert_eq!((wide.x, wide.y), (4.0, 29.0));
    }
}
