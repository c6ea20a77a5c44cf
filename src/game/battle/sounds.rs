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

use crate::sim::ids::ObjectId;
use crate::sim::{PlayerId, World};

use super::super::shroud::Shroud;

/// Seconds between two acknowledgements (rapid clicks chirp once).
const ACK_GAP: f32 = 0.25;

/// The battle's sound state (display state, never read by the game).
#[derive(Default)]
pub(super) struct Sounds {
    cues: cues::Cues,
    heard: Vec<Heard>,
    last_ack: Option<f32>,
}

impl Sounds {
    /// Turns a frame's events into sounds heard from `ear`, only where `shroud` shows them.
    #[allow(clippy::too_many_arguments)]
    pub fn hear(
        &mut self,
        events: &[GameEvent],
        defs: &crate::defs::Definitions,
        frame: u32,
        local: PlayerId,
        ear: &Ear,
        shroud: &Shroud,
    ) {
        let visible = |p: [f32; 2]| shroud.at(Vec2::from_array(p)) == crate::game::shroud::VISIBLE;
        let heard = self.cues.note(defs, events, frame, Some(local), ear, visible);
        self.heard.extend(heard);
    }

    /// A unit's radio chirp for the player's own selection or order: `command`, given with
    /// `selected` first in the selection, at `now` (battle seconds).
    pub fn acknowledge(
        &mut self,
        command: &Command,
        selected: Option<ObjectId>,
        world: &World,
        defs: &crate::defs::Definitions,
        now: f32,
    ) {
        let ordered = match command {
            Command::Select { objects, .. } if !objects.is_empty() => false,
            Command::Move { .. }
            | Command::AttackMove { .. }
            | Command::Attack { .. }
            | Command::Gather { .. }
            | Command::Guard { .. } => true,
            _ => return,
        };
        if self.last_ack.is_some_and(|t| now - t < ACK_GAP) {
            return;
        }
        let first = match command {
            Command::Select { objects, .. } => objects.first().copied(),
            _ => selected,
        };
        let Some(template) = first.and_then(|id| world.object(id)).map(|o| o.template) else { return };
        if let Some(name) = cues::acknowledgement(defs, template, ordered) {
            self.last_ack = Some(now);
            self.heard.push(Heard { name: name.to_string(), at: Placement::FLAT });
        }
    }

    /// The sounds heard since the last call, oldest first.
    pub fn take_heard(&mut self) -> Vec<Heard> {
        std::mem::take(&mut self.heard)
    }

    /// How much fighting the player hears, 0–1 (for the music).
    pub fn intensity(&self) -> f32 {
        self.cues.intensity()
    }
}
