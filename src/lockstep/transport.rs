//! The seam between the I/O-free stream and whatever carries its messages (in-memory channels
//! now, QUIC for online play): every received message names the peer that sent it, peers
//! announce their arrival and departure, and a message can go to everyone or to one peer.

use std::fmt;

use thiserror::Error;

use super::message::Message;

/// A machine in the game, as its transport numbers it (0 is the host).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PeerId(pub u8);

impl fmt::Display for PeerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "peer {}", self.0)
    }
}

/// Something a transport has to tell the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportEvent {
    /// A message arrived from a peer.
    Message {
        /// Who sent it.
        from: PeerId,
        /// What it says.
        message: Message,
    },
    /// A peer is reachable.
    Connected(PeerId),
    /// A peer left, or its connection was lost; nothing more will come from it.
    Left(PeerId),
}

/// A transport failure.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The other side is gone.
    #[error("peer {0} disconnected")]
    Disconnected(PeerId),
    /// The thread that carries this machine's network traffic has stopped.
    #[error("the network thread has stopped")]
    NetworkThreadGone,
    /// Bytes arrived that are not a message.
    #[error("malformed message from peer {peer}: {message}")]
    Malformed {
        /// Who sent it.
        peer: String,
        /// What was wrong.
        message: String,
    },
    /// A message was addressed to a peer this transport does not know.
    #[error("no such peer: {0}")]
    NoSuchPeer(PeerId),
}

/// Carries stream messages between peers.
pub trait Transport {
    /// This machine's own peer id.
    fn me(&self) -> PeerId;
    /// Sends a message to every other peer.
    fn send(&mut self, message: &Message) -> Result<(), TransportError>;
    /// Sends a message to one peer.
    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError>;
    /// The next event (a message, a peer arriving or leaving), if one is waiting.
    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError>;
    /// Sends what `send` queued (a transport may gather one pump's messages into one write).
    fn flush(&mut self) -> Result<(), TransportError> {
        Ok(())
    }
}

/// A boxed transport is a transport, so a session (and the battle above it) can be written
/// once for whichever one the match uses.
impl<T: Transport + ?Sized> Transport for Box<T> {
    fn me(&self) -> PeerId {
        (**self).me()
    }

    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        (**self).send(message)
    }

    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError> {
        (**self).send_to(peer, message)
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        (**self).receive()
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        (**self).flush()
    }
}
