//! How this machine reaches each peer, as an I/O-free state machine: straight on the LAN,
//! through a relay room, or directly once hole punching opened a path. It speaks the relay
//! protocol (register a room as host, look one up as joiner, keep alive), punches towards the
//! other side's public address, and tells the socket, packet by packet, where a QUIC packet
//! goes and whom an arriving one is from. QUIC always sees one stable address per peer (its
//! *name*), so a connection survives the switch from relayed to direct untouched.
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

use crate::net::codec::relay::{
    Cookie, DATA_HEADER, RelayMessage, RelayRefusal, RoomId, RoomToken, TOKEN_LEN, decode, encode, is_relay, room_of,
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
/// How often a punch is sent while no direct path is known.
pub const PUNCH_EVERY: Duration = Duration::from_millis(200);
/// How long punching goes on before the relayed path is kept for good.
pub const PUNCH_FOR: Duration = Duration::from_secs(10);

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
    Failed(String),
}

#[derive(Debug)]
struct Peer {
    /// The address QUIC knows this peer by.
    name: SocketAddr,
    /// Where punches go (the public address the relay saw, then any address a punch came from).
    punch_to: Vec<SocketAddr>,
    /// The direct address, once a punch was answered.
    direct: Option<SocketAddr>,
    punch_until: Instant,
    next_punch: Instant,
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
    pub fn failure(&self) -> Option<&str> {
        match &self.phase {
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
            Some(p) if p.direct.is_some() => PathKind::Direct,
            Some(_) => PathKind::Relayed,
            None => PathKind::Lan,
        }
    }

    /// Where a QUIC packet for `name` goes.
    pub fn route(&self, name: SocketAddr) -> Route {
        let found = self.peers.iter().find(|(_, p)| p.name == name);
        match (found, self.relay, self.room) {
            (Some((_, p)), _, _) if p.direct.is_some() => Route::Straight(p.direct.unwrap_or(name)),
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

    /// When [`Paths::on_timeout`] wants to run next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let phase = match self.phase {
            Phase::Asking { next, .. } | Phase::Refresh { next } => Some(next),
            Phase::Ready { keepalive, sent: None } => Some(keepalive),
            Phase::Ready { keepalive, sent: Some(at) } => Some(keepalive.min(at + ALIVE_WAIT)),
            Phase::Lan | Phase::Failed(_) => None,
        };
        let punch = self
            .peers
            .values()
            .filter(|_| self.punch)
            .filter(|p| p.direct.is_none() && !p.punch_to.is_empty() && p.next_punch <= p.punch_until)
            .map(|p| p.next_punch)
            .min();
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
                    self.phase = Phase::Failed(format!("no answer from the relay at {relay}"));
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
        for p in self.peers.values_mut() {
            if p.direct.is_none() && now >= p.next_punch && now <= p.punch_until {
                for to in &p.punch_to {
                    self.outbox.push_back((*to, encode(&RelayMessage::Punch { room, peer: me })));
                }
                p.next_punch = now + PUNCH_EVERY;
            }
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
                if matches!(self.phase, Phase::Asking { .. }) {
                    self.me = peer;
                    self.public = Some(public);
                    self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: None };
                    let p = self.peer(0, now);
                    p.name = host;
                    p.punch_to = vec![host];
                } else if matches!(self.phase, Phase::Refresh { .. }) {
                    if peer != self.me {
                        log::warn!("the relay seated this machine again as peer {peer}, not {}", self.me);
                        self.me = peer;
                    }
                    log::info!("the relay at {from} holds the room again");
                    self.public = Some(public);
                    self.phase = Phase::Ready { keepalive: now + KEEPALIVE, sent: None };
                    let p = self.peer(0, now);
                    if !p.punch_to.contains(&host) {
                        p.punch_to.push(host);
                    }
                }
            }
            RelayMessage::Alive { room } if from_relay && Some(room) == self.room => {
                if let Phase::Ready { keepalive, .. } = self.phase {
                    self.phase = Phase::Ready { keepalive, sent: None };
                }
            }
            RelayMessage::Introduce { room, peer, public } if from_relay && self.host && Some(room) == self.room => {
                if peer != 0 {
                    let p = self.peer(peer, now);
                    if !p.punch_to.contains(&public) {
                        p.punch_to.push(public);
                    }
                    p.punch_until = now + PUNCH_FOR;
                }
            }
            RelayMessage::Refused(why) if from_relay => match self.phase {
                Phase::Asking { .. } => {
                    self.phase = Phase::Failed(format!("the relay at {from} refused: {}", why.describe()));
                }
                Phase::Ready { .. } if why == RelayRefusal::NoRoom => {
                    log::info!("the relay at {from} forgot the room (it restarted?); asking for it again");
                    self.phase = Phase::Refresh { next: now };
                }
                // Still away (a joiner asking before its host made the room again): keep asking.
                _ => log::debug!("the relay at {from} refused: {}", why.describe()),
            },
            RelayMessage::Punch { room, peer } if self.punch && Some(room) == self.room && self.knows(peer) => {
                self.outbox.push_back((from, encode(&RelayMessage::PunchAck { room, peer: self.me })));
                // Whatever comes from there is this peer's, even before our own punch is
                // answered (the other side may already send QUIC straight).
                self.by_actual.insert(from, peer);
                let p = self.peer(peer, now);
                if p.direct.is_none() && !p.punch_to.contains(&from) {
                    // The punch came from an address the relay did not see (a NAT that maps
                    // per destination): punch back there too.
                    p.punch_to.push(from);
                    p.next_punch = now;
                    p.punch_until = p.punch_until.max(now + PUNCH_FOR);
                }
            }
            RelayMessage::PunchAck { room, peer } if self.punch && Some(room) == self.room && self.knows(peer) => {
                let p = self.peer(peer, now);
                if p.direct.is_none() {
                    p.direct = Some(from);
                    log::info!("a direct path to {} opened at {from}", p.name);
                    self.by_actual.insert(from, peer);
                }
            }
            _ => log::debug!("an unexpected relay datagram from {from}; dropped"),
        }
        Arrival::Taken
    }

    /// Waiting for the relay to make or seat the room (at first, or again).
    fn asking(&self) -> bool {
        matches!(self.phase, Phase::Asking { .. } | Phase::Refresh { .. })
    }

    /// May `peer` be punching at this machine? The host: any joiner; a joiner: the host.
    fn knows(&self, peer: u8) -> bool {
        if self.host { peer != 0 } else { peer == 0 && self.peers.contains_key(&0) }
    }

    fn peer(&mut self, number: u8, now: Instant) -> &mut Peer {
        let name = relayed_name(number, self.v6);
        self.peers.entry(number).or_insert_with(|| Peer {
            name,
            punch_to: Vec::new(),
            direct: None,
            punch_until: now + PUNCH_FOR,
            next_punch: now,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RELAY: &str = "192.0.2.200:47700";

    fn drain(p: &mut Paths) -> Vec<(SocketAddr, RelayMessage)> {
        std::iter::from_fn(|| p.poll_outgoing()).map(|(to, b)| (to, decode(&b).unwrap())).collect()
    }

    /// A host and a joiner behind endpoint-independent NATs: both learn of each other from the
    /// relay, their QUIC packets ride the relay, then a punch each way opens the direct path,
    /// and QUIC's names for the peers never change.
    #[test]
    fn punching_moves_both_sides_from_relayed_to_direct_under_the_same_names() {
        let t = Instant::now();
        let relay: SocketAddr = RELAY.parse().unwrap();
        let token = [9; TOKEN_LEN];
        let room = room_of(&token);
        let host_pub: SocketAddr = "198.51.100.1:40000".parse().unwrap();
        let joiner_pub: SocketAddr = "203.0.113.7:51000".parse().unwrap();
        let mut host = Paths::host_with_token(relay, token, t, false);
        assert_eq!(drain(&mut host), vec![(relay, RelayMessage::Register { token, cookie: None })]);
        host.arrive(t, relay, &encode(&RelayMessage::Registered { room, public: host_pub }));
        assert_eq!(host.room(), Some(room));

        let mut joiner = Paths::join(relay, room, t);
        assert_eq!(drain(&mut joiner), vec![(relay, RelayMessage::Lookup { room, seat: 0, cookie: None })]);
        joiner.arrive(t, relay, &encode(&RelayMessage::Found { room, host: host_pub, public: joiner_pub, peer: 1 }));
        assert_eq!(joiner.host_name(), Some(host_pub));
        assert_eq!(joiner.route(host_pub), Route::Relay { relay, room, peer: 0 });
        assert_eq!(joiner.path(host_pub), PathKind::Relayed);

        // The host hears of the joiner, and relayed QUIC from it arrives under a stable name.
        host.arrive(t, relay, &encode(&RelayMessage::Introduce { room, peer: 1, public: joiner_pub }));
        let relayed = encode(&RelayMessage::Data { room, peer: 1, payload: vec![0xc0, 1] });
        let Arrival::Quic { from: joiner_name, skip } = host.arrive(t, relay, &relayed) else { panic!() };
        assert_eq!(skip, DATA_HEADER);
        assert_eq!(host.route(joiner_name), Route::Relay { relay, room, peer: 1 });

        // Both punch; each answers the other's punch; each acknowledgement opens the path.
        host.on_timeout(t);
        joiner.on_timeout(t);
        let from_host = drain(&mut host);
        assert!(from_host.contains(&(joiner_pub, RelayMessage::Punch { room, peer: 0 })), "{from_host:?}");
        let from_joiner = drain(&mut joiner);
        assert!(from_joiner.contains(&(host_pub, RelayMessage::Punch { room, peer: 1 })), "{from_joiner:?}");
        joiner.arrive(t, host_pub, &encode(&RelayMessage::Punch { room, peer: 0 }));
        host.arrive(t, joiner_pub, &encode(&RelayMessage::Punch { room, peer: 1 }));
        for (to, m) in drain(&mut joiner) {
            assert_eq!((to, m.clone()), (host_pub, RelayMessage::PunchAck { room, peer: 1 }));
            host.arrive(t, joiner_pub, &encode(&m));
        }
        for (to, m) in drain(&mut host) {
            assert_eq!((to, m.clone()), (joiner_pub, RelayMessage::PunchAck { room, peer: 0 }));
            joiner.arrive(t, host_pub, &encode(&m));
        }
        assert_eq!(host.route(joiner_name), Route::Straight(joiner_pub));
        assert_eq!(host.path(joiner_name), PathKind::Direct);
        assert_eq!(joiner.route(host_pub), Route::Straight(host_pub));
        // A direct QUIC packet from the joiner's real address still carries the same name.
        assert_eq!(host.arrive(t, joiner_pub, &[0x40, 1, 2]), Arrival::Quic { from: joiner_name, skip: 0 });
        // And punching stopped.
        host.on_timeout(t + Duration::from_secs(1));
        assert!(drain(&mut host).iter().all(|(_, m)| !matches!(m, RelayMessage::Punch { .. })));
    }

    /// A joiner behind a NAT that maps per destination: its punches reach the host from an
    /// address the relay never saw; the host punches back there and the path opens.
    #[test]
    fn a_punch_from_an_unseen_address_is_answered_there() {
        let t = Instant::now();
        let relay: SocketAddr = RELAY.parse().unwrap();
        let room = room_of(&[3; TOKEN_LEN]);
        let mut host = Paths::host_with_token(relay, [3; TOKEN_LEN], t, false);
        host.arrive(t, relay, &encode(&RelayMessage::Registered { room, public: "198.51.100.1:1".parse().unwrap() }));
        host.arrive(
            t,
            relay,
            &encode(&RelayMessage::Introduce { room, peer: 2, public: "203.0.113.7:1".parse().unwrap() }),
        );
        drain(&mut host);
        let other: SocketAddr = "203.0.113.7:9999".parse().unwrap();
        host.arrive(t, other, &encode(&RelayMessage::Punch { room, peer: 2 }));
        let out = drain(&mut host);
        assert!(out.contains(&(other, RelayMessage::PunchAck { room, peer: 0 })));
        // QUIC arriving straight from there already carries the joiner's name.
        assert_eq!(host.arrive(t, other, &[0x40]), Arrival::Quic { from: relayed_name(2, false), skip: 0 });
        host.on_timeout(t);
        assert!(drain(&mut host).contains(&(other, RelayMessage::Punch { room, peer: 0 })));
        // Punches with the wrong room, or claiming to be the host, are ignored.
        host.arrive(t, other, &encode(&RelayMessage::Punch { room: RoomId([4; 16]), peer: 2 }));
        host.arrive(t, other, &encode(&RelayMessage::PunchAck { room, peer: 0 }));
        assert!(drain(&mut host).is_empty());
        assert_eq!(host.path(relayed_name(2, false)), PathKind::Relayed);
    }

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
        assert_eq!(joiner.failure(), Some("no answer from the relay at 192.0.2.200:47700"));

        let mut host = Paths::host(relay, t, false);
        host.arrive(t, relay, &encode(&RelayMessage::Refused(crate::net::codec::relay::RelayRefusal::Limited)));
        assert!(host.failure().unwrap().contains("limiting requests"));
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
