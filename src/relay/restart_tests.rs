//! A relayed match across a relay restart, at the state-machine level: a host's and a joiner's
//! [`Paths`] and a [`Relay`] wired by a simulated network (simulated time, no sockets). The
//! relay goes away for 10 s and comes back as a new instance knowing nothing; the two sides
//! get their room back (the host's token, the joiner's old seat) and relayed packets flow again
//! under the same names, well within QUIC's idle timeout.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::{Limits, Relay};
use crate::net::codec::relay::data_header;
use crate::net::nat::Paths;
use crate::net::nat::paths::{Arrival, Route};

const RELAY: &str = "192.0.2.200:47700";
const HOST: &str = "198.51.100.1:40000";
const JOINER: &str = "203.0.113.7:51000";

struct World {
    relay: Option<Relay>,
    host: Paths,
    joiner: Paths,
    /// Packets the host took as QUIC from the joiner, by the name they carried, and when.
    at_host: Vec<(Instant, SocketAddr)>,
    /// Relayed packets the joiner took from the host.
    at_joiner: Vec<Instant>,
}

fn addr(s: &str) -> SocketAddr {
    s.parse().unwrap()
}

impl World {
    /// Delivers `bytes` sent by `from` to `to`, and whatever that draws, until quiet.
    fn deliver(&mut self, now: Instant, from: SocketAddr, to: SocketAddr, bytes: Vec<u8>) {
        let mut queue = vec![(from, to, bytes)];
        while let Some((from, to, mut bytes)) = queue.pop() {
            if to == addr(RELAY) {
                let Some(relay) = self.relay.as_mut() else { continue };
                if let Some(next) = relay.handle(now, from, &mut bytes) {
                    queue.push((addr(RELAY), next, bytes));
                }
                queue.extend(relay.drain().map(|(t, b)| (addr(RELAY), t, b)));
                continue;
            }
            let side = if to == addr(HOST) { &mut self.host } else { &mut self.joiner };
            if let Arrival::Quic { from: name, .. } = side.arrive(now, from, &bytes) {
                if to == addr(HOST) {
                    self.at_host.push((now, name));
                } else {
                    self.at_joiner.push(now);
                }
            }
            let me = to;
            let side = if me == addr(HOST) { &mut self.host } else { &mut self.joiner };
            queue.extend(std::iter::from_fn(|| side.poll_outgoing()).map(|(t, b)| (me, t, b)));
        }
    }

    /// Runs both sides' timers and sends one relayed "QUIC" packet each way.
    fn step(&mut self, now: Instant) {
        for me in [addr(HOST), addr(JOINER)] {
            let side = if me == addr(HOST) { &mut self.host } else { &mut self.joiner };
            if side.poll_timeout().is_some_and(|at| at <= now) {
                side.on_timeout(now);
            }
            let out: Vec<_> = std::iter::from_fn(|| side.poll_outgoing()).collect();
            for (to, bytes) in out {
                self.deliver(now, me, to, bytes);
            }
        }
        let joiner_name = crate::net::nat::paths::relayed_name(1, false);
        let packets = [
            (addr(JOINER), self.joiner.host_name().map(|n| self.joiner.route(n))),
            (addr(HOST), Some(self.host.route(joiner_name))),
        ];
        for (me, route) in packets {
            if let Some(Route::Relay { relay, room, peer }) = route {
                let mut w = Vec::new();
                data_header(&mut w, room, peer);
                w.extend_from_slice(&[0x40; 60]);
                self.deliver(now, me, relay, w);
            }
        }
    }
}

#[test]
fn a_relayed_match_goes_on_after_the_relay_restarts() {
    let t = Instant::now();
    let relay = addr(RELAY);
    let mut w = World {
        relay: Some(Relay::new(Limits::default(), [1; 32], t)),
        host: Paths::host_with_token(relay, [7; 16], t, false).without_punching(),
        joiner: Paths::join(relay, crate::net::codec::relay::room_of(&[7; 16]), t).without_punching(),
        at_host: Vec::new(),
        at_joiner: Vec::new(),
    };
    let tick = Duration::from_millis(100);
    let mut now = t;
    let (down, up) = (t + Duration::from_secs(20), t + Duration::from_secs(30));
    let end = t + Duration::from_secs(45);
    while now < end {
        if now >= down && now < up {
            w.relay = None;
        } else if now >= up && w.relay.is_none() {
            // A new process: a new secret, no rooms, no cookies.
            w.relay = Some(Relay::new(Limits::default(), [2; 32], now));
        }
        w.step(now);
        assert_eq!(w.host.failure(), None);
        assert_eq!(w.joiner.failure(), None);
        now += tick;
    }
    let name = w.at_host.first().map(|(_, n)| *n).expect("relayed packets reached the host");
    assert!(w.at_host.iter().all(|(_, n)| *n == name), "the joiner kept its name at the host");
    let after_host: Vec<Instant> = w.at_host.iter().map(|(at, _)| *at).filter(|at| *at >= up).collect();
    let after_joiner: Vec<Instant> = w.at_joiner.iter().copied().filter(|at| *at >= up).collect();
    let resumed = |v: &[Instant]| v.first().map(|at| at.duration_since(up));
    let (h, j) = (resumed(&after_host), resumed(&after_joiner));
    assert!(h.is_some_and(|d| d <= Duration::from_secs(3)), "joiner → host resumed {h:?} after the relay came back");
    assert!(j.is_some_and(|d| d <= Duration::from_secs(3)), "host → joiner resumed {j:?} after the relay came back");
    // Flowing steadily from then on (one a tick each way).
    assert!(after_host.len() >= 140, "{}", after_host.len());
    assert!(after_joiner.len() >= 140, "{}", after_joiner.len());
    assert_eq!(w.host.path(name), crate::net::nat::PathKind::Relayed);
}
