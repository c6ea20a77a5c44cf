//! Wrecks and the fallen: a destroyed vehicle or aircraft stays where it died as a blackened
//! hulk that smokes, then sinks away; a killed soldier falls and lies a few seconds. Display
//! state from `Killed` events and the poses before the frame, only where the local player saw
//! it happen.
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

use super::super::display::to_display;
use super::super::scene::{Pose, Scene, Shown};
use super::super::shroud::{self, Shroud};

/// Seconds a vehicle's wreck stays whole, then sinking.
const WRECK_SECONDS: (f32, f32) = (7.0, 2.0);
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

    /// Where vehicle wrecks still smoke (ground points), while they are whole.
    pub fn smoking(&self) -> impl Iterator<Item = Vec2> + '_ {
        self.list.iter().filter(|w| !w.soldier && w.age < w.times().0).map(|w| w.pos)
    }

    /// The wrecks as model instances: blackened hulks (lowered as they sink), soldiers lying.
    pub fn instances(&self, scene: &Scene, world: &World, out: &mut [Vec<ObjectInstance>]) {
        let rules = world.rules();
        for w in &self.list {
            // A hulk is drawn at its worst damage stage (a soldier only lies down).
            let shown = Shown {
                health: if w.soldier { 1.0 } else { 0.0 },
                ..Shown::standing(w.template, w.pos, w.yaw, w.owner)
            };
            // Drawn as the unit was (its body and turret meshes), then those instances are
            // burnt or laid down.
            let meshes = scene.library.of(w.template.0 as usize);
            let lists = [Some(meshes.body), meshes.turret];
            let before = lists.map(|m| m.and_then(|m| out.get(m)).map_or(0, Vec::len));
            scene.push_shown(out, rules, &shown);
            let left = w.left();
            for (mesh, from) in lists.into_iter().zip(before) {
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
                        i.color = (Vec3::from_array(i.color) * 0.22).to_array();
                        i.team = (Vec3::from_array(i.team) * 0.18).to_array();
                        // The hulk drops onto its belly as it dies, then sinks away.
                        let settle = (w.age / SETTLE_SECONDS).min(1.0);
                        i.offset[2] -= i.scale[2] * (0.06 * settle + (1.0 - left));
                    }
                }
            }
        }
    }
}
