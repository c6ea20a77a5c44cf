//! Per frame and player: the declared command count and the commands received, and whether
//! the frame can run.

use std::collections::BTreeMap;

use crate::sim::command::StampedCommand;
use crate::sim::ids::{CommandId, PlayerId};

/// One player's part of one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlayerFrame {
    /// How many commands the player says it stamped for the frame, once it has said.
    pub declared: Option<u32>,
    /// Commands received, by number (a duplicate replaces nothing).
    pub commands: BTreeMap<CommandId, StampedCommand>,
}

/// The state of one player's part of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameState {
    /// Count known and every command present.
    Ready,
    /// Still waiting for the count or for commands.
    NotReady,
    /// More commands than declared: the data is inconsistent.
    TooMany,
}

impl PlayerFrame {
    /// Compares what was declared with what arrived.
    pub fn state(&self) -> FrameState {
        match self.declared {
            None => FrameState::NotReady,
            Some(n) if self.commands.len() as u32 == n => FrameState::Ready,
            Some(n) if self.commands.len() as u32 > n => FrameState::TooMany,
            Some(_) => FrameState::NotReady,
        }
    }
}

/// Every player's part of one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrameData {
    /// By player.
    pub players: BTreeMap<PlayerId, PlayerFrame>,
}
