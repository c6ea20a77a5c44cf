//! What the battle sounds like to its player: each frame's events heard from the camera (only
//! what the shroud shows), the player's own announcements, a radio chirp when units are
//! selected or ordered, and how much fighting is on screen for the music. The client takes the
//! sounds each frame and hands them to the mixer.
//!
//! Must not: play anything (the client owns the mixer) or change the game.

use glam::Vec2;

use crate::audio::cues::{self, Heard};
use crate::audio::{Ear, Placement};
use crate::sim::Command;
use crate::sim::event::GameEvent;

use super::Battle;

/// Seconds between two acknowledgements (rapid clicks chirp once).
const ACK_GAP: f32 = 0.25;

/// The battle's sound state (display state, never read by the game).
#[derive(Default)]
pub(super) struct Sounds {
    cues: cues::Cues,
    heard: Vec<Heard>,
    last_ack: Option<f32>,
}

impl Battle {
    /// Where the player listens from: the ground at the middle of the screen, the screen's
    /// right along the ground, and half the ground width it shows.
    pub fn ear(&self) -> Ear {
        let screen = self.pic.view.screen;
        let centre = self.pic.view.camera.target.truncate();
        let left = self.pic.view.ground_under(Vec2::new(0.0, screen.y * 0.5), &self.scene);
        let right = self.pic.view.ground_under(Vec2::new(screen.x, screen.y * 0.5), &self.scene);
        match (left, right) {
            (Some(l), Some(r)) if (r - l).length() > 1.0 => {
                let across = r - l;
                let dir = across.normalize();
                Ear { right: dir.to_array(), ..Ear::new(centre.to_array(), across.length() * 0.5) }
            }
            _ => Ear::new(centre.to_array(), 320.0),
        }
    }

    /// Turns a frame's events into sounds for the player.
    pub(super) fn hear_events(&mut self, events: &[GameEvent]) {
        let ear = self.ear();
        let frame = self.world().frame().0;
        let shroud = &self.pic.shroud;
        let visible = |p: [f32; 2]| shroud.at(Vec2::from_array(p)) == crate::game::shroud::VISIBLE;
        let defs = &self.play.game.content.defs;
        let heard = self.pic.sounds.cues.note(defs, events, frame, Some(self.play.local), &ear, visible);
        self.pic.sounds.heard.extend(heard);
    }

    /// A unit's radio chirp for the player's own selection or order.
    pub(super) fn acknowledge(&mut self, command: &Command) {
        let ordered = match command {
            Command::Select { objects, .. } if !objects.is_empty() => false,
            Command::Move { .. }
            | Command::AttackMove { .. }
            | Command::Attack { .. }
            | Command::Gather { .. }
            | Command::Guard { .. } => true,
            _ => return,
        };
        if self.pic.sounds.last_ack.is_some_and(|t| self.play.elapsed - t < ACK_GAP) {
            return;
        }
        let first = match command {
            Command::Select { objects, .. } => objects.first().copied(),
            _ => self.pic.selection.ids.first().copied(),
        };
        let Some(template) = first.and_then(|id| self.world().object(id)).map(|o| o.template) else { return };
        if let Some(name) = cues::acknowledgement(&self.play.game.content.defs, template, ordered) {
            self.pic.sounds.last_ack = Some(self.play.elapsed);
            self.pic.sounds.heard.push(Heard { name: name.to_string(), at: Placement::FLAT });
        }
    }

    /// The sounds heard since the last call, oldest first.
    pub fn take_heard(&mut self) -> Vec<Heard> {
        std::mem::take(&mut self.pic.sounds.heard)
    }

    /// How much fighting the player hears, 0–1 (for the music).
    pub fn intensity(&self) -> f32 {
        self.pic.sounds.cues.intensity()
    }
}
