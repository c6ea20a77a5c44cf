//! Lockstep traffic as QUIC datagrams that still arrive: a per-connection channel, I/O-free,
//! in the manner of Generals and GGPO. Every entry (one pump's lockstep batch, stamped with the
//! machine it came from) gets a sequence number and is repeated in every datagram until the
//! other side acknowledges it, so one lost datagram costs a frame's delay, not a round trip
//! and everything queued behind it (as on a reliable stream). Each datagram carries the
//! acknowledgement of what this side received; duplicates are dropped and a gap is waited
//! for here, so the stream above sees each entry once and in order, as on a reliable stream.
//!
//! Wire: `[ack varint][count varint]` then per entry `[seq varint][origin u8][len varint][bytes]`.
//!
//! Must not: read the clock or a socket (the network thread sends what [`Channel::datagrams`]
//! gives and hands in what arrives), or interpret an entry's bytes.

use std::collections::{BTreeMap, VecDeque};

use crate::lockstep::transport::PeerId;
use crate::net::codec::{DecodeError, bytes::Reader, bytes::varint};

/// Most entries waiting for an acknowledgement before the oldest are dropped (the link is
/// then long gone: the session's own departure handling takes over).
pub const MAX_UNACKED: usize = 4096;

/// Most datagrams one call to [`Channel::datagrams`] makes (a catch-up after an outage goes
/// out over a few ticks).
pub const MAX_BURST: usize = 16;

/// An entry for the other side: the machine it came from and its bytes.
pub type Entry = (PeerId, Vec<u8>);

/// One side of a connection's datagram channel.
#[derive(Debug, Default)]
pub struct Channel {
    next_seq: u64,
    /// Sent, not yet acknowledged: (seq, origin, bytes).
    unacked: VecDeque<(u64, PeerId, Vec<u8>)>,
    /// Every seq below this has arrived and been handed on.
    received_below: u64,
    /// Entries that came ahead of a gap, by seq.
    waiting: BTreeMap<u64, Entry>,
    /// The acknowledgement last sent, to know when a bare one is due.
    ack_sent: u64,
}

impl Channel {
    /// Queues `bytes` from `origin` to go out in the next datagrams until acknowledged.
    pub fn push(&mut self, origin: PeerId, bytes: Vec<u8>) {
        if bytes.is_empty() {
            return;
        }
        self.unacked.push_back((self.next_seq, origin, bytes));
        self.next_seq += 1;
        while self.unacked.len() > MAX_UNACKED {
            self.unacked.pop_front();
        }
    }

    /// Entries waiting for an acknowledgement.
    pub fn unacked(&self) -> usize {
        self.unacked.len()
    }

    /// True when a datagram is worth sending: entries unacknowledged, or an acknowledgement
    /// the other side has not had.
    pub fn wants_to_send(&self) -> bool {
        !self.unacked.is_empty() || self.ack_sent != self.received_below
    }

    /// The datagrams to send now, each at most `max` bytes: every unacknowledged entry, oldest
    /// first, each datagram with the current acknowledgement. An entry too big for any
    /// datagram is returned apart (send it on the reliable stream); an empty stand-in takes
    /// its place here.
    pub fn datagrams(&mut self, max: usize) -> (Vec<Vec<u8>>, Vec<Entry>) {
        // Too big for any datagram: the stream takes it, and an empty stand-in keeps its seq
        // here, so the other side sees no gap.
        let mut too_big = Vec::new();
        for (_, origin, bytes) in &mut self.unacked {
            if bytes.len() + 24 > max {
                too_big.push((*origin, std::mem::take(bytes)));
            }
        }
        let mut out = Vec::new();
        let mut i = 0;
        loop {
            let mut entries = Vec::new();
            let mut count = 0u64;
            while let Some((seq, origin, bytes)) = self.unacked.get(i) {
                // Written in place, and taken back if it overfills the datagram.
                let mark = entries.len();
                varint(&mut entries, *seq);
                entries.push(origin.0);
                varint(&mut entries, bytes.len() as u64);
                entries.extend_from_slice(bytes);
                if 20 + entries.len() > max && count > 0 {
                    entries.truncate(mark);
                    break;
                }
                count += 1;
                i += 1;
            }
            let mut d = Vec::with_capacity(20 + entries.len());
            varint(&mut d, self.received_below);
            varint(&mut d, count);
            d.extend_from_slice(&entries);
            out.push(d);
            if i >= self.unacked.len() || out.len() >= MAX_BURST {
                break;
            }
        }
        self.ack_sent = self.received_below;
        (out, too_big)
    }

    /// Takes in a datagram from the other side: drops what it acknowledges, and returns the
    /// entries not seen before (origin, bytes) in the order they were pushed; one that came
    /// ahead of a gap waits here until the gap is filled.
    pub fn receive(&mut self, datagram: &[u8]) -> Result<Vec<Entry>, DecodeError> {
        let mut r = Reader::new(datagram);
        let ack = r.varint()?;
        if ack > self.next_seq {
            return r.fail(format!("acknowledges {ack}, but only {} were sent", self.next_seq));
        }
        let count = r.count(MAX_UNACKED, 3, "entries")?;
        let mut arrived = Vec::with_capacity(count);
        for _ in 0..count {
            let seq = r.varint()?;
            let origin = PeerId(r.u8()?);
            let len = r.count(1 << 20, 1, "entry bytes")?;
            arrived.push((seq, origin, r.take(len)?));
        }
        // Only a datagram read whole changes anything.
        while self.unacked.front().is_some_and(|(seq, _, _)| *seq < ack) {
            self.unacked.pop_front();
        }
        for (seq, origin, bytes) in arrived {
            let ahead = seq.saturating_sub(self.received_below);
            if seq >= self.received_below && ahead < MAX_UNACKED as u64 {
                self.waiting.entry(seq).or_insert_with(|| (origin, bytes.to_vec()));
            }
        }
        let mut fresh = Vec::new();
        while let Some(entry) = self.waiting.remove(&self.received_below) {
            // An empty entry stands in for one that went by the stream.
            if !entry.1.is_empty() {
                fresh.push(entry);
            }
            self.received_below += 1;
        }
        Ok(fresh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: u8) -> Vec<u8> {
        vec![n; 10]
    }

    /// Moves `a`'s datagrams to `b`, dropping those `lose` says to; what `b` got that was new.
    fn carry(a: &mut Channel, b: &mut Channel, lose: impl Fn(usize) -> bool) -> Vec<Vec<u8>> {
        let (datagrams, big) = a.datagrams(1100);
        assert!(big.is_empty());
        let mut got = Vec::new();
        for (i, d) in datagrams.iter().enumerate() {
            if !lose(i) {
                got.extend(b.receive(d).unwrap().into_iter().map(|(_, e)| e));
            }
        }
        got
    }

    #[test]
    fn a_lost_datagram_s_entries_arrive_in_the_next_and_never_twice() {
        let (mut a, mut b) = (Channel::default(), Channel::default());
        a.push(PeerId(0), entry(1));
        assert!(carry(&mut a, &mut b, |_| true).is_empty(), "lost");
        a.push(PeerId(0), entry(2));
        assert_eq!(carry(&mut a, &mut b, |_| false), vec![entry(1), entry(2)], "both in the next one");
        // Not yet acknowledged: sent again, but b drops the repeats.
        a.push(PeerId(0), entry(3));
        assert_eq!(carry(&mut a, &mut b, |_| false), vec![entry(3)]);
        assert_eq!(a.unacked(), 3);
        // b's acknowledgement reaches a: nothing left to repeat.
        assert!(b.wants_to_send());
        carry(&mut b, &mut a, |_| false);
        assert_eq!(a.unacked(), 0);
        assert!(!b.wants_to_send(), "the acknowledgement went out");
    }

    #[test]
    fn a_long_backlog_goes_out_oldest_first_in_several_datagrams_and_a_huge_entry_apart() {
        let mut a = Channel::default();
        for i in 0..300u32 {
            a.push(PeerId(2), vec![(i % 251) as u8; 40]);
        }
        a.push(PeerId(2), vec![9; 5000]);
        let (datagrams, big) = a.datagrams(1100);
        assert_eq!(big, vec![(PeerId(2), vec![9; 5000])], "too big for a datagram: the stream takes it");
        assert!(datagrams.len() > 1 && datagrams.len() <= MAX_BURST);
        assert!(datagrams.iter().all(|d| d.len() <= 1100));
        let mut b = Channel::default();
        let got: Vec<(PeerId, Vec<u8>)> = datagrams.iter().flat_map(|d| b.receive(d).unwrap()).collect();
        assert_eq!(got.len(), 300, "every entry in one burst, the stand-in not handed on");
        assert_eq!(got[0], (PeerId(2), vec![0; 40]));
        assert_eq!(got[299], (PeerId(2), vec![(299 % 251) as u8; 40]));
        // An entry after the big one is handed on: the stand-in left no gap.
        a.push(PeerId(2), vec![7; 3]);
        let (next, _) = a.datagrams(1100);
        let got: Vec<(PeerId, Vec<u8>)> = next.iter().flat_map(|d| b.receive(d).unwrap()).collect();
        assert_eq!(got, vec![(PeerId(2), vec![7; 3])]);
    }

    #[test]
    fn out_of_order_arrivals_are_handed_on_in_order_and_once() {
        let mut a = Channel::default();
        let mut made = Vec::new();
        for n in 1..=3 {
            a.push(PeerId(1), entry(n));
            // A tiny datagram size: one entry per datagram, so each can be lost alone.
            made.push(a.datagrams(1100).0);
        }
        let mut b = Channel::default();
        // The third datagram (entries 1, 2 and 3) is the first to arrive: all three, in order.
        let third = made[2].clone();
        let got: Vec<Vec<u8>> = third.iter().flat_map(|d| b.receive(d).unwrap()).map(|(_, e)| e).collect();
        assert_eq!(got, vec![entry(1), entry(2), entry(3)]);
        // The late first and second bring nothing new.
        for d in made[0].iter().chain(&made[1]) {
            assert!(b.receive(d).unwrap().is_empty());
        }
        // Entries after a gap wait for it: a burst split over two datagrams, the second first.
        let mut c = Channel::default();
        for i in 0..60u8 {
            c.push(PeerId(2), vec![i; 40]);
        }
        let (burst, _) = c.datagrams(1100);
        assert!(burst.len() >= 2);
        let mut d = Channel::default();
        assert!(d.receive(&burst[1]).unwrap().is_empty(), "held until the gap before it is filled");
        let got: Vec<(PeerId, Vec<u8>)> = burst.iter().flat_map(|x| d.receive(x).unwrap()).collect();
        assert_eq!(got.len(), 60);
        assert!(got.iter().enumerate().all(|(i, (p, e))| *p == PeerId(2) && e[0] == i as u8), "in push order");
        let (ack, _) = d.datagrams(1100);
        let mut r = Reader::new(&ack[0]);
        assert_eq!(r.varint().unwrap(), 60, "everything acknowledged");
    }

    #[test]
    fn garbage_is_refused_without_panicking() {
        let mut a = Channel::default();
        for bad in [&[][..], &[0x80][..], &[5, 0][..], &[0, 1, 0, 0, 200, 1][..]] {
            assert!(a.receive(bad).is_err(), "{bad:?}");
        }
        let mut junk = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            junk ^= junk << 13;
            junk ^= junk >> 7;
            junk ^= junk << 17;
            let bytes = junk.to_le_bytes();
            let _ = a.receive(&bytes[..(junk % 9) as usize]);
        }
    }
}
