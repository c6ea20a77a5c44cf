//! The world pass's sprites: what the battle's particles, tracers, flashes and ground marks are
//! drawn as, one instanced draw for them all.
//!
//! Must not: know what made a sprite (the battle's picture does) or how the pass sorts them.

use bytemuck::{Pod, Zeroable};

/// A sprite in the world, depth-tested against it so buildings hide what is behind them: a
/// soft round puff facing the camera (smoke, fire, debris), a streak along its path (a
/// tracer), a rayed star (a muzzle flash), a billow of dust, a mark lying on the ground (a
/// scorch, an explosion's shock ring of dust), or a spinning rotor's blurred disc.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct SpriteInstance {
    /// Its centre (world units).
    pub pos: [f32; 3],
    /// Its radius (world units; a streak's half width).
    pub size: f32,
    /// Linear RGB and opacity; a negative opacity makes it a light, added to what is behind
    /// it (an explosion's flash on the ground around it, a tracer, a muzzle flash).
    pub color: [f32; 4],
    /// Its shape in `w` (`SpriteInstance::PUFF`, `STREAK`, `STAR`, `SCORCH`, `RING`,
    /// `DISC`); for a streak, `xyz` is the vector from its centre to its head (world units),
    /// for a disc its axis, for a ring its band's width and age.
    pub shape: [f32; 4],
}

impl SpriteInstance {
    /// A soft round puff facing the camera.
    pub const PUFF: f32 = 0.0;
    /// A streak from `pos - shape.xyz` (its faint tail) to `pos + shape.xyz` (its bright head).
    pub const STREAK: f32 = 1.0;
    /// A star of rays facing the camera (a flash).
    pub const STAR: f32 = 2.0;
    /// A soft, ragged dark mark lying on the ground.
    pub const SCORCH: f32 = 3.0;
    /// A ragged ring of dust lying on the ground, `size` its outer radius; `shape.x` its
    /// band's width (a share of the radius), `shape.y` its age (0..1).
    pub const RING: f32 = 4.0;
    /// A spinning rotor's blurred disc, `size` its radius, square to the axis `shape.xyz`.
    pub const DISC: f32 = 5.0;
    /// A billow of dust facing the camera, lit from above, breaking into clumps as it ages
    /// (`shape.y`, 0..1).
    pub const DUST: f32 = 6.0;

    /// A sprite of `shape` (no streak vector).
    pub fn new(pos: [f32; 3], size: f32, color: [f32; 4], shape: f32) -> SpriteInstance {
        SpriteInstance { pos, size, color, shape: [0.0, 0.0, 0.0, shape] }
    }

    /// Whether it lies on the ground (drawn before what stands in the air).
    pub fn on_ground(&self) -> bool {
        (Self::SCORCH - 0.5..Self::RING + 0.5).contains(&self.shape[3])
    }
}
