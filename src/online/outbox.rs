//! What a machine's control protocol has to do on the network, as values: messages for one
//! peer or everyone, and connections to close. The lobby's and the match's state machines
//! queue them here; their drivers carry them out.
//!
//! Must not: do I/O.

use std::collections::VecDeque;

use crate::lockstep::transport::PeerId;
use crate::net::wire::WireMessage;

/// Something this machine has to do on the network.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// Send `messages` to one peer, or to everyone (host) / the host (joiner).
    Send {
        /// The peer, or everyone.
        to: Option<PeerId>,
        /// What to send, in order.
        messages: Vec<WireMessage>,
    },
    /// Close a peer's connection (the host removes a machine).
    Kick(PeerId),
}

/// The queue of what a machine has to do on the network.
#[derive(Debug, Default)]
pub struct Outbox(VecDeque<Outgoing>);

impl Outbox {
    /// Queues `messages` for `to` (one peer, or everyone).
    pub fn send(&mut self, to: Option<PeerId>, messages: Vec<WireMessage>) {
        if !messages.is_empty() {
            self.0.push_back(Outgoing::Send { to, messages });
        }
    }

    /// Queues closing `peer`'s connection.
    pub fn kick(&mut self, peer: PeerId) {
        self.0.push_back(Outgoing::Kick(peer));
    }

    /// The next thing to do, oldest first.
    pub fn pop(&mut self) -> Option<Outgoing> {
        self.0.pop_front()
    }
}
