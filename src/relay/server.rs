//! The relay's UDP loop: one socket, one thread, datagrams handed to [`Relay`] and its answers
//! sent; idle rooms swept every second; a stats line every minute. One core forwards well over
//! 100,000 datagrams a second (`ridgeline bench relay`), and a match needs about 120.
//!
//! Must not: keep anything about a room beyond what [`Relay`] holds, or log payloads.

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::limits::Limits;
use super::rooms::{Relay, RelayStats};

/// Largest datagram read (QUIC's stay under 1,500 bytes).
const MAX_DATAGRAM: usize = 2048;

/// How often idle rooms are swept.
const SWEEP: Duration = Duration::from_secs(1);

/// A relay's room ids: 16 bytes from the system's secure random generator.
pub fn secure_room_ids() -> Box<dyn FnMut() -> [u8; 16] + Send> {
    let rng = ring::rand::SystemRandom::new();
    Box::new(move || {
        let mut id = [0u8; 16];
        if ring::rand::SecureRandom::fill(&rng, &mut id).is_err() {
            // The system generator failing is fatal for unguessable rooms: make none.
            log::error!("the system's random generator failed");
            id = [0; 16];
        }
        id
    })
}

/// Serves on `socket` until `stop` is set: forwards room data, answers requests, sweeps idle
/// rooms. `every_minute` gets the counters once a minute (the service logs them).
pub fn serve(
    socket: &UdpSocket,
    limits: Limits,
    stop: &AtomicBool,
    mut every_minute: impl FnMut(RelayStats, usize),
) -> std::io::Result<RelayStats> {
    socket.set_read_timeout(Some(Duration::from_millis(200)))?;
    let mut relay = Relay::new(limits, secure_room_ids());
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let (mut swept, mut reported) = (Instant::now(), Instant::now());
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
        log::debug!("cannot send to {to}: {e}");
    }
}
