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
use crate::sim::hash::StateHash;
use crate::sim::ids::Frame;
use crate::sim::world::TickReport;

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
    let mut r = Run::new(m, opts, seats);
    if unpaced && r.liar.is_none() {
        // As fast as it goes: a run of ready frames exchanges once (a liar's lies go out a
        // frame at a time, between honest batches, so its runs keep an exchange a frame).
        m.session.batch_exchanges(crate::session::peer::MAX_BATCH);
    }
    loop {
        if r.log.len() as u32 >= opts.frames || m.session.world().is_over() {
            break;
        }
        if r.link.desync().is_some() {
            // No more frames run; the exchange with the other machine names what differs.
            if let Some(x) = r.link.finished_exchange(Instant::now()) {
                // The desync is told even when its report cannot be written (a full disk).
                r.desync = Some(x.write(&opts.desync_dir).unwrap_or_else(|e| {
                    log::error!("the desync report: {e}");
                    format!("not written: {e}")
                }));
                break;
            }
            m.session.transport_mut().wait(Duration::from_millis(20));
            // No frame runs, so no step exchanges with the wire: this turn's one exchange.
            m.session.pump()?;
            r.link.update(Instant::now(), &mut m.session)?;
            continue;
        }
        match m.session.step()? {
            Step::Ticked { frame, hash, report } => r.ticked(m, opts, unpaced, frame, hash, &report),
            Step::Waiting => {
                if r.link.host_gone() {
                    // The host is gone and what it sent before leaving has all run.
                    break;
                }
                m.session.transport_mut().wait(Duration::from_millis(2));
                if !r.stalled && r.last_tick.elapsed() > STALL {
                    r.stalls += 1;
                    r.stalled = true;
                }
            }
            // A player paused: nobody here can resume, so wait for their resume.
            Step::Paused => m.session.transport_mut().wait(Duration::from_millis(2)),
        }
        r.link.update(Instant::now(), &mut m.session)?;
        while let Some(e) = r.link.poll_event() {
            if let LinkEvent::Left { slot, .. } = e {
                r.left.push(slot);
            }
        }
    }
    // What a batching run held back leaves before the goodbye: the others may need it.
    m.session.send_unsent()?;
    // Say goodbye so the others know this was an ending, not a loss.
    r.link.bye();
    r.link.update(Instant::now(), &mut m.session)?;
    Ok(r.finish(m, opts))
}

/// A headless run under way: what it has counted so far.
struct Run {
    /// When the run's first frame was due (a machine that came back starts late).
    started: Instant,
    /// After an outage the run goes on at the pace; the frames missed are not played in a burst.
    clock: FrameClock,
    /// (frame, hash) of every frame run here, the history's first when it came back.
    log: Vec<(u32, u64)>,
    tally: Tally,
    stalls: u32,
    stalled: bool,
    last_tick: Instant,
    /// Slots whose players left, as the link said.
    left: Vec<u8>,
    desync: Option<String>,
    /// Sampled while the peers are connected (their connections are gone at the end).
    path: crate::net::nat::PathKind,
    first_frame_ms: Option<u64>,
    me: PeerId,
    liar: Option<super::liar::Liar>,
    link: MatchLink,
}

impl Run {
    fn new(m: &Match<QuicTransport>, opts: &OnlineOptions, seats: Seats) -> Run {
        let frame_time = Duration::from_secs(1) / FRAMES_PER_SECOND;
        let now = Instant::now();
        let first = m.session.world().frame().0;
        let mut log: Vec<(u32, u64)> = Vec::with_capacity((opts.frames as usize).min(1 << 16));
        log.extend_from_slice(&opts.prelude);
        let me = m.session.transport().me();
        Run {
            started: now.checked_sub(frame_time * first).unwrap_or(now),
            clock: FrameClock::new(FRAMES_PER_SECOND, first, now),
            log,
            tally: Tally { objects_peak: m.session.world().object_count(), ..Default::default() },
            stalls: 0,
            stalled: false,
            last_tick: now,
            left: Vec::new(),
            desync: None,
            path: crate::net::nat::PathKind::Lan,
            first_frame_ms: None,
            me,
            liar: opts.lie.and_then(|lie| liar(m, lie)),
            link: MatchLink::new(me, &m.slots, seats, opts.adaptive),
        }
    }

    /// `frame` ran here with `hash`: counted, the test switches applied, the link told, and
    /// the next frame waited for at the pace.
    fn ticked(
        &mut self,
        m: &mut Match<QuicTransport>,
        opts: &OnlineOptions,
        unpaced: bool,
        frame: Frame,
        hash: StateHash,
        report: &TickReport,
    ) {
        if self.first_frame_ms.is_none() {
            self.first_frame_ms = opts.launched.map(|t| t.elapsed().as_millis() as u64);
        }
        self.log.push((frame.0, hash.total));
        self.tally.count(m.session.world(), report);
        if frame.0.is_multiple_of(FRAMES_PER_SECOND) {
            // Progress, for whoever watches the log (tests wait on it to place a kill or a join).
            log::info!("frame {} ran", frame.0);
        }
        if opts.corrupt_at == Some(frame.0) {
            corrupt(m);
        }
        if let Some(liar) = &self.liar {
            let run_ahead = m.session.stream().run_ahead();
            liar.after(m.session.transport_mut(), frame, hash.total, run_ahead);
        }
        self.link.ran(Instant::now(), &mut m.session, frame, hash);
        if frame.0 % FRAMES_PER_SECOND == 1 {
            self.path = m.session.transport().path_summary();
        }
        self.last_tick = Instant::now();
        self.stalled = false;
        // An observer that is behind runs as fast as it can until it is back with the players.
        if !unpaced && !m.session.watcher_behind() {
            let due = self.clock.next_due(frame.0, Instant::now());
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                m.session.transport_mut().wait(wait);
                // Whatever woke the wait is handled on the next step; sleep the rest.
                if let Some(rest) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(rest);
                }
            }
        }
    }

    /// The summary of the run and its hash log.
    fn finish(mut self, m: &Match<QuicTransport>, opts: &OnlineOptions) -> (OnlineSummary, Vec<(u32, u64)>) {
        let secs = self.started.elapsed().as_secs_f64();
        let stats = m.session.transport().stats();
        let mut rtts = self.link.rtts().to_vec();
        rtts.sort_by(f64::total_cmp);
        let run_ahead = m.session.stream().run_ahead();
        // Only departures the game felt count: a machine that finished the same game a moment
        // earlier and closed is no leaver.
        let ran = self.log.last().map(|&(f, _)| f);
        let cut_short = self.desync.is_none() && (self.log.len() as u32) < opts.frames && !m.session.world().is_over();
        let me = self.me;
        let host_lost = (me != PeerId(0) && self.link.host_gone() && cut_short).then(|| ran.map_or(0, |f| f + 1));
        self.left.retain(|&slot| {
            let Some(s) = m.slots.iter().find(|s| s.slot == slot) else { return false };
            if s.machine == 0 && me != PeerId(0) {
                return host_lost.is_some();
            }
            m.session.stream().dropped_from(s.player).is_some_and(|from| ran.is_some_and(|r| from.0 <= r))
        });
        self.left.sort_unstable();
        self.left.dedup();
        let summary = OnlineSummary {
            run: RunSummary::finish(m.session.world(), &m.slots, &self.log, secs, self.tally),
            rtt_ms: rtts.get(rtts.len() / 2).copied().unwrap_or(0.0),
            run_ahead,
            run_ahead_max: self.link.run_ahead_max().max(run_ahead),
            stalls: self.stalls,
            bytes_sent: stats.bytes_sent,
            bytes_received: stats.bytes_received,
            desync: self.desync,
            left: self.left,
            path: self.path,
            rejoined: opts.rejoined,
            first_frame_ms: self.first_frame_ms,
            host_lost,
        };
        (summary, self.log)
    }
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
