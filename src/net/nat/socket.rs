//! The one UDP socket under a machine's QUIC endpoint: a `quinn::AsyncUdpSocket` that asks
//! [`Paths`] where each packet goes (straight, or wrapped for the relay) and whom each arriving
//! one is from, and takes relay answers and punches in on the way. A small task beside it
//! ([`drive`]) sends what the paths want sent when their timers fall due. Scouts (punches that
//! must die past this machine's own router, see `punch.rs`) go out with a small TTL, set on the
//! socket around those sends only: everything runs on the network's runtime, which one thread
//! at a time drives (see `quic/drive.rs`), so no QUIC packet is sent between.
//!
//! Must not: decode QUIC, or block (every send is a `try_send`; a full socket buffer drops the
//! packet, as UDP may, and QUIC's loss recovery resends it).

use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Instant;

use quinn::udp::{RecvMeta, Transmit};
use quinn::{AsyncUdpSocket, UdpPoller};
use tokio::io::ReadBuf;
use tokio::sync::Notify;

use super::paths::{Arrival, Paths, Route};
use super::punch::SCOUT_TTL;
use super::punch_key::PunchKey;
use crate::net::codec::relay::{DATA_HEADER, data_header};

/// The paths, shared between the socket, its driver and the game thread's questions.
pub type SharedPaths = Arc<Mutex<Paths>>;

/// A UDP socket that carries QUIC straight or through a relay.
pub struct NatSocket {
    io: tokio::net::UdpSocket,
    paths: SharedPaths,
    changed: Notify,
}

impl fmt::Debug for NatSocket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NatSocket").field("local", &self.io.local_addr().ok()).finish_non_exhaustive()
    }
}

impl NatSocket {
    /// Wraps a bound socket (inside a tokio runtime).
    pub fn new(socket: std::net::UdpSocket, paths: SharedPaths) -> io::Result<Arc<NatSocket>> {
        socket.set_nonblocking(true)?;
        Ok(Arc::new(NatSocket { io: tokio::net::UdpSocket::from_std(socket)?, paths, changed: Notify::new() }))
    }

    /// The paths this socket follows.
    pub fn paths(&self) -> &SharedPaths {
        &self.paths
    }

    fn lock(&self) -> MutexGuard<'_, Paths> {
        // A poisoned lock only means another thread panicked mid-update; the paths stay usable.
        self.paths.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keys punching towards the peer at the other end of `conn` (a connection through the
    /// relay, its TLS handshake done against the pinned fingerprint) and sends its first
    /// scouts. Does nothing where the paths do not punch.
    pub fn arm(&self, conn: &quinn::Connection) {
        let Some(key) = PunchKey::of(conn) else {
            log::debug!("no punch key from the connection to {}; no direct path", conn.remote_address());
            return;
        };
        let keyed = self.lock().key(conn.remote_address(), key, Instant::now());
        if keyed {
            self.flush();
            self.changed.notify_one();
        }
    }

    /// Sends scouts with a TTL that reaches past this machine's router and no further, then
    /// puts the socket's TTL back. Where the TTL cannot be set they are left out (punching
    /// goes on without them).
    fn send_scouts(&self, scouts: Vec<(SocketAddr, Vec<u8>)>) {
        let normal = match self.io.ttl() {
            Ok(t) => t,
            Err(e) => {
                log::debug!("cannot read the socket's TTL ({e}); no scouts");
                return;
            }
        };
        if let Err(e) = self.io.set_ttl(SCOUT_TTL) {
            log::debug!("cannot lower the socket's TTL ({e}); no scouts");
            return;
        }
        for (to, bytes) in scouts {
            if let Err(e) = self.io.try_send_to(&bytes, to) {
                log::debug!("cannot send a scout to {to}: {e}");
            }
        }
        if let Err(e) = self.io.set_ttl(normal) {
            log::warn!("cannot put the socket's TTL back to {normal}: {e}");
        }
    }

    /// Sends whatever the paths queued (relay requests, scouts, punches, acknowledgements).
    fn flush(&self) {
        let scouts: Vec<(SocketAddr, Vec<u8>)> = std::iter::from_fn(|| self.lock().poll_scout()).collect();
        if !scouts.is_empty() {
            self.send_scouts(scouts);
        }
        let out: Vec<(SocketAddr, Vec<u8>)> = std::iter::from_fn(|| self.lock().poll_outgoing()).collect();
        for (to, bytes) in out {
            if let Err(e) = self.io.try_send_to(&bytes, to) {
                log::debug!("cannot send to {to}: {e}");
            }
        }
    }
}

/// Runs the paths' timers: repeats relay requests, keeps the room alive and punches, until the
/// runtime ends.
pub async fn drive(socket: Arc<NatSocket>) {
    loop {
        socket.flush();
        let next = socket.lock().poll_timeout();
        match next {
            Some(at) => {
                tokio::select! {
                    _ = tokio::time::sleep_until(at.into()) => socket.lock().on_timeout(Instant::now()),
                    _ = socket.changed.notified() => {}
                }
            }
            None => socket.changed.notified().await,
        }
    }
}

#[derive(Debug)]
struct Writable(Arc<NatSocket>);

impl UdpPoller for Writable {
    fn poll_writable(self: Pin<&mut Self>, cx: &mut Context) -> Poll<io::Result<()>> {
        self.0.io.poll_send_ready(cx)
    }
}

impl AsyncUdpSocket for NatSocket {
    fn create_io_poller(self: Arc<Self>) -> Pin<Box<dyn UdpPoller>> {
        Box::pin(Writable(self))
    }

    fn try_send(&self, transmit: &Transmit) -> io::Result<()> {
        let route = self.lock().route(transmit.destination);
        match route {
            Route::Straight(to) => self.io.try_send_to(transmit.contents, to).map(|_| ()),
            Route::Relay { relay, room, peer } => {
                let mut w = Vec::with_capacity(DATA_HEADER + transmit.contents.len());
                data_header(&mut w, room, peer);
                w.extend_from_slice(transmit.contents);
                self.io.try_send_to(&w, relay).map(|_| ())
            }
        }
    }

    fn poll_recv(
        &self,
        cx: &mut Context,
        bufs: &mut [io::IoSliceMut<'_>],
        meta: &mut [RecvMeta],
    ) -> Poll<io::Result<usize>> {
        let (Some(buf), Some(slot)) = (bufs.first_mut(), meta.first_mut()) else {
            return Poll::Ready(Ok(0));
        };
        loop {
            let mut read = ReadBuf::new(buf);
            let from = match self.io.poll_recv_from(cx, &mut read) {
                Poll::Ready(Ok(from)) => from,
                Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::ConnectionRefused => continue,
                other => return other.map(|r| r.map(|_| 0)),
            };
            let len = read.filled().len();
            let arrival = self.lock().arrive(Instant::now(), from, &buf[..len]);
            match arrival {
                Arrival::Quic { from, skip } => {
                    buf.copy_within(skip..len, 0);
                    let len = len - skip;
                    *slot = RecvMeta { addr: from, len, stride: len, ecn: None, dst_ip: None };
                    return Poll::Ready(Ok(1));
                }
                Arrival::Taken => {
                    self.flush();
                    self.changed.notify_one();
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.io.local_addr()
    }
}
