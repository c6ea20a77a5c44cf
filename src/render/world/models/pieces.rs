//! Loose pieces: one closed mesh per part shape (a block, a column, a wedge, a spike), centred
//! on the origin and a unit each way, so a piece can tumble about its middle and show any
//! face; and each kit's parts described as such pieces (where, how big, its shade and whether
//! it wears the owner's colour), for the parts a wreck throws.
//!
//! Must not: know about the simulation or where a piece is thrown (the battle's picture does).

use glam::Vec3;

use super::{Builder, Thinning};
use crate::defs::model_kits::{Anim, Part};

/// The shape of a loose piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceShape {
    /// A box.
    Block,
    /// An upright round prism (a tank, a wheel laid on its side).
    Column,
    /// A gabled roof, its ridge along y.
    Wedge,
    /// A four-sided pyramid.
    Spike,
}

/// The piece shapes in library order.
pub const PIECE_SHAPES: [PieceShape; 4] = [PieceShape::Block, PieceShape::Column, PieceShape::Wedge, PieceShape::Spike];

/// One part of a kit as a loose piece, in the model's unit space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartPiece {
    /// Its shape.
    pub shape: PieceShape,
    /// Its least and most corners (for a wheel: its bounds lying across x).
    pub lo: Vec3,
    /// See `lo`.
    pub hi: Vec3,
    /// A wheel: the column lies along x (rolled a quarter turn).
    pub lying: bool,
    /// Brightness multiplier.
    pub shade: f32,
    /// Wears the owner's colour.
    pub team: bool,
    /// Turns with the turret, or is a gun, a wheel, or breaks off: thrown first.
    pub loose: bool,
}

impl PartPiece {
    /// The piece's size along the column's own axes, before it is laid down: a wheel's width
    /// is its column's height.
    pub fn size(&self) -> Vec3 {
        let s = self.hi - self.lo;
        if self.lying { Vec3::new(s.y, s.z, s.x) } else { s }
    }
}

/// Adds `shape`'s closed mesh, centred and a unit each way, to `b`.
pub(super) fn build(shape: PieceShape, b: &mut Builder) {
    let (lo, hi) = (Vec3::splat(-0.5), Vec3::splat(0.5));
    match shape {
        PieceShape::Block => b.cuboid(lo, hi, 1.0),
        PieceShape::Column => {
            let sides = b.low.map_or(8, |l| l.sides(8));
            b.cylinder(Vec3::ZERO, 0.5, -0.5, 0.5, sides, 1.0);
            let rim: Vec<Vec3> = (0..sides)
                .rev()
                .map(|k| {
                    let a = k as f32 / sides as f32 * std::f32::consts::TAU;
                    Vec3::new(0.5 * a.cos(), 0.5 * a.sin(), -0.5)
                })
                .collect();
            b.fan(Vec3::new(0.0, 0.0, -0.5), &rim, 1.0);
            return;
        }
        PieceShape::Wedge => b.gable(lo, Vec3::new(0.5, 0.5, -0.5), 0.5, 1.0),
        PieceShape::Spike => b.pyramid(lo, Vec3::new(0.5, 0.5, -0.5), 0.5, 1.0),
    }
    // The underside, which a tumbling piece shows.
    let p = Vec3::new;
    b.quad([p(lo.x, hi.y, lo.z), p(hi.x, hi.y, lo.z), p(hi.x, lo.y, lo.z), p(lo.x, lo.y, lo.z)], 1.0);
}

/// A kit's parts as loose pieces: all but muzzle flashes and lamps.
pub fn pieces_of(parts: &[Part]) -> Vec<PartPiece> {
    parts
        .iter()
        .filter_map(|part| {
            let f = part.finish();
            if matches!(f.anim, Anim::Flash | Anim::Light) {
                return None;
            }
            let (lo, hi) = super::part_bounds(part);
            let shape = match part {
                Part::Box { .. } => PieceShape::Block,
                Part::Cylinder { .. } | Part::Drum { .. } => PieceShape::Column,
                Part::Gable { .. } => PieceShape::Wedge,
                Part::Pyramid { .. } => PieceShape::Spike,
            };
            let loose = f.turret || matches!(f.anim, Anim::Barrel | Anim::Wheel | Anim::Broken | Anim::Rotor);
            let lying = matches!(part, Part::Drum { .. });
            Some(PartPiece { shape, lo, hi, lying, shade: f.shade, team: f.team, loose })
        })
        .collect()
}
