//! The test switch `--debug-lie <kind>`: this machine plays honestly and, after every frame it
//! runs, also sends what a lying peer would — data for frames far in the future, commands for
//! a player it does not own, a wrong state hash, or more commands than any player sends — so
//! outside checks (and the hostile-peer tests) can see an honest machine keep its memory and
//! cut the liar off with a reason.
//!
//! Must not: be reachable except through the test switch, or change this machine's own world
//! or stream (the lies go straight to the transport).

use crate::lockstep::message::Message;
use crate::lockstep::transport::Transport;
use crate::sim::command::{Command, MAX_SELECTION, StampedCommand};
use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId};

/// Lies of each kind sent after every frame.
pub const PER_FRAME: u32 = 200;

/// What a lying machine sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lie {
    /// Counts and hashes for frames from 1,000,000 up.
    FarFuture,
    /// Commands for a player another machine owns, for frames about to run.
    Foreign,
    /// A wrong state hash for every frame run.
    Hash,
    /// Commands of its own for frames a few seconds ahead, far more than any player sends
    /// (400-object selections).
    Flood,
}

/// A `--debug-lie` name that is none of the lies.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
#[error("no lie called {0:?} (far-future, foreign, hash or flood)")]
pub struct UnknownLie(pub String);

impl std::str::FromStr for Lie {
    type Err = UnknownLie;

    fn from_str(s: &str) -> Result<Lie, UnknownLie> {
        match s {
            "far-future" => Ok(Lie::FarFuture),
            "foreign" => Ok(Lie::Foreign),
            "hash" => Ok(Lie::Hash),
            "flood" => Ok(Lie::Flood),
            other => Err(UnknownLie(other.to_string())),
        }
    }
}

/// The lies for the frame just run.
#[derive(Clone, Copy, Debug)]
pub struct Liar {
    /// The kind.
    pub lie: Lie,
    /// A player this machine owns.
    pub own: PlayerId,
    /// A player another machine owns.
    pub foreign: PlayerId,
}

impl Liar {
    /// Sends the lies for `ran` (the frame just run, whose true hash was `hash`) through
    /// `transport`, with `run_ahead` the stream's current run-ahead. Send failures are
    /// ignored: a liar cut off has nobody left to lie to.
    pub fn after<T: Transport + ?Sized>(&self, transport: &mut T, ran: Frame, hash: u64, run_ahead: u32) {
        let due = Frame(ran.0 + 1 + run_ahead);
        // Ids no honest command of this machine reaches.
        let first_id = (1 << 30) + ran.0 * PER_FRAME;
        let messages: Vec<Message> = match self.lie {
            Lie::FarFuture => (0..PER_FRAME)
                .flat_map(|k| {
                    let frame = Frame(1_000_000 + ran.0 * PER_FRAME + k);
                    [
                        Message::FrameCount { player: self.own, frame, count: 0 },
                        Message::Hash { player: self.own, frame, hash: u64::from(k) },
                    ]
                })
                .collect(),
            Lie::Foreign => (0..PER_FRAME)
                .map(|k| {
                    Message::Command(StampedCommand {
                        frame: due,
                        player: self.foreign,
                        id: CommandId(first_id + k),
                        command: Command::Stop,
                    })
                })
                .collect(),
            Lie::Hash => vec![Message::Hash { player: self.own, frame: ran, hash: !hash }],
            Lie::Flood => (0..PER_FRAME)
                .map(|k| {
                    let objects = (0..MAX_SELECTION as u64).map(ObjectId::from_bits).collect();
                    // Spread over frames it will not close for a few seconds, inside the
                    // window a peer may speak for: only the byte budget stops it.
                    Message::Command(StampedCommand {
                        frame: Frame(due.0 + 100 + k % 20),
                        player: self.own,
                        id: CommandId(first_id + k),
                        command: Command::Select { objects, add: false },
                    })
                })
                .collect(),
        };
        for m in &messages {
            let _ = transport.send(m);
        }
        let _ = transport.flush();
    }
}
