//! The shroud: what the local player (and allies) see. Ground never seen is black, ground seen
//! before but not now is dimmed, and enemies are shown only where someone of the team sees.
//!
//! A per-cell picture of the simulation's own vision ([`crate::sim::vision`]): the sim decides
//! what a team sees and has explored (targeting and the AI use the same grid); this copies it
//! at map-cell resolution for the renderer, the radar and the scene's culling.
//! Must not: be read by the simulation or sent to peers, or decide sight on its own.

use glam::Vec2;

use crate::sim::vision::Sight;
use crate::sim::{PlayerId, World};

/// Shroud value of a cell in sight.
pub const VISIBLE: u8 = 255;
/// Shroud value of a cell seen before.
pub const EXPLORED: u8 = 120;
/// Shroud value of a cell never seen.
pub const UNKNOWN: u8 = 0;

/// Per-cell sight for one team.
#[derive(Clone, Debug, PartialEq)]
pub struct Shroud {
    width: u32,
    height: u32,
    cell: f32,
    values: Vec<u8>,
}

impl Shroud {
    /// A shroud over `width × height` cells of `cell` world units, all unknown.
    pub fn new(width: u32, height: u32, cell: f32) -> Shroud {
        Shroud { width, height, cell: cell.max(0.001), values: vec![UNKNOWN; (width * height) as usize] }
    }

    /// Size in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// One byte per cell, row-major, row 0 south (for the renderer's shroud texture).
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// The values softened for drawing: each cell averaged with its eight neighbours, so the
    /// edge of sight is a gradient rather than a staircase of cells.
    pub fn soft_bytes(&self) -> Vec<u8> {
        let (w, h) = (self.width as i64, self.height as i64);
        let at = |x: i64, y: i64| self.values[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize] as u32;
        let mut out = Vec::with_capacity(self.values.len());
        for y in 0..h {
            for x in 0..w {
                let sum: u32 =
                    (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| (dx, dy))).map(|(dx, dy)| at(x + dx, y + dy)).sum();
                out.push((sum / 9) as u8);
            }
        }
        out
    }

    /// Copies what `player`'s team sees now and has explored from the simulation.
    pub fn update(&mut self, world: &World, player: PlayerId) {
        let Some(team) = world.players().get(player.index()).map(|p| p.team) else { return };
        let vision = world.vision();
        let per = crate::sim::vision::CELLS_PER_VISION_CELL;
        for y in 0..self.height as i32 {
            for x in 0..self.width as i32 {
                let v = match vision.sight(team, (x / per, y / per)) {
                    Sight::Visible => VISIBLE,
                    Sight::Explored => EXPLORED,
                    Sight::Unknown => UNKNOWN,
                };
                self.values[(y as u32 * self.width + x as u32) as usize] = v;
            }
        }
    }

    #[cfg(test)]
    fn reveal(&mut self, at: Vec2, radius: f32) {
        let c = at / self.cell;
        let r = radius / self.cell;
        let (x0, x1) = ((c.x - r).floor().max(0.0) as i64, (c.x + r).ceil().min(self.width as f32 - 1.0) as i64);
        let (y0, y1) = ((c.y - r).floor().max(0.0) as i64, (c.y + r).ceil().min(self.height as f32 - 1.0) as i64);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c;
                if d.length_squared() <= r * r {
                    self.values[(y as u32 * self.width + x as u32) as usize] = VISIBLE;
                }
            }
        }
    }

    /// The value at a world point (unknown off the map).
    pub fn at(&self, p: Vec2) -> u8 {
        let c = p / self.cell;
        if c.x < 0.0 || c.y < 0.0 || c.x >= self.width as f32 || c.y >= self.height as f32 {
            return UNKNOWN;
        }
        self.values[(c.y as u32 * self.width + c.x as u32) as usize]
    }

    /// Everything in sight (for views that show all, such as tool screenshots).
    pub fn reveal_all(&mut self) {
        self.values.fill(VISIBLE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sight_reveals_a_disc_and_leaves_it_explored() {
        let mut s = Shroud::new(20, 20, 10.0);
        s.reveal(Vec2::new(100.0, 100.0), 30.0);
        assert_eq!(s.at(Vec2::new(100.0, 100.0)), VISIBLE);
        assert_eq!(s.at(Vec2::new(125.0, 100.0)), VISIBLE);
        assert_eq!(s.at(Vec2::new(100.0, 145.0)), UNKNOWN);
        assert_eq!(s.at(Vec2::new(-5.0, 0.0)), UNKNOWN);
        // A new look: the old disc is remembered, not seen.
        for v in &mut s.values {
            if *v == VISIBLE {
                *v = EXPLORED;
            }
        }
        assert_eq!(s.at(Vec2::new(100.0, 100.0)), EXPLORED);
    }

    #[test]
    fn the_shroud_copies_the_simulations_vision() {
        use crate::sim::TemplateId;
        use crate::sim::test_support;
        // Player 0's unit at (300, 300) sees 60 units; its post at (15, 15).
        let w = test_support::world(64, vec![(TemplateId(0), 0, crate::sim::vector::Vec2::from_int(300, 300))]);
        let mut s = Shroud::new(64, 64, 10.0);
        s.update(&w, PlayerId(0));
        assert_eq!(s.at(Vec2::new(300.0, 300.0)), VISIBLE);
        assert_eq!(s.at(Vec2::new(20.0, 20.0)), VISIBLE, "around the post");
        assert_eq!(s.at(Vec2::new(500.0, 300.0)), UNKNOWN);
        let mut enemy = Shroud::new(64, 64, 10.0);
        enemy.update(&w, PlayerId(1));
        assert_eq!(enemy.at(Vec2::new(300.0, 300.0)), UNKNOWN, "the other team does not see it");
        assert_eq!(enemy.at(Vec2::new(620.0, 620.0)), VISIBLE);
    }

    #[test]
    fn the_drawn_shroud_fades_across_the_edge() {
        let mut s = Shroud::new(20, 20, 10.0);
        s.reveal(Vec2::new(100.0, 100.0), 60.0);
        let soft = s.soft_bytes();
        let v = |x: usize| soft[10 * 20 + x];
        assert_eq!(v(10), VISIBLE, "inside stays clear");
        assert_eq!(v(0), UNKNOWN, "far outside stays black");
        let edge = v(15);
        assert!(edge > UNKNOWN && edge < VISIBLE, "the edge is a gradient ({edge})");
    }
}
