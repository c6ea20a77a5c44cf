//! The built-in meshes: one per [`Shape`] for objects whose model names no kit, and the
//! construction scaffold, made with the model builder's parts.
//!
//! Must not: know about kits or the simulation.

use glam::Vec3;

use super::Builder;
use crate::defs::model::Shape;
use crate::defs::model_kits::Anim;

/// Adds `shape`'s built-in mesh to `b`.
pub(super) fn build(shape: Shape, b: &mut Builder) {
    let v = Vec3::new;
    match shape {
        // Height 1: legs that walk, a body, arms that swing and raise the rifle to aim, a head,
        // and a rifle whose muzzle flashes.
        Shape::Soldier => {
            b.posed(Anim::LegLeft, v(-0.13, -0.07, 0.0), v(-0.015, 0.07, 0.42), 0.8);
            b.posed(Anim::LegRight, v(0.015, -0.07, 0.0), v(0.13, 0.07, 0.42), 0.8);
            b.cuboid(v(-0.14, -0.09, 0.38), v(0.14, 0.09, 0.46), 0.7);
            b.in_team(|b| b.cuboid(v(-0.14, -0.09, 0.46), v(0.14, 0.09, 0.75), 1.0));
            b.in_team(|b| b.posed(Anim::ArmLeft, v(-0.2, -0.05, 0.45), v(-0.14, 0.05, 0.74), 0.9));
            b.in_team(|b| b.posed(Anim::ArmRight, v(0.14, -0.05, 0.45), v(0.2, 0.05, 0.74), 0.9));
            b.cuboid(v(-0.09, -0.08, 0.75), v(0.09, 0.08, 0.95), 0.85);
            // Held at the right hand, at the height the raised arms reach (pose.rs).
            b.posed(Anim::Barrel, v(0.09, -0.04, 0.6), v(0.15, 0.5, 0.67), 0.45);
            b.posed(Anim::Flash, v(0.05, 0.5, 0.57), v(0.19, 0.64, 0.7), 1.0);
        }
        // Height 1: a long body, a cab at the front, four wheels that turn.
        Shape::Wheeled => {
            b.cuboid(v(-0.55, -0.95, 0.25), v(0.55, 0.95, 0.62), 1.0);
            b.in_team(|b| b.cuboid(v(-0.5, 0.2, 0.62), v(0.5, 0.85, 1.0), 0.85));
            for (x, y) in [(-0.62, -0.6), (0.62, -0.6), (-0.62, 0.6), (0.62, 0.6)] {
                b.wheel(v(x, y, 0.22), 0.22, 0.16, 0.35);
            }
        }
        // Height 1: tracks whose treads run, a hull, a turret, a barrel that recoils and flashes.
        Shape::Tank => {
            b.posed(Anim::Track, v(-0.75, -1.0, 0.0), v(-0.45, 1.0, 0.35), 0.35);
            b.posed(Anim::Track, v(0.45, -1.0, 0.0), v(0.75, 1.0, 0.35), 0.35);
            b.cuboid(v(-0.5, -0.9, 0.12), v(0.5, 0.95, 0.55), 1.0);
            b.in_team(|b| b.cuboid(v(-0.36, -0.45, 0.55), v(0.36, 0.3, 0.85), 0.9));
            b.posed(Anim::Barrel, v(-0.05, 0.3, 0.64), v(0.05, 1.35, 0.74), 0.6);
            b.posed(Anim::Flash, v(-0.1, 1.35, 0.6), v(0.1, 1.55, 0.78), 1.0);
        }
        // Unit square footprint, height 1: a block with a roof rim and a door.
        Shape::Building => {
            b.cuboid(v(-0.45, -0.45, 0.0), v(0.45, 0.45, 0.92), 1.0);
            b.in_team(|b| b.cuboid(v(-0.48, -0.48, 0.92), v(0.48, 0.48, 1.0), 0.75));
            b.cuboid(v(-0.12, 0.45, 0.0), v(0.12, 0.47, 0.3), 0.3);
        }
        // Height 1: skids, a rounded cabin, a tail boom with a fin, a mast and two rotor blades
        // crossing over it that spin, and a tail rotor beside the fin (the scene lifts it into
        // the air and leans it into turns; the world pass adds each rotor's blurred disc).
        Shape::Helicopter => {
            for x in [-0.35, 0.35] {
                b.cuboid(v(x - 0.04, -0.5, 0.0), v(x + 0.04, 0.55, 0.06), 0.3);
            }
            b.in_team(|b| b.cuboid(v(-0.3, -0.45, 0.12), v(0.3, 0.6, 0.6), 1.0));
            b.cuboid(v(-0.22, 0.35, 0.3), v(0.22, 0.75, 0.55), 0.7);
            b.cuboid(v(-0.07, -1.3, 0.35), v(0.07, -0.45, 0.5), 0.85);
            b.cuboid(v(-0.02, -1.35, 0.35), v(0.02, -1.15, 0.75), 0.6);
            b.cuboid(v(-0.04, -0.04, 0.6), v(0.04, 0.04, 0.75), 0.4);
            b.posed(Anim::Rotor, v(-1.1, -0.035, 0.76), v(1.1, 0.035, 0.78), 0.3);
            b.posed(Anim::Rotor, v(-0.035, -1.1, 0.76), v(0.035, 1.1, 0.78), 0.3);
            b.posed(Anim::TailRotor, v(0.02, -1.27, 0.42), v(0.04, -1.23, 0.7), 0.35);
            b.posed(Anim::TailRotor, v(0.02, -1.39, 0.54), v(0.04, -1.11, 0.58), 0.35);
            b.posed(Anim::Flash, v(-0.08, 0.75, 0.22), v(0.08, 0.9, 0.36), 1.0);
        }
        // Unit footprint, height 1: a trunk under a pointed crown.
        Shape::Prop => {
            b.cuboid(v(-0.06, -0.06, 0.0), v(0.06, 0.06, 0.3), 0.45);
            b.pyramid(v(-0.4, -0.4, 0.25), v(0.4, 0.4, 0.25), 1.0, 1.0);
        }
    }
}

/// The construction scaffold around a unit footprint: a low slab, corner and middle poles, and
/// rails at three heights.
pub(super) fn scaffold(b: &mut Builder) {
    let v = Vec3::new;
    b.cuboid(v(-0.5, -0.5, 0.0), v(0.5, 0.5, 0.04), 0.55);
    let poles = [-0.5, 0.0, 0.5];
    for &x in &poles {
        for &y in &poles {
            if x == 0.0 && y == 0.0 {
                continue;
            }
            b.cuboid(v(x - 0.015, y - 0.015, 0.0), v(x + 0.015, y + 0.015, 1.0), 0.9);
        }
    }
    for z in [0.33, 0.66, 0.98] {
        b.cuboid(v(-0.51, -0.51, z), v(0.51, -0.49, z + 0.02), 0.8);
        b.cuboid(v(-0.51, 0.49, z), v(0.51, 0.51, z + 0.02), 0.8);
        b.cuboid(v(-0.51, -0.49, z), v(-0.49, 0.49, z + 0.02), 0.8);
        b.cuboid(v(0.49, -0.49, z), v(0.51, 0.49, z + 0.02), 0.8);
    }
}
