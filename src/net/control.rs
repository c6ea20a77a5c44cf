//! The control side of a transport: beside the lockstep messages the stream reads, an online
//! match carries the control protocol (hello, lobby, chat, drops, rejoin, desync digests) as
//! [`WireMessage`]s. The lobby and the in-match link are I/O-free state machines; this trait is
//! the one seam through which their drivers move messages, over QUIC or the in-memory hub, so
//! the transport has one owner (the session) and the protocol is tested without sockets.
//!
//! Must not: interpret control messages (the state machines in `online/` do), or block
//! beyond [`ControlTransport::wait`].

use std::time::Duration;

use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};

use super::nat::PathKind;
use super::wire::WireMessage;

/// Traffic counters of one transport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetStats {
    /// Payload bytes handed to the network (frames included, QUIC's own overhead not).
    pub bytes_sent: u64,
    /// Payload bytes received.
    pub bytes_received: u64,
    /// Batches that did not decode (each logged with its sender).
    pub malformed: u64,
}

/// A transport that also carries control messages, and says what it measures of its links.
/// The measuring methods default to "nothing measured" (the in-memory hub).
pub trait ControlTransport: Transport {
    /// Sends control messages to one peer, or to everyone (host) / the host (joiner).
    fn send_control(&mut self, to: Option<PeerId>, messages: &[WireMessage]) -> Result<(), TransportError>;

    /// The next control message received, with its sender.
    fn take_control(&mut self) -> Option<(PeerId, WireMessage)>;

    /// The next connect or leave event not reported through [`Transport::receive`] (before a
    /// session reads the transport: lobbies and handshakes).
    fn take_peer_event(&mut self) -> Option<TransportEvent> {
        None
    }

    /// Closes a peer's connection (the host removes a player).
    fn kick(&mut self, peer: PeerId);

    /// The game has handled `peer`'s departure (its `Left`): nothing of the old peer is in
    /// flight any more, so the host may give its number to a new connection. A transport
    /// without numbers to give ignores it.
    fn release(&mut self, _peer: PeerId) {}

    /// Blocks until something arrives or `timeout` passes (at once where nothing can arrive
    /// on its own, as in the in-memory hub).
    fn wait(&mut self, _timeout: Duration) {}

    /// Round-trip times to every connected peer.
    fn rtts(&self) -> Vec<(PeerId, Duration)> {
        Vec::new()
    }

    /// Packets lost and packets sent so far, over every link.
    fn losses(&self) -> (u64, u64) {
        (0, 0)
    }

    /// How the peers are reached, as one word.
    fn path_summary(&self) -> PathKind {
        PathKind::Lan
    }

    /// True when the host was lost without either side closing (a rejoin can take it up).
    fn link_lost(&self) -> bool {
        false
    }

    /// Traffic so far.
    fn stats(&self) -> NetStats {
        NetStats::default()
    }
}

/// A boxed control transport is one, so the window's battle holds whichever the match uses.
impl<T: ControlTransport + ?Sized> ControlTransport for Box<T> {
    fn send_control(&mut self, to: Option<PeerId>, messages: &[WireMessage]) -> Result<(), TransportError> {
        (**self).send_control(to, messages)
    }

    fn take_control(&mut self) -> Option<(PeerId, WireMessage)> {
        (**self).take_control()
    }

    fn take_peer_event(&mut self) -> Option<TransportEvent> {
        (**self).take_peer_event()
    }

    fn kick(&mut self, peer: PeerId) {
        (**self).kick(peer)
    }

    fn release(&mut self, peer: PeerId) {
        (**self).release(peer)
    }

    fn wait(&mut self, timeout: Duration) {
        (**self).wait(timeout)
    }

    fn rtts(&self) -> Vec<(PeerId, Duration)> {
        (**self).rtts()
    }

    fn losses(&self) -> (u64, u64) {
        (**self).losses()
    }

    fn path_summary(&self) -> PathKind {
        (**self).path_summary()
    }

    fn link_lost(&self) -> bool {
        (**self).link_lost()
    }

    fn stats(&self) -> NetStats {
        (**self).stats()
    }
}
