//! How this machine reaches each peer, as an I/O-free state machine: straight on the LAN,
//! through a relay room, or directly once hole punching opened a path. It speaks the relay
//! protocol (register a room as host, look one up as joiner, keep alive), punches towards the
//! other side's public address once the QUIC connection through the relay keyed it (see
//! `punch.rs`: only authenticated punches are believed), and tells the socket, packet by
//! packet, where a QUIC packet goes and whom an arriving one is from. QUIC always sees one
//! stable address per peer (its *name*), so a connection survives the switch from relayed to
//! direct untouched.
//!
//! Its room at the relay is soft state: it answers the relay's cookie challenges, keeps the
//! room alive, and when the relay stops answering or says it knows no such room (it restarted)
//! it asks again until it is back: the host makes the same room with its token, a joiner takes
//! its old seat. The match never hears of it, beyond the packets lost meanwhile.
//!
//! Must not: read the clock or a socket (callers pass `now` and the bytes), or look inside
//! QUIC packets.

use std::collections::{BTreeMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::{Duration, Instant};

use super::failure::RelayFailure;
use super::punch::{Ends, Punching, Refusal, Shot};
use super::punch_key::PunchKey;
use crate::net::codec::relay::{
    Cookie, DATA_HEADER, MAC_LEN, RelayMessage, RelayRefusal, RoomId, RoomToken, TOKEN_LEN, decode, encode, is_relay,
    room_of,
};

/// How often a request to the relay is repeated until answered.
pub const ASK_EVERY: Duration = Duration::from_millis(400);
/// How long the relay has to answer a register or a lookup.
pub const ASK_FOR: Duration = Duration::from_secs(6);
/// How often members tell the relay they are still there (NAT mappings last ~30 s or more;
/// often enough that a relay restart is noticed well within QUIC's idle timeout).
pub const KEEPALIVE: Duration = Duration::from_secs(5);
/// A keepalive not answered this soon: the relay may have restarted; ask for the room again.
pub const ALIVE_WAIT: Duration = Duration::from_secs(2);
/// How often the room is asked for again while the relay does not know it.
pub const REFRESH_EVERY: Duration = Duration::from_secs(1);
pub use super::punch::{PUNCH_EVERY, PUNCH_FOR};
/// Refused punch messages are logged at most this often (with a count).
const REFUSALS_LOGGED_EVERY: Duration = Duration::from_secs(1);

pub use crate::net::wire::PathKind;

/// Where one outgoing QUIC packet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Straight to this address.
    Straight(SocketAddr),
    /// Wrapped for the relay: to `relay`, for `peer` of `room`.
    Relay {
        /// The relay.
        relay: SocketAddr,
        /// The room.
        room: RoomId,
        /// The peer's number in the room.
        peer: u8,
    },
}

/// What an arriving datagram was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// A QUIC packet from the peer named `from`, starting `skip` bytes in.
    Quic {
        /// The peer's name (the address QUIC knows it by).
        from: SocketAddr,
        /// Bytes of relay header in front of it.
        skip: usize,
    },
    /// A relay or punch datagram, taken in; nothing for QUIC.
    Taken,
}

#[derive(Debug)]
enum Phase {
    /// No relay in this game.
    Lan,
    /// Asking the relay (register or lookup) until `until`.
    Asking { next: Instant, until: Instant },
    /// The relay answered; the next keepalive at `keepalive`, the last one unanswered since
    /// `sent`.
    Ready { keepalive: Instant, sent: Option<Instant> },
    /// The relay stopped answering, or forgot the room: asking again (no deadline; the match
    /// decides how long it waits).
    Refresh { next: Instant },
    /// The relay refused or never answered.
    Failed(RelayFailure),
}

#[derive(Debug)]
struct Peer {
    /// The address QUIC knows this peer by.
    name: SocketAddr,
    /// Punching towards it (the direct address, once proven).
    punch: Punching,
}

/// Punch messages that were not believed: counted, and logged at most once a second.
#[derive(Debug, Default)]
struct Refused {
    total: u64,
    /// Refused since the last warning.
    unlogged: u64,
    warned_at: Option<Instant>,
    noted_at: Option<Instant>,
}

/// This machine's paths to its peers.
#[derive(Debug)]
pub struct Paths {
    relay: Option<SocketAddr>,
    room: Option<RoomId>,
    host: bool,
    /// The host's secret for its room (the room is [`room_of`] it).
    token: Option<RoomToken>,
    /// The relay's cookie for this machine's address (proof that it receives there).
    cookie: Option<Cookie>,
    /// This machine's number in the room (0: the host).
    me: u8,
    phase: Phase,
    peers: BTreeMap<u8, Peer>,
    by_actual: BTreeMap<SocketAddr, u8>,
    /// This machine's address as the relay sees it.
    public: Option<SocketAddr>,
    outbox: VecDeque<(SocketAddr, Vec<u8>)>,
    /// Names for peers known only through the relay: IPv6 names for an IPv6 socket.
    v6: bool,
    /// Punch for direct paths (off: everything through the relay).
    punch: bool,
    /// Punches to send with a small TTL (see `punch.rs`).
    scouts: VecDeque<(SocketAddr, Vec<u8>)>,
    refused: Refused,
}

/// The name a host gives a joiner it knows only by number: an address in a documentation or
/// discard-only range, never a real destination.
pub(crate) fn relayed_name(peer: u8, v6: bool) -> SocketAddr {
    if v6 {
        SocketAddr::new(IpAddr::V6(Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, u16::from(peer))), 47700)
    } else {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::new(192, 0, 2, peer)), 47700)
    }
}

impl Paths {
    fn new(relay: Option<SocketAddr>, room: Option<RoomId>, host: bool, now: Instant, v6: bool) -> Paths {
        let phase = match relay {
            Some(_) => Phase::Asking { next: now, until: now + ASK_FOR },
            None => Phase::Lan,
        };
        Paths {
            relay,
            room,
            host,
            token: None,
            cookie: None,
            me: 0,
            phase,
            peers: BTreeMap::new(),
            by_actual: BTreeMap::new(),
            public: None,
            outbox: VecDeque::new(),
            v6,
            punch: true,
            scouts: VecDeque::new(),
            refused: Refused::default(),
        }
    }

    /// No relay: every packet goes straight where QUIC sends it.
    pub fn lan() -> Paths {
        Paths::new(None, None, true, Instant::now(), false)
    }

    /// A host registering a room at `relay` under a fresh random token; `v6` when its socket
    /// is IPv6.
    pub fn host(relay: SocketAddr, now: Instant, v6: bool) -> Paths {
        let mut token = [0u8; TOKEN_LEN];
        if ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut token).is_err() {
            log::error!("the system's random generator failed; the room's token is weak");
            token = now.elapsed().as_nanos().to_le_bytes();
        }
        Paths::host_with_token(relay, token, now, v6)
    }

    /// A host registering the room of `token` at `relay`.
    pub fn host_with_token(relay: SocketAddr, token: RoomToken, now: Instant, v6: bool) -> Paths {
        let mut p = Paths::new(Some(relay), Some(room_of(&token)), true, now, v6);
        p.token = Some(token);
        p.on_timeout(now);
        p
    }

    /// A joiner looking up `room` at `relay`.
    pub fn join(relay: SocketAddr, room: RoomId, now: Instant) -> Paths {
        let mut p = Paths::new(Some(relay), Some(room), false, now, relay.is_ipv6());
        p.on_timeout(now);
        p
    }

    /// The room, once the relay made it (host) or from the code (joiner).
    pub fn room(&self) -> Option<RoomId> {
        self.room.filter(|_| matches!(self.phase, Phase::Ready { .. } | Phase::Refresh { .. }))
    }

    /// The host's name, once the relay told a joiner where it is.
    pub fn host_name(&self) -> Option<SocketAddr> {
        if self.host || !matches!(self.phase, Phase::Ready { .. } | Phase::Refresh { .. }) {
            return None;
        }
        self.peers.get(&0).map(|p| p.name)
    }

    /// Why the relay cannot be used, if it cannot.
    pub fn failure(&self) -> Option<RelayFailure> {
        match self.phase {
            Phase::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// This machine's address as the relay sees it.
    pub fn public(&self) -> Option<SocketAddr> {
        self.public
    }

    /// Never punch: every packet to a relayed peer goes through the relay.
    pub fn without_punching(mut self) -> Paths {
        self.punch = false;
        self
    }

    /// How the peer QUIC calls `name` is reached.
    pub fn path(&self, name: SocketAddr) -> PathKind {
        match self.peers.values().find(|p| p.name == name) {
            Some(p) if p.punch.direct().is_some() => PathKind::Direct,
            Some(_) => PathKind::Relayed,
            None => PathKind::Lan,
        }
    }

    /// Where a QUIC packet for `name` goes.
    pub fn route(&self, name: SocketAddr) -> Route {
        let found = self.peers.iter().find(|(_, p)| p.name == name);
        match (found, self.relay, self.room) {
            (Some((_, p)), _, _) if p.punch.direct().is_some() => Route::Straight(p.punch.direct().unwrap_or(name)),
            (Some((&peer, _)), Some(relay), Some(room)) => Route::Relay { relay, room, peer },
            _ => Route::Straight(name),
        }
    }

    /// The next datagram this state machine wants sent.
    pub fn poll_outgoing(&mut self) -> Option<(SocketAddr, Vec<u8>)> {
        self.outbox.pop_front()
    }

    /// The request that makes (host) or seats (joiner) this machine's room at the relay.
    fn request(&self) -> RelayMessage {
        match (self.token, self.room) {
            (Some(token), _) => RelayMessage::Register { token, cookie: self.cookie },
            (None, Some(room)) => RelayMessage::Lookup { room, seat: self.me, cookie: self.cookie },
            // A host always has a token; nothing else asks.
            (None, None) => RelayMessage::StatusAsk,
        }
    }

    /// The next punch to send with a small TTL ([`super::punch::SCOUT_TTL`]): it should open this
    /// machine's own NAT towards the peer and die before the peer's router.
    pub fn poll_scout(&mut self) -> Option<(SocketAddr, Vec<u8>)> {
        self.scouts.pop_front()
    }

    /// The QUIC connection to the peer QUIC calls `name` is up, and both ends derived `key`
    /// from it: punching towards that peer starts (false if no such peer, or no punching).
    pub fn key(&mut self, name: SocketAddr, key: PunchKey, now: Instant) -> bool {
        let host = self.host;
        let Some(p) = self.peers.values_mut().find(|p| p.name == name) else { return false };
        if !self.punch || self.room.is_none() {
            return false;
        }
        p.punch.key(key, host, now);
        self.on_timeout(now);
        true
    }

    /// How many punch messages were refused (unauthenticated, wrongly keyed, replayed).
    pub fn refused_punches(&self) -> u64 {
        self.refused.total
    }

    /// When [`Paths::on_timeout`] wants to run next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let phase = match self.phase {
            Phase::Asking { next, .. } | Phase::Refresh { next } => Some(next),
            Phase::Ready { keepalive, sent: None } => Some(keepalive),
            Phase::Ready { keepalive, sent: Some(at) } => Some(keepalive.min(at + ALIVE_WAIT)),
            Phase::Lan | Phase::Failed(_) => None,
        };
        let punch = self.peers.values().filter(|_| self.punch).filter_map(|p| p.punch.poll_timeout()).min();
        match (phase, punch) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Repeats unanswered requests, keeps the room alive, punches.
    pub fn on_timeout(&mut self, now: Instant) {
        let Some(relay) = self.relay else { return };
        match self.phase {
            Phase::Asking { next, until } if now >= next => {
                if now >= until {
                    self.phase = Phase::Failed(RelayFailure::NoAnswer(relay));
                    return;
                }
                self.outbox.push_back((relay, encode(&self.request())));
                self.phase = Phase::Asking { next: now + ASK_EVERY, until };
            }
            Phase::Ready { sent: Some(at), .. } if now >= at + ALIVE_WAIT => {
                log::info!("the relay at {relay} did not answer a keepalive; asking for the room again");
                self.outbox.push_back((relay, encode(&self.request())));
                self.phase = Phase::Refresh { next: now + REFRESH_EVERY };
            }
            Phase::Ready { keepalive, sent } if now >= keepalive => {
                if let Some(room) = self.room {
                    self.outbox.push_back((relay, encode(&RelayMessage::Keepalive { room })));
                }
                self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: sent.or(Some(now)) };
            }
            Phase::Refresh { next } if now >= next => {
                self.outbox.push_back((relay, encode(&self.request())));
                self.phase = Phase::Refresh { next: now + REFRESH_EVERY };
            }
            _ => {}
        }
        let (Some(room), me) = (self.room, self.me) else { return };
        if !self.punch {
            return;
        }
        let mut shots = Vec::new();
        for (&them, p) in self.peers.iter_mut() {
            shots.extend(p.punch.on_timeout(Ends { room, me, them }, now));
        }
        self.send(shots);
    }

    fn send(&mut self, shots: Vec<Shot>) {
        for s in shots {
            let queue = if s.scout { &mut self.scouts } else { &mut self.outbox };
            queue.push_back((s.to, encode(&s.message)));
        }
    }

    /// Counts a punch message that was not believed; logs at most once a second.
    fn refuse(&mut self, now: Instant, from: SocketAddr, what: &'static str, why: Refusal) {
        let r = &mut self.refused;
        r.total += 1;
        r.unlogged += 1;
        let due = |at: Option<Instant>| at.is_none_or(|t| now.duration_since(t) >= REFUSALS_LOGGED_EVERY);
        if why == Refusal::NoKey {
            // Before the key, an honest peer's early punch looks the same: not worth a warning.
            if due(r.noted_at) {
                log::debug!("ignored a {what} from {from}, {}", why.describe());
                r.noted_at = Some(now);
            }
        } else if due(r.warned_at) {
            log::warn!(
                "ignored {} punch message(s) not from the peer (last: a {what} from {from}, {})",
                r.unlogged,
                why.describe()
            );
            r.unlogged = 0;
            r.warned_at = Some(now);
        }
    }

    /// Takes one arriving datagram: a relay answer or punch is taken in; a QUIC packet is named.
    pub fn arrive(&mut self, now: Instant, from: SocketAddr, bytes: &[u8]) -> Arrival {
        if !is_relay(bytes) {
            let from = match self.by_actual.get(&from).and_then(|n| self.peers.get(n)) {
                Some(p) => p.name,
                None => from,
            };
            return Arrival::Quic { from, skip: 0 };
        }
        let from_relay = self.relay == Some(from);
        let Ok(m) = decode(bytes) else {
            log::debug!("a malformed relay datagram from {from}; dropped");
            return Arrival::Taken;
        };
        match m {
            RelayMessage::Data { room, peer, .. } if from_relay && Some(room) == self.room => {
                let peer = if self.host { peer } else { 0 };
                if self.host && peer == 0 {
                    return Arrival::Taken;
                }
                let name = self.peer(peer, now).name;
                return Arrival::Quic { from: name, skip: DATA_HEADER };
            }
            RelayMessage::Challenge { cookie } if from_relay && self.asking() => {
                // Asked to prove this address receives: repeat the request with the cookie (at
                // once the first time; a cookie seen already waits for the timer).
                if self.cookie != Some(cookie) {
                    self.cookie = Some(cookie);
                    self.outbox.push_back((from, encode(&self.request())));
                }
            }
            RelayMessage::Registered { room, public } if from_relay && self.host && Some(room) == self.room => {
                if self.asking() {
                    if matches!(self.phase, Phase::Refresh { .. }) {
                        log::info!("the relay at {from} holds the room again");
                    }
                    self.public = Some(public);
                    self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: None };
                }
            }
            RelayMessage::Found { room, host, public, peer } if from_relay && !self.host && Some(room) == self.room => {
                self.found(now, from, host, public, peer);
            }
            RelayMessage::Alive { room } if from_relay && Some(room) == self.room => {
                if let Phase::Ready { keepalive, .. } = self.phase {
                    self.phase = Phase::Ready { keepalive, sent: None };
                }
            }
            RelayMessage::Introduce { room, peer, public } if from_relay && self.host && Some(room) == self.room => {
                if peer != 0 {
                    self.peer(peer, now).punch.aim(public);
                }
            }
            RelayMessage::Refused(why) if from_relay => match self.phase {
                Phase::Asking { .. } => {
                    self.phase = Phase::Failed(RelayFailure::Refused { relay: from, why });
                }
                Phase::Ready { .. } if why == RelayRefusal::NoRoom => {
                    log::info!("the relay at {from} forgot the room (it restarted?); asking for it again");
                    self.phase = Phase::Refresh { next: now };
                }
                // Still away (a joiner asking before its host made the room again): keep asking.
                _ => log::debug!("the relay at {from} refused: {}", why.describe()),
            },
            RelayMessage::Punch { room, peer, nonce, mac } if self.punch && Some(room) == self.room => {
                self.punched(now, from, Ends { room, me: self.me, them: peer }, nonce, &mac);
            }
            RelayMessage::PunchAck { room, peer, nonce, mac } if self.punch && Some(room) == self.room => {
                self.acknowledged(now, from, Ends { room, me: self.me, them: peer }, nonce, &mac);
            }
            _ => log::debug!("an unexpected relay datagram from {from}; dropped"),
        }
        Arrival::Taken
    }

    /// The relay found the host's room for this joiner (at first, or again after a restart).
    fn found(&mut self, now: Instant, from: SocketAddr, host: SocketAddr, public: SocketAddr, peer: u8) {
        if matches!(self.phase, Phase::Asking { .. }) {
            self.me = peer;
            self.public = Some(public);
            self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: None };
            let p = self.peer(0, now);
            p.name = host;
            p.punch.aim(host);
        } else if matches!(self.phase, Phase::Refresh { .. }) {
            if peer != self.me {
                log::warn!("the relay seated this machine again as peer {peer}, not {}", self.me);
                self.me = peer;
            }
            log::info!("the relay at {from} holds the room again");
            self.public = Some(public);
            self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: None };
            self.peer(0, now).punch.aim(host);
        }
    }

    /// A punch from `ends.them` arrived from `from`: answered if authentic.
    fn punched(&mut self, now: Instant, from: SocketAddr, ends: Ends, nonce: u64, mac: &[u8; MAC_LEN]) {
        let peer = ends.them;
        let known = self.knows(peer);
        let heard = match self.peers.get_mut(&peer).filter(|_| known) {
            Some(p) => p.punch.on_punch(ends, from, nonce, mac, now),
            None => Err(Refusal::NoKey),
        };
        match heard {
            Ok(shots) => {
                // Whatever comes from there is this peer's, even before our own punch is
                // answered (the other side may already send QUIC straight).
                self.by_actual.insert(from, peer);
                self.send(shots);
            }
            Err(why) => self.refuse(now, from, "punch", why),
        }
    }

    /// An acknowledgement of this machine's punch arrived from `from`: the direct path opens
    /// if it is authentic and from the exact address punched.
    fn acknowledged(&mut self, now: Instant, from: SocketAddr, ends: Ends, nonce: u64, mac: &[u8; MAC_LEN]) {
        let peer = ends.them;
        let known = self.knows(peer);
        let heard = match self.peers.get_mut(&peer).filter(|_| known) {
            Some(p) => p.punch.on_ack(ends, from, nonce, mac).map(|opened| (opened, p.name)),
            None => Err(Refusal::NoKey),
        };
        match heard {
            Ok((true, name)) => {
                log::info!("a direct path to {} opened at {from}", super::shown::shown(name));
                self.by_actual.insert(from, peer);
            }
            Ok((false, _)) => {}
            Err(why) => self.refuse(now, from, "punch acknowledgement", why),
        }
    }

    /// Waiting for the relay to make or seat the room (at first, or again).
    fn asking(&self) -> bool {
        matches!(self.phase, Phase::Asking { .. } | Phase::Refresh { .. })
    }

    /// May `peer` be punching at this machine? The host: any joiner; a joiner: the host.
    fn knows(&self, peer: u8) -> bool {
        if self.host { peer != 0 } else { peer == 0 && self.peers.contains_key(&0) }
    }

    fn peer(&mut self, number: u8, _now: Instant) -> &mut Peer {
        let name = relayed_name(number, self.v6);
        self.peers.entry(number).or_insert_with(|| Peer { name, punch: Punching::default() })
    }
}

/// Tests: every datagram the paths want sent, decoded.
#[cfg(test)]
pub(super) fn drain(p: &mut Paths) -> Vec<(SocketAddr, RelayMessage)> {
    std::iter::from_fn(|| p.poll_outgoing()).map(|(to, b)| (to, decode(&b).unwrap())).collect()
}

#[cfg(test)]
#[path = "paths_punch_tests.rs"]
mod punch_tests;

#[cfg(test)]
mod tests {
    use super::*;

    const RELAY: &str = "192.0.2.200:47700";

    #[test]
    fn an_unanswered_or_refused_request_fails_with_the_reason() {
        let t = Instant::now();
        let relay: SocketAddr = RELAY.parse().unwrap();
        let mut joiner = Paths::join(relay, RoomId([1; 16]), t);
        let mut asked = 0;
        let mut now = t;
        while joiner.failure().is_none() {
            asked += drain(&mut joiner).len();
            now = joiner.poll_timeout().unwrap();
            joiner.on_timeout(now);
        }
        assert_eq!(asked, 15, "asked every 400 ms for 6 s");
        assert!(now >= t + ASK_FOR);
        assert_eq!(joiner.failure(), Some(RelayFailure::NoAnswer(relay)));
        assert_eq!(joiner.failure().unwrap().to_string(), "no answer from the relay at 192.0.2.200:47700");

        let mut host = Paths::host(relay, t, false);
        host.arrive(t, relay, &encode(&RelayMessage::Refused(crate::net::codec::relay::RelayRefusal::Limited)));
        assert_eq!(host.failure(), Some(RelayFailure::Refused { relay, why: RelayRefusal::Limited }));
        assert!(host.failure().unwrap().to_string().contains("limiting requests"));
        // A refusal from anyone but the relay means nothing.
        let mut host = Paths::host(relay, t, false);
        host.arrive(
            t,
            "192.0.2.9:1".parse().unwrap(),
            &encode(&RelayMessage::Refused(crate::net::codec::relay::RelayRefusal::Limited)),
        );
        assert_eq!(host.failure(), None);
    }

    #[test]
    fn without_a_relay_everything_goes_straight() {
        let mut lan = Paths::lan();
        let peer: SocketAddr = "10.0.0.2:47600".parse().unwrap();
        assert_eq!(lan.route(peer), Route::Straight(peer));
        assert_eq!(lan.arrive(Instant::now(), peer, &[0xc0, 0]), Arrival::Quic { from: peer, skip: 0 });
        assert_eq!(lan.path(peer), PathKind::Lan);
        assert_eq!(lan.poll_timeout(), None);
    }
}
