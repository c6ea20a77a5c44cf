//! A bad network on loopback, for tests and benchmarks: a UDP proxy between one joiner and the
//! host that drops, delays, jitters (and so reorders) and duplicates datagrams, by a seeded
//! random generator, and can cut the link for a while (an outage). The joiner connects to the
//! proxy (`--connect`); QUIC cannot tell.
//!
//! Must not: be used by the game, or listen or send anywhere but 127.0.0.1.

use std::collections::BinaryHeap;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What the proxy does to each datagram, each way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impairment {
    /// Share of datagrams dropped (0..1).
    pub loss: f64,
    /// Delay each way, milliseconds (half the round trip added).
    pub delay_ms: f64,
    /// Extra delay, uniformly 0..jitter, milliseconds.
    pub jitter_ms: f64,
    /// Share of datagrams sent twice.
    pub duplicate: f64,
}

/// Datagrams the proxy passed, dropped and duplicated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultStats {
    /// Forwarded.
    pub passed: u64,
    /// Dropped.
    pub dropped: u64,
    /// Sent twice.
    pub duplicated: u64,
    /// Dropped because the link was cut.
    pub cut: u64,
}

/// A datagram waiting for its time.
#[derive(PartialEq, Eq)]
struct Due {
    at: Instant,
    seq: u64,
    to: SocketAddr,
    bytes: Vec<u8>,
}

impl Ord for Due {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // The earliest first (BinaryHeap is a max-heap).
        other.at.cmp(&self.at).then(other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

type Queue = Arc<(Mutex<BinaryHeap<Due>>, Condvar)>;

/// A running proxy; it stops when dropped, or after its lifetime at the latest.
pub struct FaultProxy {
    /// Where the joiner connects.
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    stats: Arc<Mutex<FaultStats>>,
    cut_until: Arc<Mutex<Option<Instant>>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl FaultProxy {
    /// Starts a proxy on 127.0.0.1 in front of `upstream` (a loopback address), stopping by
    /// itself after `lifetime`.
    pub fn start(
        upstream: SocketAddr,
        impair: Impairment,
        seed: u64,
        lifetime: Duration,
    ) -> std::io::Result<FaultProxy> {
        if !upstream.ip().is_loopback() {
            return Err(std::io::Error::other("the fault proxy only forwards to loopback"));
        }
        let socket = UdpSocket::bind("127.0.0.1:0")?;
        socket.set_read_timeout(Some(Duration::from_millis(20)))?;
        let addr = socket.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(Mutex::new(FaultStats::default()));
        let cut_until: Arc<Mutex<Option<Instant>>> = Arc::default();
        let queue: Queue = Arc::new((Mutex::new(BinaryHeap::new()), Condvar::new()));
        let deadline = Instant::now() + lifetime;
        let sender = {
            let (socket, stop, queue) = (socket.try_clone()?, stop.clone(), queue.clone());
            std::thread::Builder::new().name("fault-proxy-send".into()).spawn(move || {
                let (lock, ready) = &*queue;
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                    let Ok(mut q) = lock.lock() else { return };
                    let now = Instant::now();
                    match q.peek().map(|d| d.at) {
                        Some(at) if at <= now => {
                            if let Some(d) = q.pop() {
                                drop(q);
                                let _ = socket.send_to(&d.bytes, d.to);
                            }
                        }
                        next => {
                            let wait =
                                next.map_or(Duration::from_millis(20), |at| at - now).min(Duration::from_millis(20));
                            let _ = ready.wait_timeout(q, wait);
                        }
                    }
                }
            })?
        };
        let receiver = {
            let (stop, stats, queue, cut_until) = (stop.clone(), stats.clone(), queue.clone(), cut_until.clone());
            std::thread::Builder::new().name("fault-proxy-recv".into()).spawn(move || {
                let mut rng = seed | 1;
                let mut next = move || {
                    // xorshift64*: a fixed, seeded sequence.
                    rng ^= rng >> 12;
                    rng ^= rng << 25;
                    rng ^= rng >> 27;
                    (rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
                };
                let mut client: Option<SocketAddr> = None;
                let mut buf = vec![0u8; 65_536];
                let mut seq = 0u64;
                while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
                    let Ok((n, from)) = socket.recv_from(&mut buf) else { continue };
                    let to = if from == upstream {
                        match client {
                            Some(c) => c,
                            None => continue,
                        }
                    } else {
                        client = Some(from);
                        upstream
                    };
                    let Ok(mut s) = stats.lock() else { return };
                    if cut_until.lock().is_ok_and(|c| c.is_some_and(|until| Instant::now() < until)) {
                        s.cut += 1;
                        continue;
                    }
                    if next() < impair.loss {
                        s.dropped += 1;
                        continue;
                    }
                    let copies = if next() < impair.duplicate { 2 } else { 1 };
                    s.passed += 1;
                    s.duplicated += copies - 1;
                    drop(s);
                    let (lock, ready) = &*queue;
                    for _ in 0..copies {
                        let delay = impair.delay_ms + next() * impair.jitter_ms;
                        let at = Instant::now() + Duration::from_secs_f64(delay / 1000.0);
                        seq += 1;
                        if let Ok(mut q) = lock.lock() {
                            q.push(Due { at, seq, to, bytes: buf[..n].to_vec() });
                        }
                    }
                    ready.notify_one();
                }
            })?
        };
        Ok(FaultProxy { addr, stop, stats, cut_until, threads: vec![sender, receiver] })
    }

    /// Cuts the link both ways for `outage` from now: every datagram is dropped.
    pub fn cut(&self, outage: Duration) {
        if let Ok(mut c) = self.cut_until.lock() {
            *c = Some(Instant::now() + outage);
        }
    }

    /// What the proxy has done so far.
    pub fn stats(&self) -> FaultStats {
        self.stats.lock().map(|s| *s).unwrap_or_default()
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
