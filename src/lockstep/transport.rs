//! The seam between the I/O-free stream and whatever carries its messages (in-memory channels
//! now, QUIC later).

use thiserror::Error;

use super::message::Message;

/// A transport failure.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The other side is gone.
    #[error("peer {0} disconnected")]
    Disconnected(String),
    /// Bytes arrived that are not a message.
    #[error("malformed message from peer {peer}: {message}")]
    Malformed {
        /// Who sent it.
        peer: String,
        /// What was wrong.
        message: String,
    },
}

/// Carries stream messages between peers. Sending broadcasts to every other peer.
pub trait Transport {
    /// Sends a message to all peers.
    fn send(&mut self, message: &Message) -> Result<(), TransportError>;
    /// The next received message, if one is waiting.
    fn receive(&mut self) -> Result<Option<Message>, TransportError>;
}
