//! The relay state machine's tests: meeting, forwarding, limits, address validation (no state,
//! no larger answer, no forwarding before a cookie round trip) and a restart (a new relay, the
//! same rooms made again by their hosts), all with simulated time.

use std::time::Duration;

use super::*;
use crate::net::codec::relay::{REQUEST_SIZE, TOKEN_LEN};

fn relay(limits: Limits, t: Instant) -> Relay {
    Relay::new(limits, [42; 32], t)
}

fn send(r: &mut Relay, now: Instant, from: &str, m: &RelayMessage) -> (Option<SocketAddr>, Vec<u8>) {
    let mut bytes = encode(m);
    let to = r.handle(now, from.parse().unwrap(), &mut bytes);
    (to, bytes)
}

fn answers(r: &mut Relay) -> Vec<(SocketAddr, RelayMessage)> {
    r.drain().map(|(to, b)| (to, decode(&b).unwrap())).collect()
}

/// Sends a request as a real client does: without a cookie, then again with the one the
/// challenge carried. Returns the answers to the second.
fn ask(
    r: &mut Relay,
    now: Instant,
    from: &str,
    m: impl Fn(Option<Cookie>) -> RelayMessage,
) -> Vec<(SocketAddr, RelayMessage)> {
    send(r, now, from, &m(None));
    let got = answers(r);
    let [(to, RelayMessage::Challenge { cookie })] = got.as_slice() else { panic!("{got:?}") };
    assert_eq!(to.to_string(), from);
    send(r, now, from, &m(Some(*cookie)));
    answers(r)
}

fn register(token: RoomToken) -> impl Fn(Option<Cookie>) -> RelayMessage {
    move |cookie| RelayMessage::Register { token, cookie }
}

fn lookup(room: RoomId, seat: u8) -> impl Fn(Option<Cookie>) -> RelayMessage {
    move |cookie| RelayMessage::Lookup { room, seat, cookie }
}

const HOST: &str = "198.51.100.1:40000";
const JOINER: &str = "203.0.113.7:51000";
const TOKEN: RoomToken = [5; TOKEN_LEN];

fn open_room(r: &mut Relay, now: Instant) -> RoomId {
    match ask(r, now, HOST, register(TOKEN)).as_slice() {
        [(_, RelayMessage::Registered { room, public })] => {
            assert_eq!(public.to_string(), HOST);
            assert_eq!(*room, room_of(&TOKEN));
            *room
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_joiner_meets_the_host_and_data_flows_both_ways_stamped_with_the_sender() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    let got = ask(&mut r, t, JOINER, lookup(room, 0));
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
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    // Not a member: dropped, nothing said.
    let (to, _) = send(&mut r, t, JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![1; 100] });
    assert_eq!(to, None);
    // The host addressing an empty seat.
    let (to, _) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 3, payload: vec![1] });
    assert_eq!(to, None);
    let (to, _) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 0, payload: vec![1] });
    assert_eq!(to, None, "peer 0 is nobody's seat");
    assert!(answers(&mut r).is_empty());
    // A wrong room.
    let got = ask(&mut r, t, JOINER, lookup(RoomId([0xee; ROOM_LEN]), 0));
    assert_eq!(got, vec![(JOINER.parse().unwrap(), RelayMessage::Refused(RelayRefusal::NoRoom))]);
    // Garbage.
    let mut junk = vec![0xc3, 0, 0, 0, 1];
    assert_eq!(r.handle(t, JOINER.parse().unwrap(), &mut junk), None);
    assert!(answers(&mut r).is_empty());
    assert_eq!(r.stats().forwarded, 0);
    assert!(r.stats().dropped >= 4);
}

/// Every kind of datagram, as an address that never proved it receives would send it: the
/// bytes sent back to it never exceed the bytes it sent, nothing is forwarded to it, and the
/// relay keeps nothing for it.
#[test]
fn an_unvalidated_address_never_draws_more_bytes_than_it_sent_nor_any_forwarding() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    answers(&mut r);
    let victim: SocketAddr = "192.0.2.99:443".parse().unwrap();
    let cookie = Some([7; TOKEN_LEN]);
    let addr: SocketAddr = "203.0.113.1:1".parse().unwrap();
    let every = [
        RelayMessage::Register { token: [1; TOKEN_LEN], cookie: None },
        RelayMessage::Register { token: [1; TOKEN_LEN], cookie },
        RelayMessage::Register { token: TOKEN, cookie },
        RelayMessage::Lookup { room, seat: 0, cookie: None },
        RelayMessage::Lookup { room, seat: 1, cookie },
        RelayMessage::Lookup { room: RoomId([3; ROOM_LEN]), seat: 0, cookie: None },
        RelayMessage::Keepalive { room },
        RelayMessage::Keepalive { room: RoomId([3; ROOM_LEN]) },
        RelayMessage::Data { room, peer: 0, payload: vec![] },
        RelayMessage::Data { room: RoomId([3; ROOM_LEN]), peer: 0, payload: vec![] },
        RelayMessage::Registered { room, public: addr },
        RelayMessage::Found { room, host: addr, public: addr, peer: 1 },
        RelayMessage::Introduce { room, peer: 1, public: addr },
        RelayMessage::Alive { room },
        RelayMessage::Refused(RelayRefusal::Full),
        RelayMessage::Punch { room, peer: 1, nonce: 0, mac: [0; 16] },
        RelayMessage::PunchAck { room, peer: 1, nonce: 0, mac: [0; 16] },
        RelayMessage::Challenge { cookie: [1; TOKEN_LEN] },
        RelayMessage::StatusAsk,
        RelayMessage::Status(RelayStatus::default()),
    ];
    for m in every {
        let mut bytes = encode(&m);
        let sent = bytes.len();
        let forwarded = r.handle(t, victim, &mut bytes);
        let back: usize = r
            .drain()
            .map(|(to, b)| {
                assert_eq!(to, victim, "{m:?} drew an answer to someone else");
                b.len()
            })
            .sum();
        assert_eq!(forwarded, None, "{m:?}");
        assert!(back <= sent, "{m:?}: {sent} bytes drew {back}");
        // Unpadded requests (the old 5- and 21-byte forms) draw nothing at all.
        if matches!(m, RelayMessage::Register { .. } | RelayMessage::Lookup { .. }) {
            let mut short = encode(&m)[..REQUEST_SIZE - 1].to_vec();
            r.handle(t, victim, &mut short);
            assert_eq!(r.drain().count(), 0, "{m:?} unpadded");
        }
    }
    assert_eq!(r.rooms(), 1, "no room for the victim");
    assert_eq!(r.addresses(), 1, "nothing kept for it (only the host's counters)");
    // The host sending to seat 1 reaches nobody: the victim never took it.
    let (to, _) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer: 1, payload: vec![0x40; 1000] });
    assert_eq!(to, None);
    assert_eq!(r.stats().forwarded, 0);
}

/// An attacker who holds a room (and its code) forges a Lookup from a victim's address to have
/// the relay stream data at it: the victim is only challenged, never seated.
#[test]
fn a_forged_lookup_cannot_make_the_relay_send_data_to_a_victim() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    let victim = "192.0.2.99:443";
    for seat in 0..8 {
        // Any cookie the attacker could make up (it never sees the one sent to the victim).
        send(&mut r, t, victim, &RelayMessage::Lookup { room, seat, cookie: Some([seat + 1; TOKEN_LEN]) });
    }
    let got = answers(&mut r);
    assert!(got.iter().all(|(_, m)| matches!(m, RelayMessage::Challenge { .. })), "{got:?}");
    let mut delivered = 0;
    for peer in 1..=7 {
        for _ in 0..100 {
            let (to, bytes) = send(&mut r, t, HOST, &RelayMessage::Data { room, peer, payload: vec![0x40; 1200] });
            if to.is_some() {
                delivered += bytes.len();
            }
        }
    }
    assert_eq!(delivered, 0);
}

/// Spoofed registers from a million addresses (none can answer a challenge) make no room and
/// keep nothing; a real host then gets its room at once.
#[test]
fn a_spoofed_register_flood_cannot_fill_the_relay() {
    let t = Instant::now();
    let mut r = relay(Limits { rooms: 1000, ..Limits::default() }, t);
    for i in 0..100_000u32 {
        let from = SocketAddr::from(([10 + (i >> 24) as u8, (i >> 16) as u8, (i >> 8) as u8, i as u8], 1));
        let mut bytes = encode(&RelayMessage::Register {
            token: i.to_le_bytes().repeat(4).try_into().unwrap(),
            cookie: Some([9; 16]),
        });
        r.handle(t, from, &mut bytes);
    }
    let said = r.drain().count();
    assert_eq!(r.rooms(), 0);
    assert_eq!(r.addresses(), 0, "no counters for unvalidated addresses");
    assert!(said <= Limits::default().unvalidated_answers_per_second as usize, "challenges are rate-limited: {said}");
    let room = open_room(&mut r, t + Duration::from_secs(1));
    assert_eq!(r.rooms(), 1);
    assert_eq!(room, room_of(&TOKEN));
}

#[test]
fn a_full_relay_says_so_and_rooms_per_address_are_limited() {
    let t = Instant::now();
    let limits = Limits { rooms: 3, rooms_per_address: 2, request_burst: 100, ..Limits::default() };
    let mut r = relay(limits, t);
    let tokens: Vec<RoomToken> = (0..4u8).map(|i| [i + 10; TOKEN_LEN]).collect();
    let said = |got: Vec<(SocketAddr, RelayMessage)>| got.into_iter().map(|(_, m)| m).collect::<Vec<_>>();
    assert!(matches!(
        said(ask(&mut r, t, "198.51.100.1:1", register(tokens[0])))[..],
        [RelayMessage::Registered { .. }]
    ));
    assert!(matches!(
        said(ask(&mut r, t, "198.51.100.1:2", register(tokens[1])))[..],
        [RelayMessage::Registered { .. }]
    ));
    assert_eq!(
        said(ask(&mut r, t, "198.51.100.1:3", register(tokens[2]))),
        vec![RelayMessage::Refused(RelayRefusal::Limited)]
    );
    assert!(matches!(
        said(ask(&mut r, t, "198.51.100.2:1", register(tokens[2])))[..],
        [RelayMessage::Registered { .. }]
    ));
    let full = said(ask(&mut r, t, "198.51.100.3:1", register(tokens[3])));
    assert_eq!(full, vec![RelayMessage::Refused(RelayRefusal::RelayFull)]);
    assert!(RelayRefusal::RelayFull.describe().contains("relay is full"));
    // IPv6: one home's /64 counts as one address.
    let mut r = relay(Limits { rooms_per_address: 1, ..Limits::default() }, t);
    assert!(matches!(
        said(ask(&mut r, t, "[2001:db8:0:1::1]:1", register(tokens[0])))[..],
        [RelayMessage::Registered { .. }]
    ));
    assert_eq!(
        said(ask(&mut r, t, "[2001:db8:0:1::2]:1", register(tokens[1]))),
        vec![RelayMessage::Refused(RelayRefusal::Limited)]
    );
    assert!(matches!(
        said(ask(&mut r, t, "[2001:db8:0:2::1]:1", register(tokens[1])))[..],
        [RelayMessage::Registered { .. }]
    ));
}

#[test]
fn request_rates_are_limited_and_refusals_are_too() {
    let t = Instant::now();
    let limits = Limits { request_burst: 5, requests_per_second: 1, ..Limits::default() };
    let mut r = relay(limits, t);
    // Guessing rooms: five lookups in a burst, then one a second; refusals at most 3 in a burst.
    let cookie = match ask(&mut r, t, JOINER, lookup(RoomId([0x55; ROOM_LEN]), 0)).as_slice() {
        [(_, RelayMessage::Refused(RelayRefusal::NoRoom))] => r.cookies.make(t, JOINER.parse().unwrap()),
        other => panic!("{other:?}"),
    };
    for _ in 0..50 {
        send(
            &mut r,
            t,
            JOINER,
            &RelayMessage::Lookup { room: RoomId([0x55; ROOM_LEN]), seat: 0, cookie: Some(cookie) },
        );
    }
    let got = answers(&mut r);
    assert_eq!(got.len(), 2, "three refusals in a burst, one used already: {got:?}");
    assert!(r.stats().limited >= 45);
    let later = t + Duration::from_millis(1100);
    send(&mut r, later, JOINER, &RelayMessage::Lookup { room: RoomId([0x55; 16]), seat: 0, cookie: Some(cookie) });
    assert_eq!(answers(&mut r)[0].1, RelayMessage::Refused(RelayRefusal::NoRoom), "a second later, one more");
}

#[test]
fn a_room_relays_no_more_than_its_byte_rate() {
    let t = Instant::now();
    let limits = Limits { room_bytes_per_second: 10_000, room_byte_burst: 10_000, ..Limits::default() };
    let mut r = relay(limits, t);
    let room = open_room(&mut r, t);
    ask(&mut r, t, JOINER, lookup(room, 0));
    let payload = vec![0x40; 1000 - DATA_HEADER];
    let mut pass = |now| {
        (0..20)
            .filter(|_| {
                send(&mut r, now, JOINER, &RelayMessage::Data { room, peer: 0, payload: payload.clone() }).0.is_some()
            })
            .count()
    };
    assert_eq!(pass(t), 10, "10,000 bytes of 1,000-byte datagrams");
    assert_eq!(pass(t + Duration::from_millis(500)), 5, "half a second refills half");
}

#[test]
fn silent_rooms_and_seats_are_forgotten_and_keepalives_hold_them() {
    let t = Instant::now();
    let mut r = relay(Limits { idle: Duration::from_secs(60), ..Limits::default() }, t);
    let room = open_room(&mut r, t);
    ask(&mut r, t, JOINER, lookup(room, 0));
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
    assert_eq!(r.addresses(), 0, "nothing kept once its rooms are gone");
    // The host may open its room again.
    assert_eq!(open_room(&mut r, t + Duration::from_secs(112)), room);
}

/// Seven lookups from one address take at most its share of seats; a repeated lookup keeps
/// its seat; a full room says so.
#[test]
fn one_address_cannot_fill_a_room() {
    let t = Instant::now();
    let mut r = relay(Limits { joiners_per_room: 3, request_burst: 100, ..Limits::default() }, t);
    let room = open_room(&mut r, t);
    let peer_of = |got: Vec<(SocketAddr, RelayMessage)>| {
        got.into_iter().find_map(|(to, m)| match m {
            RelayMessage::Found { peer, .. } => Some(Ok(peer)),
            RelayMessage::Refused(why) if to.to_string() != HOST => Some(Err(why)),
            _ => None,
        })
    };
    let mut seen = Vec::new();
    for port in 1..=7 {
        seen.push(peer_of(ask(&mut r, t, &format!("203.0.113.7:{port}"), lookup(room, 0))));
    }
    assert_eq!(seen[..3], [Some(Ok(1)), Some(Ok(2)), Some(Err(RelayRefusal::Limited))], "two seats for one address");
    assert!(seen[3..].iter().all(|s| !matches!(s, Some(Ok(_)))), "{seen:?}");
    assert_eq!(peer_of(ask(&mut r, t, "203.0.113.7:1", lookup(room, 0))), Some(Ok(1)), "asked again: the same seat");
    assert_eq!(peer_of(ask(&mut r, t, "203.0.113.8:1", lookup(room, 0))), Some(Ok(3)));
    assert_eq!(peer_of(ask(&mut r, t, "203.0.113.9:1", lookup(room, 0))), Some(Err(RelayRefusal::Full)));
}

/// The relay restarts (a new instance, a new secret: every room and cookie forgotten). The
/// members' data draws "no such room"; the host makes its room again with its token (the same
/// id), the joiner takes its old seat back, and data flows as before. Nobody else can make
/// that room, even knowing its id.
#[test]
fn after_a_restart_the_host_makes_its_room_again_and_the_joiner_takes_its_seat_back() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    ask(&mut r, t, "203.0.113.7:1", lookup(room, 0));
    ask(&mut r, t, JOINER, lookup(room, 0));
    let later = t + Duration::from_secs(5);
    let mut r = Relay::new(Limits::default(), [43; 32], later);
    let (to, _) = send(&mut r, later, JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![0x40; 50] });
    assert_eq!(to, None);
    assert_eq!(answers(&mut r), vec![(JOINER.parse().unwrap(), RelayMessage::Refused(RelayRefusal::NoRoom))]);
    // The joiner comes back first: no room yet.
    let early = ask(&mut r, later, JOINER, lookup(room, 2));
    assert_eq!(early, vec![(JOINER.parse().unwrap(), RelayMessage::Refused(RelayRefusal::NoRoom))]);
    // A stranger with another token cannot make that id.
    let other = ask(&mut r, later, "192.0.2.50:1", register([6; TOKEN_LEN]));
    assert!(matches!(other[..], [(_, RelayMessage::Registered { room: o, .. })] if o != room));
    assert_eq!(open_room(&mut r, later), room, "the host's token makes the same room");
    let got = ask(&mut r, later, JOINER, lookup(room, 2));
    assert!(got.iter().any(|(_, m)| matches!(m, RelayMessage::Found { peer: 2, .. })), "its old seat: {got:?}");
    let (to, bytes) = send(&mut r, later, JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![0x40] });
    assert_eq!(to, Some(HOST.parse().unwrap()));
    assert_eq!(decode(&bytes).unwrap(), RelayMessage::Data { room, peer: 2, payload: vec![0x40] });
    let (to, _) = send(&mut r, later, HOST, &RelayMessage::Data { room, peer: 2, payload: vec![0x40] });
    assert_eq!(to, Some(JOINER.parse().unwrap()));
}

/// The host's router gives it a new port: its token moves the room there (found by id, not by
/// scanning the rooms for an address).
#[test]
fn a_host_that_moved_keeps_its_room_by_its_token() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    let room = open_room(&mut r, t);
    ask(&mut r, t, JOINER, lookup(room, 0));
    let got = ask(&mut r, t, "198.51.100.1:40001", register(TOKEN));
    assert!(matches!(got[..], [(_, RelayMessage::Registered { room: r2, .. })] if r2 == room));
    assert_eq!(r.rooms(), 1);
    let (to, _) = send(&mut r, t, JOINER, &RelayMessage::Data { room, peer: 0, payload: vec![0x40] });
    assert_eq!(to, Some("198.51.100.1:40001".parse().unwrap()));
}

#[test]
fn the_status_is_told_on_loopback_only() {
    let t = Instant::now();
    let mut r = relay(Limits::default(), t);
    open_room(&mut r, t);
    r.set_memory(12345);
    send(&mut r, t + Duration::from_secs(3), "127.0.0.1:9", &RelayMessage::StatusAsk);
    send(&mut r, t, "[::1]:9", &RelayMessage::StatusAsk);
    send(&mut r, t, "203.0.113.7:9", &RelayMessage::StatusAsk);
    let got = answers(&mut r);
    assert_eq!(got.len(), 2, "{got:?}");
    let RelayMessage::Status(s) = &got[0].1 else { panic!("{got:?}") };
    assert_eq!((s.rooms, s.members, s.counted.rooms_made, s.uptime_s, s.rss_bytes), (1, 1, 1, 3, 12345));
}
