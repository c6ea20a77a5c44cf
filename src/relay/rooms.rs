//! The relay as an I/O-free state machine: [`Relay::handle`] takes one datagram (when, from
//! whom, its bytes) and says what to send; [`Relay::sweep`] forgets what went silent. A host
//! registers a room and gets an unguessable id; a joiner who names the room learns the host's
//! public address (and the host the joiner's) so both can punch; until a direct path opens,
//! their QUIC packets ride [`RelayMessage::Data`] through the room, forwarded blindly.
//!
//! Must not: read the clock or a socket (callers pass both in), answer an unverified address
//! with more bytes than it sent, or forward anything between addresses that are not members of
//! the same room. It keeps nothing once a room is gone.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use crate::net::codec::relay::{
    DATA_HEADER, MAGIC, OP_DATA, ROOM_LEN, RelayMessage, RelayRefusal, RoomId, decode, encode,
};

use super::limits::{Bucket, Limits};

/// What the relay has counted since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RelayStats {
    /// Rooms made.
    pub rooms_made: u64,
    /// Rooms forgotten (timed out).
    pub rooms_gone: u64,
    /// Datagrams forwarded between members.
    pub forwarded: u64,
    /// Bytes forwarded.
    pub forwarded_bytes: u64,
    /// Datagrams dropped: malformed, from strangers, or over a limit.
    pub dropped: u64,
    /// Requests refused for a limit.
    pub limited: u64,
}

#[derive(Debug)]
struct Member {
    addr: SocketAddr,
    seen: Instant,
}

#[derive(Debug)]
struct Room {
    host: Member,
    /// Joiners by number - 1.
    joiners: Vec<Option<Member>>,
    bytes: Bucket,
}

/// The relay's state: rooms, and how much each address has asked lately.
pub struct Relay {
    limits: Limits,
    rooms: BTreeMap<RoomId, Room>,
    rooms_by_ip: BTreeMap<IpAddr, u32>,
    requests: BTreeMap<IpAddr, Bucket>,
    outbox: Vec<(SocketAddr, Vec<u8>)>,
    stats: RelayStats,
    random: Box<dyn FnMut() -> [u8; ROOM_LEN] + Send>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay").field("rooms", &self.rooms.len()).field("stats", &self.stats).finish_non_exhaustive()
    }
}

impl Relay {
    /// A relay with these limits whose room ids come from `random` (the service passes the
    /// system's secure generator; tests a fixed sequence).
    pub fn new(limits: Limits, random: Box<dyn FnMut() -> [u8; ROOM_LEN] + Send>) -> Relay {
        Relay {
            limits,
            rooms: BTreeMap::new(),
            rooms_by_ip: BTreeMap::new(),
            requests: BTreeMap::new(),
            outbox: Vec::new(),
            stats: RelayStats::default(),
            random,
        }
    }

    /// What it counted.
    pub fn stats(&self) -> RelayStats {
        self.stats
    }

    /// Rooms open now.
    pub fn rooms(&self) -> usize {
        self.rooms.len()
    }

    /// Takes one datagram `packet` from `from`. Data for a room member is rewritten in place
    /// and its destination returned (send `packet` there); answers to requests wait in
    /// [`Relay::drain`].
    pub fn handle(&mut self, now: Instant, from: SocketAddr, packet: &mut [u8]) -> Option<SocketAddr> {
        if packet.len() >= DATA_HEADER && packet[..MAGIC.len()] == MAGIC && packet[MAGIC.len()] == OP_DATA {
            let to = self.forward(now, from, packet);
            if to.is_none() {
                self.stats.dropped += 1;
            }
            return to;
        }
        match decode(packet) {
            Ok(m) => self.request(now, from, m, packet.len()),
            Err(_) => self.stats.dropped += 1,
        }
        None
    }

    /// The answers queued by [`Relay::handle`] and [`Relay::sweep`].
    pub fn drain(&mut self) -> std::vec::Drain<'_, (SocketAddr, Vec<u8>)> {
        self.outbox.drain(..)
    }

    /// Forgets rooms whose host, and seats whose joiner, went silent, and addresses that
    /// stopped asking.
    pub fn sweep(&mut self, now: Instant) {
        let idle = self.limits.idle;
        let mut gone = Vec::new();
        for (id, room) in &mut self.rooms {
            if now.saturating_duration_since(room.host.seen) > idle {
                gone.push(*id);
                continue;
            }
            for seat in &mut room.joiners {
                if seat.as_ref().is_some_and(|j| now.saturating_duration_since(j.seen) > idle) {
                    *seat = None;
                }
            }
        }
        for id in gone {
            if let Some(room) = self.rooms.remove(&id) {
                self.release(room.host.addr.ip());
                self.stats.rooms_gone += 1;
                log::info!("room {id} timed out (host {})", room.host.addr);
            }
        }
        self.requests.retain(|_, b| !b.is_full(now));
    }

    fn release(&mut self, ip: IpAddr) {
        if let Some(n) = self.rooms_by_ip.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.rooms_by_ip.remove(&ip);
            }
        }
    }

    fn reply(&mut self, to: SocketAddr, m: &RelayMessage) {
        self.outbox.push((to, encode(m)));
    }

    /// May `ip` make another request now?
    fn allowed(&mut self, now: Instant, ip: IpAddr) -> bool {
        let (rate, burst) = (self.limits.requests_per_second, self.limits.request_burst);
        let ok = self.requests.entry(ip).or_insert_with(|| Bucket::new(rate, burst, now)).take(1, now);
        if !ok {
            self.stats.limited += 1;
        }
        ok
    }

    fn request(&mut self, now: Instant, from: SocketAddr, m: RelayMessage, size: usize) {
        match m {
            RelayMessage::Register => {
                if !self.allowed(now, from.ip()) {
                    // Said once per burst at most; the refusal is smaller than the request.
                    return self.reply(from, &RelayMessage::Refused(RelayRefusal::Limited));
                }
                // A host asking again (its answer was lost) keeps its room.
                if let Some((id, _)) = self.rooms.iter().find(|(_, r)| r.host.addr == from) {
                    let id = *id;
                    return self.reply(from, &RelayMessage::Registered { room: id, public: from });
                }
                let held = self.rooms_by_ip.get(&from.ip()).copied().unwrap_or(0);
                if held >= self.limits.rooms_per_address || self.rooms.len() >= self.limits.rooms {
                    self.stats.limited += 1;
                    return self.reply(from, &RelayMessage::Refused(RelayRefusal::Limited));
                }
                let id = RoomId((self.random)());
                if self.rooms.contains_key(&id) {
                    return;
                }
                let (rate, burst) = (self.limits.room_bytes_per_second, self.limits.room_byte_burst);
                let joiners = (0..self.limits.joiners_per_room).map(|_| None).collect();
                self.rooms.insert(
                    id,
                    Room { host: Member { addr: from, seen: now }, joiners, bytes: Bucket::new(rate, burst, now) },
                );
                *self.rooms_by_ip.entry(from.ip()).or_insert(0) += 1;
                self.stats.rooms_made += 1;
                log::info!("room {id} opened by {from}");
                self.reply(from, &RelayMessage::Registered { room: id, public: from });
            }
            RelayMessage::Lookup { room } => {
                if !self.allowed(now, from.ip()) {
                    return self.reply(from, &RelayMessage::Refused(RelayRefusal::Limited));
                }
                let Some(r) = self.rooms.get_mut(&room) else {
                    return self.reply(from, &RelayMessage::Refused(RelayRefusal::NoRoom));
                };
                let seat = match r.joiners.iter().position(|j| j.as_ref().is_some_and(|j| j.addr == from)) {
                    Some(i) => i,
                    None => match r.joiners.iter().position(Option::is_none) {
                        Some(i) => i,
                        None => return self.reply(from, &RelayMessage::Refused(RelayRefusal::Full)),
                    },
                };
                r.joiners[seat] = Some(Member { addr: from, seen: now });
                let (host, peer) = (r.host.addr, seat as u8 + 1);
                log::info!("room {room}: {from} joins as peer {peer}");
                self.reply(from, &RelayMessage::Found { room, host, public: from, peer });
                self.reply(host, &RelayMessage::Introduce { room, peer, public: from });
            }
            RelayMessage::Keepalive { room } => {
                let Some(r) = self.rooms.get_mut(&room) else {
                    if size >= crate::net::codec::relay::REQUEST_SIZE {
                        self.reply(from, &RelayMessage::Refused(RelayRefusal::NoRoom));
                    }
                    return;
                };
                let member = if r.host.addr == from {
                    Some(&mut r.host)
                } else {
                    r.joiners.iter_mut().flatten().find(|j| j.addr == from)
                };
                match member {
                    Some(m) => {
                        m.seen = now;
                        self.reply(from, &RelayMessage::Alive { room });
                    }
                    None => self.stats.dropped += 1,
                }
            }
            // Answers and punches are not for the relay.
            _ => self.stats.dropped += 1,
        }
    }

    /// Relays one data datagram between members of its room, rewriting its peer byte.
    fn forward(&mut self, now: Instant, from: SocketAddr, packet: &mut [u8]) -> Option<SocketAddr> {
        let at = MAGIC.len() + 1;
        let id = RoomId(packet[at..at + ROOM_LEN].try_into().ok()?);
        let peer_at = at + ROOM_LEN;
        let room = self.rooms.get_mut(&id)?;
        let (to, stamp) = if room.host.addr == from {
            room.host.seen = now;
            let seat = usize::from(packet[peer_at]).checked_sub(1)?;
            (room.joiners.get(seat)?.as_ref()?.addr, 0)
        } else {
            let seat = room.joiners.iter().position(|j| j.as_ref().is_some_and(|j| j.addr == from))?;
            if let Some(j) = room.joiners[seat].as_mut() {
                j.seen = now;
            }
            (room.host.addr, seat as u8 + 1)
        };
        let len = u32::try_from(packet.len()).unwrap_or(u32::MAX);
        if !room.bytes.take(len, now) {
            self.stats.limited += 1;
            return None;
        }
        packet[peer_at] = stamp;
        self.stats.forwarded += 1;
        self.stats.forwarded_bytes += u64::from(len);
        Some(to)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn relay(limits: Limits) -> Relay {
        let mut n = 0u8;
        Relay::new(
            limits,
            Box::new(move || {
                n += 1;
                [n; ROOM_LEN]
            }),
        )
    }

    fn send(r: &mut Relay, now: Instant, from: &str, m: &RelayMessage) -> (Option<SocketAddr>, Vec<u8>) {
        let mut bytes = encode(m);
        let to = r.handle(now, from.parse().unwrap(), &mut bytes);
        (to, bytes)
    }

    fn answers(r: &mut Relay) -> Vec<(SocketAddr, RelayMessage)> {
        r.drain().map(|(to, b)| (to, decode(&b).unwrap())).collect()
    }

    const HOST: &str = "198.51.100.1:40000";
    const JOINER: &str = "203.0.113.7:51000";

    fn open_room(r: &mut Relay, now: Instant) -> RoomId {
        send(r, now, HOST, &RelayMessage::Register);
        match answers(r).as_slice() {
            [(_, RelayMessage::Registered { room, public })] => {
                assert_eq!(public.to_string(), HOST);
                *room
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_joiner_meets_the_host_and_data_flows_both_ways_stamped_with_the_sender() {
        let t = Instant::now();
        let mut r = relay(Limits::default());
        let room = open_room(&mut r, t);
        send(&mut r, t, JOINER, &RelayMessage::Lookup { room });
        let got = answers(&mut r);
        let host: SocketAddr = HOST.parse().unwrap();
        let joiner: SocketAddr = JOINER.parse().unwrap();
        assert_eq!(
            got,
            vec![
                (joiner, RelayMessage::Found { room, host, public: joiner, peer: 1 }),
                (host, RelayMessage::Introduce { room, peer: 1, public: joiner }),
            ]
        );
        // Joiner → host: whatever peer byte the joiner wrote, the host sees peer 1.
        let (to, bytes) = send(&mut r, t, JOINER, &RelayMessage::Data { room, peer: 9, payload: vec![0x40, 1, 2] });
        assert_eq!(to, Some(host));
        assert_eq!(decode(&bytes).unwrap(), RelayMessage::Data { room, peer: 1, payload: vec![0x40, 1, 2] });
        // Host → joiner 1, seen as from the host (peer 0).
        let (to, bytes) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 1, payload: vec![0x41] });
        assert_eq!(to, Some(joiner));
        assert_eq!(decode(&bytes).unwrap(), RelayMessage::Data { room, peer: 0, payload: vec![0x41] });
        assert_eq!(r.stats().forwarded, 2);
    }

    #[test]
    fn strangers_and_unknown_rooms_get_nothing_forwarded() {
        let t = Instant::now();
        let mut r = relay(Limits::default());
        let room = open_room(&mut r, t);
        // Not a member: dropped, nothing said.
        let (to, _) = send(&mut r, t, JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![1; 100] });
        assert_eq!(to, None);
        // The host addressing an empty seat.
        let (to, _) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 3, payload: vec![1] });
        assert_eq!(to, None);
        let (to, _) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 0, payload: vec![1] });
        assert_eq!(to, None, "peer 0 is nobody's seat");
        // A wrong room.
        send(&mut r, t, JOINER, &RelayMessage::Lookup { room: RoomId([0xee; ROOM_LEN]) });
        assert_eq!(answers(&mut r), vec![(JOINER.parse().unwrap(), RelayMessage::Refused(RelayRefusal::NoRoom))]);
        // Garbage.
        let mut junk = vec![0xc3, 0, 0, 0, 1];
        assert_eq!(r.handle(t, JOINER.parse().unwrap(), &mut junk), None);
        assert!(answers(&mut r).is_empty());
        assert_eq!(r.stats().forwarded, 0);
        assert!(r.stats().dropped >= 4);
    }

    #[test]
    fn rooms_per_address_and_request_rates_are_limited() {
        let t = Instant::now();
        let limits = Limits { rooms_per_address: 2, request_burst: 5, requests_per_second: 1, ..Limits::default() };
        let mut r = relay(limits);
        for port in 1..=3u16 {
            send(&mut r, t, &format!("198.51.100.1:{port}"), &RelayMessage::Register);
        }
        let got = answers(&mut r);
        assert!(matches!(got[0].1, RelayMessage::Registered { .. }));
        assert!(matches!(got[1].1, RelayMessage::Registered { .. }));
        assert_eq!(got[2].1, RelayMessage::Refused(RelayRefusal::Limited), "a third room from one address");
        // Guessing rooms: five lookups in a burst, then one a second.
        for _ in 0..7 {
            send(&mut r, t, JOINER, &RelayMessage::Lookup { room: RoomId([0x55; ROOM_LEN]) });
        }
        let got = answers(&mut r);
        assert_eq!(got.iter().filter(|(_, m)| *m == RelayMessage::Refused(RelayRefusal::NoRoom)).count(), 5);
        assert_eq!(got.iter().filter(|(_, m)| *m == RelayMessage::Refused(RelayRefusal::Limited)).count(), 2);
        send(&mut r, t + Duration::from_millis(1100), JOINER, &RelayMessage::Lookup { room: RoomId([0x55; 16]) });
        assert_eq!(answers(&mut r)[0].1, RelayMessage::Refused(RelayRefusal::NoRoom), "a second later, one more");
    }

    #[test]
    fn a_room_relays_no_more_than_its_byte_rate() {
        let t = Instant::now();
        let limits = Limits { room_bytes_per_second: 10_000, room_byte_burst: 10_000, ..Limits::default() };
        let mut r = relay(limits);
        let room = open_room(&mut r, t);
        send(&mut r, t, JOINER, &RelayMessage::Lookup { room });
        answers(&mut r);
        let payload = vec![0x40; 1000 - DATA_HEADER];
        let passed = (0..20)
            .filter(|_| {
                send(&mut r, t, JOINER, &RelayMessage::Data { room, peer: 0, payload: payload.clone() }).0.is_some()
            })
            .count();
        assert_eq!(passed, 10, "10,000 bytes of 1,000-byte datagrams");
        let later = t + Duration::from_millis(500);
        let passed = (0..20)
            .filter(|_| {
                send(&mut r, later, JOINER, &RelayMessage::Data { room, peer: 0, payload: payload.clone() }).0.is_some()
            })
            .count();
        assert_eq!(passed, 5, "half a second refills half");
    }

    #[test]
    fn silent_rooms_and_seats_are_forgotten_and_keepalives_hold_them() {
        let t = Instant::now();
        let limits = Limits { idle: Duration::from_secs(60), ..Limits::default() };
        let mut r = relay(limits);
        let room = open_room(&mut r, t);
        send(&mut r, t, JOINER, &RelayMessage::Lookup { room });
        answers(&mut r);
        // The host keeps alive; the joiner does not.
        send(&mut r, t + Duration::from_secs(50), HOST, &RelayMessage::Keepalive { room });
        assert_eq!(answers(&mut r), vec![(HOST.parse().unwrap(), RelayMessage::Alive { room })]);
        r.sweep(t + Duration::from_secs(70));
        assert_eq!(r.rooms(), 1);
        let (to, _) =
            send(&mut r, t + Duration::from_secs(70), JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![1] });
        assert_eq!(to, None, "the silent joiner lost its seat");
        r.sweep(t + Duration::from_secs(111));
        assert_eq!(r.rooms(), 0, "the host went quiet for over a minute");
        assert_eq!(r.stats().rooms_gone, 1);
        // The address may open rooms again.
        let again = open_room(&mut r, t + Duration::from_secs(112));
        assert_ne!(again, room);
    }

    #[test]
    fn a_full_room_refuses_and_a_repeated_lookup_keeps_its_seat() {
        let t = Instant::now();
        let mut r = relay(Limits { joiners_per_room: 2, request_burst: 100, ..Limits::default() });
        let room = open_room(&mut r, t);
        for j in ["203.0.113.7:1", "203.0.113.7:1", "203.0.113.8:1", "203.0.113.9:1"] {
            send(&mut r, t, j, &RelayMessage::Lookup { room });
        }
        let peers: Vec<RelayMessage> = answers(&mut r)
            .into_iter()
            .filter(|(to, _)| to.to_string() != HOST)
            .map(|(_, m)| match m {
                RelayMessage::Found { peer, .. } => RelayMessage::Punch { room, peer, nonce: 0, mac: [0; 16] },
                other => other,
            })
            .collect();
        assert_eq!(
            peers,
            vec![
                RelayMessage::Punch { room, peer: 1, nonce: 0, mac: [0; 16] },
                RelayMessage::Punch { room, peer: 1, nonce: 0, mac: [0; 16] },
                RelayMessage::Punch { room, peer: 2, nonce: 0, mac: [0; 16] },
                RelayMessage::Refused(RelayRefusal::Full),
            ]
        );
    }
}
