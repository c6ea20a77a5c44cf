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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::net::codec::relay::{RelayMessage, decode, encode};
    use crate::relay::Limits;

    /// A Register over a real socket, answering the challenge: the relay's answer.
    fn register(client: &UdpSocket, relay: SocketAddr) -> RelayMessage {
        client.set_read_timeout(Some(Duration::from_millis(500))).unwrap();
        let mut cookie = None;
        let mut buf = [0u8; 256];
        for _ in 0..10 {
            client.send_to(&encode(&RelayMessage::Register { token: [4; 16], cookie }), relay).unwrap();
            if let Ok((n, _)) = client.recv_from(&mut buf) {
                match decode(&buf[..n]).unwrap() {
                    RelayMessage::Challenge { cookie: c } => cookie = Some(c),
                    other => return other,
                }
            }
        }
        panic!("no answer from {relay}");
    }

    /// One relay on `[::]` serves IPv6 and IPv4 clients (loopback only), and tells an IPv4
    /// client its address as IPv4.
    #[test]
    fn a_relay_on_the_ipv6_any_address_serves_both_families() {
        let Ok(socket) = bind("[::]:0".parse().unwrap()) else {
            eprintln!("no IPv6 on this machine: nothing to test");
            return;
        };
        let port = socket.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let serving = {
            let stop = stop.clone();
            let relay = Relay::new(Limits::default(), [1; 32], Instant::now());
            std::thread::spawn(move || serve(&socket, relay, &stop, |_, _| {}))
        };
        let v4 = UdpSocket::bind("127.0.0.1:0").unwrap();
        let v6 = UdpSocket::bind("[::1]:0").unwrap();
        let at_v4 = register(&v4, SocketAddr::from(([127, 0, 0, 1], port)));
        let at_v6 = register(&v6, SocketAddr::new(std::net::Ipv6Addr::LOCALHOST.into(), port));
        stop.store(true, Ordering::Relaxed);
        serving.join().unwrap().unwrap();
        assert!(
            matches!(at_v4, RelayMessage::Registered { public, .. } if public == v4.local_addr().unwrap()),
            "{at_v4:?}"
        );
        assert!(
            matches!(at_v6, RelayMessage::Registered { public, .. } if public == v6.local_addr().unwrap()),
            "{at_v6:?}"
        );
    }
}
