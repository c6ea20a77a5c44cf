//! Shot tracers drawn over the world, made from the tick's events: a fading line for each
//! shot, only where the local player can see (a fight in the dark stays dark). Explosions and
//! smoke are `particles.rs`.
//!
//! Must not: read anything but the events and what is needed to place them (it never guesses
//! what happened from state).

use glam::{Vec2, Vec3};

use crate::sim::event::GameEvent;
use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, World};

use super::super::display::{altitude, to_display};
use super::super::scene::{Scene, shown_to};
use super::super::shroud::Shroud;

/// Seconds a shot's tracer stays on screen.
pub(super) const SHOT_SECONDS: f32 = 0.15;

/// A shot just fired, drawn as a fading tracer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Shot {
    pub from: Vec3,
    pub to: Vec3,
    pub age: f32,
}

/// The effects on screen.
#[derive(Clone, Debug, Default)]
pub(super) struct Effects {
    pub shots: Vec<Shot>,
}

impl Effects {
    /// Adds the effects of one frame's events that `local` can see.
    pub fn note(&mut self, events: &[GameEvent], scene: &Scene, world: &World, local: PlayerId, sight: &Shroud) {
        let sees = |id: ObjectId| world.object(id).is_some_and(|o| shown_to(world, o, local, sight));
        // How high above the ground a shot leaves or lands on an object (its model's height).
        let lift = |id: ObjectId, share: f32| {
            world.object(id).map_or(2.0, |o| scene.model_height(o.template) * share + altitude(o.kind))
        };
        let on_ground = |p: Vec2, h: f32| Vec3::new(p.x, p.y, scene.height(p) + h);
        for e in events {
            if let GameEvent::WeaponFired { shooter, from, target, at, .. } = *e {
                if !sees(shooter) && !sees(target) {
                    continue;
                }
                self.shots.push(Shot {
                    from: on_ground(to_display(from), lift(shooter, 0.7)),
                    to: on_ground(to_display(at), lift(target, 0.5)),
                    age: 0.0,
                });
            }
        }
    }

    /// Lets `dt` seconds pass; spent effects go.
    pub fn age(&mut self, dt: f32) {
        for s in &mut self.shots {
            s.age += dt;
        }
        self.shots.retain(|s| s.age < SHOT_SECONDS);
    }
}
