//! The network side: quinn on a current-thread tokio runtime, driven by the network thread or,
//! while it waits on the network, by the game thread (`drive.rs`).
//! The host accepts joiners and relays (star: only the host needs a reachable port); a joiner
//! keeps one connection to the host. Lockstep batches travel as QUIC datagrams through a
//! [`Channel`] per connection (repeated until acknowledged, so a lost packet holds nothing
//! up); control messages, and a batch too big for a datagram, ride one bidirectional stream
//! of frames: `[length u32 LE][origin peer u8][kind u8][payload]`. Lockstep traffic from a
//! joiner is handed to the host's game and relayed to every other joiner, stamped with the
//! sender (a joiner cannot pose as another); control frames go to the host alone.
//!
//! Must not: decode payloads or block (the game thread talks to these tasks by channels, and may
//! be the thread running them).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, mpsc};

use super::channel::Channel;
use super::numbers::PeerNumbers;
use crate::lockstep::transport::PeerId;

/// Why a joiner lost its host when nobody closed the connection: the path died.
pub const LINK_LOST: &str = "the link to the host was lost";

/// Why a connection is closed when every peer number is held by a live connection.
pub const FULL: &str = "the host has as many connections as it can number; try again later";

/// Largest frame accepted, in bytes.
pub const MAX_FRAME: usize = 1 << 20;

pub use super::pending::{MAX_PENDING, MAX_PENDING_PER_ADDRESS};
/// How long a new connection has to finish its handshake and open its stream before the host
/// drops it.
pub const STREAM_WITHIN: Duration = Duration::from_secs(10);

/// A frame's kind: lockstep traffic (relayed by the host) or control (host only).
pub const KIND_LOCKSTEP: u8 = 0;
/// See [`KIND_LOCKSTEP`].
pub const KIND_CONTROL: u8 = 1;

/// From the game thread to the network thread.
#[derive(Debug)]
pub enum Out {
    /// Send a frame's payload to one peer, or to every peer.
    Send {
        /// None: everyone.
        to: Option<PeerId>,
        /// [`KIND_LOCKSTEP`] or [`KIND_CONTROL`].
        kind: u8,
        /// The payload.
        bytes: Vec<u8>,
    },
    /// Close one peer's connection (the host removes a player).
    Kick(PeerId),
    /// The game has handled this peer's departure: its number may go to a new connection.
    Release(PeerId),
}

/// From the network thread to the game thread.
#[derive(Debug)]
pub enum In {
    /// A frame arrived.
    Frame {
        /// Who sent it.
        from: PeerId,
        /// Its kind.
        kind: u8,
        /// Its payload.
        bytes: Vec<u8>,
    },
    /// A peer connected.
    Connected(PeerId),
    /// A peer's connection ended, and why.
    Left(PeerId, String),
}

/// The connections, by peer, for the game thread's questions (round-trip times).
pub type Connections = Arc<Mutex<BTreeMap<PeerId, quinn::Connection>>>;

/// One peer's outgoing frames.
type Writers = Arc<Mutex<BTreeMap<PeerId, mpsc::UnboundedSender<Vec<u8>>>>>;

/// How often a channel repeats what is unacknowledged (and acknowledges what came).
pub const REPEAT: Duration = Duration::from_millis(20);

/// With nothing heard from the other side for this long the path is taken to be down: the
/// channel then sends one datagram every [`PROBE`] instead of a burst every [`REPEAT`], so an
/// outage does not fill QUIC's congestion window with datagrams that will all be lost (a full
/// window would hold everything back until QUIC's backed-off probe, seconds after the path
/// returns, or past the idle timeout).
const QUIET: Duration = Duration::from_millis(500);
/// How often a quiet link sends its one datagram.
const PROBE: Duration = Duration::from_millis(250);

/// When a link last heard from the other side, and last sent.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    heard: Option<std::time::Instant>,
    sent: Option<std::time::Instant>,
}

/// One connection's datagram channel and the nudge that sends it now.
#[derive(Clone, Default)]
struct Link {
    channel: Arc<Mutex<Channel>>,
    wake: Arc<Notify>,
    timing: Arc<Mutex<Timing>>,
}

impl Link {
    /// Queues a lockstep batch from `origin` and has it sent at once.
    fn push(&self, origin: PeerId, bytes: Vec<u8>) {
        if let Ok(mut c) = self.channel.lock() {
            c.push(origin, bytes);
        }
        self.wake.notify_one();
    }
}

/// Every connection's link, by peer.
type Links = Arc<Mutex<BTreeMap<PeerId, Link>>>;

/// Sends what `link` has for `conn` as datagrams; what cannot be a datagram goes to `stream`
/// as a lockstep frame.
fn flush(conn: &quinn::Connection, link: &Link, stream: &mpsc::UnboundedSender<Vec<u8>>) {
    let max = conn.max_datagram_size().unwrap_or(0);
    let Ok(mut c) = link.channel.lock() else { return };
    // While QUIC still holds a datagram's worth unsent, newer ones would only queue behind it:
    // the channel repeats everything unacknowledged in its next datagram anyway.
    if !c.wants_to_send() || conn.datagram_send_buffer_space() + 1200 < super::tls::DATAGRAM_QUEUE {
        return;
    }
    let now = std::time::Instant::now();
    let t = link.timing.lock().map(|t| *t).unwrap_or_default();
    let quiet = t.heard.is_some_and(|h| now.duration_since(h) > QUIET);
    if quiet && t.sent.is_some_and(|s| now.duration_since(s) < PROBE) {
        return;
    }
    let (mut datagrams, too_big) = c.datagrams(max);
    drop(c);
    if quiet {
        datagrams.truncate(1);
    }
    if let Ok(mut t) = link.timing.lock() {
        t.sent = Some(now);
    }
    for (origin, bytes) in too_big {
        let _ = stream.send(frame(origin, KIND_LOCKSTEP, &bytes));
    }
    if max == 0 {
        return;
    }
    for d in datagrams {
        if let Err(e) = conn.send_datagram(bytes::Bytes::from(d)) {
            log::debug!("a datagram was not sent: {e}");
        }
    }
}

/// Runs one connection's datagrams: arrivals decoded and handed to `arrived` (with the peer's
/// claimed origin), the channel flushed when nudged and every [`REPEAT`], until the
/// connection closes.
async fn pump_datagrams(
    conn: quinn::Connection,
    link: Link,
    stream: mpsc::UnboundedSender<Vec<u8>>,
    mut arrived: impl FnMut(PeerId, Vec<u8>),
) {
    let mut tick = tokio::time::interval(REPEAT);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            d = conn.read_datagram() => {
                let Ok(d) = d else { return };
                if let Ok(mut t) = link.timing.lock() {
                    t.heard = Some(std::time::Instant::now());
                }
                let fresh = link.channel.lock().map(|mut c| c.receive(&d));
                match fresh {
                    Ok(Ok(entries)) => {
                        for (origin, bytes) in entries {
                            arrived(origin, bytes);
                        }
                    }
                    Ok(Err(e)) => log::warn!("a malformed datagram from {}: {e}; dropped", crate::net::nat::shown(conn.remote_address())),
                    Err(_) => return,
                }
            }
            _ = link.wake.notified() => flush(&conn, &link, &stream),
            _ = tick.tick() => flush(&conn, &link, &stream),
        }
    }
}

fn frame(origin: PeerId, kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(6 + payload.len());
    f.extend_from_slice(&((payload.len() + 2) as u32).to_le_bytes());
    f.push(origin.0);
    f.push(kind);
    f.extend_from_slice(payload);
    f
}

/// What reading one frame gives: the frame (origin, kind, payload), the end of the stream, or
/// why the frame is malformed.
type FrameRead = Result<Option<(PeerId, u8, Vec<u8>)>, BadFrame>;

/// A frame on the control stream no honest peer sends (the connection is closed for it).
#[derive(Clone, Copy, Debug, thiserror::Error, PartialEq, Eq)]
#[error("a frame of {len} bytes (at most {MAX_FRAME})")]
struct BadFrame {
    /// The length its header claimed.
    len: usize,
}

/// Reads one frame; None when the stream ends or breaks, or the frame is malformed. Not safe to
/// cancel half-way (see [`read_frames`]).
async fn read_frame(recv: &mut quinn::RecvStream) -> FrameRead {
    let mut len = [0u8; 4];
    if recv.read_exact(&mut len).await.is_err() {
        return Ok(None);
    }
    let len = u32::from_le_bytes(len) as usize;
    if !(2..=MAX_FRAME).contains(&len) {
        return Err(BadFrame { len });
    }
    let mut buf = vec![0u8; len];
    if recv.read_exact(&mut buf).await.is_err() {
        return Ok(None);
    }
    let (origin, kind) = (PeerId(buf[0]), buf[1]);
    buf.drain(..2);
    Ok(Some((origin, kind, buf)))
}

/// Written to a writer's queue in place of a frame: finish the stream, and once the other side
/// has what was written before (or [`CLOSE_WITHIN`] passed), close the connection as removed.
/// So a refusal sent just before a kick is read, not lost with the connection.
const CLOSE_AFTER: Vec<u8> = Vec::new();
/// How long a kicked connection's last frames have to arrive before it is closed anyway.
const CLOSE_WITHIN: Duration = Duration::from_secs(1);

/// Writes queued frames to a stream until the queue closes or the stream breaks; at
/// [`CLOSE_AFTER`], closes `conn` once they are delivered.
async fn write_frames(
    conn: quinn::Connection,
    mut send: quinn::SendStream,
    mut queue: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(f) = queue.recv().await {
        if f.is_empty() {
            let _ = send.finish();
            let _ = tokio::time::timeout(CLOSE_WITHIN, send.stopped()).await;
            conn.close(1u32.into(), crate::net::wire::REMOVED.as_bytes());
            return;
        }
        if send.write_all(&f).await.is_err() {
            return;
        }
    }
    let _ = send.finish();
}

/// Told of each connection whose handshake completed (the host's socket keys its punching
/// with it).
pub type OnConnected = Arc<dyn Fn(&quinn::Connection) + Send + Sync>;

/// The host: accepts joiners (peer ids from 1 up), relays lockstep frames among them, and
/// passes everything to the game; `connected` hears of each handshake done.
pub async fn host(
    endpoint: quinn::Endpoint,
    mut out: mpsc::UnboundedReceiver<Out>,
    to_game: mpsc::UnboundedSender<In>,
    connections: Connections,
    connected: OnConnected,
) {
    let writers: Writers = Arc::default();
    let links: Links = Arc::default();
    // Peer numbers go to connections that opened their stream (a failed or silent attempt
    // takes none) and come back once the game handled the departure; handshakes under way
    // are counted.
    let numbers = Arc::new(Mutex::new(PeerNumbers::default()));
    let pending = super::pending::Pending::default();
    loop {
        tokio::select! {
            incoming = endpoint.accept() => {
                let Some(incoming) = incoming else { break };
                let from = incoming.remote_address().ip();
                if let Err(why) = pending.enter(from) {
                    log::info!("a connection attempt from {} refused: {why}", crate::net::nat::shown(incoming.remote_address()));
                    incoming.refuse();
                    continue;
                }
                let (writers, links, to_game, connections) =
                    (writers.clone(), links.clone(), to_game.clone(), connections.clone());
                let (numbers, pending, connected) = (numbers.clone(), pending.clone(), connected.clone());
                tokio::spawn(async move {
                    let opened = tokio::time::timeout(STREAM_WITHIN, open_stream(incoming, connected)).await;
                    pending.leave(from);
                    let (conn, send, recv) = match opened {
                        Ok(Some(opened)) => opened,
                        Ok(None) => return,
                        Err(_) => {
                            log::info!("a connection opened no stream within {STREAM_WITHIN:?}; dropped");
                            return;
                        }
                    };
                    let taken = numbers.lock().ok().and_then(|mut n| n.take());
                    let Some(peer) = taken else {
                        log::info!("a connection refused: every peer number is held by a live connection");
                        conn.close(2u32.into(), FULL.as_bytes());
                        return;
                    };
                    serve_joiner(conn, (send, recv), peer, writers, links, to_game, connections).await;
                });
            }
            order = out.recv() => {
                let Some(order) = order else { break };
                match order {
                    Out::Send { to, kind: KIND_LOCKSTEP, bytes } => {
                        let links = links.lock().map(|l| l.clone()).unwrap_or_default();
                        for (peer, link) in links {
                            if to.is_none_or(|t| t == peer) {
                                link.push(PeerId(0), bytes.clone());
                            }
                        }
                    }
                    Out::Send { to, kind, bytes } => {
                        let f = frame(PeerId(0), kind, &bytes);
                        let writers = writers.lock().map(|w| w.clone()).unwrap_or_default();
                        for (peer, w) in writers {
                            if to.is_none_or(|t| t == peer) {
                                let _ = w.send(f.clone());
                            }
                        }
                    }
                    Out::Kick(peer) => {
                        let writer = writers.lock().ok().and_then(|w| w.get(&peer).cloned());
                        if let Some(w) = writer {
                            let _ = w.send(CLOSE_AFTER);
                        }
                    }
                    Out::Release(peer) => {
                        if let Ok(mut n) = numbers.lock() {
                            n.give_back(peer);
                        }
                    }
                }
            }
        }
    }
    // The game is over here: let the queued frames go out (dropping the writers finishes each
    // stream), give the joiners a moment to finish their own last frames and leave, then close.
    if let Ok(mut w) = writers.lock() {
        w.clear();
    }
    let open: Vec<quinn::Connection> = connections.lock().map(|c| c.values().cloned().collect()).unwrap_or_default();
    for c in open {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(3), c.closed()).await;
    }
    endpoint.close(0u32.into(), b"the host closed the game");
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), endpoint.wait_idle()).await;
}

/// A new connection's handshake and the stream its joiner opens (it writes its hello first, so
/// the stream can be accepted); None if either fails.
async fn open_stream(
    incoming: quinn::Incoming,
    connected: OnConnected,
) -> Option<(quinn::Connection, quinn::SendStream, quinn::RecvStream)> {
    let conn = match incoming.await {
        Ok(c) => c,
        Err(e) => {
            log::info!("a connection attempt failed: {e}");
            return None;
        }
    };
    connected(&conn);
    match conn.accept_bi().await {
        Ok((send, recv)) => Some((conn, send, recv)),
        Err(e) => {
            log::info!("{} connected but opened no stream: {e}", crate::net::nat::shown(conn.remote_address()));
            None
        }
    }
}

async fn serve_joiner(
    conn: quinn::Connection,
    (send, mut recv): (quinn::SendStream, quinn::RecvStream),
    peer: PeerId,
    writers: Writers,
    links: Links,
    to_game: mpsc::UnboundedSender<In>,
    connections: Connections,
) {
    let (tx, rx) = mpsc::unbounded_channel();
    if let Ok(mut w) = writers.lock() {
        w.insert(peer, tx.clone());
    }
    if let Ok(mut c) = connections.lock() {
        c.insert(peer, conn.clone());
    }
    let link = Link::default();
    if let Ok(mut l) = links.lock() {
        l.insert(peer, link.clone());
    }
    let _ = to_game.send(In::Connected(peer));
    tokio::spawn(write_frames(conn.clone(), send, rx));
    // Lockstep datagrams: to the host's game, and on to every other joiner, stamped with the
    // true sender whatever the joiner claimed.
    let (relay, game) = (links.clone(), to_game.clone());
    let datagrams = tokio::spawn(pump_datagrams(conn.clone(), link, tx, move |_, bytes| {
        let others = relay.lock().map(|l| l.clone()).unwrap_or_default();
        for (other, link) in others {
            if other != peer {
                link.push(peer, bytes.clone());
            }
        }
        let _ = game.send(In::Frame { from: peer, kind: KIND_LOCKSTEP, bytes });
    }));
    let reason = loop {
        match read_frame(&mut recv).await {
            Ok(Some((_, kind, bytes))) => {
                if kind == KIND_LOCKSTEP {
                    // Relay, stamped with the true sender.
                    let f = frame(peer, kind, &bytes);
                    let writers = writers.lock().map(|w| w.clone()).unwrap_or_default();
                    for (other, w) in writers {
                        if other != peer {
                            let _ = w.send(f.clone());
                        }
                    }
                }
                if to_game.send(In::Frame { from: peer, kind, bytes }).is_err() {
                    break "the game ended".to_string();
                }
            }
            Ok(None) => break conn.close_reason().map_or("the connection ended".to_string(), |e| e.to_string()),
            Err(e) => {
                conn.close(2u32.into(), b"malformed frame");
                break format!("sent {e}");
            }
        }
    };
    datagrams.abort();
    if let Ok(mut w) = writers.lock() {
        w.remove(&peer);
    }
    if let Ok(mut l) = links.lock() {
        l.remove(&peer);
    }
    if let Ok(mut c) = connections.lock() {
        c.remove(&peer);
    }
    let _ = to_game.send(In::Left(peer, reason));
}

/// A joiner: one connection to the host; frames from the host arrive stamped with their
/// original sender.
pub async fn join(
    conn: quinn::Connection,
    send: quinn::SendStream,
    recv: quinn::RecvStream,
    mut out: mpsc::UnboundedReceiver<Out>,
    to_game: mpsc::UnboundedSender<In>,
) {
    let (tx, rx) = mpsc::unbounded_channel();
    let writer = tokio::spawn(write_frames(conn.clone(), send, rx));
    let link = Link::default();
    // The host stamps what it relays with the machine it came from.
    let game = to_game.clone();
    let datagrams = tokio::spawn(pump_datagrams(conn.clone(), link.clone(), tx.clone(), move |origin, bytes| {
        let _ = game.send(In::Frame { from: origin, kind: KIND_LOCKSTEP, bytes });
    }));
    let _ = to_game.send(In::Connected(PeerId(0)));
    // Frames are read on a task of their own: `read_frame` is not safe to cancel (dropped in a
    // `select!` after reading a length, or half a large frame, it would leave the stream in the
    // middle of a frame), and the loop below must also answer the game's orders.
    let (frames_tx, mut frames) = mpsc::unbounded_channel();
    let reader = tokio::spawn(read_frames(recv, frames_tx));
    let reason = loop {
        tokio::select! {
            f = frames.recv() => match f.unwrap_or(Ok(None)) {
                Ok(Some((origin, kind, bytes))) => {
                    if to_game.send(In::Frame { from: origin, kind, bytes }).is_err() {
                        break "the game ended".to_string();
                    }
                }
                Ok(None) => break match conn.close_reason() {
                    // Nobody closed it: the path died (an outage longer than the idle timeout).
                    Some(quinn::ConnectionError::TimedOut | quinn::ConnectionError::Reset) => LINK_LOST.to_string(),
                    other => other.map_or("the connection ended".to_string(), |e| e.to_string()),
                },
                Err(e) => break format!("the host sent {e}"),
            },
            order = out.recv() => match order {
                Some(Out::Send { kind: KIND_LOCKSTEP, bytes, .. }) => link.push(PeerId(0), bytes),
                Some(Out::Send { kind, bytes, .. }) => {
                    let _ = tx.send(frame(PeerId(0), kind, &bytes));
                }
                Some(Out::Kick(_) | Out::Release(_)) => {}
                None => {
                    // The game is done with the network: let the last datagrams and frames go,
                    // then leave.
                    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
                    while link.channel.lock().is_ok_and(|c| c.unacked() > 0) && tokio::time::Instant::now() < until {
                        flush(&conn, &link, &tx);
                        tokio::time::sleep(REPEAT).await;
                    }
                    datagrams.abort();
                    drop(tx);
                    let _ = writer.await;
                    conn.close(0u32.into(), b"bye");
                    break "left".to_string();
                }
            },
        }
    };
    reader.abort();
    let _ = to_game.send(In::Left(PeerId(0), reason));
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), conn.closed()).await;
}

/// Reads frames from `recv` into `out` until the stream ends, breaks or sends a malformed
/// frame (that last result is passed on too), or nobody listens.
async fn read_frames(mut recv: quinn::RecvStream, out: mpsc::UnboundedSender<FrameRead>) {
    loop {
        let f = read_frame(&mut recv).await;
        let last = !matches!(f, Ok(Some(_)));
        if out.send(f).is_err() || last {
            return;
        }
    }
}
