//! The one QUIC transport of a match, shared on the game thread between the session (lockstep
//! messages) and the online code around it (control messages, waiting, round trips).
//!
//! Must not: be used from another thread, or hold the transport across a call.

use crate::lockstep::message::Message;
use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};

use super::QuicTransport;

/// A QUIC transport shared on the game thread between the session (which sends and receives
/// lockstep messages through it) and the online code around the session (control messages,
/// waiting, round-trip times).
#[derive(Clone)]
pub struct SharedQuic(std::rc::Rc<std::cell::RefCell<QuicTransport>>);

impl std::fmt::Debug for SharedQuic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedQuic")
    }
}

impl SharedQuic {
    /// Shares a transport.
    pub fn new(t: QuicTransport) -> SharedQuic {
        SharedQuic(std::rc::Rc::new(std::cell::RefCell::new(t)))
    }

    /// Runs `f` on the transport; None if it is in use further up the stack (never, used as
    /// intended: one call at a time on one thread).
    pub fn with<R>(&self, f: impl FnOnce(&mut QuicTransport) -> R) -> Option<R> {
        self.0.try_borrow_mut().ok().map(|mut t| f(&mut t))
    }
}

impl Transport for SharedQuic {
    fn me(&self) -> PeerId {
        self.0.try_borrow().map_or(PeerId(u8::MAX), |t| t.me())
    }

    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        self.with(|t| t.send(message)).unwrap_or_else(|| Err(TransportError::Disconnected("busy".into())))
    }

    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError> {
        self.with(|t| t.send_to(peer, message)).unwrap_or_else(|| Err(TransportError::Disconnected("busy".into())))
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        self.with(|t| t.receive()).unwrap_or(Ok(None))
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        self.with(|t| t.flush()).unwrap_or(Ok(()))
    }
}
