//! A watching machine's backlog. An observer has no players of its own, so nobody waits for
//! it: while it is slow or stalled the players run on, and what they send arrives for frames
//! far past the [`WINDOW`] the stream keeps. Those messages wait here, each peer's in the order
//! they came (a frame's commands before its count), and go to the stream as its next frame
//! comes within reach, so the observer catches up by running frames fast instead of losing
//! data.
//!
//! Must not: reorder one peer's messages, hold more than [`MAX_BACKLOG`], or judge what it
//! holds (the stream does, when a message is released).

use std::collections::{BTreeMap, VecDeque};

use thiserror::Error;

use crate::sim::ids::Frame;

use super::limits::{MAX_BACKLOG, WINDOW};
use super::message::Message;
use super::transport::PeerId;

/// The backlog is full: the watcher is too far behind, and this message was not kept.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("{peer}: a message for frame {frame} came while {MAX_BACKLOG} were waiting for this watcher to catch up")]
pub struct BacklogFull {
    /// Who sent it.
    pub peer: PeerId,
    /// The frame it was for.
    pub frame: Frame,
}

/// Messages for frames past a watcher's window, per sender, in arrival order.
#[derive(Clone, Debug, Default)]
pub struct Backlog {
    queues: BTreeMap<PeerId, VecDeque<Message>>,
    held: usize,
}

impl Backlog {
    /// The last frame a stream whose next frame is `next` takes messages for.
    pub fn horizon(next: Frame) -> Frame {
        Frame(next.0.saturating_add(WINDOW))
    }

    /// Messages waiting.
    pub fn len(&self) -> usize {
        self.held
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.held == 0
    }

    /// Takes `message` from `peer` for a stream whose next frame is `next`: given back when
    /// the stream may take it now, kept when it is for a frame past the window or the peer
    /// already has messages waiting (its order is kept).
    pub fn hold(&mut self, peer: PeerId, message: Message, next: Frame) -> Result<Option<Message>, BacklogFull> {
        let waiting = self.queues.get(&peer).is_some_and(|q| !q.is_empty());
        if !waiting && message.frame() <= Backlog::horizon(next) {
            return Ok(Some(message));
        }
        if self.held >= MAX_BACKLOG {
            return Err(BacklogFull { peer, frame: message.frame() });
        }
        self.queues.entry(peer).or_default().push_back(message);
        self.held += 1;
        Ok(None)
    }

    /// The messages a stream whose next frame is `next` may take now: each peer's from the
    /// front of its queue, up to the first still past the window.
    pub fn release(&mut self, next: Frame) -> Vec<(PeerId, Message)> {
        let horizon = Backlog::horizon(next);
        let mut out = Vec::new();
        for (&peer, queue) in &mut self.queues {
            while queue.front().is_some_and(|m| m.frame() <= horizon) {
                if let Some(m) = queue.pop_front() {
                    out.push((peer, m));
                }
            }
        }
        self.held -= out.len();
        self.queues.retain(|_, q| !q.is_empty());
        out
    }

    /// Lets go of what `peer` sent (it was cut off).
    pub fn forget(&mut self, peer: PeerId) {
        if let Some(q) = self.queues.remove(&peer) {
            self.held -= q.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::PlayerId;

    fn count(player: u8, frame: u32) -> Message {
        Message::FrameCount { player: PlayerId(player), frame: Frame(frame), count: 0 }
    }

    #[test]
    fn messages_past_the_window_wait_and_each_peers_order_is_kept() {
        let mut b = Backlog::default();
        let far = WINDOW + 10;
        assert_eq!(b.hold(PeerId(1), count(1, 5), Frame(0)), Ok(Some(count(1, 5))));
        assert_eq!(b.hold(PeerId(1), count(1, far), Frame(0)), Ok(None));
        // Within the window, but behind a message of the same peer that waits: it waits too.
        assert_eq!(b.hold(PeerId(1), count(1, 6), Frame(0)), Ok(None));
        assert_eq!(b.hold(PeerId(2), count(2, 6), Frame(0)), Ok(Some(count(2, 6))));
        assert_eq!(b.len(), 2);
        assert!(b.release(Frame(5)).is_empty(), "the front is still past the window");
        assert_eq!(b.release(Frame(10)), [(PeerId(1), count(1, far)), (PeerId(1), count(1, 6))]);
        assert!(b.is_empty());
    }

    #[test]
    fn a_full_backlog_refuses_naming_the_peer_and_frame() {
        let mut b = Backlog::default();
        for i in 0..MAX_BACKLOG as u32 {
            assert_eq!(b.hold(PeerId(1), count(1, WINDOW + 1 + i), Frame(0)), Ok(None));
        }
        let e = b.hold(PeerId(3), count(3, 999_999), Frame(0)).unwrap_err();
        assert_eq!(e, BacklogFull { peer: PeerId(3), frame: Frame(999_999) });
        assert!(e.to_string().starts_with("peer 3: a message for frame 999999"), "{e}");
        b.forget(PeerId(1));
        assert!(b.is_empty());
    }
}
