//! Shot tracers, made from the tick's events: for each shot of a gun without a shell in flight
//! (shells show themselves, trailing smoke), a short bright streak flying from the gun's mouth
//! to where the shot lands, drawn in the world pass (so a screenshot without the interface
//! shows it too); only where the local player can see (a fight in the dark stays dark). How
//! fast, long, wide and bright is `data/effects.ron`'s `tracer`. Explosions and smoke are
//! `particles.rs`.
//!
//! Must not: read anything but the events and what is needed to place them (it never guesses
//! what happened from state).

use glam::Vec3;

use crate::defs::effects::TracerSettings;
use crate::render::world::SpriteInstance;
use crate::sim::event::GameEvent;
use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, World};

use super::super::display::{altitude, to_display};
use super::super::scene::{Scene, shown_to};
use super::super::shroud::Shroud;

/// A shot in flight, drawn as a tracer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Shot {
    pub from: Vec3,
    pub to: Vec3,
    pub age: f32,
}

impl Shot {
    /// The tracer's tail and head after `age` seconds, flying at `t.speed`; none once its tail
    /// has reached where it lands.
    fn streak(&self, t: &TracerSettings) -> Option<(Vec3, Vec3)> {
        let path = self.to - self.from;
        let long = path.length();
        let flown = self.age * t.speed;
        if long < 0.01 || flown >= long + t.length {
            return None;
        }
        let dir = path / long;
        let head = flown.min(long);
        let tail = (flown - t.length).clamp(0.0, long);
        Some((self.from + dir * tail, self.from + dir * head))
    }
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
        // How high above the ground a shot lands on an object (its model's height).
        let lift = |id: ObjectId, share: f32| {
            world.object(id).map_or(2.0, |o| scene.model_height(o.template) * share + altitude(o.kind))
        };
        for e in events {
            if let GameEvent::WeaponFired { shooter, weapon, from, target, at } = *e {
                if !sees(shooter) && !sees(target) {
                    continue;
                }
                if world.rules().weapon(weapon).projectile_speed > crate::sim::fixed::Fixed::ZERO {
                    continue;
                }
                let Some(o) = world.object(shooter) else { continue };
                let (from, at) = (to_display(from), to_display(at));
                let to = at.extend(scene.height(at) + lift(target, 0.5));
                self.shots.push(Shot { from: super::particles::muzzle(scene, o, from, at), to, age: 0.0 });
            }
        }
    }

    /// Lets `dt` seconds pass; tracers that have landed go (`t`: how they fly).
    pub fn age(&mut self, dt: f32, t: &TracerSettings) {
        for s in &mut self.shots {
            s.age += dt;
        }
        self.shots.retain(|s| s.streak(t).is_some());
    }

    /// Each tracer in flight as a glowing streak in the world.
    pub fn sprites(&self, t: &TracerSettings, out: &mut Vec<SpriteInstance>) {
        let [r, g, b] = t.colour.map(|c| super::particles::linear(c) * t.glow);
        for s in &self.shots {
            let Some((tail, head)) = s.streak(t) else { continue };
            let half = (head - tail) * 0.5;
            if half.length_squared() < 1e-4 {
                continue;
            }
            let mut sprite =
                SpriteInstance::new((tail + half).to_array(), t.width, [r, g, b, -1.0], SpriteInstance::STREAK);
            sprite.shape[..3].copy_from_slice(&half.to_array());
            out.push(sprite);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tracer_is_a_short_streak_that_flies_from_the_muzzle_to_where_it_lands_and_goes() {
        let t = crate::defs::effects::game_settings().tracer;
        let shot = Shot { from: Vec3::ZERO, to: Vec3::new(100.0, 0.0, 0.0), age: 0.0 };
        let mut fx = Effects { shots: vec![shot] };
        let mut heads = Vec::new();
        for _ in 0..200 {
            fx.age(1.0 / 60.0, &t);
            let mut out = Vec::new();
            fx.sprites(&t, &mut out);
            let Some(s) = out.first() else { break };
            assert_eq!(s.shape[3], SpriteInstance::STREAK);
            assert!(s.color[3] < 0.0, "a tracer glows: added to the picture");
            let half = Vec3::from_slice(&s.shape[..3]);
            assert!(half.length() * 2.0 <= t.length + 1e-3, "short, never the whole path");
            heads.push(Vec3::from(s.pos) + half);
        }
        assert!(heads.len() > 3, "it flies for a few frames: {}", heads.len());
        assert!(heads.windows(2).all(|w| w[1].x >= w[0].x), "toward the target");
        assert!(heads[0].x < 10.0 && heads.last().is_some_and(|h| h.x > 99.0), "from muzzle to target");
        assert!(fx.shots.is_empty(), "gone once landed");
    }
}
