//! `bench relay`: how many datagrams one relay thread forwards a second over loopback (one
//! core: the relay's loop; the sender and receiver run on another), and how fast its room
//! logic alone handles them. The room's byte limit is lifted: this measures capacity.
//!
//! Must not: assert anything (figures only), or talk to any address but 127.0.0.1.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::net::codec::relay::{RelayMessage, RoomId, data_header, decode, encode};
use crate::relay::{Limits, Relay, serve};

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

fn ask(socket: &UdpSocket, relay: SocketAddr, m: &RelayMessage) -> std::io::Result<RelayMessage> {
    let mut buf = [0u8; 2048];
    for _ in 0..20 {
        socket.send_to(&encode(m), relay)?;
        if let Ok((n, _)) = socket.recv_from(&mut buf)
            && let Ok(answer) = decode(&buf[..n])
        {
            return Ok(answer);
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the relay did not answer"))
}

/// Measures; the JSON has `datagrams_per_sec` (median over the runs), `runs`, and
/// `handle_per_sec` (the room logic without sockets).
pub fn run() -> std::io::Result<Value> {
    let server = UdpSocket::bind("127.0.0.1:0")?;
    let relay = server.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let thread = {
        let stop = stop.clone();
        std::thread::Builder::new().name("relay".into()).spawn(move || serve(&server, unlimited(), &stop, |_, _| {}))?
    };
    let host = UdpSocket::bind("127.0.0.1:0")?;
    let joiner = UdpSocket::bind("127.0.0.1:0")?;
    for s in [&host, &joiner] {
        s.set_read_timeout(Some(Duration::from_millis(200)))?;
    }
    let RelayMessage::Registered { room, .. } = ask(&host, relay, &RelayMessage::Register)? else {
        return Err(std::io::Error::other("the relay refused a room"));
    };
    ask(&joiner, relay, &RelayMessage::Lookup { room })?;
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
        "handle_per_sec": handle_rate(room).round(),
    }))
}

/// The room logic alone: a joiner's data datagram handled and rewritten, over and over.
fn handle_rate(_: RoomId) -> f64 {
    let mut relay = Relay::new(unlimited(), crate::relay::server::secure_room_ids());
    let (host, joiner): (SocketAddr, SocketAddr) = (([10, 0, 0, 1], 1).into(), ([10, 0, 0, 2], 2).into());
    let mut reg = encode(&RelayMessage::Register);
    relay.handle(Instant::now(), host, &mut reg);
    let room = match relay.drain().next().map(|(_, b)| decode(&b)) {
        Some(Ok(RelayMessage::Registered { room, .. })) => room,
        _ => return 0.0,
    };
    let mut lookup = encode(&RelayMessage::Lookup { room });
    relay.handle(Instant::now(), joiner, &mut lookup);
    relay.drain().for_each(drop);
    let mut packet = Vec::new();
    data_header(&mut packet, room, 0);
    packet.resize(packet.len() + PAYLOAD, 0x40);
    let n = 2_000_000u32;
    let started = Instant::now();
    let now = Instant::now();
    let mut forwarded = 0u32;
    for _ in 0..n {
        if relay.handle(now, joiner, &mut packet).is_some() {
            forwarded += 1;
        }
    }
    f64::from(forwarded) / started.elapsed().as_secs_f64()
}
