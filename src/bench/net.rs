//! `ridgeline bench net`: lockstep over real QUIC on loopback with pacing off — two machines in
//! one process, each a session with its own QUIC transport, stepped in turn, the thread waiting
//! on the inbox of the machine that is behind (what it waits for is what unblocks the pair), a
//! run of ready frames exchanging once as `host --unpaced` does — in
//! frames per second; the bytes of an idle frame and of "select 12 units and move"; and the decoder's
//! throughput. With `--impaired`: a paced game through a bad link on loopback (15 % loss,
//! 200 ms each way, 80 ms jitter) — frames per second over 3,000 frames, stalls over a second,
//! the run-ahead chosen, and the run-ahead before and 10 s after an 8 s outage.
//!
//! Must not: be used as a test (timings are never asserted), or reach beyond 127.0.0.1.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use thiserror::Error;

use crate::content::ContentRoots;
use crate::lockstep::message::Message;
use crate::lockstep::transport::PeerId;
use crate::net::codec::{decode, encode};
use crate::net::control::ControlTransport;
use crate::net::nat::Reach;
use crate::net::quic::{QuicError, QuicTransport};
use crate::net::wire::{Hello, PROTOCOL, WireMessage};
use crate::session::start::{StartError, prepare};
use crate::session::{CommandScript, MatchSetup, SessionError, SlotKind, SlotSetup, Step};
use crate::sim::command::{Command, Point, StampedCommand};
use crate::sim::ids::{CommandId, Frame, ObjectId, PlayerId};

/// Frames per run.
const FRAMES: u32 = 3_000;
/// Runs (the median is reported).
const RUNS: usize = 5;

/// Why the benchmark could not run.
#[derive(Debug, Error)]
pub enum BenchNetError {
    /// The network.
    #[error(transparent)]
    Net(#[from] QuicError),
    /// The match.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The session.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The machines stopped agreeing or progressing.
    #[error("{0}")]
    Stalled(String),
}

/// Runs the benchmark.
pub fn run(roots: &ContentRoots) -> Result<Value, BenchNetError> {
    let mut fps = Vec::new();
    let mut per_frame = Vec::new();
    for _ in 0..RUNS {
        let (f, bytes) = lockstep_run(roots)?;
        fps.push(f);
        per_frame.push(bytes);
    }
    let idle = encode(&[
        WireMessage::Lockstep(Message::FrameCount { player: PlayerId(0), frame: Frame(12_345), count: 0 }),
        WireMessage::Lockstep(Message::Hash { player: PlayerId(0), frame: Frame(12_342), hash: u64::MAX / 3 }),
    ]);
    let stamp = |id: u32, command| {
        WireMessage::Lockstep(Message::Command(StampedCommand {
            frame: Frame(12_345),
            player: PlayerId(0),
            id: CommandId(id),
            command,
        }))
    };
    let objects: Vec<ObjectId> = (40..52).map(|index| ObjectId { index, generation: 0 }).collect();
    let move12 = encode(&[
        stamp(77, Command::Select { objects, add: false }),
        stamp(78, Command::Move { to: Point { x: 1250, y: 830 } }),
    ]);
    // The decoder on a busy batch: a hundred frames of counts, hashes and orders.
    let mut busy = Vec::new();
    for k in 0..100u32 {
        let objects: Vec<ObjectId> = (0..12).map(|i| ObjectId { index: k * 12 + i, generation: 0 }).collect();
        busy.push(stamp(k * 2, Command::Select { objects, add: false }));
        busy.push(stamp(k * 2 + 1, Command::AttackMove { to: Point { x: k as i32 * 7, y: 900 } }));
        busy.push(WireMessage::Lockstep(Message::FrameCount { player: PlayerId(1), frame: Frame(k), count: 2 }));
        busy.push(WireMessage::Lockstep(Message::Hash { player: PlayerId(1), frame: Frame(k), hash: k as u64 * 31 }));
    }
    let bytes = encode(&busy);
    let mut rates = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let mut n = 0usize;
        for _ in 0..200 {
            n += decode(&bytes).map_or(0, |m| m.len());
        }
        let secs = t.elapsed().as_secs_f64().max(1e-9);
        rates.push((bytes.len() as f64 * 200.0 / secs / 1e6, n as f64 / secs));
    }
    Ok(json!({
        "frames_per_sec": super::median(fps),
        "wire_bytes_per_frame": super::median(per_frame),
        "idle_frame_bytes": idle.len(),
        "move12_bytes": move12.len(),
        "decode_mb_per_sec": super::median(rates.iter().map(|r| r.0).collect()),
        "decode_messages_per_sec": super::median(rates.iter().map(|r| r.1).collect()),
        "frames": FRAMES,
        "runs": RUNS,
    }))
}

/// Joins a second machine (peer 1) to `host_net` — through `via` if given — and waits, as a
/// real host does, until its hello has arrived (its stream is open).
fn pair(
    mut host_net: QuicTransport,
    code: &crate::net::quic::JoinCode,
    via: Option<std::net::SocketAddr>,
) -> Result<(QuicTransport, QuicTransport), BenchNetError> {
    let hello = WireMessage::Hello(Hello {
        protocol: PROTOCOL,
        build: String::new(),
        name: String::new(),
        files: vec![],
        seat: [0; 32],
        watch: false,
    });
    let mut join_net = QuicTransport::join(code, Reach { relay: via, punch: true }, &hello)?;
    join_net.set_me(PeerId(1));
    let until = Instant::now() + Duration::from_secs(10);
    while host_net.take_control().is_none() {
        if Instant::now() > until {
            return Err(BenchNetError::Stalled("the joiner never arrived".into()));
        }
        host_net.wait(Duration::from_millis(10));
    }
    Ok((host_net, join_net))
}

/// Two machines over loopback QUIC, idle players, stepped in turn with pacing off: frames a
/// second, and payload bytes a frame each way.
fn lockstep_run(roots: &ContentRoots) -> Result<(f64, f64), BenchNetError> {
    let (host_net, code) = QuicTransport::host(([127, 0, 0, 1], 0).into(), None, Reach::default())?;
    let (host_net, join_net) = pair(host_net, &code, None)?;
    let on = |kind, machine| SlotSetup { machine: Some(machine), ..SlotSetup::new(kind) };
    let setup = MatchSetup {
        map: "proving_grounds".into(),
        seed: 1,
        slots: vec![on(SlotKind::Idle, 0), on(SlotKind::Remote, 1)],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    };
    let mut joined = setup.clone();
    joined.slots[1].kind = SlotKind::Idle;
    let script = CommandScript::default();
    let mut a = prepare(roots, &setup, &script, 0)?.into_match(host_net);
    let mut b = prepare(roots, &joined, &script, 1)?.into_match(join_net);
    // Pacing off, as `host --unpaced` runs: a run of ready frames exchanges once.
    for m in [&mut a, &mut b] {
        m.session.batch_exchanges(crate::session::peer::MAX_BATCH);
    }
    let started = Instant::now();
    let mut last_progress = Instant::now();
    while a.session.world().frame().0 < FRAMES || b.session.world().frame().0 < FRAMES {
        let mut progressed = false;
        for m in [&mut a, &mut b] {
            if m.session.world().frame().0 < FRAMES {
                progressed |= matches!(m.session.step()?, Step::Ticked { .. });
                if m.session.world().frame().0 == FRAMES {
                    // The other machine may need what this one's last frames held back.
                    m.session.send_unsent()?;
                }
            }
        }
        if progressed {
            last_progress = Instant::now();
        } else {
            if last_progress.elapsed() > Duration::from_secs(10) {
                return Err(BenchNetError::Stalled("no frame for ten seconds".into()));
            }
            // Wait on the machine that is behind: what it waits for unblocks the pair.
            let behind = if a.session.world().frame() <= b.session.world().frame() { &mut a } else { &mut b };
            behind.session.transport_mut().wait(Duration::from_micros(200));
        }
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    if a.session.stream().hash_log() != b.session.stream().hash_log() {
        return Err(BenchNetError::Stalled("the two machines disagree".into()));
    }
    let sent = a.session.transport().stats().bytes_sent as f64 / FRAMES as f64;
    Ok((FRAMES as f64 / secs, sent))
}

/// Frames of the impaired game before the outage.
const IMPAIRED_FRAMES: u32 = 3_000;
/// The outage, and how long after it the run-ahead is read.
const OUTAGE: Duration = Duration::from_secs(8);
const AFTER_OUTAGE: Duration = Duration::from_secs(10);

/// A paced game (30 frames a second, both machines in this thread) through the fault proxy:
/// 15 % loss, 200 ms each way, 80 ms jitter, 1 % duplicates. First [`IMPAIRED_FRAMES`] frames
/// (speed and stalls), then the link is cut for [`OUTAGE`] and the run-ahead read
/// [`AFTER_OUTAGE`] after it is back.
pub fn impaired(roots: &ContentRoots) -> Result<Value, BenchNetError> {
    use crate::net::fault::{FaultProxy, Impairment};
    use crate::online::{LinkEvent, MatchLink, Seats};
    let (host_net, code) = QuicTransport::host(([127, 0, 0, 1], 0).into(), None, Reach::default())?;
    let impair = Impairment { loss: 0.15, delay_ms: 200.0, jitter_ms: 80.0, duplicate: 0.01 };
    let lifetime = Duration::from_secs(u64::from(IMPAIRED_FRAMES) / 10 + 120);
    let proxy =
        FaultProxy::start(code.addr(), impair, 11, lifetime).map_err(|e| BenchNetError::Stalled(e.to_string()))?;
    let (host_net, join_net) = pair(host_net, &code, Some(proxy.addr))?;
    let on = |kind, machine| SlotSetup { machine: Some(machine), ..SlotSetup::new(kind) };
    let setup = MatchSetup {
        map: "crossroads".into(),
        seed: 5,
        slots: vec![on(SlotKind::Ai { difficulty: crate::session::Difficulty::Normal }, 0), on(SlotKind::Remote, 1)],
        run_ahead: None,
        map_hash: None,
        content_hash: None,
    };
    let mut joined = setup.clone();
    joined.slots[1].kind = SlotKind::Ai { difficulty: crate::session::Difficulty::Hard };
    let script = CommandScript::default();
    let mut a = prepare(roots, &setup, &script, 0)?.into_match(host_net);
    let mut b = prepare(roots, &joined, &script, 1)?.into_match(join_net);
    let frame_time = Duration::from_secs(1) / crate::sim::FRAMES_PER_SECOND;
    let started = Instant::now();
    let mut links = [
        MatchLink::new(PeerId(0), &a.slots, Seats::default(), true),
        MatchLink::new(PeerId(1), &b.slots, Seats::default(), true),
    ];
    let mut last_tick = [Instant::now(); 2];
    let mut stalls = [0u32; 2];
    let mut stalled = [false; 2];
    // Frames lost to waiting push the schedule back, so a stall is not made up by a sprint.
    let mut behind = [Duration::ZERO; 2];
    let mut finished_at = None;
    let mut cut_at: Option<Instant> = None;
    let mut before_outage = 0;
    // The run-ahead each second from the cut on.
    let mut trajectory: Vec<u32> = Vec::new();
    let give_up = started + lifetime;
    loop {
        let now = Instant::now();
        if now > give_up {
            return Err(BenchNetError::Stalled(format!("frame {} after {lifetime:?}", a.session.world().frame().0)));
        }
        for (k, m) in [&mut a, &mut b].into_iter().enumerate() {
            let due = started + behind[k] + frame_time * m.session.world().frame().0;
            if now < due {
                continue;
            }
            if let Step::Ticked { frame, hash, .. } = m.session.step()? {
                last_tick[k] = Instant::now();
                stalled[k] = false;
                links[k].ran(now, &mut m.session, frame, hash);
            } else {
                behind[k] = now.saturating_duration_since(started + frame_time * m.session.world().frame().0);
                if !stalled[k] && last_tick[k].elapsed() > Duration::from_secs(1) && cut_at.is_none() {
                    stalls[k] += 1;
                    stalled[k] = true;
                }
            }
            links[k].update(now, &mut m.session).map_err(|e| BenchNetError::Stalled(e.to_string()))?;
            while let Some(e) = links[k].poll_event() {
                if let LinkEvent::Left { .. } | LinkEvent::HostGone = e {
                    return Err(BenchNetError::Stalled("a machine was lost to the link".into()));
                }
            }
        }
        if finished_at.is_none() && a.session.world().frame().0 >= IMPAIRED_FRAMES {
            finished_at = Some(Instant::now());
            before_outage = a.session.stream().run_ahead();
            proxy.cut(OUTAGE);
            cut_at = Some(Instant::now());
        }
        if let Some(t) = cut_at {
            let second = t.elapsed().as_secs();
            if trajectory.len() as u64 <= second {
                trajectory.push(a.session.stream().run_ahead());
            }
            if t.elapsed() >= OUTAGE + AFTER_OUTAGE {
                break;
            }
        }
        b.session.transport_mut().wait(Duration::from_millis(1));
    }
    let secs = finished_at.unwrap_or(started).duration_since(started).as_secs_f64().max(1e-9);
    let same = a.session.stream().hash_log().iter().zip(b.session.stream().hash_log()).all(|(x, y)| x == y);
    let s = proxy.stats();
    Ok(json!({
        "impaired": {"loss": impair.loss, "delay_ms": impair.delay_ms, "jitter_ms": impair.jitter_ms, "duplicate": impair.duplicate},
        "frames": IMPAIRED_FRAMES,
        "frames_per_sec": f64::from(IMPAIRED_FRAMES) / secs,
        "stalls_over_1s": stalls[0].max(stalls[1]),
        "run_ahead_max": links[0].run_ahead_max(),
        "outage": {
            "seconds": OUTAGE.as_secs(),
            "run_ahead_before": before_outage,
            "run_ahead_10s_after": a.session.stream().run_ahead(),
            "run_ahead_each_second": trajectory,
        },
        "in_sync": same,
        "datagrams": {"passed": s.passed, "dropped": s.dropped, "duplicated": s.duplicated, "cut": s.cut},
    }))
}
