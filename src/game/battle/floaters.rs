//! Words that rise from the battlefield and fade, made from the tick's events: the money a
//! gatherer brings in ("+$75" where it unloads) and a unit's new veterancy rank ("Veteran"
//! over it). Only the local player's own, so they are always where it can see.
//!
//! Must not: read anything but the events and what is needed to place them (it never guesses
//! what happened from state), or outlive its few seconds.

use glam::Vec3;

use crate::sim::PlayerId;
use crate::sim::event::GameEvent;
use crate::ui::draw::DrawCmd;

use super::super::display::to_display;
use super::super::scene::Scene;
use super::status::RANKS;
use super::view::View;

/// Seconds a floater stays on screen.
pub(super) const FLOAT_SECONDS: f32 = 1.8;
/// World units a floater rises over its life.
const RISE: f32 = 14.0;
/// Height above the ground where a floater starts (world units).
const START_HEIGHT: f32 = 12.0;
/// Text size in pixels.
const PX: f32 = 15.0;
/// Most floaters at once (the oldest go first).
const MOST: usize = 24;

/// One rising word.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Floater {
    /// What it says.
    pub text: String,
    /// Where it started, in world units.
    pub at: Vec3,
    /// Seconds since it appeared.
    pub age: f32,
    /// Its colour at full strength.
    pub color: [u8; 4],
}

impl Floater {
    /// How far it has risen (world units) and how opaque it is (0–1) at its age: it rises
    /// steadily, holds full strength for the first half and fades out over the second.
    pub fn rise_and_alpha(&self) -> (f32, f32) {
        let t = (self.age / FLOAT_SECONDS).clamp(0.0, 1.0);
        (RISE * t, (2.0 - 2.0 * t).min(1.0))
    }
}

/// The floaters on screen.
#[derive(Clone, Debug, Default)]
pub(super) struct Floaters {
    pub items: Vec<Floater>,
}

impl Floaters {
    /// Adds the floaters of one frame's events that are `local`'s.
    pub fn note(&mut self, events: &[GameEvent], scene: &Scene, local: PlayerId) {
        for e in events {
            let (text, at, color) = match e {
                GameEvent::MoneyReceived { player, amount, at } if *player == local && *amount > 0 => {
                    (format!("+${amount}"), *at, [120, 235, 110, 255])
                }
                GameEvent::Promoted { owner, rank, at, .. } if *owner == local => {
                    let Some(name) = (*rank as usize).checked_sub(1).and_then(|i| RANKS.get(i)) else { continue };
                    (name.to_string(), *at, [245, 205, 70, 255])
                }
                _ => continue,
            };
            let p = to_display(at);
            self.items.push(Floater { text, at: Vec3::new(p.x, p.y, scene.height(p) + START_HEIGHT), age: 0.0, color });
        }
        let extra = self.items.len().saturating_sub(MOST);
        self.items.drain(..extra);
    }

    /// Lets `dt` seconds pass; spent floaters go.
    pub fn age(&mut self, dt: f32) {
        for f in &mut self.items {
            f.age += dt;
        }
        self.items.retain(|f| f.age < FLOAT_SECONDS);
    }

    /// Each floater as text over the world, centred on where it has risen to.
    pub fn draw(&self, view: &View, out: &mut Vec<DrawCmd>) {
        for f in &self.items {
            let (rise, alpha) = f.rise_and_alpha();
            let Some(px) = view.project(f.at + Vec3::Z * rise) else { continue };
            // About half its size a character wide (the overlay has no font to measure with).
            let width = f.text.chars().count() as f32 * PX * 0.55;
            let [r, g, b, a] = f.color;
            out.push(DrawCmd::Text {
                x: px.x - width / 2.0,
                y: px.y - PX,
                text: f.text.clone(),
                px: PX,
                bold: true,
                color: [r, g, b, (a as f32 * alpha) as u8],
                shadow: Some([0, 0, 0, (220.0 * alpha) as u8]),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floater(age: f32) -> Floater {
        Floater { text: "+$75".into(), at: Vec3::ZERO, age, color: [0; 4] }
    }

    #[test]
    fn a_floater_rises_holds_then_fades_and_goes() {
        assert_eq!(floater(0.0).rise_and_alpha(), (0.0, 1.0));
        let (rise, alpha) = floater(FLOAT_SECONDS * 0.25).rise_and_alpha();
        assert_eq!(alpha, 1.0, "full strength in its first half");
        assert!((rise - RISE * 0.25).abs() < 1e-4);
        let (late_rise, late_alpha) = floater(FLOAT_SECONDS * 0.75).rise_and_alpha();
        assert!(late_rise > rise && (late_alpha - 0.5).abs() < 1e-4, "{late_rise} {late_alpha}");
        let mut f = Floaters { items: vec![floater(0.0), floater(FLOAT_SECONDS - 0.1)] };
        f.age(0.2);
        assert_eq!(f.items.len(), 1, "the older one is spent");
        assert!((f.items[0].age - 0.2).abs() < 1e-6);
    }
}
