//! The relay side of [`Paths`] as a match sees it: the relay's cookie challenge answered, and a
//! room the relay forgot (it restarted) or stopped answering for asked for again, by the host
//! with its token and by a joiner for its own seat, for as long as it takes, never failing the
//! match. Simulated time, no sockets.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::Paths;
use super::paths::{ALIVE_WAIT, KEEPALIVE, REFRESH_EVERY, drain};
use crate::net::codec::relay::{RelayMessage, RelayRefusal, TOKEN_LEN, encode, room_of};

const RELAY: &str = "192.0.2.200:47700";

/// The relay's challenge is answered with its cookie; an unanswered keepalive, or "no such
/// room" (a restarted relay), has the host ask for its room again every second, never
/// failing the match, and a joiner ask for its own seat.
#[test]
fn a_challenge_is_answered_and_a_forgotten_room_asked_for_again() {
    let t = Instant::now();
    let relay: SocketAddr = RELAY.parse().unwrap();
    let (token, cookie) = ([2; TOKEN_LEN], [8; TOKEN_LEN]);
    let room = room_of(&token);
    let mut host = Paths::host_with_token(relay, token, t, false);
    drain(&mut host);
    host.arrive(t, relay, &encode(&RelayMessage::Challenge { cookie }));
    assert_eq!(drain(&mut host), vec![(relay, RelayMessage::Register { token, cookie: Some(cookie) })]);
    host.arrive(t, relay, &encode(&RelayMessage::Challenge { cookie }));
    assert!(drain(&mut host).is_empty(), "a repeated challenge waits for the timer");
    host.arrive(t, relay, &encode(&RelayMessage::Registered { room, public: "198.51.100.1:1".parse().unwrap() }));
    assert_eq!(host.room(), Some(room));
    // A keepalive answered: nothing more.
    let k = t + KEEPALIVE;
    host.on_timeout(k);
    assert_eq!(drain(&mut host), vec![(relay, RelayMessage::Keepalive { room })]);
    host.arrive(k, relay, &encode(&RelayMessage::Alive { room }));
    host.on_timeout(k + ALIVE_WAIT);
    assert!(drain(&mut host).is_empty());
    // The next one unanswered: the room is asked for again, every second, for as long as it takes.
    let k = k + KEEPALIVE;
    host.on_timeout(k);
    drain(&mut host);
    assert_eq!(host.poll_timeout(), Some(k + ALIVE_WAIT));
    for s in 0..30 {
        host.on_timeout(k + ALIVE_WAIT + REFRESH_EVERY * s);
    }
    let asked = drain(&mut host);
    assert_eq!(asked.len(), 30);
    assert!(asked.iter().all(|m| *m == (relay, RelayMessage::Register { token, cookie: Some(cookie) })));
    assert_eq!((host.failure(), host.room()), (None, Some(room)));
    let back = k + Duration::from_secs(40);
    host.arrive(back, relay, &encode(&RelayMessage::Registered { room, public: "198.51.100.1:1".parse().unwrap() }));
    assert_eq!(host.poll_timeout(), Some(back + KEEPALIVE), "ready again");

    // A joiner told "no such room" asks for its own seat again at once.
    let mut joiner = Paths::join(relay, room, t).without_punching();
    let found = RelayMessage::Found {
        room,
        host: "198.51.100.1:1".parse().unwrap(),
        public: "203.0.113.7:1".parse().unwrap(),
        peer: 3,
    };
    joiner.arrive(t, relay, &encode(&found));
    drain(&mut joiner);
    joiner.arrive(t, relay, &encode(&RelayMessage::Refused(RelayRefusal::NoRoom)));
    joiner.on_timeout(t);
    assert_eq!(drain(&mut joiner), vec![(relay, RelayMessage::Lookup { room, seat: 3, cookie: None })]);
    joiner.arrive(t, relay, &encode(&RelayMessage::Refused(RelayRefusal::NoRoom)));
    assert_eq!(joiner.failure(), None, "its host is not back yet: it keeps asking");
    joiner.arrive(t, relay, &encode(&found));
    assert!(joiner.host_name().is_some());
    assert_eq!(joiner.poll_timeout(), Some(t + KEEPALIVE));
}
