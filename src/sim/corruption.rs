//! The one way to change the world outside a tick: a deliberate fault, for desync tests and the
//! `--debug-corrupt-at` switch that outside checks use to see a desync caught and named.
//!
//! Must not: grow into a general write path (every change to the game is a command), or be
//! reachable from a command.

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::vector::Vec2;
use super::world::World;

/// A deliberate fault: one object's x position moved by `raw_dx` raw fixed-point units, as a
/// machine with a corrupted bit would have it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corruption {
    /// The object moved.
    pub object: ObjectId,
    /// How far, in raw fixed-point units.
    pub raw_dx: i64,
}

impl World {
    /// Applies a deliberate fault; true when the object exists. The hash sees it (the change
    /// goes through the object's setter), so the next compared hash differs from the peers'.
    pub fn corrupt(&mut self, c: Corruption) -> bool {
        let Some(mut o) = self.objects.get_mut(c.object) else { return false };
        let pos = Vec2::new(Fixed::from_raw(o.pos.x.raw() + c.raw_dx), o.pos.y);
        o.set_pos(pos);
        true
    }
}
