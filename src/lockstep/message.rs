//! What peers say to each other under lockstep: commands, per-frame command counts,
//! per-frame state hashes and changes of pace.

use serde::{Deserialize, Serialize};

use crate::sim::command::StampedCommand;
use crate::sim::ids::{Frame, PlayerId};

use super::pace::PaceChange;

/// One message of the lockstep protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Message {
    /// A command, already stamped with its issuer, number and execution frame.
    Command(StampedCommand),
    /// "I am done with `frame`: expect `count` commands from `player` for it."
    FrameCount {
        /// The issuer.
        player: PlayerId,
        /// The closed frame.
        frame: Frame,
        /// How many commands the issuer stamped for it.
        count: u32,
    },
    /// The sender's state hash after executing `frame`.
    Hash {
        /// The sending peer's first local player.
        player: PlayerId,
        /// The frame executed.
        frame: Frame,
        /// Its total state hash.
        hash: u64,
    },
    /// A change of pace: a pause or speed change after `frame`, or the end of the pause
    /// after `frame` (`pace.rs`).
    Pace {
        /// Who asks.
        player: PlayerId,
        /// The frame it is stamped for.
        frame: Frame,
        /// What changes.
        change: PaceChange,
    },
}

impl Message {
    /// The player the message speaks for.
    pub fn speaker(&self) -> PlayerId {
        match self {
            Message::Command(c) => c.player,
            Message::FrameCount { player, .. } | Message::Hash { player, .. } | Message::Pace { player, .. } => *player,
        }
    }

    /// The frame the message is for.
    pub fn frame(&self) -> Frame {
        match self {
            Message::Command(c) => c.frame,
            Message::FrameCount { frame, .. } | Message::Hash { frame, .. } | Message::Pace { frame, .. } => *frame,
        }
    }
}
