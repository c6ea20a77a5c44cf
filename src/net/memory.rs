//! An in-memory transport: endpoints joined pairwise by channels. Used for single player (one
//! endpoint) and for tests of several peers in one process. Each endpoint hears of every other
//! one as connected at the start, and as left once that endpoint is dropped.
//!
//! Must not: reorder or drop messages (tests of the stream rely on faithful delivery).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use crate::lockstep::message::Message;
use crate::lockstep::transport::{PeerId, Transport, TransportError, TransportEvent};

/// The link to one other endpoint.
#[derive(Debug)]
struct Link {
    peer: PeerId,
    to: Sender<Message>,
    from: Receiver<Message>,
    open: bool,
}

/// One peer's end of an in-memory hub.
#[derive(Debug)]
pub struct MemoryEndpoint {
    me: PeerId,
    links: Vec<Link>,
    /// Connection events not yet received.
    pending: VecDeque<TransportEvent>,
    /// The link to read next, so no peer starves the others.
    next: usize,
}

/// Creates `n` connected endpoints; endpoint `i` is peer `i`.
pub fn hub(n: usize) -> Vec<MemoryEndpoint> {
    // channel (i → j) for every ordered pair.
    let mut senders: Vec<Vec<Option<Sender<Message>>>> = (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
    let mut receivers: Vec<Vec<Option<Receiver<Message>>>> = (0..n).map(|_| (0..n).map(|_| None).collect()).collect();
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
                    Some(Link { peer: PeerId(j as u8), to, from, open: true })
                })
                .collect();
            let pending = links.iter().map(|l| TransportEvent::Connected(l.peer)).collect();
            MemoryEndpoint { me: PeerId(i as u8), links, pending, next: 0 }
        })
        .collect()
}

impl Transport for MemoryEndpoint {
    fn me(&self) -> PeerId {
        self.me
    }

    fn send(&mut self, message: &Message) -> Result<(), TransportError> {
        for l in self.links.iter().filter(|l| l.open) {
            // A peer that has gone is reported through `receive` as `Left`; sending to it is
            // not an error for the others.
            let _ = l.to.send(message.clone());
        }
        Ok(())
    }

    fn send_to(&mut self, peer: PeerId, message: &Message) -> Result<(), TransportError> {
        let link = self.links.iter().find(|l| l.peer == peer).ok_or(TransportError::NoSuchPeer(peer))?;
        link.to.send(message.clone()).map_err(|_| TransportError::Disconnected(peer.to_string()))
    }

    fn receive(&mut self) -> Result<Option<TransportEvent>, TransportError> {
        if let Some(e) = self.pending.pop_front() {
            return Ok(Some(e));
        }
        let n = self.links.len();
        for k in 0..n {
            let i = (self.next + k) % n;
            let link = &mut self.links[i];
            if !link.open {
                continue;
            }
            match link.from.try_recv() {
                Ok(message) => {
                    self.next = (i + 1) % n;
                    return Ok(Some(TransportEvent::Message { from: link.peer, message }));
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    link.open = false;
                    return Ok(Some(TransportEvent::Left(link.peer)));
                }
            }
        }
        Ok(None)
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
