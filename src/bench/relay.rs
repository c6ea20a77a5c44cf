//! `bench relay`: how many datagrams one relay thread forwards a second over loopback (one
//! core: the relay's loop; the sender and receiver run on another), how fast its room logic
//! alone handles them, and what the relay costs at its room cap: memory and time per request
//! while validated hosts fill every room, then keep registering, and while spoofed requests
//! (no cookie) flood it. The room's byte limit is lifted: this measures capacity.
//!
//! Must not: assert anything (figures only), or talk to any address but 127.0.0.1.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::net::codec::relay::{Cookie, RelayMessage, RoomId, RoomToken, data_header, decode, encode};
use crate::relay::{Limits, Relay, secure_secret, serve};

/// Bytes of payload per datagram: a lockstep frame with a few orders, plus QUIC's overhead.
const PAYLOAD: usize = 100;
/// Datagrams in flight at once.
const WINDOW: usize = 32;
/// Runs, and seconds each.
const RUNS: usize = 5;
const SECONDS: f64 = 1.5;

fn unlimited() -> Limits {
    Limits { room_bytes_per_second: u32::MAX / 2, room_byte_burst: u32::MAX / 2, ..Limits::default() }
}

/// Asks over a socket as a client does: answers the relay's challenge with its cookie.
fn ask(
    socket: &UdpSocket,
    relay: SocketAddr,
    m: impl Fn(Option<Cookie>) -> RelayMessage,
) -> std::io::Result<RelayMessage> {
    let mut buf = [0u8; 2048];
    let mut cookie = None;
    for _ in 0..20 {
        socket.send_to(&encode(&m(cookie)), relay)?;
        if let Ok((n, _)) = socket.recv_from(&mut buf) {
            match decode(&buf[..n]) {
                Ok(RelayMessage::Challenge { cookie: c }) => cookie = Some(c),
                Ok(answer) => return Ok(answer),
                Err(_) => {}
            }
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the relay did not answer"))
}

fn token(i: u32) -> RoomToken {
    let mut t = [0u8; 16];
    t[..4].copy_from_slice(&i.to_le_bytes());
    t[4] = 0xb0;
    t
}

/// Measures; the JSON has `datagrams_per_sec` (median over the runs), `runs`,
/// `handle_per_sec` (the room logic without sockets), and `at_cap` (see [`at_cap`]).
pub fn run() -> std::io::Result<Value> {
    let server = UdpSocket::bind("127.0.0.1:0")?;
    let relay = server.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let state = Relay::new(unlimited(), secure_secret()?, Instant::now());
    let thread = {
        let stop = stop.clone();
        std::thread::Builder::new().name("relay".into()).spawn(move || serve(&server, state, &stop, |_, _| {}))?
    };
    let host = UdpSocket::bind("127.0.0.1:0")?;
    let joiner = UdpSocket::bind("127.0.0.1:0")?;
    for s in [&host, &joiner] {
        s.set_read_timeout(Some(Duration::from_millis(200)))?;
    }
    let RelayMessage::Registered { room, .. } =
        ask(&host, relay, |cookie| RelayMessage::Register { token: token(1), cookie })?
    else {
        return Err(std::io::Error::other("the relay refused a room"));
    };
    ask(&joiner, relay, |cookie| RelayMessage::Lookup { room, seat: 0, cookie })?;
    // The lookup also introduced the joiner to the host: take that off the host's socket.
    let mut buf = [0u8; 2048];
    let _ = host.recv_from(&mut buf);

    let mut packet = Vec::new();
    data_header(&mut packet, room, 0);
    packet.resize(packet.len() + PAYLOAD, 0x40);
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let mut received = 0u64;
        while started.elapsed().as_secs_f64() < SECONDS {
            for _ in 0..WINDOW {
                joiner.send_to(&packet, relay)?;
            }
            for _ in 0..WINDOW {
                if host.recv_from(&mut buf).is_err() {
                    break;
                }
                received += 1;
            }
        }
        runs.push(received as f64 / started.elapsed().as_secs_f64());
    }
    stop.store(true, Ordering::Relaxed);
    let _ = thread.join();
    let median = super::median(runs.clone());
    Ok(json!({
        "datagrams_per_sec": median.round(),
        "runs": runs.iter().map(|r| r.round()).collect::<Vec<_>>(),
        "payload_bytes": PAYLOAD,
        "handle_per_sec": handle_rate().round(),
        "at_cap": at_cap(),
    }))
}

/// Handles `m(cookie)` from `from` as a validated client would send it: once without a cookie,
/// then with the challenge's. Returns the last answer.
fn validated(
    relay: &mut Relay,
    now: Instant,
    from: SocketAddr,
    m: &dyn Fn(Option<Cookie>) -> RelayMessage,
) -> Option<RelayMessage> {
    let mut bytes = encode(&m(None));
    relay.handle(now, from, &mut bytes);
    let cookie = relay.drain().find_map(|(_, b)| match decode(&b) {
        Ok(RelayMessage::Challenge { cookie }) => Some(cookie),
        _ => None,
    })?;
    let mut bytes = encode(&m(Some(cookie)));
    relay.handle(now, from, &mut bytes);
    relay.drain().next_back().and_then(|(_, b)| decode(&b).ok())
}

/// The room logic alone: a joiner's data datagram handled and rewritten, over and over.
fn handle_rate() -> f64 {
    let now = Instant::now();
    let mut relay = Relay::new(unlimited(), [9; 32], now);
    let (host, joiner): (SocketAddr, SocketAddr) = (([10, 0, 0, 1], 1).into(), ([10, 0, 0, 2], 2).into());
    let room = match validated(&mut relay, now, host, &|cookie| RelayMessage::Register { token: token(1), cookie }) {
        Some(RelayMessage::Registered { room, .. }) => room,
        _ => return 0.0,
    };
    validated(&mut relay, now, joiner, &|cookie| RelayMessage::Lookup { room, seat: 0, cookie });
    let mut packet = Vec::new();
    data_header(&mut packet, room, 0);
    packet.resize(packet.len() + PAYLOAD, 0x40);
    let n = 2_000_000u32;
    let started = Instant::now();
    let mut forwarded = 0u32;
    for _ in 0..n {
        if relay.handle(now, joiner, &mut packet).is_some() {
            forwarded += 1;
        }
    }
    f64::from(forwarded) / started.elapsed().as_secs_f64()
}

fn resident() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok());
    kb.unwrap_or(0.0) / 1024.0
}

/// The relay at its room cap (the default limits): validated hosts from distinct addresses
/// fill every room, each with one joiner; then more hosts ask (told "the relay is full"),
/// existing hosts refresh, spoofed registers flood, and the sweep runs. Memory is the
/// process's resident growth (MB); times are per request or per sweep, on one core.
fn at_cap() -> Value {
    let limits = Limits::default();
    let cap = limits.rooms as u32;
    let now = Instant::now();
    let before = resident();
    let mut relay = Relay::new(Limits { unvalidated_answers_per_second: u32::MAX / 2, ..limits }, [3; 32], now);
    let addr = |i: u32, port: u16| SocketAddr::from(([10, (i >> 16) as u8, (i >> 8) as u8, i as u8], port));
    let started = Instant::now();
    let mut rooms: Vec<RoomId> = Vec::with_capacity(cap as usize);
    for i in 0..cap {
        if let Some(RelayMessage::Registered { room, .. }) =
            validated(&mut relay, now, addr(i, 1), &|cookie| RelayMessage::Register { token: token(i), cookie })
        {
            rooms.push(room);
        }
    }
    let fill_s = started.elapsed().as_secs_f64();
    for (i, room) in rooms.iter().enumerate() {
        let room = *room;
        validated(&mut relay, now, addr(i as u32 + cap, 2), &|cookie| RelayMessage::Lookup { room, seat: 0, cookie });
    }
    let held_mb = resident() - before;
    let timed = |relay: &mut Relay, n: u32, f: &dyn Fn(&mut Relay, u32)| {
        let t = Instant::now();
        (0..n).for_each(|i| f(relay, i));
        t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
    };
    let n = 20_000;
    let refused_us = timed(&mut relay, n, &|r, i| {
        let from = addr(i + 3 * cap, 3);
        validated(r, now, from, &|cookie| RelayMessage::Register { token: token(i + 2 * cap), cookie });
    });
    let refresh_us = timed(&mut relay, n, &|r, i| {
        validated(r, now, addr(i, 1), &|cookie| RelayMessage::Register { token: token(i), cookie });
    });
    let spoofed_us = timed(&mut relay, n, &|r, i| {
        let mut bytes = encode(&RelayMessage::Register { token: token(i), cookie: Some([1; 16]) });
        r.handle(now, addr(i + 5 * cap, 4), &mut bytes);
        r.drain().for_each(drop);
    });
    let t = Instant::now();
    relay.sweep(now + Duration::from_secs(1));
    let sweep_ms = t.elapsed().as_secs_f64() * 1e3;
    json!({
        "rooms": relay.rooms(),
        "members": relay.status(now).members,
        "fill_registers_per_sec": (f64::from(cap) / fill_s).round(),
        "rss_growth_mb": (held_mb * 10.0).round() / 10.0,
        "register_when_full_us": (refused_us * 100.0).round() / 100.0,
        "refresh_register_us": (refresh_us * 100.0).round() / 100.0,
        "spoofed_register_us": (spoofed_us * 100.0).round() / 100.0,
        "sweep_ms": (sweep_ms * 100.0).round() / 100.0,
    })
}
