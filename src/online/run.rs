//! The headless online run behind `ridgeline host` and `ridgeline join`: steps the match,
//! paced at 30 frames a second unless unpaced, counts stalls, keeps the recent frames a desync
//! report needs, and prints what `sim` prints plus the network's numbers.
//!
//! Must not: change the world except through the stream's commands (the test switch that
//! corrupts one object is the one exception, and says so).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::lockstep::Transport;
use crate::lockstep::transport::PeerId;
use crate::net::control::ControlTransport;
use crate::net::quic::QuicTransport;
use crate::session::peer::Step;
use crate::session::runner::{RunSummary, Tally};
use crate::session::start::Match;
use crate::sim::FRAMES_PER_SECOND;

use super::OnlineError;
use super::link::{LinkEvent, MatchLink};
use super::pacer::FrameClock;
use super::seats::Seats;

/// Seconds without a frame that count as one stall.
const STALL: Duration = Duration::from_secs(1);

/// What a headless online run does besides playing.
#[derive(Clone, Debug, Default)]
pub struct OnlineOptions {
    /// Frames to run (fewer if someone wins).
    pub frames: u32,
    /// The test switch: corrupt one field of one object on this machine after this frame.
    pub corrupt_at: Option<u32>,
    /// The test switch: after every frame, also send what a lying peer would.
    pub lie: Option<super::liar::Lie>,
    /// Where desync reports go.
    pub desync_dir: PathBuf,
    /// The host adapts the run-ahead to the measured round trips (joiners follow the host).
    pub adaptive: bool,
    /// This machine came back into the running match (see `rejoin.rs`).
    pub rejoined: bool,
    /// The hash of every frame it ran from the host's history when it came back.
    pub prelude: Vec<(u32, u64)>,
    /// When the command started (`first_frame_ms` is measured from it).
    pub launched: Option<Instant>,
}

/// The final JSON of `host` and `join`: `sim`'s fields and the network's.
#[derive(Clone, Debug, Serialize)]
pub struct OnlineSummary {
    /// The game's summary, as `sim` prints it.
    #[serde(flatten)]
    pub run: RunSummary,
    /// Median round-trip time to the other machines over the game, in milliseconds.
    pub rtt_ms: f64,
    /// Run-ahead at the end, in frames.
    pub run_ahead: u32,
    /// Largest run-ahead during the game.
    pub run_ahead_max: u32,
    /// Stalls of over a second.
    pub stalls: u32,
    /// Payload bytes sent.
    pub bytes_sent: u64,
    /// Payload bytes received.
    pub bytes_received: u64,
    /// The desync report's path, if the game went out of sync.
    pub desync: Option<String>,
    /// Slots whose players left or were dropped.
    pub left: Vec<u8>,
    /// How the machines reached each other: `lan`, `direct` (punched) or `relayed`.
    pub path: crate::net::nat::PathKind,
    /// This machine came back into the running match and took back its seat.
    pub rejoined: bool,
    /// Milliseconds from the command's start to this machine's first frame (for a host, that
    /// includes waiting for its joiners); absent where not measured.
    pub first_frame_ms: Option<u64>,
    /// A joiner whose host left before the game's end: the first frame it could not run.
    #[serde(skip)]
    pub host_lost: Option<u32>,
}

/// Plays an online match headless until `opts.frames` frames ran, someone won, the game went
/// out of sync, or the host left; paced at 30 frames a second unless `unpaced`. The host's
/// `seats` let a machine that drops come back (a joiner's are empty). Returns the summary and
/// the hash of every frame.
pub fn run(
    m: &mut Match<QuicTransport>,
    opts: &OnlineOptions,
    unpaced: bool,
    seats: Seats,
) -> Result<(OnlineSummary, Vec<(u32, u64)>), OnlineError> {
    let frame_time = Duration::from_secs(1) / FRAMES_PER_SECOND;
    // Paced from the frame this machine starts on (a machine that came back starts late).
    let now = Instant::now();
    let started = now.checked_sub(frame_time * m.session.world().frame().0).unwrap_or(now);
    // After an outage the run goes on at the pace; the frames missed are not played in a burst.
    let mut clock = FrameClock::new(FRAMES_PER_SECOND, m.session.world().frame().0, now);
    let mut log: Vec<(u32, u64)> = Vec::with_capacity((opts.frames as usize).min(1 << 16));
    log.extend_from_slice(&opts.prelude);
    let mut tally = Tally { objects_peak: m.session.world().object_count(), ..Default::default() };
    let (mut stalls, mut stalled) = (0u32, false);
    let mut last_tick = Instant::now();
    let mut left: Vec<u8> = Vec::new();
    let mut desync = None;
    // Sampled while the peers are connected (their connections are gone at the end).
    let mut path = crate::net::nat::PathKind::Lan;
    let mut first_frame_ms = None;
    let me = m.session.transport().me();
    let liar = opts.lie.and_then(|lie| liar(m, lie));
    let mut link = MatchLink::new(me, &m.slots, seats, opts.adaptive);
    loop {
        let world = m.session.world();
        if log.len() as u32 >= opts.frames || world.is_over() {
            break;
        }
        if link.desync().is_some() {
            // No more frames run; the exchange with the other machine names what differs.
            if let Some(x) = link.finished_exchange(Instant::now()) {
                desync = Some(x.write(&opts.desync_dir)?);
                break;
            }
            m.session.transport_mut().wait(Duration::from_millis(20));
            link.pump(Instant::now(), &mut m.session)?;
            continue;
        }
        match m.session.step()? {
            Step::Ticked { frame, hash, report } => {
                if first_frame_ms.is_none() {
                    first_frame_ms = opts.launched.map(|t| t.elapsed().as_millis() as u64);
                }
                log.push((frame.0, hash.total));
                tally.count(m.session.world(), &report);
                if opts.corrupt_at == Some(frame.0) {
                    corrupt(m);
                }
                if let Some(liar) = &liar {
                    let run_ahead = m.session.stream().run_ahead();
                    liar.after(m.session.transport_mut(), frame, hash.total, run_ahead);
                }
                link.ran(Instant::now(), &mut m.session, frame, hash);
                if frame.0 % FRAMES_PER_SECOND == 1 {
                    path = m.session.transport().path_summary();
                }
                last_tick = Instant::now();
                stalled = false;
                if !unpaced {
                    let due = clock.next_due(frame.0, Instant::now());
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        m.session.transport_mut().wait(wait);
                        // Whatever woke the wait is handled on the next step; sleep the rest.
                        if let Some(rest) = due.checked_duration_since(Instant::now()) {
                            std::thread::sleep(rest);
                        }
                    }
                }
            }
            Step::Waiting => {
                if link.host_gone() {
                    // The host is gone and what it sent before leaving has all run.
                    break;
                }
                m.session.transport_mut().wait(Duration::from_millis(2));
                if !stalled && last_tick.elapsed() > STALL {
                    stalls += 1;
                    stalled = true;
                }
            }
            // A player paused: nobody here can resume, so wait for their resume.
            Step::Paused => m.session.transport_mut().wait(Duration::from_millis(2)),
        }
        link.pump(Instant::now(), &mut m.session)?;
        while let Some(e) = link.poll_event() {
            if let LinkEvent::Left { slot, .. } = e {
                left.push(slot);
            }
        }
    }
    // Say goodbye so the others know this was an ending, not a loss.
    link.bye();
    link.pump(Instant::now(), &mut m.session)?;
    let secs = started.elapsed().as_secs_f64();
    let stats = m.session.transport().stats();
    let mut rtts = link.rtts().to_vec();
    rtts.sort_by(f64::total_cmp);
    let run = RunSummary::finish(m.session.world(), &m.slots, &log, secs, tally);
    let run_ahead = m.session.stream().run_ahead();
    // Only departures the game felt count: a machine that finished the same game a moment
    // earlier and closed is no leaver.
    let ran = log.last().map(|&(f, _)| f);
    let cut_short = desync.is_none() && (log.len() as u32) < opts.frames && !m.session.world().is_over();
    let host_lost = (me != PeerId(0) && link.host_gone() && cut_short).then(|| ran.map_or(0, |f| f + 1));
    left.retain(|&slot| {
        let Some(s) = m.slots.iter().find(|s| s.slot == slot) else { return false };
        if s.machine == 0 && me != PeerId(0) {
            return host_lost.is_some();
        }
        m.session.stream().dropped_from(s.player).is_some_and(|from| ran.is_some_and(|r| from.0 <= r))
    });
    left.sort_unstable();
    left.dedup();
    let summary = OnlineSummary {
        run,
        rtt_ms: rtts.get(rtts.len() / 2).copied().unwrap_or(0.0),
        run_ahead,
        run_ahead_max: link.run_ahead_max().max(run_ahead),
        stalls,
        bytes_sent: stats.bytes_sent,
        bytes_received: stats.bytes_received,
        desync,
        left,
        path,
        rejoined: opts.rejoined,
        first_frame_ms,
        host_lost,
    };
    Ok((summary, log))
}

/// The test switch's liar: one of this machine's players, and one of another's.
fn liar(m: &Match<QuicTransport>, lie: super::liar::Lie) -> Option<super::liar::Liar> {
    let me = m.session.transport().me().0;
    let own = m.slots.iter().find(|s| s.machine == me)?.player;
    let foreign = m.slots.iter().find(|s| s.machine != me)?.player;
    log::warn!("test switch: this machine lies to its peers ({lie:?})");
    Some(super::liar::Liar { lie, own, foreign })
}

/// The test switch: moves one object of this machine's first player by one raw unit, as a
/// corrupted machine would. It is never reachable through commands.
fn corrupt(m: &mut Match<QuicTransport>) {
    let Some(first) = m.slots.iter().find(|s| s.machine == m.session.transport().me().0) else {
        return;
    };
    let player = first.player;
    let target = m.session.world().objects().filter(|o| o.owner == player).map(|o| o.id).last();
    if let Some(id) = target {
        log::warn!("test switch: corrupting object {id} on this machine");
        m.session.corrupt(crate::sim::corruption::Corruption { object: id, raw_dx: 1 });
    }
}
