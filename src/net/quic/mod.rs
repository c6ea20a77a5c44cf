//! Online play over QUIC (quinn, rustls with ring): encrypted by default, the host's
//! self-signed certificate pinned by the fingerprint in the join code. The host relays (star).
//! Every endpoint sits on one [`crate::net::nat`] socket: on one network packets go straight;
//! with a relay (`ridgeline relay`) the host registers a room, the code names it, and each
//! joiner reaches the host through it, or directly once punching opens a path. quinn runs on a
//! runtime of its own (`io.rs`), driven by a named network thread, or by the game thread while it
//! waits on the network or flushes a frame (`drive.rs`: then a frame leaves and an answer comes
//! in with no hand-off between threads); [`QuicTransport`] is the game thread's side, speaking
//! to it through channels, never blocking unless asked to wait. Lockstep messages of one exchange go out as one
//! batch in one write; control messages (handshake, start, drops) travel beside them.
//!
//! Must not: interpret lockstep messages (the stream does), or block the game thread.

pub mod channel;
mod congestion;
mod drive;
mod error;
pub mod io;
pub mod join_code;
pub mod numbers;
mod pending;
pub mod tls;
mod transport;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::lockstep::transport::{PeerId, Transport, TransportEvent};

use super::codec::{decode, encode};
pub use super::control::NetStats;
use super::nat::{self, PathKind, Paths, Reach, SharedPaths};
use super::wire::WireMessage;
use drive::Drive;
use error::connect_reason;
pub use error::{ConnectFailure, HostAt, QuicError};
use io::{Connections, In, KIND_CONTROL, KIND_LOCKSTEP, Out};
pub use join_code::{JoinCode, Target};

/// The port a host listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 47600;

/// The game thread's end of a QUIC connection (host or joiner).
pub struct QuicTransport {
    me: PeerId,
    out: mpsc::UnboundedSender<Out>,
    inbox: mpsc::UnboundedReceiver<In>,
    /// Lockstep messages waiting for the next flush (one write).
    batch: Vec<WireMessage>,
    events: VecDeque<TransportEvent>,
    control: VecDeque<(PeerId, WireMessage)>,
    connections: Connections,
    stats: NetStats,
    /// Why the last peer left.
    left_reason: Option<String>,
    /// How each peer is reached.
    paths: Option<SharedPaths>,
    /// The runtime, driven here while this thread waits on the network.
    drive: Option<Arc<Drive>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl std::fmt::Debug for QuicTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QuicTransport").field("me", &self.me).field("stats", &self.stats).finish_non_exhaustive()
    }
}

/// Starts a runtime with `body` on it and the network thread to drive it (see [`Drive`]);
/// returns what `body` reports back through its sender before it runs on.
fn spawn<T: Send + 'static>(
    name: &str,
    body: impl FnOnce(std_mpsc::Sender<Result<T, QuicError>>) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
) -> Result<(T, Arc<Drive>, std::thread::JoinHandle<()>), QuicError> {
    let (ready_tx, ready_rx) = std_mpsc::channel();
    let drive = Arc::new(Drive::new().map_err(QuicError::Runtime)?);
    drive.start(body(ready_tx));
    let serving = drive.clone();
    let thread =
        std::thread::Builder::new().name(name.to_string()).spawn(move || serving.serve()).map_err(QuicError::Thread)?;
    let value = ready_rx.recv().map_err(|_| QuicError::ThreadStopped).and_then(|r| r)?;
    Ok((value, drive, thread))
}

impl QuicTransport {
    fn new(
        me: PeerId,
        out: mpsc::UnboundedSender<Out>,
        inbox: mpsc::UnboundedReceiver<In>,
        connections: Connections,
        paths: SharedPaths,
        (drive, thread): (Arc<Drive>, std::thread::JoinHandle<()>),
    ) -> QuicTransport {
        QuicTransport {
            me,
            out,
            inbox,
            batch: Vec::new(),
            events: VecDeque::new(),
            control: VecDeque::new(),
            connections,
            stats: NetStats::default(),
            left_reason: None,
            paths: Some(paths),
            drive: Some(drive),
            thread: Some(thread),
        }
    }

    /// Hosts on `bind` (port 0 picks a free one): returns the transport (peer 0) and the join
    /// code. Without a relay in `reach` the code carries `advertise` (or the bound address);
    /// with one, the host first registers a room there and the code names the relay and the
    /// room. Either way it carries the certificate's fingerprint.
    pub fn host(
        bind: SocketAddr,
        advertise: Option<std::net::IpAddr>,
        reach: Reach,
    ) -> Result<(QuicTransport, JoinCode), QuicError> {
        let relay = reach.relay;
        let id = tls::identity()?;
        let config = tls::server_config(&id)?;
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let (in_tx, in_rx) = mpsc::unbounded_channel();
        let connections = Connections::default();
        let conns = connections.clone();
        let ((addr, room, paths), drive, thread) = spawn("ridgeline-net", move |ready| {
            Box::pin(async move {
                let paths = match relay {
                    Some(r) if reach.punch => Paths::host(r, Instant::now(), bind.is_ipv6()),
                    Some(r) => Paths::host(r, Instant::now(), bind.is_ipv6()).without_punching(),
                    None => Paths::lan(),
                };
                let (endpoint, paths, socket) = match nat::endpoint(bind, paths, Some(config)) {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = ready.send(Err(QuicError::Listen { addr: bind, source: e }));
                        return;
                    }
                };
                let addr = match endpoint.local_addr() {
                    Ok(a) => a,
                    Err(e) => {
                        let _ = ready.send(Err(QuicError::Socket(e)));
                        return;
                    }
                };
                let room = match relay {
                    Some(_) => match settle(&paths, Paths::room).await {
                        Ok(room) => Some(room),
                        Err(e) => {
                            let _ = ready.send(Err(e));
                            return;
                        }
                    },
                    None => None,
                };
                let _ = ready.send(Ok((addr, room, paths.clone())));
                io::host(
                    endpoint,
                    out_rx,
                    in_tx,
                    conns,
                    std::sync::Arc::new(move |c: &quinn::Connection| socket.arm(c)),
                )
                .await;
            })
        })?;
        let target = match (relay, room) {
            (Some(relay), Some(room)) => Target::Relay { relay, room },
            _ => Target::Direct(SocketAddr::new(advertise.unwrap_or(addr.ip()), addr.port())),
        };
        let code = JoinCode { target, fingerprint: id.fingerprint };
        Ok((QuicTransport::new(PeerId(0), out_tx, in_rx, connections, paths, (drive, thread)), code))
    }

    /// Connects to the host in `code` (at `reach.relay` instead of the code's address, if given),
    /// accepting only the pinned certificate, and sends `hello` at once; returns once
    /// connected, or with why not. The peer id is unknown (255) until the host's welcome; see
    /// [`QuicTransport::set_me`].
    pub fn join(code: &JoinCode, reach: Reach, hello: &WireMessage) -> Result<QuicTransport, QuicError> {
        QuicTransport::join_with(code, reach, hello, true)
    }

    /// As [`QuicTransport::join`], but returns at once: a failure to connect arrives as the
    /// host leaving, with its reason in [`QuicTransport::left_reason`] (the window must not
    /// freeze while a connection is tried).
    pub fn join_in_background(code: &JoinCode, reach: Reach, hello: &WireMessage) -> Result<QuicTransport, QuicError> {
        QuicTransport::join_with(code, reach, hello, false)
    }

    fn join_with(code: &JoinCode, reach: Reach, hello: &WireMessage, wait: bool) -> Result<QuicTransport, QuicError> {
        let config = tls::client_config(code.fingerprint)?;
        let code = reach.relay.map_or(*code, |a| code.with_addr(a));
        let (out_tx, out_rx) = mpsc::unbounded_channel();
        let (in_tx, in_rx) = mpsc::unbounded_channel();
        let hello_frame = encode(std::slice::from_ref(hello));
        let connections = Connections::default();
        let conns = connections.clone();
        let (paths, drive, thread) = spawn("ridgeline-net", move |ready| {
            Box::pin(async move {
                let local: SocketAddr = if code.addr().is_ipv6() {
                    (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
                } else {
                    ([0, 0, 0, 0], 0).into()
                };
                let paths = match code.target {
                    Target::Direct(_) => Paths::lan(),
                    Target::Relay { relay, room } if reach.punch => Paths::join(relay, room, Instant::now()),
                    Target::Relay { relay, room } => Paths::join(relay, room, Instant::now()).without_punching(),
                };
                let (mut endpoint, paths, socket) = match nat::endpoint(local, paths, None) {
                    Ok(e) => e,
                    Err(e) => {
                        let _ = ready.send(Err(QuicError::Socket(e)));
                        return;
                    }
                };
                endpoint.set_default_client_config(config);
                // From here on, failures arrive as a departure: the caller may already be
                // showing "connecting" (the window) or waiting for the host's welcome.
                if !wait {
                    let _ = ready.send(Ok(paths.clone()));
                }
                let established = async {
                    let target = match code.target {
                        Target::Direct(a) => a,
                        Target::Relay { .. } => settle(&paths, Paths::host_name).await?,
                    };
                    // A relayed host is known to QUIC by a stand-in name; say where it really is.
                    let to = match code.target {
                        Target::Direct(a) => HostAt::Direct(a),
                        Target::Relay { relay, .. } => HostAt::Relayed(relay),
                    };
                    // A host turns new connections away while many are still opening (a
                    // rush of joiners, or a flood): wait a moment, spread by this machine's
                    // port so a crowd does not come back together, and try again a few times.
                    let mut tries = 0u32;
                    let conn = loop {
                        let connecting = endpoint
                            .connect(target, "ridgeline")
                            .map_err(|source| ConnectFailure::Start { to, source })?;
                        match tokio::time::timeout(tls::CONNECT_TIMEOUT, connecting).await {
                            Ok(Ok(c)) => break c,
                            Ok(Err(e)) if refused(&e) && tries < BUSY_RETRIES => {
                                tries += 1;
                                let spread = endpoint.local_addr().map_or(0, |a| u64::from(a.port() % 250));
                                let wait = BUSY_WAIT * tries + Duration::from_millis(spread);
                                log::info!("{to} is busy with connections opening; trying again in {wait:?}");
                                tokio::time::sleep(wait).await;
                            }
                            Ok(Err(e)) if refused(&e) => return Err(ConnectFailure::Busy { to }.into()),
                            Ok(Err(source)) => return Err(ConnectFailure::Lost { to, source }.into()),
                            Err(_) => return Err(ConnectFailure::NoAnswer { to }.into()),
                        }
                    };
                    // Punching towards the host starts now, keyed by this connection.
                    socket.arm(&conn);
                    let (mut send, recv) = conn.open_bi().await.map_err(ConnectFailure::Stream)?;
                    let mut first = Vec::with_capacity(hello_frame.len() + 6);
                    first.extend_from_slice(&((hello_frame.len() + 2) as u32).to_le_bytes());
                    first.extend_from_slice(&[0, KIND_CONTROL]);
                    first.extend_from_slice(&hello_frame);
                    send.write_all(&first).await.map_err(ConnectFailure::Greet)?;
                    Ok::<_, QuicError>((conn, send, recv))
                };
                let (conn, send, recv) = match established.await {
                    Ok(c) => c,
                    Err(e) => {
                        if wait {
                            let _ = ready.send(Err(e));
                        } else {
                            // The caller already shows "connecting": the failure arrives as
                            // the host leaving, with the reason in its words.
                            let _ = in_tx.send(In::Left(PeerId(0), connect_reason(&e)));
                        }
                        return;
                    }
                };
                if let Ok(mut c) = conns.lock() {
                    c.insert(PeerId(0), conn.clone());
                }
                if wait {
                    let _ = ready.send(Ok(paths.clone()));
                }
                io::join(conn, send, recv, out_rx, in_tx).await;
                endpoint.wait_idle().await;
            })
        })?;
        Ok(QuicTransport::new(PeerId(u8::MAX), out_tx, in_rx, connections, paths, (drive, thread)))
    }

    /// A transport connected to nothing (what is left where a live one was handed on).
    pub fn detached() -> QuicTransport {
        let (out, _) = mpsc::unbounded_channel();
        let (_, inbox) = mpsc::unbounded_channel();
        QuicTransport {
            me: PeerId(u8::MAX),
            out,
            inbox,
            batch: Vec::new(),
            events: VecDeque::new(),
            control: VecDeque::new(),
            connections: Connections::default(),
            stats: NetStats::default(),
            left_reason: None,
            paths: None,
            drive: None,
            thread: None,
        }
    }

    /// Sets this machine's peer id (a joiner learns it from the host's welcome).
    pub fn set_me(&mut self, me: PeerId) {
        self.me = me;
    }

    /// The smoothed round-trip time to a peer, if connected.
    pub fn rtt(&self, peer: PeerId) -> Option<Duration> {
        self.connections.lock().ok().and_then(|c| c.get(&peer).map(quinn::Connection::rtt))
    }

    /// How `peer` is reached: straight on the LAN, directly through a punched hole, or through
    /// the relay.
    pub fn path(&self, peer: PeerId) -> PathKind {
        let name = self.connections.lock().ok().and_then(|c| c.get(&peer).map(quinn::Connection::remote_address));
        match (name, &self.paths) {
            (Some(name), Some(paths)) => paths.lock().map_or(PathKind::Lan, |p| p.path(name)),
            _ => PathKind::Lan,
        }
    }

    /// Why the last peer left (or the connection could not be made).
    pub fn left_reason(&self) -> Option<&str> {
        self.left_reason.as_deref()
    }

    fn drain(&mut self) {
        while let Ok(item) = self.inbox.try_recv() {
            self.take_in(item);
        }
    }

    fn take_in(&mut self, item: In) {
        match item {
            In::Connected(p) => self.events.push_back(TransportEvent::Connected(p)),
            In::Left(p, why) => {
                log::info!("{p} left: {why}");
                self.left_reason = Some(why);
                self.events.push_back(TransportEvent::Left(p));
            }
            In::Frame { from, kind, bytes } => {
                self.stats.bytes_received += bytes.len() as u64 + 6;
                match decode(&bytes) {
                    Ok(messages) => self.sort(from, kind, messages),
                    Err(e) => {
                        self.stats.malformed += 1;
                        log::warn!("{from} sent a malformed batch (byte {}: {}); dropped", e.at, e.what);
                        // A joiner whose hello cannot be read is told why, not left waiting.
                        let unreadable = super::codec::unreadable_hello(&bytes, &e);
                        if let Some(reason) = unreadable.filter(|_| self.me == PeerId(0) && kind == KIND_CONTROL) {
                            let bytes = encode(&[WireMessage::Refused { reason }]);
                            let _ = self.out.send(Out::Send { to: Some(from), kind: KIND_CONTROL, bytes });
                        }
                    }
                }
            }
        }
    }

    fn sort(&mut self, from: PeerId, kind: u8, messages: Vec<WireMessage>) {
        for m in messages {
            match m {
                WireMessage::Lockstep(message) if kind == KIND_LOCKSTEP => {
                    self.events.push_back(TransportEvent::Message { from, message });
                }
                WireMessage::Lockstep(_) => log::warn!("{from} sent lockstep data as control; dropped"),
                other => self.control.push_back((from, other)),
            }
        }
    }
}

/// True if the host turned the connection away before its handshake (it had too many opening).
/// How many more times a joiner tries a host that turned it away as busy.
const BUSY_RETRIES: u32 = 4;
/// The wait before the first retry of a busy host; each later one waits once more this long.
const BUSY_WAIT: Duration = Duration::from_millis(300);

fn refused(e: &quinn::ConnectionError) -> bool {
    matches!(e, quinn::ConnectionError::ConnectionClosed(c) if c.error_code == quinn_proto::TransportErrorCode::CONNECTION_REFUSED)
}

/// Waits (on the network's runtime) until the relay answered as `answer` reads it, or failed.
async fn settle<T>(paths: &SharedPaths, answer: impl Fn(&Paths) -> Option<T>) -> Result<T, QuicError> {
    loop {
        {
            let p = paths.lock().map_err(|_| QuicError::StateBroke)?;
            if let Some(t) = answer(&p) {
                return Ok(t);
            }
            if let Some(why) = p.failure() {
                return Err(why.into());
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

impl Drop for QuicTransport {
    fn drop(&mut self) {
        let _ = self.flush();
        // Closing the channel tells the network thread to finish its writes and leave.
        let (dead, _) = mpsc::unbounded_channel();
        drop(std::mem::replace(&mut self.out, dead));
        // The network thread runs the rest (the last writes, the goodbyes) from now on.
        if let Some(d) = &self.drive {
            d.let_go();
        }
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}
