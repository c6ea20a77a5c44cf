//! The particles as the world pass draws them: soft puffs facing the camera (smoke, fire,
//! sparks, chips, an explosion's light), rayed stars for muzzle flashes (added to the
//! picture), and marks lying on the ground — ragged scorches and an explosion's running
//! ring of dust.
//!
//! Must not: change the particles (it only reads them).

use crate::render::world::SpriteInstance;

use super::{Kind, Particles};

/// An sRGB channel in linear light.
pub(in super::super) fn linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

impl Particles {
    /// Every live particle and scorch as a sprite in the world (the world pass sorts and
    /// depth-tests them, so a building hides the smoke behind it; marks on the ground go
    /// under the rest).
    pub fn sprites(&self) -> Vec<SpriteInstance> {
        let mut out = Vec::with_capacity(self.list.len() + self.scorches.len());
        let seconds = self.fx.scorch.seconds;
        for s in &self.scorches {
            // Fades over its last third.
            let fade = (1.0 - (s.age / seconds - 0.66).max(0.0) * 3.0).clamp(0.0, 1.0);
            let alpha = self.fx.scorch.alpha * fade;
            out.push(SpriteInstance::new(
                s.at.to_array(),
                s.radius,
                [0.012, 0.01, 0.008, alpha],
                SpriteInstance::SCORCH,
            ));
        }
        for p in &self.list {
            let k = (p.age / p.life).clamp(0.0, 1.0);
            let wave = self.fx.explosion.ring.wave;
            // A shock ring bursts out and slows; the rest grow evenly.
            let run = if p.kind == Kind::Shock { wave.run(k) } else { k };
            let radius = p.size.0 + (p.size.1 - p.size.0) * run;
            let alpha = match p.kind {
                Kind::Glow | Kind::Light | Kind::Spark | Kind::Star => p.alpha * (1.0 - k * k),
                // Smoke thickens fast, hangs, then thins out over the last part of its life.
                Kind::Smoke => p.alpha * ((1.0 - k) * 1.7).min(1.0) * (k * 8.0).min(1.0),
                // Dust thins away as it spreads: nearly gone before it settles, never a pale
                // stain left lying.
                Kind::Ring => p.alpha * (1.0 - k).powf(1.6) * (k * 10.0).min(1.0),
                // A shock ring thins as its band spreads (the dust it carries is the same).
                Kind::Shock => p.alpha * (1.0 - k).powf(1.3) * (k * 12.0).min(1.0),
                Kind::Debris => p.alpha,
            };
            // Glows are brighter than any lit surface: they give light.
            let bright = match p.kind {
                Kind::Glow | Kind::Spark => 1.6,
                Kind::Star => 2.4,
                _ => 1.0,
            };
            let [r, g, b] = p.color.map(|c| linear(c) * bright);
            // A light and a flash add to what is under them (the shader reads a negative
            // opacity so).
            let alpha = alpha.clamp(0.0, 1.0);
            let (alpha, shape) = match p.kind {
                Kind::Light => (-alpha, SpriteInstance::PUFF),
                Kind::Star => (-alpha, SpriteInstance::STAR),
                Kind::Shock => (alpha, SpriteInstance::RING),
                Kind::Ring => (alpha, SpriteInstance::DUST),
                _ => (alpha, SpriteInstance::PUFF),
            };
            let mut sprite = SpriteInstance::new(p.pos.to_array(), radius, [r, g, b, alpha], shape);
            if p.kind == Kind::Shock {
                // The ring's band width and age, for its shape in the shader.
                sprite.shape[0] = wave.band(k);
                sprite.shape[1] = k;
            } else if p.kind == Kind::Ring {
                // Its age: the billow breaks up as it goes.
                sprite.shape[1] = k;
            }
            out.push(sprite);
        }
        out
    }
}
