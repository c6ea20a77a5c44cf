//! What the stream refuses of a peer or detects, each naming the player and frame, with a
//! short kind for counts and a severity that says how much it weighs against the sender.
//!
//! Must not: decide what happens to a sender (the session's violations do).

use thiserror::Error;

use crate::sim::ids::{Frame, PlayerId};

use super::limits::{MAX_PENDING_BYTES, WINDOW};

/// A problem the stream refuses or detects.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum StreamError {
    /// A command was submitted for a player this machine does not control.
    #[error("player {0} is not local to this machine")]
    NotLocal(PlayerId),
    /// A message names a player not in the game.
    #[error("message from unknown player {player} for frame {frame}")]
    UnknownPlayer {
        /// Named player.
        player: PlayerId,
        /// Its frame.
        frame: Frame,
    },
    /// A peer sent something for a player this machine controls.
    #[error("peer sent data for local player {player} (frame {frame})")]
    Spoofed {
        /// Named player.
        player: PlayerId,
        /// Its frame.
        frame: Frame,
    },
    /// Data arrived for a frame already executed.
    #[error("player {player}: data for frame {frame} arrived after it was executed")]
    Late {
        /// Sender.
        player: PlayerId,
        /// Its frame.
        frame: Frame,
    },
    /// A player declared two different counts for one frame, or sent more commands than it
    /// declared.
    #[error("player {player}: inconsistent command count for frame {frame}")]
    Inconsistent {
        /// Sender.
        player: PlayerId,
        /// Its frame.
        frame: Frame,
    },
    /// A resume was asked for while no pause was in force.
    #[error("player {0}: nothing to resume, the game is not paused")]
    NotPaused(PlayerId),
    /// Data for a frame further ahead than any honest peer can be ([`WINDOW`]).
    #[error("player {player}: data for frame {frame}, more than {WINDOW} frames past the next to run ({next})")]
    TooFarAhead {
        /// Sender.
        player: PlayerId,
        /// Its frame.
        frame: Frame,
        /// The next frame to run here.
        next: Frame,
    },
    /// More commands waiting to run than any honest player sends ([`MAX_PENDING_BYTES`]).
    #[error("player {player}: more than {MAX_PENDING_BYTES} bytes of commands waiting to run (frame {frame})")]
    TooManyCommands {
        /// Sender.
        player: PlayerId,
        /// The frame of the command refused.
        frame: Frame,
    },
}

impl StreamError {
    /// A short name for the kind of refusal (for counts and logs).
    pub fn kind(&self) -> &'static str {
        match self {
            StreamError::NotLocal(_) => "not local",
            StreamError::UnknownPlayer { .. } => "unknown player",
            StreamError::Spoofed { .. } => "spoofed",
            StreamError::Late { .. } => "late",
            StreamError::Inconsistent { .. } => "inconsistent",
            StreamError::NotPaused(_) => "not paused",
            StreamError::TooFarAhead { .. } => "too far ahead",
            StreamError::TooManyCommands { .. } => "too many commands",
        }
    }

    /// How much a refusal from a peer counts against it: 0 for what an honest peer can send
    /// (data that turns late around a departure), [`VIOLATION_BUDGET`] for what only a lying
    /// peer sends (beyond the window, over the byte budget, counts that contradict the
    /// commands: it is cut at once), 1 for the rest (a message for a player not its own).
    pub fn severity(&self) -> u32 {
        match self {
            StreamError::Late { .. } | StreamError::NotPaused(_) | StreamError::NotLocal(_) => 0,
            StreamError::TooFarAhead { .. }
            | StreamError::TooManyCommands { .. }
            | StreamError::Inconsistent { .. } => VIOLATION_BUDGET,
            StreamError::UnknownPlayer { .. } | StreamError::Spoofed { .. } => 1,
        }
    }
}

/// Violations (see [`StreamError::severity`]) a peer may commit before it is cut off.
pub const VIOLATION_BUDGET: u32 = 64;
