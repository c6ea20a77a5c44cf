//! The particles' continuous sources: a damaged structure's grey smoke column, a burning one's
//! flames, black smoke and sparks, dust behind moving vehicles, shells' smoke trails and
//! wrecks' smoke — each at 20 chances a second whatever the frame rate, as
//! `data/effects.ron`'s `sources` and `trail` say.
//!
//! Must not: touch the world or emit where the local player cannot see.

use glam::{Vec2, Vec3};

use crate::sim::rules::ObjectKind;
use crate::sim::{PlayerId, World};

use super::super::super::display::{radians, to_display};
use super::super::super::scene::{Scene, shown_to};
use super::super::super::shroud::Shroud;
use super::{Kind, Particle, Particles};

/// A vehicle's dust billow's opacity at its thickest: a light veil, never a stain.
const DUST_ALPHA: f32 = 0.4;

/// How a structure shows its health: below half it smokes, below its burning line it burns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harm {
    /// A grey smoke column.
    Damaged,
    /// Flames, black smoke and sparks.
    Burning,
}

/// A structure that smokes or burns: its ground centre, its half width and its roof's height
/// above the ground (world units), and how badly it is hurt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Smoker {
    /// Where it stands (on the ground).
    pub at: Vec3,
    /// Half its width.
    pub half: f32,
    /// Its roof's height above the ground.
    pub top: f32,
    /// How badly it is hurt.
    pub harm: Harm,
}

impl Particles {
    /// Continuous sources for `dt` seconds: smoke, fire and sparks from damaged and burning
    /// structures, dust behind moving vehicles (only where `local` sees).
    pub fn emit(&mut self, dt: f32, scene: &Scene, world: &World, local: PlayerId, sight: &Shroud) {
        let ticks = self.ticks(dt);
        if ticks == 0 {
            return;
        }
        let cell = scene.map.file.cell_size as f32;
        let mut smokers = Vec::new();
        let mut movers = Vec::new();
        for o in world.objects() {
            if !shown_to(world, o, local, sight) {
                continue;
            }
            let p = to_display(o.pos);
            let t = world.rules().template(o.template);
            let harm = if o.kind.blocks_ground() && world.is_burning(o) {
                Some(Harm::Burning)
            } else if o.kind.blocks_ground() && o.is_complete() && o.health * 2 < t.max_health {
                Some(Harm::Damaged)
            } else {
                None
            };
            if let Some(harm) = harm {
                let half = t.footprint.0.max(1) as f32 * cell * 0.3;
                let top = scene.model_height(o.template) * 0.85;
                smokers.push(Smoker { at: p.extend(scene.height(p)), half, top, harm });
            } else if matches!(o.kind, ObjectKind::Vehicle) && o.speed > crate::sim::fixed::Fixed::ZERO {
                let back = Vec2::from_angle(radians(o.facing)) * -4.0;
                movers.push((p + back).extend(scene.height(p) + 0.8));
            }
        }
        for _ in 0..ticks {
            self.smokers_tick(&smokers);
            for &at in &movers {
                if self.random() < 0.35 {
                    // Dust kicked up behind a moving vehicle.
                    let d = self.spread() * 1.5;
                    self.dust(at + d.extend(0.0), self.fx.sources.dust);
                }
            }
        }
    }

    /// A billow of dust kicked up at `at`: light and sandy (`kind.shade` its lightness), soft,
    /// drifting low and slowing, growing and fading to nothing over `kind.seconds`.
    pub(super) fn dust(&mut self, at: Vec3, kind: crate::defs::effects::Puff) {
        let drift = self.spread() * kind.size;
        let s = kind.shade as f32;
        let color = [s, s * 0.93, s * 0.8].map(|c| c as u8);
        self.push(Particle {
            kind: Kind::Ring,
            pos: at,
            vel: Vec3::new(drift.x, drift.y, kind.rise),
            age: 0.0,
            life: kind.seconds,
            size: (kind.size * 0.7, kind.size * 2.0),
            color,
            alpha: DUST_ALPHA,
        });
    }

    /// Whole twentieths of a second owed to the continuous sources after `dt` more (at most
    /// four at once: a long frame does not flood the picture).
    fn ticks(&mut self, dt: f32) -> u32 {
        self.owed += dt;
        let ticks = (self.owed * 20.0) as u32;
        self.owed -= ticks as f32 / 20.0;
        ticks.min(4)
    }

    /// `seconds` of smoke, fire and sparks from `smokers` alone, aged as they go (the gallery
    /// warms its damage sheets so: a still shows what a player would see after a while).
    pub fn warm(&mut self, smokers: &[Smoker], seconds: f32) {
        let steps = (seconds * 20.0) as u32;
        for _ in 0..steps {
            self.smokers_tick(smokers);
            self.age(0.05);
        }
    }

    /// One twentieth of a second of smoke, fire and sparks from each of `smokers`.
    pub(super) fn smokers_tick(&mut self, smokers: &[Smoker]) {
        let src = self.fx.sources;
        for s in smokers {
            let d = self.spread() * s.half;
            let roof = s.at + Vec3::new(d.x, d.y, s.top);
            match s.harm {
                Harm::Damaged => {
                    if self.random() < 0.5 {
                        // A grey column from one place near the middle of the roof.
                        let d = self.spread() * s.half * 0.3;
                        self.puff(s.at + Vec3::new(d.x, d.y, s.top), src.damaged);
                    }
                }
                Harm::Burning => {
                    if self.random() < 0.6 {
                        let (size, life, colour) = src.flames;
                        let size = size * (0.7 + self.random() * 0.6);
                        self.flash(roof, size, life, colour);
                    }
                    self.puff(roof + Vec3::Z * 2.0, src.burning);
                    let sp = src.sparks;
                    if self.random() < sp.chance {
                        let out = self.spread() * sp.speed * 0.4;
                        let up = sp.speed * (0.6 + self.random() * 0.6);
                        self.push(Particle {
                            kind: Kind::Spark,
                            pos: roof,
                            vel: Vec3::new(out.x, out.y, up),
                            age: 0.0,
                            life: sp.seconds,
                            size: (0.35, 0.15),
                            color: sp.colour,
                            alpha: 1.0,
                        });
                    }
                }
            }
        }
    }

    /// A thin smoke trail behind each shell in flight (`shells`: where they are now), for
    /// `dt` seconds.
    pub fn trails(&mut self, dt: f32, shells: &[Vec3]) {
        let t = self.fx.trail;
        for &at in shells {
            if self.random() < dt * t.rate {
                self.push(Particle {
                    kind: Kind::Smoke,
                    pos: at,
                    vel: Vec3::new(0.0, 0.0, 1.5),
                    age: 0.0,
                    life: t.seconds,
                    size: t.size,
                    color: t.colour,
                    alpha: t.alpha,
                });
            }
        }
    }

    /// Smoke rising from each of `sources` (ground points, each with how thick its smoke is,
    /// 0..1) for `dt` seconds: a few puffs a second each at its thickest, fewer as it thins.
    pub fn smoke_from(&mut self, dt: f32, sources: impl Iterator<Item = (Vec3, f32)>) {
        for (at, thick) in sources {
            if self.random() < dt * 3.0 * thick.clamp(0.0, 1.0) {
                let d = self.spread() * 2.0;
                self.puff(at + Vec3::new(d.x, d.y, 3.0), self.fx.sources.wreck);
            }
        }
    }
}
