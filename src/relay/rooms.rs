//! The relay as an I/O-free state machine: [`Relay::handle`] takes one datagram (when, from
//! whom, its bytes) and says what to send; [`Relay::sweep`] forgets what went silent. A host
//! registers the room its token names; a joiner who names the room learns the host's public
//! address (and the host the joiner's) so both can punch; until a direct path opens, their QUIC
//! packets ride [`RelayMessage::Data`] through the room, forwarded blindly. Every Register and
//! Lookup must first carry a cookie ([`super::cookie`]) proving the sender receives at its
//! address; rooms are soft state, made again by their hosts (same token, same id) after the
//! relay restarts, and joiners take their old seats back.
//!
//! Must not: read the clock or a socket (callers pass both in), keep anything for an address
//! that has not proven it receives there, answer such an address with more bytes than it sent
//! (or at all beyond a rate), or forward anything between addresses that are not members of
//! the same room. It keeps nothing once a room is gone.

// Rooms and addresses are found by key in O(1) on the relay's hot path; the relay is no part
// of the simulation, and nothing it does depends on the order a map iterates in.
#![allow(clippy::disallowed_types, reason = "the relay is not the simulation; O(1) lookups by room and address")]

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Instant;

use crate::net::codec::relay::{
    Cookie, DATA_HEADER, MAGIC, OP_DATA, ROOM_LEN, RelayMessage, RelayRefusal, RelayStatus, RoomId, RoomToken, decode,
    encode, room_of,
};

use super::cookie::{Cookies, canonical};
use super::limits::{Bucket, Limits, prefix};

pub use crate::net::codec::relay_status::RelayStats;

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

/// What one validated address (or IPv6 /64) holds and how fast it asks.
#[derive(Debug)]
struct Usage {
    rooms: u32,
    seats: u32,
    requests: Bucket,
    refusals: Bucket,
}

/// Why a data datagram was not forwarded.
enum Unforwarded {
    /// Its room does not exist (the relay restarted, or the room timed out).
    NoRoom,
    /// Anything else (a stranger, an empty seat, over the room's rate).
    Dropped,
}

/// The relay's state: rooms by id, and what each validated address holds and asked lately.
pub struct Relay {
    limits: Limits,
    cookies: Cookies,
    started: Instant,
    rooms: HashMap<RoomId, Room>,
    usage: HashMap<IpAddr, Usage>,
    /// Answers to addresses not validated, in all.
    unvalidated: Bucket,
    outbox: Vec<(SocketAddr, Vec<u8>)>,
    stats: RelayStats,
    show_addresses: bool,
    memory: u64,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Relay").field("rooms", &self.rooms.len()).field("stats", &self.stats).finish_non_exhaustive()
    }
}

impl Relay {
    /// A relay with these limits whose cookies are keyed by `secret` (the service draws it from
    /// the system's secure generator at start; tests pass a fixed one).
    pub fn new(limits: Limits, secret: [u8; 32], now: Instant) -> Relay {
        let rate = limits.unvalidated_answers_per_second;
        Relay {
            cookies: Cookies::new(&secret, now),
            started: now,
            rooms: HashMap::new(),
            usage: HashMap::new(),
            unvalidated: Bucket::new(rate, rate, now),
            outbox: Vec::new(),
            stats: RelayStats::default(),
            show_addresses: false,
            memory: 0,
            limits,
        }
    }

    /// Logs clients' addresses as they are (off: as short keyed hashes).
    pub fn show_addresses(&mut self, show: bool) {
        self.show_addresses = show;
    }

    /// What the relay's process holds in memory, for the status answer.
    pub fn set_memory(&mut self, bytes: u64) {
        self.memory = bytes;
    }

    /// What it counted.
    pub fn stats(&self) -> RelayStats {
        self.stats
    }

    /// Rooms open now.
    pub fn rooms(&self) -> usize {
        self.rooms.len()
    }

    /// Validated addresses (or /64s) the relay keeps counters for now.
    pub fn addresses(&self) -> usize {
        self.usage.len()
    }

    /// The health an operator asks for with `ridgeline relay --status`.
    pub fn status(&self, now: Instant) -> RelayStatus {
        let members = self.rooms.values().map(|r| 1 + r.joiners.iter().flatten().count() as u64).sum();
        RelayStatus {
            rooms: self.rooms.len() as u64,
            members,
            counted: self.stats,
            uptime_s: now.saturating_duration_since(self.started).as_secs(),
            rss_bytes: self.memory,
        }
    }

    /// Takes one datagram `packet` from `from`. Data for a room member is rewritten in place
    /// and its destination returned (send `packet` there); answers to requests wait in
    /// [`Relay::drain`].
    pub fn handle(&mut self, now: Instant, from: SocketAddr, packet: &mut [u8]) -> Option<SocketAddr> {
        if packet.len() >= DATA_HEADER && packet[..MAGIC.len()] == MAGIC && packet[MAGIC.len()] == OP_DATA {
            match self.forward(now, from, packet) {
                Ok(to) => return Some(to),
                Err(why) => {
                    self.stats.dropped += 1;
                    if matches!(why, Unforwarded::NoRoom) {
                        // A member of a room this relay forgot (it restarted): say so, as small
                        // as the smallest request and within the rate for strangers.
                        self.answer_stranger(now, from, &RelayMessage::Refused(RelayRefusal::NoRoom));
                    }
                    return None;
                }
            }
        }
        match decode(packet) {
            Ok(m) => self.request(now, from, m),
            Err(e) => {
                self.stats.dropped += 1;
                log::debug!("a malformed datagram from {}: {e:?}", self.who(from));
            }
        }
        None
    }

    /// The answers queued by [`Relay::handle`] and [`Relay::sweep`].
    pub fn drain(&mut self) -> std::vec::Drain<'_, (SocketAddr, Vec<u8>)> {
        self.outbox.drain(..)
    }

    /// Forgets rooms whose host, and seats whose joiner, went silent, and addresses that
    /// hold nothing and stopped asking.
    pub fn sweep(&mut self, now: Instant) {
        let idle = self.limits.idle;
        let Relay { rooms, usage, .. } = self;
        let mut gone = Vec::new();
        for (id, room) in rooms.iter_mut() {
            if now.saturating_duration_since(room.host.seen) > idle {
                gone.push(*id);
                continue;
            }
            for seat in &mut room.joiners {
                if let Some(j) = seat.as_ref().filter(|j| now.saturating_duration_since(j.seen) > idle) {
                    release(usage, j.addr, false);
                    *seat = None;
                }
            }
        }
        for id in gone {
            if let Some(room) = self.rooms.remove(&id) {
                release(&mut self.usage, room.host.addr, true);
                for j in room.joiners.iter().flatten() {
                    release(&mut self.usage, j.addr, false);
                }
                self.stats.rooms_gone += 1;
                log::info!("room {id} timed out (host {})", self.who(room.host.addr));
            }
        }
        self.usage.retain(|_, u| u.rooms > 0 || u.seats > 0 || !u.requests.is_full(now) || !u.refusals.is_full(now));
    }

    /// How an address appears in the logs.
    fn who(&self, addr: SocketAddr) -> String {
        if self.show_addresses { canonical(addr).to_string() } else { format!("#{}", self.cookies.hide(addr.ip())) }
    }

    fn reply(&mut self, to: SocketAddr, m: &RelayMessage) {
        self.outbox.push((to, encode(m)));
    }

    /// Answers an address that has not proven it receives there (each such answer is smaller
    /// than the request drawing it), within the relay's overall rate for those; else nothing.
    fn answer_stranger(&mut self, now: Instant, to: SocketAddr, m: &RelayMessage) {
        if self.unvalidated.take(1, now) {
            self.reply(to, m);
        }
    }

    /// Tells a validated address no, at most its refusal rate.
    fn refuse(&mut self, now: Instant, to: SocketAddr, why: RelayRefusal) {
        self.stats.limited += u64::from(matches!(why, RelayRefusal::Limited | RelayRefusal::RelayFull));
        let told = self.usage.get_mut(&prefix(to.ip())).is_some_and(|u| u.refusals.take(1, now));
        if told {
            self.reply(to, &RelayMessage::Refused(why));
        } else {
            log::debug!("{} refused ({why:?}), unsaid", self.who(to));
        }
    }

    /// True when `cookie` proves `from` receives there; otherwise `from` is challenged.
    fn validated(&mut self, now: Instant, from: SocketAddr, cookie: Option<Cookie>) -> bool {
        if cookie.is_some_and(|c| self.cookies.check(now, from, &c)) {
            return true;
        }
        // The rate first: a flood past it costs no cookie.
        if self.unvalidated.take(1, now) {
            let cookie = self.cookies.make(now, from);
            self.stats.challenges += 1;
            self.reply(from, &RelayMessage::Challenge { cookie });
        }
        false
    }

    /// May the validated `from` make another request now? (Refused, at most its refusal rate,
    /// when not.)
    fn allowed(&mut self, now: Instant, from: SocketAddr) -> bool {
        let key = prefix(from.ip());
        if !self.usage.contains_key(&key) {
            if self.usage.len() >= self.limits.addresses {
                self.stats.limited += 1;
                return false;
            }
            let l = &self.limits;
            let usage = Usage {
                rooms: 0,
                seats: 0,
                requests: Bucket::new(l.requests_per_second, l.request_burst, now),
                refusals: Bucket::new(l.refusals_per_second, l.refusals_per_second.max(1) * 3, now),
            };
            self.usage.insert(key, usage);
        }
        let ok = self.usage.get_mut(&key).is_some_and(|u| u.requests.take(1, now));
        if !ok {
            self.refuse(now, from, RelayRefusal::Limited);
        }
        ok
    }

    fn request(&mut self, now: Instant, from: SocketAddr, m: RelayMessage) {
        match m {
            RelayMessage::Register { token, cookie } => {
                if self.validated(now, from, cookie) && self.allowed(now, from) {
                    self.register(now, from, token);
                }
            }
            RelayMessage::Lookup { room, seat, cookie } => {
                if self.validated(now, from, cookie) && self.allowed(now, from) {
                    self.lookup(now, from, room, seat);
                }
            }
            RelayMessage::Keepalive { room } => {
                let Some(r) = self.rooms.get_mut(&room) else {
                    return self.answer_stranger(now, from, &RelayMessage::Refused(RelayRefusal::NoRoom));
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
            RelayMessage::StatusAsk if from.ip().to_canonical().is_loopback() => {
                let status = self.status(now);
                self.reply(from, &RelayMessage::Status(status));
            }
            // Answers and punches are not for the relay.
            _ => self.stats.dropped += 1,
        }
    }

    /// Makes, refreshes, or makes again (after a restart) the room of `token` for `from`.
    fn register(&mut self, now: Instant, from: SocketAddr, token: RoomToken) {
        let id = room_of(&token);
        let key = prefix(from.ip());
        let held = self.usage.get(&key).map_or(0, |u| u.rooms);
        if let Some(room) = self.rooms.get_mut(&id) {
            if room.host.addr != from {
                // The token proves the host: its router gave it a new address.
                let old = prefix(room.host.addr.ip());
                if old != key {
                    if held >= self.limits.rooms_per_address {
                        return self.refuse(now, from, RelayRefusal::Limited);
                    }
                    let old_addr = std::mem::replace(&mut room.host.addr, from);
                    release(&mut self.usage, old_addr, true);
                    if let Some(u) = self.usage.get_mut(&key) {
                        u.rooms += 1;
                    }
                }
                room.host.addr = from;
                log::info!("room {id}: its host moved to {}", self.who(from));
            }
            if let Some(room) = self.rooms.get_mut(&id) {
                room.host.seen = now;
            }
            return self.reply(from, &RelayMessage::Registered { room: id, public: canonical(from) });
        }
        if self.rooms.len() >= self.limits.rooms {
            return self.refuse(now, from, RelayRefusal::RelayFull);
        }
        if held >= self.limits.rooms_per_address {
            return self.refuse(now, from, RelayRefusal::Limited);
        }
        let (rate, burst) = (self.limits.room_bytes_per_second, self.limits.room_byte_burst);
        let joiners = (0..self.limits.joiners_per_room).map(|_| None).collect();
        let room = Room { host: Member { addr: from, seen: now }, joiners, bytes: Bucket::new(rate, burst, now) };
        self.rooms.insert(id, room);
        if let Some(u) = self.usage.get_mut(&key) {
            u.rooms += 1;
        }
        self.stats.rooms_made += 1;
        log::info!("room {id} opened by {}", self.who(from));
        self.reply(from, &RelayMessage::Registered { room: id, public: canonical(from) });
    }

    /// Seats the validated `from` in `room` (in `seat` when it is free, a joiner coming back),
    /// and introduces it to the host.
    fn lookup(&mut self, now: Instant, from: SocketAddr, id: RoomId, seat: u8) {
        let key = prefix(from.ip());
        let seats_held = self.usage.get(&key).map_or(0, |u| u.seats);
        let (per_room, per_address) = (self.limits.seats_per_address_in_room, self.limits.seats_per_address);
        let Some(room) = self.rooms.get_mut(&id) else {
            return self.refuse(now, from, RelayRefusal::NoRoom);
        };
        if room.host.addr == from {
            self.stats.dropped += 1;
            return;
        }
        let host = canonical(room.host.addr);
        if let Some(i) = room.joiners.iter().position(|j| j.as_ref().is_some_and(|j| j.addr == from)) {
            // Asked again (an answer lost, or a refresh): the same seat, no new introduction.
            if let Some(j) = room.joiners[i].as_mut() {
                j.seen = now;
            }
            let found = RelayMessage::Found { room: id, host, public: canonical(from), peer: i as u8 + 1 };
            return self.reply(from, &found);
        }
        let in_room = room.joiners.iter().flatten().filter(|j| prefix(j.addr.ip()) == key).count();
        if in_room >= usize::from(per_room) || seats_held >= per_address {
            return self.refuse(now, from, RelayRefusal::Limited);
        }
        let wanted = usize::from(seat).checked_sub(1).filter(|&i| room.joiners.get(i).is_some_and(Option::is_none));
        let Some(i) = wanted.or_else(|| room.joiners.iter().position(Option::is_none)) else {
            return self.refuse(now, from, RelayRefusal::Full);
        };
        room.joiners[i] = Some(Member { addr: from, seen: now });
        let host_addr = room.host.addr;
        if let Some(u) = self.usage.get_mut(&key) {
            u.seats += 1;
        }
        let peer = i as u8 + 1;
        log::info!("room {id}: {} joins as peer {peer}", self.who(from));
        self.reply(from, &RelayMessage::Found { room: id, host, public: canonical(from), peer });
        self.reply(host_addr, &RelayMessage::Introduce { room: id, peer, public: canonical(from) });
    }

    /// Relays one data datagram between members of its room, rewriting its peer byte.
    fn forward(&mut self, now: Instant, from: SocketAddr, packet: &mut [u8]) -> Result<SocketAddr, Unforwarded> {
        let at = MAGIC.len() + 1;
        let id = RoomId(packet[at..at + ROOM_LEN].try_into().map_err(|_| Unforwarded::Dropped)?);
        let peer_at = at + ROOM_LEN;
        let room = self.rooms.get_mut(&id).ok_or(Unforwarded::NoRoom)?;
        let (to, stamp) = if room.host.addr == from {
            room.host.seen = now;
            let seat = usize::from(packet[peer_at]).checked_sub(1).ok_or(Unforwarded::Dropped)?;
            let to = room.joiners.get(seat).and_then(Option::as_ref).ok_or(Unforwarded::Dropped)?;
            (to.addr, 0)
        } else {
            let seat = room
                .joiners
                .iter()
                .position(|j| j.as_ref().is_some_and(|j| j.addr == from))
                .ok_or(Unforwarded::Dropped)?;
            if let Some(j) = room.joiners[seat].as_mut() {
                j.seen = now;
            }
            (room.host.addr, seat as u8 + 1)
        };
        let len = u32::try_from(packet.len()).unwrap_or(u32::MAX);
        if !room.bytes.take(len, now) {
            self.stats.limited += 1;
            return Err(Unforwarded::Dropped);
        }
        packet[peer_at] = stamp;
        self.stats.forwarded += 1;
        self.stats.forwarded_bytes += u64::from(len);
        Ok(to)
    }
}

/// `addr` no longer holds a room (`room`) or a seat.
fn release(usage: &mut HashMap<IpAddr, Usage>, addr: SocketAddr, room: bool) {
    if let Some(u) = usage.get_mut(&prefix(addr.ip())) {
        if room {
            u.rooms = u.rooms.saturating_sub(1);
        } else {
            u.seats = u.seats.saturating_sub(1);
        }
    }
}

#[cfg(test)]
#[path = "rooms_tests.rs"]
mod tests;
