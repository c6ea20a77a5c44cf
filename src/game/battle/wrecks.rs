//! Wrecks and the fallen: a destroyed vehicle or aircraft stays where it died as a charred
//! hulk in its own silhouette — its own meshes, the faction's colours burnt dark and greyed
//! with the owner's paint mostly gone, settled onto its belly a little sunk, tipped askew, its
//! turret knocked round, its rotors stopped (an aircraft falls to the ground first) — that
//! smokes thinner and thinner, then sinks away; a killed soldier falls and lies a few seconds.
//! Display state from `Killed` events and the poses before the frame, only where the local
//! player saw it happen. How each hulk lies is drawn from where it died, so the same death
//! leaves the same wreck.
//!
//! Must not: touch the world (a wreck blocks nothing and is gone from the game already).

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use crate::render::ObjectInstance;
use crate::render::world::pose;
use crate::sim::event::GameEvent;
use crate::sim::ids::{ObjectId, TemplateId};
use crate::sim::rules::ObjectKind;
use crate::sim::{PlayerId, World};

use super::super::display::{altitude, to_display};
use super::super::scene::{Pose, Scene, Shown};
use super::super::shroud::{self, Shroud};

/// Seconds a vehicle's wreck stays whole, then sinking.
const WRECK_SECONDS: (f32, f32) = (12.0, 3.0);
/// Seconds a wreck smokes, thinning to nothing.
const SMOKE_SECONDS: f32 = 9.0;
/// Seconds a destroyed aircraft takes to fall to the ground.
const FALL_FROM_AIR_SECONDS: f32 = 0.8;
/// How much of its colour a hulk keeps, greyed by `HULK_GREY` (the shader darkens and
/// scorches it further as its worst damage stage).
const HULK_KEEPS: f32 = 0.75;
/// See `HULK_KEEPS`.
const HULK_GREY: f32 = 0.45;
/// How far the owner's paint has burnt toward soot.
const PAINT_BURNT: f32 = 0.8;
/// How far a hulk settles into the ground, a share of its height.
const SUNK: f32 = 0.1;
/// Most a hulk tips (radians, roll and pitch).
const TIPPED: f32 = 0.13;
/// Most its turret is knocked round from where the hull faced (radians).
const TURRET_KNOCKED: f32 = 0.7;
/// Seconds a soldier lies, then fading into the ground.
const FALLEN_SECONDS: (f32, f32) = (3.0, 1.0);
/// Seconds a killed soldier takes to fall over backward.
const FALL_SECONDS: f32 = 0.45;
/// Seconds a wreck's hulk takes to drop and settle (its suspension gone).
const SETTLE_SECONDS: f32 = 0.3;
/// Most wrecks kept (the oldest go first).
const MAX_WRECKS: usize = 200;

/// One wreck or fallen soldier.
#[derive(Clone, Copy, Debug)]
struct Wreck {
    template: TemplateId,
    pos: Vec2,
    yaw: f32,
    owner: PlayerId,
    soldier: bool,
    age: f32,
}

impl Wreck {
    /// Seconds whole, then seconds going.
    fn times(&self) -> (f32, f32) {
        if self.soldier { FALLEN_SECONDS } else { WRECK_SECONDS }
    }

    /// How much is still above ground: 1 until it starts going, then down to 0.
    fn left(&self) -> f32 {
        let (stay, go) = self.times();
        (1.0 - (self.age - stay).max(0.0) / go).clamp(0.0, 1.0)
    }

    /// Three numbers in -1..1 from where it died: how it lies (roll, pitch, the turret's turn).
    fn askew(&self) -> Vec3 {
        let h = |k: f32| ((self.pos.x * 12.9898 + self.pos.y * 78.233 + k * 37.719).sin() * 43758.547).fract();
        Vec3::new(h(1.0), h(2.0), h(3.0)) * 2.0 - 1.0
    }

    /// How thick its smoke is now (0 once it has stopped smoking): thinning as it cools.
    fn smoke(&self) -> f32 {
        if self.soldier { 0.0 } else { (1.0 - self.age / SMOKE_SECONDS).max(0.0) }
    }

    /// Turns `i`, drawn as the unit was (`turret`: its turret's instance), into the hulk: the
    /// colours charred, settled and sunk, tipped, at rest with its rotors stopped; an aircraft
    /// dropped from `altitude` to the ground as it falls.
    fn burn(&self, i: &mut ObjectInstance, turret: bool, altitude: f32) {
        let char = |c: [f32; 3], k: f32| (pose::greyed(Vec3::from_array(c), HULK_GREY) * k).to_array();
        i.color = char(i.color, HULK_KEEPS);
        i.team = char(Vec3::from_array(i.team).lerp(pose::SOOT, PAINT_BURNT).to_array(), 1.0);
        i.motion = ObjectInstance::AT_REST;
        i.state[3] = pose::ROTOR_STOPPED;
        let a = self.askew();
        // A turret thrown askew tips further than the hull under it.
        let tip = if turret { 1.6 } else { 1.0 };
        i.tilt = pose::tilt(a.x * TIPPED * tip, a.y * TIPPED * tip);
        // The hulk drops onto its belly as it dies (a falling aircraft all the way down),
        // then sinks away.
        let settle = (self.age / SETTLE_SECONDS).min(1.0);
        let fall = (self.age / FALL_FROM_AIR_SECONDS).min(1.0);
        i.offset[2] -= altitude * fall * fall + i.scale[2] * (SUNK * settle + (1.0 - self.left()));
    }
}

/// The wrecks on the battlefield.
#[derive(Clone, Debug, Default)]
pub(super) struct Wrecks {
    list: Vec<Wreck>,
}

impl Wrecks {
    /// Leaves a wreck for each unit the local player saw destroyed (`before`: the poses
    /// before the frame, where it stood and faced).
    pub fn note(&mut self, events: &[GameEvent], world: &World, before: &BTreeMap<ObjectId, Pose>, sight: &Shroud) {
        for e in events {
            let GameEvent::Killed { object, template, owner, at } = *e else { continue };
            let kind = world.rules().template(template).kind;
            if !matches!(kind, ObjectKind::Infantry | ObjectKind::Vehicle | ObjectKind::Aircraft) {
                continue;
            }
            let pos = before.get(&object).map_or(to_display(at), |p| p.pos);
            if sight.at(pos) != shroud::VISIBLE {
                continue;
            }
            if self.list.len() >= MAX_WRECKS {
                self.list.remove(0);
            }
            let yaw = before.get(&object).map_or(0.0, |p| p.yaw);
            self.list.push(Wreck { template, pos, yaw, owner, soldier: kind == ObjectKind::Infantry, age: 0.0 });
        }
    }

    /// Lets `dt` seconds pass; gone wrecks are forgotten.
    pub fn age(&mut self, dt: f32) {
        for w in &mut self.list {
            w.age += dt;
        }
        self.list.retain(|w| w.left() > 0.0);
    }

    /// Where vehicle wrecks still smoke (ground points), each with how thick its smoke is
    /// (1 as it dies, thinning to nothing over `SMOKE_SECONDS`).
    pub fn smoking(&self) -> impl Iterator<Item = (Vec2, f32)> + '_ {
        self.list.iter().filter(|w| w.smoke() > 0.0).map(|w| (w.pos, w.smoke()))
    }

    /// The wrecks as model instances: charred hulks on the unit's own meshes (lowered as they
    /// sink), soldiers lying.
    pub fn instances(&self, scene: &Scene, world: &World, out: &mut [Vec<ObjectInstance>]) {
        let rules = world.rules();
        for w in &self.list {
            // A hulk is drawn at its worst damage stage (a soldier only lies down), its turret
            // knocked round.
            let shown = Shown {
                health: if w.soldier { 1.0 } else { 0.0 },
                aim: (!w.soldier).then(|| w.yaw + w.askew().z * TURRET_KNOCKED),
                ..Shown::standing(w.template, w.pos, w.yaw, w.owner)
            };
            // Drawn as the unit was (its body and turret meshes), then those instances are
            // burnt or laid down.
            let meshes = scene.library.of(w.template.0 as usize);
            let lists = [Some(meshes.body), meshes.turret];
            let before = lists.map(|m| m.and_then(|m| out.get(m)).map_or(0, Vec::len));
            scene.push_shown(out, rules, &shown);
            let left = w.left();
            let altitude = altitude(rules.template(w.template).kind);
            for (k, (mesh, from)) in lists.into_iter().zip(before).enumerate() {
                let Some(list) = mesh.and_then(|m| out.get_mut(m)) else { continue };
                for i in list.iter_mut().skip(from) {
                    if w.soldier {
                        // Falls over backward about its feet, faster as it goes, lies, then
                        // sinks into the ground.
                        let fall = (w.age / FALL_SECONDS).min(1.0);
                        i.tilt = pose::tilt(0.0, fall * fall * std::f32::consts::FRAC_PI_2 * 0.94);
                        i.motion = ObjectInstance::AT_REST;
                        i.offset[2] += i.scale[2] * (0.08 * fall - 0.3 * (1.0 - left));
                    } else {
                        w.burn(i, k == 1, altitude);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wreck(age: f32) -> Wreck {
        Wreck {
            template: TemplateId(0),
            pos: Vec2::new(310.0, 122.0),
            yaw: 0.4,
            owner: PlayerId(1),
            soldier: false,
            age,
        }
    }

    fn live() -> ObjectInstance {
        ObjectInstance {
            motion: [3.0, 1.0, 0.5, 1.0],
            ..ObjectInstance::still([310.0, 122.0, 40.0], 0.4, [8.0; 3], [0.35, 0.4, 0.3], [0.05, 0.2, 0.75])
        }
    }

    #[test]
    fn a_hulk_is_the_unit_charred_not_black_settled_tipped_and_still() {
        let w = wreck(1.0);
        let mut hull = live();
        w.burn(&mut hull, false, 0.0);
        let (was, now) = (Vec3::from_array(live().color), Vec3::from_array(hull.color));
        // The shader halves it again and scorches it in patches (its worst damage stage).
        assert!(now.max_element() < was.max_element() * 0.8, "charred: {now}");
        assert!(now.min_element() > was.min_element() * 0.35, "but not black: {now}");
        // The owner's blue mostly burnt away, a trace left.
        let blue = |c: [f32; 3]| c[2] - c[0].max(c[1]);
        assert!(blue(hull.team) < blue(live().team) * 0.5 && blue(hull.team) > 0.0, "{:?}", hull.team);
        assert!(hull.offset[2] < 40.0 - 8.0 * SUNK * 0.9, "settled into the ground: {:?}", hull.offset);
        assert_ne!(hull.tilt, pose::LEVEL, "tipped");
        assert_eq!(hull.motion, ObjectInstance::AT_REST);
        assert!(!pose::rotor_spins(hull.state), "its rotors stopped");
        // The same death, the same wreck; its turret tips further than the hull.
        let mut again = live();
        w.burn(&mut again, false, 0.0);
        assert_eq!(again, hull);
        let mut turret = live();
        w.burn(&mut turret, true, 0.0);
        assert!(turret.tilt[1].abs() > hull.tilt[1].abs() || turret.tilt[3].abs() > hull.tilt[3].abs());
    }

    #[test]
    fn a_downed_aircraft_falls_to_the_ground_and_every_wreck_smokes_thinner_then_sinks_away() {
        let at = |age: f32| {
            let mut i = live();
            wreck(age).burn(&mut i, false, 30.0);
            i.offset[2]
        };
        assert!(at(0.0) > 39.0, "still in the air as it dies");
        assert!(at(FALL_FROM_AIR_SECONDS) < 40.0 - 30.0 + 0.1, "down on the ground: {}", at(1.0));
        let smoke: Vec<f32> = [0.0, 3.0, 6.0, SMOKE_SECONDS].map(|a| wreck(a).smoke()).to_vec();
        assert!(smoke.windows(2).all(|p| p[1] < p[0]) && smoke[3] == 0.0, "{smoke:?}");
        let mut wrecks = Wrecks { list: vec![wreck(0.0)] };
        assert_eq!(wrecks.smoking().count(), 1);
        wrecks.age(SMOKE_SECONDS + 0.1);
        assert_eq!(wrecks.smoking().count(), 0, "cold");
        let (stay, go) = WRECK_SECONDS;
        assert!(at(stay + go * 0.5) < at(stay) - 8.0 * 0.4, "sinking away");
        wrecks.age(stay + go);
        assert!(wrecks.list.is_empty(), "gone");
    }
}
