//! The transport sides of a QUIC transport: the lockstep stream's (a frame's lockstep messages
//! batched and handed to the network thread as one datagram-channel entry, arrivals decoded in
//! order) and the control protocol's (control messages on the reliable stream, peer events,
//! what QUIC measures of each link).
//!
//! Must not: interpret lockstep or control messages, or block the game thread beyond `wait`.

use std::time::Duration;

use crate::lockstep::message::Message;
use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};
use crate::net::codec::encode;
use crate::net::control::{ControlTransport, NetStats};
use crate::net::nat::PathKind;
use crate::net::wire::WireMessage;

use super::QuicTransport;
use super::io::{self, KIND_CONTROL, KIND_LOCKSTEP, Out};

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
        self.order(Out::Send { to: Some(peer), kind: KIND_LOCKSTEP, bytes })
    }

    fn flush(&mut self) -> Result<(), TransportError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        // The batch keeps its room for the next frame's messages.
        let bytes = encode(&self.batch);
        self.batch.clear();
        self.stats.bytes_sent += bytes.len() as u64 + 6;
        self.order(Out::Send { to: None, kind: KIND_LOCKSTEP, bytes })?;
        // Where this thread runs the network (it waits on it), the batch leaves now, and what
        // arrived meanwhile is read, with no other thread woken.
        if let Some(d) = &self.drive {
            d.turn();
        }
        Ok(())
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        self.drain();
        Ok(self.events.pop_front())
    }
}

impl QuicTransport {
    /// Hands `order` to the network thread. Once that thread has ended because the connection
    /// did (it says so first, as a departure with the reason), what is sent goes nowhere and
    /// is no error: the departure tells the game, in its words.
    fn order(&mut self, order: Out) -> Result<(), TransportError> {
        if self.out.send(order).is_ok() {
            return Ok(());
        }
        self.drain();
        if self.left_reason.is_some() {
            return Ok(());
        }
        Err(TransportError::NetworkThreadGone)
    }
}

impl ControlTransport for QuicTransport {
    fn send_control(&mut self, to: Option<PeerId>, messages: &[WireMessage]) -> Result<(), TransportError> {
        let bytes = encode(messages);
        self.stats.bytes_sent += bytes.len() as u64 + 6;
        self.order(Out::Send { to, kind: KIND_CONTROL, bytes })
    }

    fn take_control(&mut self) -> Option<(PeerId, WireMessage)> {
        self.drain();
        self.control.pop_front()
    }

    /// Leaves messages queued for [`Transport::receive`].
    fn take_peer_event(&mut self) -> Option<TransportEvent> {
        self.drain();
        let at = self.events.iter().position(|e| !matches!(e, TransportEvent::Message { .. }))?;
        self.events.remove(at)
    }

    fn kick(&mut self, peer: PeerId) {
        let _ = self.out.send(Out::Kick(peer));
    }

    /// The host's network thread may number a new connection `peer` again (after every
    /// other free number).
    fn release(&mut self, peer: PeerId) {
        if self.me == PeerId(0) {
            let _ = self.out.send(Out::Release(peer));
        }
    }

    fn wait(&mut self, timeout: Duration) {
        if !self.events.is_empty() || !self.control.is_empty() {
            return;
        }
        let Some(drive) = &self.drive else { return };
        // The network runs on this thread while it waits: what arrives is read here.
        let inbox = &mut self.inbox;
        if let Ok(Some(item)) = drive.wait_on(async { tokio::time::timeout(timeout, inbox.recv()).await }) {
            self.take_in(item);
        }
    }

    fn rtts(&self) -> Vec<(PeerId, Duration)> {
        self.connections.lock().map(|c| c.iter().map(|(p, c)| (*p, c.rtt())).collect()).unwrap_or_default()
    }

    /// QUIC's own count, over every connection.
    fn losses(&self) -> (u64, u64) {
        self.connections.lock().map_or((0, 0), |c| {
            c.values().map(|c| c.stats().path).fold((0, 0), |(l, s), p| (l + p.lost_packets, s + p.sent_packets))
        })
    }

    /// Relayed if any peer is, else direct if any is, else LAN.
    fn path_summary(&self) -> PathKind {
        let peers: Vec<PeerId> = self.connections.lock().map(|c| c.keys().copied().collect()).unwrap_or_default();
        let kinds: Vec<PathKind> = peers.into_iter().map(|p| self.path(p)).collect();
        if kinds.contains(&PathKind::Relayed) {
            PathKind::Relayed
        } else if kinds.contains(&PathKind::Direct) {
            PathKind::Direct
        } else {
            PathKind::Lan
        }
    }

    /// An outage longer than the idle timeout: the game may still run at the host.
    fn link_lost(&self) -> bool {
        self.left_reason.as_deref() == Some(io::LINK_LOST)
    }

    fn stats(&self) -> NetStats {
        self.stats
    }
}
