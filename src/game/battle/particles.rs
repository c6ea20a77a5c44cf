//! Particles: muzzle flashes (rayed stars at the gun's mouth), sparks where shots land (and a
//! scorch where they hit the ground), explosions sized by what died (a light flash over the
//! ground around, a fireball, a shock ring of dust running along the ground, smoke that
//! lingers, debris thrown out and falling, a scorch left on the ground); the continuous
//! sources — a grey smoke column over structures below half health, flames, black smoke and
//! sparks over burning ones, wrecks' smoke, shells' trails, dust behind moving vehicles — are
//! `particles/sources.rs`; smoke drifts with the wind; sparks from the parts wrecks throw
//! (`debris.rs`). How many, how long, how big and what colour, the wind and what each graphics
//! quality keeps are `data/effects.ron`'s (as shipped, Low keeps a third of the particles and
//! leaves out the light flashes and the marks of hits). Display state made from the tick's
//! events and the interpolated picture, drawn as sprites in the world pass
//! (`particles/sprites.rs`); only what the local player can see.
//!
//! Must not: touch the world or draw anything the player's team cannot see; its randomness is
//! its own (never the game's RNG).

use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::defs::effects::{EffectSettings, QualityEffects};
use crate::render::quality::Quality;
use crate::sim::event::GameEvent;
use crate::sim::rules::ObjectKind;
use crate::sim::{PlayerId, World};

use super::super::display::{altitude, to_display};
use super::super::scene::{Scene, shown_to};
use super::super::shroud::{self, Shroud};

mod sources;
mod sprites;

pub(super) use sources::{Harm, Smoker};
pub(super) use sprites::linear;

/// Falling chips and thrown sparks fall at this (world units a second, each second).
pub(super) const GRAVITY: f32 = 60.0;

/// What a particle is, for how it moves and is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A glowing puff: flashes, fire, sparks (drawn bright, over smoke).
    Glow,
    /// Smoke and dust: rises, widens and fades.
    Smoke,
    /// A chunk thrown out by an explosion: falls under gravity.
    Debris,
    /// A billow of dust low over the ground (a shock ring's, thrown out and slowing fast; a
    /// moving vehicle's, left behind it): light and soft, fading to nothing by its end.
    Ring,
    /// An explosion's light on what is around it: a wide glow added to the picture.
    Light,
    /// A spark thrown from a wreck's part or a burning roof: glowing, falling under gravity,
    /// fading.
    Spark,
    /// A muzzle flash: a rayed star of light, added to the picture.
    Star,
    /// An explosion's shock wave: a ring of dust lying on the ground, running out (its size
    /// grows from its first radius to its last).
    Shock,
}

/// One particle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Particle {
    pub kind: Kind,
    pub pos: Vec3,
    pub vel: Vec3,
    pub age: f32,
    pub life: f32,
    /// Radius at birth and at death (world units).
    pub size: (f32, f32),
    pub color: [u8; 3],
    pub alpha: f32,
}

/// A dark mark on the ground where something exploded.
#[derive(Clone, Copy, Debug)]
struct Scorch {
    at: Vec3,
    radius: f32,
    age: f32,
}

/// Every particle on the battlefield.
#[derive(Clone, Debug)]
pub(super) struct Particles {
    /// The effect settings (`data/effects.ron`).
    fx: Arc<EffectSettings>,
    /// What the graphics quality keeps.
    q: QualityEffects,
    list: Vec<Particle>,
    scorches: Vec<Scorch>,
    /// The particles' own random state (display only).
    seed: u32,
    /// Seconds of emission owed to continuous sources (burning, dust), kept between frames.
    owed: f32,
    /// Toward the next kept particle, in percent: each new one adds the quality's percent and
    /// is kept when a hundred is reached, so the kept ones spread evenly over every effect.
    credit: u32,
}

impl Particles {
    /// No particles yet, made by `fx` at High quality.
    pub(super) fn new(fx: Arc<EffectSettings>) -> Particles {
        let q = fx.quality.high;
        Particles { fx, q, list: Vec::new(), scorches: Vec::new(), seed: 0, owed: 0.0, credit: 0 }
    }

    /// The same settings and quality, with every particle and mark gone.
    pub(super) fn cleared(&self) -> Particles {
        Particles { q: self.q, ..Particles::new(self.fx.clone()) }
    }

    /// The effect settings.
    pub(super) fn settings(&self) -> &EffectSettings {
        &self.fx
    }

    /// What the graphics quality keeps.
    pub(super) fn quality(&self) -> QualityEffects {
        self.q
    }

    /// A random number in 0..1 from the particles' own state.
    pub(super) fn random(&mut self) -> f32 {
        // xorshift32: any spread will do, and it never touches the game's RNG.
        let mut x = self.seed.wrapping_add(0x9e37_79b9) | 1;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.seed = x;
        (x >> 8) as f32 / (1u32 << 24) as f32
    }

    /// A random vector in the unit disc (z = 0).
    fn spread(&mut self) -> Vec2 {
        let a = self.random() * std::f32::consts::TAU;
        let r = self.random().sqrt();
        Vec2::new(a.cos(), a.sin()) * r
    }

    /// Makes from now on what `quality` keeps (`data/effects.ron`).
    pub(super) fn set_quality(&mut self, quality: Quality) {
        self.q = kept_at(&self.fx, quality);
    }

    /// Adds `p` if the quality's share keeps it.
    pub(super) fn push(&mut self, p: Particle) {
        let percent = self.q.percent.clamp(1, 100);
        if percent < 100 {
            self.credit += percent;
            if self.credit < 100 {
                return;
            }
            self.credit -= 100;
        }
        self.keep(p);
    }

    /// Adds `p` whatever the quality's share (the oldest goes when there are too many).
    fn keep(&mut self, p: Particle) {
        if self.list.len() >= self.q.most_particles.max(1) {
            self.list.remove(0);
        }
        self.list.push(p);
    }

    /// A flash or spark: a short glowing puff.
    fn flash(&mut self, at: Vec3, size: f32, life: f32, color: [u8; 3]) {
        self.push(Particle {
            kind: Kind::Glow,
            pos: at,
            vel: Vec3::ZERO,
            age: 0.0,
            life,
            size: (size, size * 1.4),
            color,
            alpha: 1.0,
        });
    }

    /// A puff of `kind` from a continuous source at `at`.
    fn puff(&mut self, at: Vec3, kind: crate::defs::effects::Puff) {
        self.smoke(at, kind.size, kind.seconds, kind.shade, kind.rise);
    }

    /// A smoke puff that rises and widens.
    fn smoke(&mut self, at: Vec3, size: f32, life: f32, shade: u8, rise: f32) {
        let drift = self.spread() * size * 0.3;
        self.push(Particle {
            kind: Kind::Smoke,
            pos: at,
            vel: Vec3::new(drift.x, drift.y, rise),
            age: 0.0,
            life,
            size: (size * 0.6, size * 1.8),
            color: [shade, shade, shade.saturating_add(4)],
            alpha: 0.75,
        });
    }

    /// Whether this quality draws the effects that matter only up close.
    fn full(&self) -> bool {
        self.q.close_up
    }

    /// An explosion of `size` (world units) at `at`: a light flash over the ground around it,
    /// a fireball, a shock ring of dust, smoke, debris and a scorch.
    pub fn explode(&mut self, at: Vec3, size: f32) {
        let e = self.fx.explosion;
        if self.full() {
            self.keep(Particle {
                kind: Kind::Light,
                pos: at + Vec3::Z * size * 0.4,
                vel: Vec3::ZERO,
                age: 0.0,
                life: e.light.seconds,
                size: (size * e.light.size.0, size * e.light.size.1),
                color: e.light.colour,
                alpha: e.light.alpha,
            });
        }
        self.flash(at + Vec3::Z * size * 0.3, size * e.flash.size, e.flash.seconds, e.flash.colour);
        let w = e.ring.wave;
        self.keep(Particle {
            kind: Kind::Shock,
            pos: at,
            vel: Vec3::ZERO,
            age: 0.0,
            life: w.seconds,
            size: (size * 0.4, size * w.reach),
            color: e.ring.colour,
            alpha: w.alpha,
        });
        let puffs = e.ring.puffs;
        for k in 0..puffs {
            let a = (k as f32 + self.random() * 0.5) / puffs as f32 * std::f32::consts::TAU;
            let out = Vec2::from_angle(a);
            self.push(Particle {
                kind: Kind::Ring,
                pos: at + (out * size * 0.3).extend(0.6),
                vel: (out * size * e.ring.speed).extend(0.5),
                age: 0.0,
                life: e.ring.seconds,
                size: (size * e.ring.size.0, size * e.ring.size.1),
                color: e.ring.colour,
                alpha: e.ring.alpha,
            });
        }
        let fire = (3.0 + size * 0.5).min(e.fire.most as f32) as usize;
        let (short, long) = e.fire.seconds;
        for _ in 0..fire {
            let d = self.spread() * size * 0.6;
            let up = self.random() * size * 0.5;
            let life = short + self.random() * (long - short);
            let color = if self.random() < 0.5 { e.fire.colours.0 } else { e.fire.colours.1 };
            self.push(Particle {
                kind: Kind::Glow,
                pos: at + Vec3::new(d.x, d.y, up),
                vel: Vec3::new(d.x, d.y, size * 0.6),
                age: 0.0,
                life,
                size: (size * 0.35, size * 0.7),
                color,
                alpha: 1.0,
            });
        }
        let ((short, long), (dark, light)) = (e.smoke.seconds, e.smoke.shade);
        for _ in 0..(fire as f32 * e.smoke.puffs).round() as usize {
            let d = self.spread() * size * 0.7;
            let shade = dark.saturating_add((self.random() * light.saturating_sub(dark) as f32) as u8);
            let life = short + self.random() * (long - short);
            let up = size * (0.2 + self.random() * 0.6);
            self.smoke(at + Vec3::new(d.x, d.y, up), size * e.smoke.size, life, shade, size * 0.2 + 3.0);
        }
        let (least, most) = e.chips.count;
        let chips = (size * 0.6).clamp(least as f32, most.max(least) as f32) as usize;
        let (short, long) = e.chips.seconds;
        for _ in 0..chips {
            let d = self.spread().normalize_or(Vec2::X) * size * (1.0 + self.random() * 2.0);
            let (up, life) = (size * (1.5 + self.random() * 2.0), short + self.random() * (long - short));
            self.push(Particle {
                kind: Kind::Debris,
                pos: at + Vec3::Z * size * 0.3,
                vel: Vec3::new(d.x, d.y, up),
                age: 0.0,
                life,
                size: (0.4 + size * 0.03, 0.4 + size * 0.03),
                color: e.chips.colour,
                alpha: 1.0,
            });
        }
        self.mark(at, size * 0.8);
    }

    /// A muzzle flash at `at`: a star of light (kept at every quality: one sprite, and the
    /// shot reads), and a puff of smoke from a `big` (area) gun.
    pub fn muzzle_flash(&mut self, at: Vec3, big: bool) {
        let m = self.fx.muzzle;
        let size = if big { m.size.1 } else { m.size.0 };
        self.keep(Particle {
            kind: Kind::Star,
            pos: at,
            vel: Vec3::ZERO,
            age: 0.0,
            life: m.seconds,
            size: (size, size * 0.7),
            color: m.colour,
            alpha: 1.0,
        });
        if big {
            self.smoke(at, m.smoke, 1.6, 150, 3.0);
        }
    }

    /// A scorch mark of `radius` on the ground at `at` (the oldest goes when there are many).
    fn mark(&mut self, at: Vec3, radius: f32) {
        if self.fx.scorch.most == 0 {
            return;
        }
        if self.scorches.len() >= self.fx.scorch.most {
            self.scorches.remove(0);
        }
        self.scorches.push(Scorch { at, radius, age: 0.0 });
    }

    /// The particles of one frame's events that `local` can see.
    pub fn note(&mut self, events: &[GameEvent], scene: &Scene, world: &World, local: PlayerId, sight: &Shroud) {
        let rules = world.rules();
        let seen = |p: Vec2| sight.at(p) == shroud::VISIBLE;
        let ground = |p: Vec2, lift: f32| p.extend(scene.height(p) + lift);
        for e in events {
            match *e {
                GameEvent::WeaponFired { shooter, weapon, from, at, .. } => {
                    let Some(o) = world.object(shooter).filter(|o| shown_to(world, o, local, sight)) else { continue };
                    let muzzle = muzzle(scene, o, to_display(from), to_display(at));
                    let big = rules.weapon(weapon).area > crate::sim::fixed::Fixed::ZERO;
                    self.muzzle_flash(muzzle, big);
                }
                GameEvent::Hit { target, damage, at, .. } => {
                    let p = to_display(at);
                    if !seen(p) {
                        continue;
                    }
                    let lift = world.object(target).map_or(1.0, |o| scene.model_height(o.template) * 0.5);
                    let h = self.fx.hit;
                    let size = (damage as f32 / 12.0).clamp(h.size.0, h.size.1.max(h.size.0));
                    self.flash(ground(p, lift), size, h.seconds, h.colour);
                    // A shot that misses its mark leaves one on the ground (up close only).
                    if self.full() && world.object(target).is_none_or(|o| !o.kind.blocks_ground()) {
                        self.mark(ground(p, 0.0), size * 0.7);
                    }
                    if damage >= h.explodes_from {
                        self.explode(ground(p, 0.0), size * 1.6);
                    }
                }
                GameEvent::Killed { template, at, .. } => {
                    let p = to_display(at);
                    if !seen(p) {
                        continue;
                    }
                    let t = rules.template(template);
                    let cell = scene.map.file.cell_size as f32;
                    let size = match t.kind {
                        ObjectKind::Infantry => 2.5,
                        ObjectKind::Structure | ObjectKind::Prop => {
                            t.footprint.0.max(t.footprint.1).max(1) as f32 * cell * 0.55
                        }
                        _ => 8.0,
                    };
                    self.explode(ground(p, altitude(t.kind)), size);
                    if !t.kind.blocks_ground() {
                        // The unit itself bursts: a fireball over its hulk, which would hide
                        // one at its foot.
                        let top = altitude(t.kind) + scene.model_height(template) * 0.9;
                        self.flash(ground(p, top), size * 0.8, 0.3, [255, 235, 170]);
                    }
                }
                _ => {}
            }
        }
    }

    /// Lets `dt` seconds pass: particles move, grow and fade; spent ones go.
    pub fn age(&mut self, dt: f32) {
        let wind = Vec2::from(self.fx.wind).extend(0.0);
        let sm = self.fx.smoke;
        for p in &mut self.list {
            p.age += dt;
            p.pos += p.vel * dt;
            match p.kind {
                Kind::Debris => p.vel.z -= GRAVITY * dt,
                Kind::Smoke => {
                    p.vel *= (1.0 - sm.slow * dt).max(0.0);
                    // Drifts with the wind, more as it rises out of the lee.
                    p.pos += wind * dt * (p.age / p.life * 2.0).min(1.0);
                }
                Kind::Glow => p.vel *= (1.0 - 3.0 * dt).max(0.0),
                Kind::Ring => {
                    p.vel *= (1.0 - sm.ring_slow * dt).max(0.0);
                    p.pos += wind * dt * sm.ring_drift;
                }
                Kind::Light | Kind::Star | Kind::Shock => {}
                Kind::Spark => {
                    p.vel.z -= GRAVITY * dt;
                    p.vel *= (1.0 - 1.5 * dt).max(0.0);
                }
            }
        }
        self.list.retain(|p| p.age < p.life);
        for s in &mut self.scorches {
            s.age += dt;
        }
        let seconds = self.fx.scorch.seconds;
        self.scorches.retain(|s| s.age < seconds);
    }

    /// How many particles are alive.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.list.len()
    }
}

/// Where a gun's mouth is on `o` firing from `from` at `at` (display positions): ahead of it
/// toward the target, about two thirds up its model.
pub(super) fn muzzle(scene: &Scene, o: &crate::sim::object::Object, from: Vec2, at: Vec2) -> Vec3 {
    let height = scene.model_height(o.template);
    let ahead = (at - from).normalize_or_zero() * (height * 0.9).clamp(0.8, 5.0);
    let p = from + ahead;
    p.extend(scene.height(from) + height * 0.65 + altitude(o.kind))
}

/// What `quality` keeps of the effects `fx` describe.
pub(super) fn kept_at(fx: &EffectSettings, quality: Quality) -> QualityEffects {
    match quality {
        Quality::Low => fx.quality.low,
        Quality::Medium => fx.quality.medium,
        Quality::High => fx.quality.high,
    }
}

/// Particles made by the game's own `data/effects.ron` (for tests).
#[cfg(test)]
pub(super) fn fresh() -> Particles {
    Particles::new(Arc::new(crate::defs::effects::game_settings()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explosion_makes_fire_smoke_debris_and_a_scorch_that_all_pass() {
        let mut p = fresh();
        p.explode(Vec3::new(100.0, 100.0, 0.0), 10.0);
        let n = p.len();
        assert!(n > 15, "{n} particles");
        assert!(p.list.iter().any(|q| q.kind == Kind::Debris) && p.list.iter().any(|q| q.kind == Kind::Smoke));
        assert_eq!(p.scorches.len(), 1);
        // Debris falls back to the ground.
        p.age(0.5);
        for _ in 0..200 {
            p.age(0.05);
        }
        assert_eq!(p.len(), 0, "everything burnt out in ten and a half seconds");
        assert_eq!(p.scorches.len(), 1, "the scorch stays a while");
        for _ in 0..700 {
            p.age(0.05);
        }
        assert!(p.scorches.is_empty());
    }

    #[test]
    fn a_lower_quality_keeps_its_share_of_every_effect() {
        let blasts = |quality: Option<Quality>| {
            let mut p = fresh();
            if let Some(quality) = quality {
                p.set_quality(quality);
            }
            for i in 0..10 {
                p.explode(Vec3::new(100.0 * i as f32, 100.0, 0.0), 10.0);
            }
            p
        };
        let all = blasts(None).len();
        let third = blasts(Some(Quality::Low));
        assert_eq!(third.q.percent, 34, "data/effects.ron: Low keeps a third");
        let kept = third.len() as f32 / all as f32;
        assert!((0.30..=0.38).contains(&kept), "{} of {all} kept", third.len());
        assert!(third.list.iter().any(|q| q.kind == Kind::Debris) && third.list.iter().any(|q| q.kind == Kind::Smoke));
        assert_eq!(third.scorches.len(), 10, "scorches are not particles: every one stays");
        assert_eq!(blasts(Some(Quality::High)).len(), all);
    }

    #[test]
    fn an_explosion_lights_the_ground_and_throws_a_ring_and_smoke_drifts_downwind() {
        let at = Vec3::new(100.0, 100.0, 0.0);
        let mut p = fresh();
        p.explode(at, 10.0);
        let lights = p.sprites().iter().filter(|s| s.color[3] < 0.0).count();
        assert_eq!(lights, 1, "one light flash, added to the picture");
        let ring: Vec<f32> =
            p.list.iter().filter(|q| q.kind == Kind::Ring).map(|q| (q.pos - at).truncate().length()).collect();
        assert_eq!(ring.len(), p.fx.explosion.ring.puffs as usize);
        let smoke_x = |p: &Particles| {
            let xs: Vec<f32> = p.list.iter().filter(|q| q.kind == Kind::Smoke).map(|q| q.pos.x).collect();
            xs.iter().sum::<f32>() / xs.len().max(1) as f32
        };
        let before = smoke_x(&p);
        p.age(0.3);
        let spread = p.list.iter().filter(|q| q.kind == Kind::Ring).map(|q| (q.pos - at).truncate().length());
        assert!(spread.zip(&ring).all(|(now, then)| now > then + 5.0), "the ring runs outward");
        assert!(p.sprites().iter().all(|s| s.color[3] >= 0.0), "the flash is gone in a moment");
        p.age(2.5);
        assert!(smoke_x(&p) > before + 3.0, "smoke drifts with the wind (east)");
        // Low quality: no light flash.
        let mut low = fresh();
        low.set_quality(Quality::Low);
        low.explode(at, 10.0);
        assert!(low.sprites().iter().all(|s| s.color[3] >= 0.0));
    }

    #[test]
    fn an_explosion_leaves_a_ragged_scorch_and_a_ring_of_dust_running_along_the_ground() {
        use crate::render::world::SpriteInstance;
        let at = Vec3::new(100.0, 100.0, 5.0);
        let mut p = fresh();
        p.explode(at, 8.0);
        let of = |p: &Particles, shape: f32| -> Vec<SpriteInstance> {
            p.sprites().into_iter().filter(|s| s.shape[3] == shape).collect()
        };
        let scorch = of(&p, SpriteInstance::SCORCH);
        assert_eq!(scorch.len(), 1);
        assert!(scorch[0].color[3] > 0.5 && scorch[0].color[..3].iter().all(|&c| c < 0.05), "dark: {scorch:?}");
        assert_eq!(scorch[0].pos, at.to_array(), "on the ground where it blew");
        let ring = |p: &Particles| of(p, SpriteInstance::RING);
        assert_eq!(ring(&p).len(), 1, "kept at every quality: one sprite");
        p.age(0.1);
        let (early, alpha) = (ring(&p)[0].size, ring(&p)[0].color[3]);
        p.age(0.3);
        let late = ring(&p)[0].size;
        assert!(late > early + 3.0 && ring(&p)[0].pos[2] == at.z, "it runs out along the ground: {early} → {late}");
        assert!(alpha > 0.4, "seen, not a ghost: {alpha}");
        p.age(1.0);
        assert!(ring(&p).is_empty(), "gone within a second and a half");
        assert_eq!(of(&p, SpriteInstance::SCORCH).len(), 1, "the scorch stays");
    }

    #[test]
    fn a_vehicles_dust_is_a_light_soft_billow_that_fades_to_nothing_by_its_end() {
        use crate::render::world::SpriteInstance;
        let mut p = fresh();
        let dust = p.fx.sources.dust;
        for _ in 0..10 {
            p.dust(Vec3::new(50.0, 50.0, 1.0), dust);
        }
        let billows = |p: &Particles| -> Vec<SpriteInstance> {
            p.sprites().into_iter().filter(|s| s.shape[3] == SpriteInstance::DUST).collect()
        };
        assert_eq!(billows(&p).len(), 10, "drawn as soft billows of dust");
        let mut peak: f32 = 0.0;
        let mut last = Vec::new();
        let mut t = 0.0;
        while t < dust.seconds - 0.02 {
            p.age(0.02);
            t += 0.02;
            let now = billows(&p);
            for s in &now {
                let [r, g, b, a] = s.color;
                // Light sandy dust over the ground, not a dark stain.
                assert!(0.2126 * r + 0.7152 * g + 0.0722 * b > 0.4, "light: {s:?}");
                assert!(r >= g && g >= b, "sandy: {s:?}");
                assert!(s.pos[2] < 1.0 + 3.0, "low over the ground: {s:?}");
                peak = peak.max(a);
            }
            last = now;
        }
        assert!(peak > 0.15 && peak <= DUST_ALPHA_MOST, "a light veil: {peak}");
        assert!(last.iter().all(|s| s.color[3] < 0.01), "faded to nothing by its end: {last:?}");
        p.age(0.05);
        assert!(billows(&p).is_empty(), "gone");
    }

    /// The most opacity a vehicle's dust may have.
    const DUST_ALPHA_MOST: f32 = 0.45;

    #[test]
    fn an_explosions_smoke_lingers_for_seconds_drifting_downwind() {
        let at = Vec3::new(100.0, 100.0, 0.0);
        let mut p = fresh();
        p.explode(at, 8.0);
        let smoke = |p: &Particles| p.list.iter().filter(|q| q.kind == Kind::Smoke).count();
        let made = smoke(&p);
        p.warm(&[], 4.0);
        assert!(smoke(&p) * 2 >= made, "most smoke still hangs after four seconds: {} of {made}", smoke(&p));
        let x = p.list.iter().filter(|q| q.kind == Kind::Smoke).map(|q| q.pos.x - at.x).sum::<f32>() / smoke(&p) as f32;
        assert!(x > 8.0, "drifted east with the wind: {x}");
    }

    #[test]
    fn damaged_structures_smoke_grey_and_burning_ones_throw_fire_black_smoke_and_sparks() {
        let smoker = |harm| Smoker { at: Vec3::new(50.0, 50.0, 2.0), half: 6.0, top: 12.0, harm };
        let warmed = |harm, quality: Quality| {
            let mut p = fresh();
            p.set_quality(quality);
            p.warm(&[smoker(harm)], 3.0);
            p
        };
        let damaged = warmed(Harm::Damaged, Quality::High);
        let grey: Vec<&Particle> = damaged.list.iter().filter(|q| q.kind == Kind::Smoke).collect();
        assert!(grey.len() >= 15, "a column, not a wisp: {}", grey.len());
        assert!(grey.iter().all(|q| q.color[0] > 100), "grey smoke");
        assert!(grey.iter().any(|q| q.pos.z > 2.0 + 12.0 + 5.0), "rising above the roof");
        assert!(!damaged.list.iter().any(|q| matches!(q.kind, Kind::Glow | Kind::Spark)), "no fire yet");
        let burning = warmed(Harm::Burning, Quality::High);
        let count = |p: &Particles, k: Kind| p.list.iter().filter(|q| q.kind == k).count();
        assert!(count(&burning, Kind::Glow) >= 2, "flames");
        assert!(count(&burning, Kind::Spark) >= 1, "sparks");
        assert!(burning.list.iter().filter(|q| q.kind == Kind::Smoke).all(|q| q.color[0] < 60), "black smoke");
        let low = warmed(Harm::Burning, Quality::Low);
        assert!(low.len() * 2 < burning.len(), "Low keeps fewer: {} of {}", low.len(), burning.len());
    }

    #[test]
    fn a_mods_effects_change_what_is_made_and_a_bad_value_is_refused_naming_its_line() {
        let game = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/effects.ron")).unwrap();
        let dir = std::env::temp_dir().join(format!("ridgeline-effects-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        let roots = crate::defs::test_support::roots().with_mod(dir.clone());
        // The mod's shock ring has 30 puffs of a blue dust, and no chips are thrown.
        let modded = game
            .replacen("puffs: 16,", "puffs: 30,", 1)
            .replacen("colour: (200, 184, 156)", "colour: (10, 20, 250)", 1)
            .replacen("count: (3, 12)", "count: (0, 0)", 1);
        std::fs::write(dir.join("data/effects.ron"), &modded).unwrap();
        let mut p = Particles::new(Arc::new(EffectSettings::load(&roots).unwrap()));
        p.explode(Vec3::new(100.0, 100.0, 0.0), 10.0);
        let ring: Vec<&Particle> = p.list.iter().filter(|q| q.kind == Kind::Ring).collect();
        assert_eq!(ring.len(), 30);
        assert!(ring.iter().all(|q| q.color == [10, 20, 250]));
        assert!(!p.list.iter().any(|q| q.kind == Kind::Debris), "no chips");
        let mut game_made = fresh();
        game_made.explode(Vec3::new(100.0, 100.0, 0.0), 10.0);
        assert_eq!(game_made.list.iter().filter(|q| q.kind == Kind::Ring).count(), 16, "the game's own");
        // A negative lifetime: refused, naming the mod's file and the line.
        let bad = modded.replacen("flash: (seconds: 0.18", "flash: (seconds: -1.0", 1);
        let line = bad.lines().position(|l| l.contains("seconds: -1.0")).unwrap() + 1;
        std::fs::write(dir.join("data/effects.ron"), &bad).unwrap();
        let e = EffectSettings::load(&roots).unwrap_err().to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(e.contains(&format!("data/effects.ron:{line}: ")), "{e}");
        assert!(e.contains("field `explosion.flash.seconds`") && e.contains("-1 is out of range"), "{e}");
        assert!(e.contains(&dir.display().to_string()), "the mod's file is named: {e}");
    }
}
