//! The relay's UDP loop: one socket (dual-stack when bound to `[::]`), one thread, datagrams
//! handed to [`Relay`] and its answers sent; idle rooms swept every second; a stats line every
//! minute. One core forwards well over 100,000 datagrams a second (`ridgeline bench relay`),
//! and a match needs about 120.
//!
//! Must not: keep anything about a room beyond what [`Relay`] holds, or log payloads.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::rooms::{Relay, RelayStats};

/// Largest datagram read (QUIC's stay under 1,500 bytes).
const MAX_DATAGRAM: usize = 2048;

/// How often idle rooms are swept.
const SWEEP: Duration = Duration::from_secs(1);

/// A secret for the relay's cookies, from the system's secure random generator.
pub fn secure_secret() -> std::io::Result<[u8; 32]> {
    let mut secret = [0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut secret)
        .map_err(|_| std::io::Error::other("the system's random generator failed"))?;
    Ok(secret)
}

/// A UDP socket on `addr`; on `[::]` it takes IPv4 too (IPv4 senders then appear as
/// IPv4-mapped IPv6 addresses, which the relay treats as the IPv4 ones).
pub fn bind(addr: SocketAddr) -> std::io::Result<UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::DGRAM, Some(Protocol::UDP))?;
    if addr.is_ipv6() && addr.ip().is_unspecified() {
        socket.set_only_v6(false)?;
    }
    socket.bind(&addr.into())?;
    Ok(socket.into())
}

/// The process's resident memory in bytes (Linux; 0 elsewhere).
fn resident() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Serves `relay` on `socket` until `stop` is set: forwards room data, answers requests,
/// sweeps idle rooms. `every_minute` gets the counters once a minute (the service logs them).
pub fn serve(
    socket: &UdpSocket,
    mut relay: Relay,
    stop: &AtomicBool,
    mut every_minute: impl FnMut(RelayStats, usize),
) -> std::io::Result<RelayStats> {
    socket.set_read_timeout(Some(Duration::from_millis(200)))?;
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let (mut swept, mut reported) = (Instant::now(), Instant::now());
    relay.set_memory(resident());
    while !stop.load(Ordering::Relaxed) {
        match socket.recv_from(&mut buf) {
            Ok((len, from)) => {
                let now = Instant::now();
                if let Some(to) = relay.handle(now, from, &mut buf[..len]) {
                    send(socket, &buf[..len], to);
                }
                for (to, bytes) in relay.drain() {
                    send(socket, &bytes, to);
                }
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            // ICMP errors for a gone peer surface here on some systems: not the relay's fault.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {}
            Err(e) => return Err(e),
        }
        let now = Instant::now();
        if now.duration_since(swept) >= SWEEP {
            relay.sweep(now);
            relay.set_memory(resident());
            for (to, bytes) in relay.drain() {
                send(socket, &bytes, to);
            }
            swept = now;
        }
        if now.duration_since(reported) >= Duration::from_secs(60) {
            every_minute(relay.stats(), relay.rooms());
            reported = now;
        }
    }
    Ok(relay.stats())
}

fn send(socket: &UdpSocket, bytes: &[u8], to: SocketAddr) {
    if let Err(e) = socket.send_to(bytes, to) {
        log::debug!("cannot send a datagram: {e}");
    }
}
