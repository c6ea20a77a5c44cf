//! An in-memory transport: endpoints joined pairwise by channels. Used for single player (one
//! endpoint) and for tests of several peers in one process, the control protocol included.
//! Each endpoint hears of every other one as connected at the start, and as left once that
//! endpoint is dropped or has kicked it.
//!
//! Must not: reorder or drop messages of one kind (tests of the stream rely on faithful
//! delivery).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use crate::lockstep::message::Message;
use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};

use super::control::ControlTransport;
use super::wire::WireMessage;

/// What travels between two endpoints.
#[derive(Debug)]
enum Carried {
    Lockstep(Message),
    Control(WireMessage),
}

/// The link to one other endpoint.
#[derive(Debug)]
struct Link {
    peer: PeerId,
    /// None once this side closed the link (a kick).
    to: Option<Sender<Carried>>,
    from: Receiver<Carried>,
    open: bool,
}

/// One peer's end of an in-memory hub.
#[derive(Debug)]
pub struct MemoryEndpoint {
    me: PeerId,
    links: Vec<Link>,
    /// Connection events not yet received.
    pending: VecDeque<TransportEvent>,
    /// Control messages read while looking for lockstep ones, in order.
    control: VecDeque<(PeerId, WireMessage)>,
    /// Lockstep messages read while looking for control ones, in order.
    lockstep: VecDeque<(PeerId, Message)>,
    /// The link to read next, so no peer starves the others.
    next: usize,
}

/// An endpoint with no peers (peer 0): a match whose every player is on this machine.
pub fn alone() -> MemoryEndpoint {
    MemoryEndpoint {
        me: PeerId(0),
        links: Vec::new(),
        pending: VecDeque::new(),
        control: VecDeque::new(),
        lockstep: VecDeque::new(),
        next: 0,
    }
}

/// Creates `n` connected endpoints; endpoint `i` is peer `i`.
pub fn hub(n: usize) -> Vec<MemoryEndpoint> {
    // channel (i → j) for every ordered pair.
    let mut senders: Vec<Vec<Option<Sender<Carried>>>> = (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
    let mut receivers: Vec<Vec<Option<Receiver<Carried>>>> = (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let (tx, rx) = channel();
                senders[i][j] = Some(tx);
                receivers[j][i] = Some(rx);
            }
        }
    }
    (0..n)
        .map(|i| {
            let links: Vec<Link> = (0..n)
                .filter(|&j| j != i)
                .filter_map(|j| {
                    let to = senders[i][j].take()?;
                    let from = receivers[i][j].take()?;
                    Some(Link { peer: PeerId(j as u8), to: Some(to), from, open: true })
                })
                .collect();
            let pending = links.iter().map(|l| TransportEvent::Connected(l.peer)).collect();
            MemoryEndpoint {
                me: PeerId(i as u8),
                links,
                pending,
                control: VecDeque::new(),
                lockstep: VecDeque::new(),
                next: 0,
            }
        })
        .collect()
}

impl MemoryEndpoint {
    /// Sends `item` to every open link (`None`) or to one peer.
    fn carry(&self, to: Option<PeerId>, item: impl Fn() -> Carried) -> Result<(), TransportError> {
        match to {
            None => {
                for l in self.links.iter().filter(|l| l.open) {
                    // A peer that has gone is reported through `receive` as `Left`; sending to
                    // it is not an error for the others.
                    if let Some(tx) = &l.to {
                        let _ = tx.send(item());
                    }
                }
                Ok(())
            }
            Some(peer) => {
                let link = self.links.iter().find(|l| l.peer == peer).ok_or(TransportError::NoSuchPeer(peer))?;
                let sent = link.to.as_ref().is_some_and(|tx| tx.send(item()).is_ok());
                if sent { Ok(()) } else { Err(TransportError::Disconnected(peer)) }
            }
        }
    }

    /// Reads the next item from the links (round robin), sorting it into its queue; a closed
    /// link becomes a `Left` event. False when nothing was waiting.
    fn read_one(&mut self) -> bool {
        let n = self.links.len();
        for k in 0..n {
            let i = (self.next + k) % n;
            let link = &mut self.links[i];
            if !link.open {
                continue;
            }
            match link.from.try_recv() {
                Ok(item) => {
                    self.next = (i + 1) % n;
                    let from = link.peer;
                    match item {
                        Carried::Lockstep(m) => self.lockstep.push_back((from, m)),
                        Carried::Control(m) => self.control.push_back((from, m)),
                    }
                    return true;
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    link.open = false;
                    self.pending.push_back(TransportEvent::Left(link.peer));
                    return true;
                }
            }
        }
        false
    }
}

impl Transport for MemoryEndpoint {
    fn me(&self) -> PeerId {
        self.me
    }

    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        self.carry(None, || Carried::Lockstep(message.clone()))
    }

    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError> {
        self.carry(Some(peer), || Carried::Lockstep(message.clone()))
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        loop {
            if let Some((from, message)) = self.lockstep.pop_front() {
                return Ok(Some(TransportEvent::Message { from, message }));
            }
            if let Some(e) = self.pending.pop_front() {
                return Ok(Some(e));
            }
            if !self.read_one() {
                return Ok(None);
            }
        }
    }
}

impl ControlTransport for MemoryEndpoint {
    /// As over QUIC, a star: the host's `None` reaches everyone, a joiner's the host alone.
    fn send_control(&mut self, to: Option<PeerId>, messages: &[WireMessage]) -> Result<(), TransportError> {
        let to = to.or((self.me != PeerId(0)).then_some(PeerId(0)));
        for m in messages {
            self.carry(to, || Carried::Control(m.clone()))?;
        }
        Ok(())
    }

    fn take_control(&mut self) -> Option<(PeerId, WireMessage)> {
        while self.control.is_empty() && self.read_one() {}
        self.control.pop_front()
    }

    /// Leaves messages queued for [`Transport::receive`] and [`ControlTransport::take_control`].
    fn take_peer_event(&mut self) -> Option<TransportEvent> {
        while self.pending.is_empty() && self.read_one() {}
        self.pending.pop_front()
    }

    /// Closes the link both ways: the peer hears that this endpoint left, and this endpoint
    /// reports the peer as left.
    fn kick(&mut self, peer: PeerId) {
        if let Some(l) = self.links.iter_mut().find(|l| l.peer == peer && l.open) {
            l.to = None;
            l.open = false;
            self.pending.push_back(TransportEvent::Left(peer));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::{Frame, PlayerId};

    fn count(player: u8, frame: u32) -> Message {
        Message::FrameCount { player: PlayerId(player), frame: Frame(frame), count: 0 }
    }

    #[test]
    fn messages_name_their_sender_and_departures_are_announced() {
        let mut ends = hub(3);
        let mut c = ends.pop().unwrap();
        let mut b = ends.pop().unwrap();
        let mut a = ends.pop().unwrap();
        let connected: Vec<_> = std::iter::from_fn(|| a.receive().unwrap()).collect();
        assert_eq!(connected, [TransportEvent::Connected(PeerId(1)), TransportEvent::Connected(PeerId(2))]);
        b.send(&count(1, 4)).unwrap();
        c.send_to(PeerId(0), &count(2, 9)).unwrap();
        let mut got: Vec<_> = std::iter::from_fn(|| a.receive().unwrap()).collect();
        got.sort_by_key(|e| format!("{e:?}"));
        assert_eq!(
            got,
            [
                TransportEvent::Message { from: PeerId(1), message: count(1, 4) },
                TransportEvent::Message { from: PeerId(2), message: count(2, 9) },
            ]
        );
        // c's direct message went to a alone.
        let to_b: Vec<_> = std::iter::from_fn(|| b.receive().unwrap())
            .filter(|e| matches!(e, TransportEvent::Message { .. }))
            .collect();
        assert!(to_b.is_empty(), "{to_b:?}");
        drop(c);
        assert_eq!(a.receive().unwrap(), Some(TransportEvent::Left(PeerId(2))));
        assert_eq!(a.receive().unwrap(), None, "a departure is announced once");
        assert!(matches!(a.send_to(PeerId(7), &count(0, 0)), Err(TransportError::NoSuchPeer(PeerId(7)))));
    }
}
