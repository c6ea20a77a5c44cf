//! The punching side of [`Paths`] in simulated time: a host and a joiner that meet through a
//! relay open a direct path only with punches keyed by their shared connection, in the order
//! that survives routers (scouts first), and nothing a stranger sends moves a path.

use super::*;
use crate::net::codec::relay::MAC_LEN;
use crate::net::nat::punch::{JOINER_WAIT, SCOUT_PAUSE};
use crate::net::nat::punch_key::{PunchFields, PunchKind};

const RELAY: &str = "192.0.2.200:47700";
const HOST_PUB: &str = "198.51.100.1:40000";
const JOINER_PUB: &str = "203.0.113.7:51000";
/// Somebody who saw the join code, elsewhere on the internet.
const STRANGER: &str = "198.18.0.66:4000";

fn addr(s: &str) -> SocketAddr {
    s.parse().unwrap()
}

fn scouts(p: &mut Paths) -> Vec<(SocketAddr, RelayMessage)> {
    std::iter::from_fn(|| p.poll_scout()).map(|(to, b)| (to, decode(&b).unwrap())).collect()
}

fn punches(out: &[(SocketAddr, RelayMessage)]) -> Vec<SocketAddr> {
    out.iter().filter(|(_, m)| matches!(m, RelayMessage::Punch { .. })).map(|(to, _)| *to).collect()
}

/// Hands each message to `to` as if it came from `from`.
fn deliver(to: &mut Paths, now: Instant, from: SocketAddr, msgs: Vec<(SocketAddr, RelayMessage)>) {
    for (_, m) in msgs {
        to.arrive(now, from, &encode(&m));
    }
}

/// A host and a joiner that met in the room of `token` through the relay (joiner number 1), their QUIC
/// connection not up yet; returns them and the joiner's name at the host.
fn met(t: Instant, token: RoomToken) -> (Paths, Paths, SocketAddr) {
    let relay = addr(RELAY);
    let room = room_of(&token);
    let mut host = Paths::host_with_token(relay, token, t, false);
    host.arrive(t, relay, &encode(&RelayMessage::Registered { room, public: addr(HOST_PUB) }));
    let mut joiner = Paths::join(relay, room, t);
    joiner.arrive(
        t,
        relay,
        &encode(&RelayMessage::Found { room, host: addr(HOST_PUB), public: addr(JOINER_PUB), peer: 1 }),
    );
    host.arrive(t, relay, &encode(&RelayMessage::Introduce { room, peer: 1, public: addr(JOINER_PUB) }));
    let relayed = encode(&RelayMessage::Data { room, peer: 1, payload: vec![0xc0, 1] });
    let Arrival::Quic { from: joiner_name, skip } = host.arrive(t, relay, &relayed) else { panic!() };
    assert_eq!(skip, DATA_HEADER);
    drain(&mut host);
    drain(&mut joiner);
    (host, joiner, joiner_name)
}

/// The key both ends of their QUIC connection derived.
fn shared_key() -> PunchKey {
    PunchKey::from_secret(&[0x5a; 32])
}

fn signed(key: &PunchKey, kind: PunchKind, room: RoomId, from: u8, to: u8, nonce: u64) -> RelayMessage {
    let mac = key.sign(&PunchFields { kind, room, from, to, nonce });
    match kind {
        PunchKind::Punch => RelayMessage::Punch { room, peer: from, nonce, mac },
        PunchKind::Ack => RelayMessage::PunchAck { room, peer: from, nonce, mac },
    }
}

/// Both sides keyed at `t`: scouts first, the host's real punch after its pause, the joiner's
/// once it heard the host; each acknowledgement opens a path, and QUIC's names never change.
#[test]
fn keyed_punching_scouts_first_then_moves_both_sides_to_direct_under_the_same_names() {
    let t = Instant::now();
    let token = [9; TOKEN_LEN];
    let room = room_of(&token);
    let (host_pub, joiner_pub) = (addr(HOST_PUB), addr(JOINER_PUB));
    let (mut host, mut joiner, joiner_name) = met(t, token);
    // No punch before the connection keys it.
    host.on_timeout(t);
    joiner.on_timeout(t);
    assert!(punches(&drain(&mut host)).is_empty() && scouts(&mut host).is_empty());
    assert!(punches(&drain(&mut joiner)).is_empty() && scouts(&mut joiner).is_empty());
    assert_eq!(joiner.route(host_pub), Route::Relay { relay: addr(RELAY), room, peer: 0 });

    // The joiner holds its key first: one scout (small TTL), no real punch.
    assert!(joiner.key(host_pub, shared_key(), t));
    assert_eq!(punches(&scouts(&mut joiner)), vec![host_pub]);
    assert!(punches(&drain(&mut joiner)).is_empty());
    let t1 = t + Duration::from_millis(30);
    assert!(host.key(joiner_name, shared_key(), t1));
    assert_eq!(punches(&scouts(&mut host)), vec![joiner_pub]);
    assert!(punches(&drain(&mut host)).is_empty());
    // Nothing real before the host's pause is over.
    let early = t1 + SCOUT_PAUSE - Duration::from_millis(1);
    host.on_timeout(early);
    joiner.on_timeout(early);
    assert!(punches(&drain(&mut host)).is_empty() && punches(&drain(&mut joiner)).is_empty());
    assert_eq!(host.poll_timeout(), Some(t1 + SCOUT_PAUSE));

    // The host punches; the joiner answers and punches back at once.
    let t2 = t1 + SCOUT_PAUSE;
    host.on_timeout(t2);
    let from_host = drain(&mut host);
    assert_eq!(punches(&from_host), vec![joiner_pub]);
    deliver(&mut joiner, t2, host_pub, from_host);
    let answer = drain(&mut joiner);
    assert!(
        matches!(answer.as_slice(), [(to, RelayMessage::PunchAck { peer: 1, .. })] if *to == host_pub),
        "{answer:?}"
    );
    deliver(&mut host, t2, joiner_pub, answer);
    assert_eq!(host.route(joiner_name), Route::Straight(joiner_pub));
    assert_eq!(host.path(joiner_name), PathKind::Direct);
    joiner.on_timeout(t2);
    let from_joiner = drain(&mut joiner);
    assert_eq!(punches(&from_joiner), vec![host_pub]);
    deliver(&mut host, t2, joiner_pub, from_joiner);
    deliver(&mut joiner, t2, host_pub, drain(&mut host));
    assert_eq!(joiner.route(host_pub), Route::Straight(host_pub));
    assert_eq!(joiner.path(host_pub), PathKind::Direct);
    // A direct QUIC packet from the joiner's real address still carries the same name.
    assert_eq!(host.arrive(t2, joiner_pub, &[0x40, 1, 2]), Arrival::Quic { from: joiner_name, skip: 0 });
    // Punching stopped; nothing was refused.
    host.on_timeout(t2 + Duration::from_secs(1));
    assert!(punches(&drain(&mut host)).is_empty());
    assert_eq!(host.refused_punches() + joiner.refused_punches(), 0);
}

/// A joiner that never hears the host (its own NAT maps per destination) punches in earnest
/// after [`JOINER_WAIT`] all the same.
#[test]
fn a_joiner_that_hears_nothing_punches_after_its_wait() {
    let t = Instant::now();
    let (_, mut joiner, _) = met(t, [2; TOKEN_LEN]);
    joiner.key(addr(HOST_PUB), shared_key(), t);
    scouts(&mut joiner);
    let mut first_real = None;
    while first_real.is_none() {
        let now = joiner.poll_timeout().unwrap();
        joiner.on_timeout(now);
        first_real = punches(&drain(&mut joiner)).first().map(|_| now);
    }
    assert_eq!(first_real, Some(t + JOINER_WAIT));
}

/// A joiner behind a NAT that maps per destination: its punches reach the host from an
/// address the relay never saw; the host answers there and punches back there (no scout: that
/// way is open), and the path opens there.
#[test]
fn a_punch_from_an_unseen_address_is_answered_and_punched_back_there() {
    let t = Instant::now();
    let token = [3; TOKEN_LEN];
    let room = room_of(&token);
    let (mut host, _, joiner_name) = met(t, token);
    host.key(joiner_name, shared_key(), t);
    scouts(&mut host);
    let other = addr("203.0.113.7:9999");
    host.arrive(t, other, &encode(&signed(&shared_key(), PunchKind::Punch, room, 1, 0, 1)));
    let out = drain(&mut host);
    assert!(matches!(out[0], (to, RelayMessage::PunchAck { peer: 0, nonce: 1, .. }) if to == other), "{out:?}");
    assert_eq!(punches(&out), vec![other]);
    assert!(scouts(&mut host).is_empty());
    // QUIC arriving straight from there already carries the joiner's name.
    assert_eq!(host.arrive(t, other, &[0x40]), Arrival::Quic { from: joiner_name, skip: 0 });
    let RelayMessage::Punch { nonce, .. } = out[1].1 else { panic!() };
    host.arrive(t, other, &encode(&signed(&shared_key(), PunchKind::Ack, room, 1, 0, nonce)));
    assert_eq!(host.route(joiner_name), Route::Straight(other));
}

/// Issue 57: a stranger who has seen the code (even one holding a connection of its own, so
/// a key of its own) sends punches and acknowledgements from its address claiming the friend's
/// number: unkeyed, keyed wrongly, and replays of the friend's real ones. The friend's path
/// does not move, nothing is sent to the stranger, each is counted, and the friend's own
/// punching then opens the direct path as before.
#[test]
fn spoofed_punches_from_a_stranger_do_not_change_the_friends_path() {
    let t = Instant::now();
    let token = [7; TOKEN_LEN];
    let room = room_of(&token);
    let (host_pub, joiner_pub, stranger) = (addr(HOST_PUB), addr(JOINER_PUB), addr(STRANGER));
    let (mut host, mut joiner, joiner_name) = met(t, token);
    let own = PunchKey::from_secret(&[0x66; 32]);
    let forged = |key: Option<&PunchKey>, kind, from, to, nonce| match key {
        Some(k) => signed(k, kind, room, from, to, nonce),
        None => match kind {
            PunchKind::Punch => RelayMessage::Punch { room, peer: from, nonce, mac: [0; MAC_LEN] },
            PunchKind::Ack => RelayMessage::PunchAck { room, peer: from, nonce, mac: [0; MAC_LEN] },
        },
    };
    let mut spoofs = Vec::new();
    for nonce in 1..=4 {
        for key in [None, Some(&own)] {
            for kind in [PunchKind::Punch, PunchKind::Ack] {
                spoofs.push((forged(key, kind, 1, 0, nonce), forged(key, kind, 0, 1, nonce)));
            }
        }
    }
    // Before either side is keyed, and after.
    for (to_host, to_joiner) in &spoofs {
        host.arrive(t, stranger, &encode(to_host));
        joiner.arrive(t, stranger, &encode(to_joiner));
    }
    host.key(joiner_name, shared_key(), t);
    joiner.key(host_pub, shared_key(), t);
    let t1 = t + SCOUT_PAUSE;
    for (to_host, to_joiner) in &spoofs {
        host.arrive(t1, stranger, &encode(to_host));
        joiner.arrive(t1, stranger, &encode(to_joiner));
    }
    let n = spoofs.len() as u64 * 2;
    assert_eq!((host.refused_punches(), joiner.refused_punches()), (n, n));

    // The real exchange, with every real message replayed by the stranger right after.
    host.on_timeout(t1);
    let from_host = drain(&mut host);
    assert!(!from_host.iter().any(|(to, _)| *to == stranger), "{from_host:?}");
    deliver(&mut joiner, t1, host_pub, from_host.clone());
    deliver(&mut joiner, t1, stranger, from_host);
    let from_joiner = drain(&mut joiner);
    assert!(!from_joiner.iter().any(|(to, _)| *to == stranger), "{from_joiner:?}");
    deliver(&mut host, t1, stranger, from_joiner.clone());
    assert_eq!(host.path(joiner_name), PathKind::Relayed, "a replayed acknowledgement opened nothing");
    deliver(&mut host, t1, joiner_pub, from_joiner.clone());
    deliver(&mut host, t1, stranger, from_joiner);
    assert_eq!(host.route(joiner_name), Route::Straight(joiner_pub));
    joiner.on_timeout(t1);
    let joiner_punch = drain(&mut joiner);
    assert_eq!(punches(&joiner_punch), vec![host_pub]);
    deliver(&mut host, t1, joiner_pub, joiner_punch.clone());
    deliver(&mut host, t1, stranger, joiner_punch);
    let answers = drain(&mut host);
    assert!(!answers.iter().any(|(to, _)| *to == stranger), "{answers:?}");
    deliver(&mut joiner, t1, stranger, answers.clone());
    deliver(&mut joiner, t1, host_pub, answers);

    assert_eq!(host.route(joiner_name), Route::Straight(joiner_pub));
    assert_eq!(joiner.route(host_pub), Route::Straight(host_pub));
    // QUIC from the stranger's address is never taken for the friend's.
    assert_eq!(host.arrive(t1, stranger, &[0x40]), Arrival::Quic { from: stranger, skip: 0 });
    assert_eq!(joiner.arrive(t1, stranger, &[0x40]), Arrival::Quic { from: stranger, skip: 0 });
    assert!(host.refused_punches() > n && joiner.refused_punches() > n, "the replays were counted too");
}
