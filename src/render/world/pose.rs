//! How an object's parts are posed this frame, from display state only: how far it has
//! travelled (legs swing and wheels turn with it), how fast it goes and turns (a helicopter
//! leans into its turns), how hard its gun just kicked (barrel recoil, a muzzle flash), the
//! ground under it (a vehicle follows the slope), its health (damage stages), power and
//! construction. The numbers are packed into an [`ObjectInstance`](super::ObjectInstance);
//! the vertex shader (`vs_object` in `shaders/world.wgsl`) turns each part by its animation
//! role with the same rules as the functions here.
//!
//! Must not: read the simulation (the scene hands it display values) or keep state.

use std::f32::consts::TAU;

/// Unit-space distance of one full stride (both legs forward once): legs swing once per this
/// much travel, whatever the unit's size.
pub const STRIDE: f32 = 1.1;
/// How far a leg swings either way at a full stride (radians).
pub const LEG_SWING: f32 = 0.55;
/// How far an arm swings, as a share of the legs' swing.
pub const ARM_SHARE: f32 = 0.7;
/// The arms' angle when aiming (radians forward from hanging down).
pub const AIM_RAISE: f32 = 1.35;
/// How far the left arm turns in across the chest when aiming (radians about the shoulder's
/// vertical), so its hand comes to the gun held at the right side.
pub const LEFT_ARM_IN: f32 = 1.0;
/// How far the right arm turns in when aiming, its hand on the grip.
pub const RIGHT_ARM_IN: f32 = 0.2;
/// How far a barrel slides back at the moment of the shot (unit space).
pub const BARREL_KICK: f32 = 0.22;
/// An unpowered structure keeps this share of its colour's saturation…
pub const UNPOWERED_SATURATION: f32 = 0.3;
/// …and this share of its brightness (the shader's `unpowered`).
pub const UNPOWERED_LIGHT: f32 = 0.55;
/// A muzzle flash shows while the kick is above this.
pub const FLASH_FROM: f32 = 0.45;
/// Construction rises in this many stages (a foundation, floors, the roof).
pub const BUILD_STAGES: f32 = 4.0;
/// Most a helicopter leans into a turn (radians).
pub const MAX_LEAN: f32 = 0.45;
/// How far a helicopter dips its nose at full speed (radians).
pub const NOSE_DOWN: f32 = 0.2;
/// Steepest slope a vehicle is tilted by (radians).
pub const MAX_TILT: f32 = 0.5;
/// How far a spinning rotor's blades reach, as a share of their length, in the full meshes:
/// a stub at the hub, the sweep drawn as the blurred disc (`rotor.rs`), so a rotor at play
/// zoom reads as a spinning disc, not as solid bars (the shader's `ROTOR_STUB`).
pub const ROTOR_STUB: f32 = 0.16;
/// The phase (`ObjectInstance::state[3]`) of an object whose rotors stand still (a wreck):
/// its blades at full length, turned by this much, and no blurred disc.
pub const ROTOR_STOPPED: f32 = -0.6;

/// Whether an instance's rotors spin (its phase is not below 0; see [`ROTOR_STOPPED`]).
pub fn rotor_spins(state: [f32; 4]) -> bool {
    state[3] >= 0.0
}

/// A part's animation role, as a number the shader reads (the order of
/// [`crate::defs::model_kits::Anim`]).
pub fn role_code(anim: crate::defs::model_kits::Anim) -> f32 {
    anim as u32 as f32
}

/// Damage stages: how a structure or vehicle shows its health.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DamageStage {
    /// Half its health or more: as built.
    Whole = 0,
    /// Below half: darker, smoking.
    Damaged = 1,
    /// Below a quarter: scorched, burning, a part broken.
    Wrecked = 2,
}

/// The soot a burnt part's paint turns toward (linear): wrecks and the pieces thrown off them.
pub const SOOT: glam::Vec3 = glam::Vec3::new(0.06, 0.055, 0.05);

/// Linear colour `c` moved toward its own grey (the shader's weights of red, green and blue)
/// by `share` (0 keeps it, 1 all grey): how fire greys a wreck's and its pieces' paint.
pub fn greyed(c: glam::Vec3, share: f32) -> glam::Vec3 {
    c.lerp(glam::Vec3::splat(c.dot(glam::Vec3::new(0.3, 0.59, 0.11))), share)
}

/// A part's linear colour `c` as drawn with `power` (1 on, 0 off): without power, greyer and
/// darker all over (the rule of `shaders/world.wgsl`'s `unpowered`).
pub fn unpowered(c: [f32; 3], power: f32) -> [f32; 3] {
    let grey = c[0] * 0.3 + c[1] * 0.59 + c[2] * 0.11;
    let p = power.clamp(0.0, 1.0);
    c.map(|v| {
        let off = (grey + (v - grey) * UNPOWERED_SATURATION) * UNPOWERED_LIGHT;
        off + (v - off) * p
    })
}

impl DamageStage {
    /// The stage of an object at `health` (its share of its most, 0..1).
    pub fn of(health: f32) -> DamageStage {
        if health < 0.25 {
            DamageStage::Wrecked
        } else if health < 0.5 {
            DamageStage::Damaged
        } else {
            DamageStage::Whole
        }
    }

    /// The brightness its colours are drawn with.
    pub fn shade(self) -> f32 {
        match self {
            DamageStage::Whole => 1.0,
            DamageStage::Damaged => 0.72,
            DamageStage::Wrecked => 0.5,
        }
    }
}

/// A leg's swing (radians, forward positive) after travelling `distance` unit-space units at
/// `stride` (0 standing still .. 1 a full stride): one swing forward and back per [`STRIDE`].
/// The other leg swings the other way.
pub fn leg_swing(distance: f32, stride: f32) -> f32 {
    (distance / STRIDE * TAU).sin() * LEG_SWING * stride.clamp(0.0, 1.0)
}

/// An arm's angle (radians forward): swinging against its leg while walking, raised to the
/// shoulder while `aiming` (0..1).
pub fn arm_angle(leg: f32, aiming: f32) -> f32 {
    let a = aiming.clamp(0.0, 1.0);
    -leg * ARM_SHARE * (1.0 - a) + AIM_RAISE * a
}

/// An arm's turn about its shoulder's vertical (radians, counter-clockwise seen from above)
/// while `aiming` (0..1), after [`arm_angle`] raised it: both hands come in to the gun.
pub fn arm_turn_in(right: bool, aiming: f32) -> f32 {
    let a = aiming.clamp(0.0, 1.0);
    if right { RIGHT_ARM_IN * a } else { -LEFT_ARM_IN * a }
}

/// Where a point `p` of an arm hanging from `pivot` (its shoulder) goes: raised forward by
/// `angle` ([`arm_angle`]), then turned in by `turn` ([`arm_turn_in`]) — the shader's rule.
pub fn posed_arm_point(p: glam::Vec3, pivot: glam::Vec3, angle: f32, turn: f32) -> glam::Vec3 {
    let d = p - pivot;
    let (s, c) = angle.sin_cos();
    let d = glam::Vec3::new(d.x, d.y * c - d.z * s, d.y * s + d.z * c);
    let (s, c) = turn.sin_cos();
    pivot + glam::Vec3::new(d.x * c - d.y * s, d.x * s + d.y * c, d.z)
}

/// How far a wheel of `radius` has turned (radians, backward over the top is negative) after
/// rolling `distance` (both in unit space): a full turn per circumference.
pub fn wheel_angle(distance: f32, radius: f32) -> f32 {
    -distance / radius.max(0.01)
}

/// The height (unit space, 0..1) a structure `done` (0..1) built shows up to: it rises in
/// [`BUILD_STAGES`] steps, the first a low foundation; finished shows all of it.
pub fn construction_cut(done: f32) -> f32 {
    if done >= 1.0 {
        return 1.0;
    }
    let stage = (done.clamp(0.0, 1.0) * BUILD_STAGES).floor();
    (0.06 + stage / BUILD_STAGES).min(0.95)
}

/// A helicopter's roll (positive: its right side up) and pitch (positive: nose up), radians:
/// it leans into a turn of `turning` radians a second (counter-clockwise, a left turn, is
/// positive: it banks left, right side up) and dips its nose as `stride` (its share of full
/// speed) grows.
pub fn lean(turning: f32, stride: f32) -> (f32, f32) {
    let roll = (turning * 0.35).clamp(-MAX_LEAN, MAX_LEAN);
    let pitch = -NOSE_DOWN * stride.clamp(0.0, 1.0);
    (roll, pitch)
}

/// A vehicle's roll and pitch (radians) on ground whose height rises by `along` per unit
/// forward and `across` per unit to its right: the nose up a rising slope, the right side up
/// where the ground rises to the right.
pub fn slope_tilt(along: f32, across: f32) -> (f32, f32) {
    let pitch = along.atan().clamp(-MAX_TILT, MAX_TILT);
    let roll = across.atan().clamp(-MAX_TILT, MAX_TILT);
    (roll, pitch)
}

/// An instance's tilt for no roll and no pitch (see [`tilt`]).
pub const LEVEL: [f32; 4] = [1.0, 0.0, 1.0, 0.0];

/// An instance's tilt (cos roll, sin roll, cos pitch, sin pitch) for `roll` and `pitch`
/// radians: the shader turns by them without trigonometry of its own.
pub fn tilt(roll: f32, pitch: f32) -> [f32; 4] {
    if roll == 0.0 && pitch == 0.0 {
        return LEVEL;
    }
    let (sr, cr) = roll.sin_cos();
    let (sp, cp) = pitch.sin_cos();
    [cr, sr, cp, sp]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wheel_turns_once_per_circumference_rolled() {
        let r = 0.2;
        assert!((wheel_angle(TAU * r, r) + TAU).abs() < 1e-5);
        assert_eq!(wheel_angle(0.0, r), 0.0);
        // A wheel twice the size turns half as far.
        assert!((wheel_angle(1.0, 0.4) * 2.0 - wheel_angle(1.0, 0.2)).abs() < 1e-5);
    }

    #[test]
    fn legs_swing_with_the_distance_and_not_when_standing() {
        assert_eq!(leg_swing(0.37, 0.0), 0.0);
        assert!((leg_swing(STRIDE / 4.0, 1.0) - LEG_SWING).abs() < 1e-5);
        assert!((leg_swing(STRIDE * 3.0 / 4.0, 1.0) + LEG_SWING).abs() < 1e-5);
        // Half a stride's speed, half the swing.
        assert!((leg_swing(STRIDE / 4.0, 0.5) - LEG_SWING / 2.0).abs() < 1e-5);
        // Arms swing against the legs, and rise to the shoulder when aiming.
        assert!(arm_angle(0.4, 0.0) < 0.0);
        assert_eq!(arm_angle(0.4, 1.0), AIM_RAISE);
    }

    #[test]
    fn every_riflemans_arms_hold_the_gun_at_rest_walking_aiming_and_firing() {
        use crate::defs::model_kits::{Anim, Part};
        use glam::Vec3;
        let kits = crate::defs::model_kits::ModelKits::shipped();
        for name in ["Conscript", "Trooper", "Grenadier"] {
            let parts = kits.get(name).unwrap();
            let bounds = |anim: Anim| {
                parts.iter().find_map(|p| match *p {
                    Part::Box { min, max, .. } if p.finish().anim == anim => {
                        Some((Vec3::new(min.0, min.1, min.2), Vec3::new(max.0, max.1, max.2)))
                    }
                    _ => None,
                })
            };
            let (gun_lo, gun_hi) = bounds(Anim::Barrel).unwrap();
            // (pose, the legs' swing, aiming, the gun's kick)
            let mut poses = vec![("at rest", 0.0, 0.0, 0.0), ("aiming", 0.0, 1.0, 0.0), ("firing", 0.0, 1.0, 0.9)];
            for k in 1..8 {
                poses.push(("walking", leg_swing(STRIDE * k as f32 / 8.0, 1.0), 0.0, 0.0));
            }
            for (right, anim) in [(false, Anim::ArmLeft), (true, Anim::ArmRight)] {
                let (lo, hi) = bounds(anim).unwrap();
                let pivot = Vec3::new((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0, hi.z);
                let hand = Vec3::new(pivot.x, pivot.y, lo.z);
                let thick = ((hi.x - lo.x).max(hi.y - lo.y) / 2.0) * Vec3::ONE;
                for &(pose, leg, aiming, kick) in &poses {
                    // The left hand only comes to the gun to aim; the right carries it always.
                    if !right && aiming == 0.0 {
                        continue;
                    }
                    let leg = if right { -leg } else { leg };
                    let (angle, turn) = (arm_angle(leg, aiming), arm_turn_in(right, aiming));
                    let back = Vec3::new(0.0, BARREL_KICK * kick, 0.0);
                    let (glo, ghi) = (gun_lo - back - thick, gun_hi - back + thick);
                    let holds = (0..=20).any(|i| {
                        let p = posed_arm_point(pivot.lerp(hand, i as f32 / 20.0), pivot, angle, turn);
                        p.cmpge(glo).all() && p.cmple(ghi).all()
                    });
                    assert!(holds, "{name}'s {anim:?} is off its gun {pose} (swing {leg})");
                }
            }
        }
    }

    #[test]
    fn damage_stages_follow_health_and_power_off_dims() {
        // Without power: darker and greyer (a team-blue part loses most of its blue).
        let blue = [0.1, 0.25, 0.8];
        assert_eq!(unpowered(blue, 1.0), blue);
        let off = unpowered(blue, 0.0);
        let spread = |c: [f32; 3]| c.iter().cloned().fold(0.0, f32::max) - c.iter().cloned().fold(1.0, f32::min);
        assert!(off.iter().sum::<f32>() < blue.iter().sum::<f32>() * 0.6, "{off:?}");
        assert!(spread(off) < spread(blue) * 0.2, "{off:?}");
        assert_eq!(DamageStage::of(1.0), DamageStage::Whole);
        assert_eq!(DamageStage::of(0.5), DamageStage::Whole);
        assert_eq!(DamageStage::of(0.49), DamageStage::Damaged);
        assert_eq!(DamageStage::of(0.25), DamageStage::Damaged);
        assert_eq!(DamageStage::of(0.24), DamageStage::Wrecked);
        assert_eq!(DamageStage::of(0.0), DamageStage::Wrecked);
        assert!(DamageStage::Wrecked.shade() < DamageStage::Damaged.shade());
    }

    #[test]
    fn construction_rises_in_stages() {
        let cuts: Vec<f32> = [0.0, 0.1, 0.24, 0.26, 0.6, 0.99, 1.0].iter().map(|&d| construction_cut(d)).collect();
        assert_eq!(cuts[0], cuts[1]);
        assert_eq!(cuts[1], cuts[2]);
        assert!(cuts[3] > cuts[2] && cuts[4] > cuts[3] && cuts[5] > cuts[4]);
        assert!(cuts[0] > 0.0 && cuts[5] < 1.0);
        assert_eq!(cuts[6], 1.0);
    }

    #[test]
    fn helicopters_bank_into_turns_and_vehicles_follow_the_slope() {
        let (left, _) = lean(1.0, 0.0);
        let (right, _) = lean(-1.0, 0.0);
        assert!(left > 0.0 && right < 0.0);
        assert_eq!(lean(100.0, 0.0).0, MAX_LEAN);
        assert!(lean(0.0, 1.0).1 < lean(0.0, 0.0).1);
        let (roll, pitch) = slope_tilt(0.3, 0.0);
        assert!(pitch > 0.0 && roll == 0.0);
        assert_eq!(slope_tilt(5.0, -5.0), (-MAX_TILT, MAX_TILT));
        // The shader gets cosines and sines; level is exactly level.
        assert_eq!(tilt(0.0, 0.0), LEVEL);
        let [cr, sr, cp, sp] = tilt(0.3, -0.2);
        assert!((cr - 0.3f32.cos()).abs() < 1e-6 && (sr - 0.3f32.sin()).abs() < 1e-6);
        assert!((cp - 0.2f32.cos()).abs() < 1e-6 && (sp + 0.2f32.sin()).abs() < 1e-6);
    }
}
