//! A session: one machine's world, its message stream, the transport to its peers and the
//! controllers of its local players, stepped one logic frame at a time.
//!
//! Every command goes controller → stream → (peers) → stream → world, in single player too.
//! Must not: let anything change the world except `World::tick` with the stream's commands.

use thiserror::Error;

use crate::lockstep::stream::{Stream, StreamError};
use crate::lockstep::transport::{Transport, TransportError};
use crate::sim::hash::StateHash;
use crate::sim::ids::Frame;
use crate::sim::world::{TickReport, World};

use super::controller::Controller;

/// A session that cannot go on.
#[derive(Debug, Error)]
pub enum SessionError {
    /// The transport failed.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// A controller produced a command the stream refused.
    #[error(transparent)]
    Stream(#[from] StreamError),
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A frame was executed.
    Ticked {
        /// The frame executed.
        frame: Frame,
        /// The state hash after it.
        hash: StateHash,
        /// What happened in it.
        report: TickReport,
    },
    /// Waiting for peers' data for the next frame.
    Waiting,
}

/// One machine's running game.
pub struct Session<T: Transport> {
    world: World,
    stream: Stream,
    transport: T,
    controllers: Vec<Box<dyn Controller>>,
    thought_for: Option<Frame>,
}

impl<T: Transport> Session<T> {
    /// Joins the parts; controllers must speak for players local to the stream.
    pub fn new(world: World, stream: Stream, transport: T, controllers: Vec<Box<dyn Controller>>) -> Session<T> {
        Session { world, stream, transport, controllers, thought_for: None }
    }

    /// Lets controllers act for the current frame (once), exchanges messages, and executes the
    /// next frame if everyone's commands for it are in.
    pub fn step(&mut self) -> Result<Step, SessionError> {
        let frame = self.world.frame();
        if self.thought_for != Some(frame) {
            self.thought_for = Some(frame);
            for c in &mut self.controllers {
                for command in c.think(&self.world) {
                    self.stream.submit(c.player(), command)?;
                }
            }
        }
        self.pump()?;
        let Some((ready, commands)) = self.stream.take_ready() else {
            return Ok(Step::Waiting);
        };
        debug_assert_eq!(ready, frame, "stream and world agree on the frame");
        let report = self.world.tick(&commands);
        let hash = self.world.state_hash();
        self.stream.record_hash(ready, hash.total);
        self.pump()?;
        Ok(Step::Ticked { frame: ready, hash, report })
    }

    /// Sends what the stream has queued and feeds it what has arrived. Bad messages are refused
    /// by the stream (and kept in its error list); they do not stop the session.
    pub fn pump(&mut self) -> Result<(), SessionError> {
        while let Some(m) = self.stream.poll_outgoing() {
            self.transport.send(&m)?;
        }
        while let Some(m) = self.transport.receive()? {
            let _ = self.stream.receive(m);
        }
        Ok(())
    }

    /// The world (read-only: renderer, UI and tools look, never touch).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The stream.
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// Mutable world access for determinism tests that corrupt one peer on purpose.
    #[doc(hidden)]
    pub fn world_mut_for_tests(&mut self) -> &mut World {
        &mut self.world
    }
}
