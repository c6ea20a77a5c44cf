//! The lockstep stream's side of a QUIC transport: a frame's lockstep messages batched and
//! handed to the network thread as one datagram-channel entry, arrivals decoded in order.
//!
//! Must not: interpret lockstep messages (the stream does), or block the game thread.

use crate::lockstep::message::Message;
use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};
use crate::net::codec::encode;
use crate::net::wire::WireMessage;

use super::QuicTransport;
use super::io::{KIND_LOCKSTEP, Out};

impl Transport for QuicTransport {
    fn me(&self) -> PeerId {
        self.me
    }

    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        self.batch.push(WireMessage::Lockstep(message.clone()));
        Ok(())
    }

    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError> {
        let bytes = encode(&[WireMessage::Lockstep(message.clone())]);
        self.stats.bytes_sent += bytes.len() as u64 + 6;
        self.out
            .send(Out::Send { to: Some(peer), kind: KIND_LOCKSTEP, bytes })
            .map_err(|_| TransportError::Disconnected("the network thread".into()))
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let bytes = encode(&std::mem::take(&mut self.batch));
        self.stats.bytes_sent += bytes.len() as u64 + 6;
        self.out
            .send(Out::Send { to: None, kind: KIND_LOCKSTEP, bytes })
            .map_err(|_| TransportError::Disconnected("the network thread".into()))
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        self.drain();
        Ok(self.events.pop_front())
    }
}
