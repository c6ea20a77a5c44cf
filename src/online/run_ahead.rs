//! The host's choice of run-ahead, from the link it measures: enough frames for a command to
//! reach everyone before it runs — half the 90th-percentile round trip, plus the jitter (90th
//! percentile less the median), plus the repeats a lost datagram costs (the lockstep channel
//! resends every [`REPEAT`]; at loss `p`, 99 % of commands arrive within `ln 0.01 / ln p`
//! tries), plus a 25 ms cushion — between 2 and 15 frames, changed at most every three
//! seconds. Only the last [`WINDOW`] of samples count, so after an outage the run-ahead
//! comes back down as soon as the link does. When the path changes (relayed to direct once
//! punching succeeds, usually in a match's first seconds) the old path's samples are
//! forgotten and the new one's first [`SETTLE`] is not judged by (QUIC's smoothed round
//! trip is still moving from one to the other): mixed, the two paths' round trips read as
//! jitter, and the run-ahead jumped to its maximum for seconds.
//!
//! Must not: read the clock (the caller passes `now`), or change the run-ahead except by
//! scheduling it on the stream and telling everyone.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::lockstep::transport::PeerId;
use crate::net::control::ControlTransport;
use crate::net::nat::PathKind;
use crate::net::quic::io::REPEAT;
use crate::net::wire::WireMessage;
use crate::session::Session;
use crate::sim::FRAMES_PER_SECOND;
use crate::sim::ids::Frame;

/// How far back samples count.
pub const WINDOW: Duration = Duration::from_secs(4);

/// Fewest round-trip samples in the window to judge by.
const MIN_SAMPLES: usize = 6;

/// After the path changes, how long its samples are not taken (QUIC's estimate moves over).
pub const SETTLE: Duration = Duration::from_secs(1);

/// The host's run-ahead tuner.
#[derive(Clone, Debug, Default)]
pub struct RunAheadTuner {
    /// Round trips in milliseconds, with when they were taken.
    rtts: VecDeque<(Instant, f64)>,
    /// QUIC's running counts (packets lost, packets sent), with when they were read.
    losses: VecDeque<(Instant, u64, u64)>,
    last_change: Option<u32>,
    /// The path the samples were taken over, and until when a new one settles.
    path: Option<PathKind>,
    settling_until: Option<Instant>,
    /// The largest run-ahead used so far.
    pub max: u32,
}

impl RunAheadTuner {
    /// Notes round-trip times (milliseconds) taken at `now`, and forgets those older than
    /// [`WINDOW`].
    pub fn observe(&mut self, now: Instant, rtts_ms: impl IntoIterator<Item = f64>) {
        self.rtts.extend(rtts_ms.into_iter().map(|r| (now, r)));
        while self.rtts.front().is_some_and(|(t, _)| now.saturating_duration_since(*t) > WINDOW) {
            self.rtts.pop_front();
        }
    }

    /// Notes the path the links take at `now`: when it changed, what was measured over the old
    /// one is forgotten, and the new one's first [`SETTLE`] is not taken.
    pub fn observe_path(&mut self, now: Instant, path: PathKind) {
        if self.path.is_some_and(|p| p != path) {
            self.rtts.clear();
            self.losses.clear();
            self.settling_until = Some(now + SETTLE);
        }
        self.path = Some(path);
    }

    /// True while a new path settles (its samples are not taken).
    fn settling(&self, now: Instant) -> bool {
        self.settling_until.is_some_and(|t| now < t)
    }

    /// Notes QUIC's running counts of packets lost and sent, read at `now`.
    pub fn observe_losses(&mut self, now: Instant, lost: u64, sent: u64) {
        self.losses.push_back((now, lost, sent));
        while self.losses.front().is_some_and(|(t, _, _)| now.saturating_duration_since(*t) > WINDOW) {
            self.losses.pop_front();
        }
    }

    /// The share of packets lost within the window (0 when too little was sent to tell).
    pub fn loss(&self) -> f64 {
        match (self.losses.front(), self.losses.back()) {
            (Some(&(_, l0, s0)), Some(&(_, l1, s1))) if s1 > s0 + 20 => {
                (l1.saturating_sub(l0) as f64 / (s1 - s0) as f64).clamp(0.0, 0.9)
            }
            _ => 0.0,
        }
    }

    /// The run-ahead the window's samples call for.
    pub fn wanted(&self) -> Option<u32> {
        if self.rtts.len() < MIN_SAMPLES {
            return None;
        }
        let mut v: Vec<f64> = self.rtts.iter().map(|(_, r)| *r).collect();
        v.sort_by(f64::total_cmp);
        let p90 = v[(v.len() * 9 / 10).min(v.len() - 1)];
        let median = v[v.len() / 2];
        let loss = self.loss();
        let tries = if loss < 0.001 { 1.0 } else { (0.01f64.ln() / loss.ln()).ceil().clamp(1.0, 4.0) };
        let repeats_ms = (tries - 1.0) * REPEAT.as_secs_f64() * 1000.0;
        let frame_ms = 1000.0 / FRAMES_PER_SECOND as f64;
        let needed = 1.0 + ((p90 / 2.0 + (p90 - median) + repeats_ms + 25.0) / frame_ms).ceil();
        Some((needed as u32).clamp(2, 15))
    }

    /// Takes `sample`, the link at `now`: its path, and (unless a new path is settling) its
    /// round trips and losses. A sample without round trips (no peer connected) says nothing.
    pub fn take(&mut self, now: Instant, sample: &LinkSample) {
        if !sample.rtts_ms.is_empty() {
            self.observe_path(now, sample.path);
        }
        if !self.settling(now) {
            self.observe(now, sample.rtts_ms.iter().copied());
            self.observe_losses(now, sample.lost, sample.sent);
        }
    }

    /// A change to make now, at frame `next` with run-ahead `current`: the frame it takes
    /// effect on (late enough that every machine hears of it first) and the new value.
    pub fn decide(&mut self, current: u32, next: Frame) -> Option<(Frame, u32)> {
        self.max = self.max.max(current);
        let wanted = self.wanted()?;
        let settled = self.last_change.is_none_or(|f| next.0 >= f + 3 * FRAMES_PER_SECOND);
        if wanted == current || !settled {
            return None;
        }
        self.last_change = Some(next.0);
        self.max = self.max.max(wanted);
        Some((next.plus(2 * current + 15), wanted))
    }

    /// After `frame` ran, on every tenth frame: takes `sample` (the link at `now`) and, where
    /// `adapt` (the host of an adaptive game), moves the run-ahead to fit it, scheduled here.
    /// Returns the notice to send everyone when it changed.
    pub fn tune<T: ControlTransport>(
        &mut self,
        session: &mut Session<T>,
        frame: Frame,
        adapt: bool,
        now: Instant,
        sample: &LinkSample,
    ) -> Option<WireMessage> {
        if !frame.0.is_multiple_of(10) {
            return None;
        }
        self.take(now, sample);
        let stream = session.stream();
        let (current, next) = (stream.run_ahead(), stream.next_frame());
        self.max = self.max.max(current);
        if !adapt {
            return None;
        }
        let (at, value) = self.decide(current, next)?;
        session.schedule_run_ahead(at, value);
        log::info!("run-ahead {current} → {value} from frame {at}");
        Some(WireMessage::RunAhead { at, value: value as u8 })
    }
}

/// What a transport measured of its links at one moment: the round trips (milliseconds) and
/// the running counts of packets lost and sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSample {
    /// Round-trip times to each peer, in milliseconds.
    pub rtts_ms: Vec<f64>,
    /// Packets lost so far.
    pub lost: u64,
    /// Packets sent so far.
    pub sent: u64,
    /// How the peers are reached (see [`ControlTransport::path_summary`]).
    pub path: PathKind,
}

impl LinkSample {
    /// Reads `net`'s measurements.
    pub fn of(net: &impl ControlTransport) -> LinkSample {
        LinkSample::of_players(net, |_| true)
    }

    /// Reads `net`'s measurements, the round trips of the peers `plays` names alone: an
    /// observer's link never sets the players' run-ahead (nobody waits for it).
    pub fn of_players(net: &impl ControlTransport, plays: impl Fn(PeerId) -> bool) -> LinkSample {
        let (lost, sent) = net.losses();
        let rtts = net.rtts();
        let rtts_ms = rtts.iter().filter(|(p, _)| plays(*p)).map(|(_, d)| d.as_secs_f64() * 1000.0).collect();
        LinkSample { rtts_ms, lost, sent, path: net.path_summary() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `t` three samples a second of `rtt(i)` for `secs` seconds from `from`, with
    /// `loss` of the packets lost; returns when it stopped.
    fn feed(t: &mut RunAheadTuner, from: Instant, secs: u64, rtt: impl Fn(u64) -> f64, loss: f64) -> Instant {
        let mut now = from;
        for i in 0..secs * 3 {
            now = from + Duration::from_millis(i * 333);
            t.observe(now, [rtt(i)]);
            let sent = 1000 + i * 100;
            t.observe_losses(now, (sent as f64 * loss) as u64, sent);
        }
        now
    }

    #[test]
    fn the_run_ahead_follows_the_round_trip_and_settles_between_changes() {
        let t0 = Instant::now();
        let mut t = RunAheadTuner::default();
        assert_eq!(t.wanted(), None, "too few samples to judge");
        feed(&mut t, t0, 10, |_| 0.3, 0.0);
        assert_eq!(t.wanted(), Some(2), "loopback: the least");
        assert_eq!(t.decide(3, Frame(300)), Some((Frame(300 + 6 + 15), 2)));
        // 200 ms round trips with 50 ms of jitter: (p90/2 + jitter + 25 ms) / 33.3 ms, plus one.
        let mut slow = RunAheadTuner::default();
        let end = feed(&mut slow, t0, 4, |i| if i % 10 == 0 { 250.0 } else { 200.0 + (i % 3) as f64 }, 0.0);
        assert_eq!(slow.wanted(), Some(1 + ((250.0f64 / 2.0 + 48.0 + 25.0) / (1000.0 / 30.0)).ceil() as u32));
        let (at, v) = slow.decide(2, Frame(900)).unwrap();
        assert_eq!((at, v), (Frame(900 + 4 + 15), 7));
        assert_eq!(slow.max, 7);
        // Settled: no second change within three seconds, then one.
        feed(&mut slow, end, 6, |_| 0.3, 0.0);
        assert_eq!(slow.decide(7, Frame(950)), None);
        assert_eq!(slow.decide(7, Frame(990)), Some((Frame(990 + 14 + 15), 2)));
        // Never beyond fifteen frames.
        let mut awful = RunAheadTuner::default();
        feed(&mut awful, t0, 10, |_| 5000.0, 0.0);
        assert_eq!(awful.wanted(), Some(15));
    }

    #[test]
    fn loss_adds_the_repeats_a_lost_datagram_costs() {
        let t0 = Instant::now();
        let wanted = |loss: f64| {
            let mut t = RunAheadTuner::default();
            feed(&mut t, t0, 5, |_| 100.0, loss);
            (t.loss(), t.wanted().unwrap())
        };
        // 100 ms round trips, steady: (50 + 0 + 25) / 33.3 → 3, plus one.
        assert_eq!(wanted(0.0), (0.0, 4));
        // 15 % lost: 99 % arrive within ceil(ln 0.01 / ln 0.15) = 3 tries, two repeats of 20 ms.
        let (loss, frames) = wanted(0.15);
        assert!((loss - 0.15).abs() < 0.01, "{loss}");
        assert_eq!(frames, 1 + ((50.0f64 + 40.0 + 25.0) / (1000.0 / 30.0)).ceil() as u32);
    }

    /// The tuner as the host drives it: a sample every tenth frame at 30 frames a second, the
    /// round trip `rtt(frame)` over `path(frame)`, changes scheduled on a pretend stream.
    /// Returns the largest run-ahead in force at any frame.
    fn drive(frames: u32, rtt: impl Fn(u32) -> f64, path: impl Fn(u32) -> PathKind) -> u32 {
        let t0 = Instant::now();
        let mut t = RunAheadTuner::default();
        let (mut current, mut pending, mut most) = (3u32, None::<(Frame, u32)>, 3u32);
        for f in (0..frames).step_by(10) {
            let now = t0 + Duration::from_millis(u64::from(f) * 1000 / 30);
            if let Some((_, v)) = pending.filter(|(at, _)| at.0 <= f) {
                current = v;
                pending = None;
            }
            most = most.max(current);
            t.take(now, &LinkSample { rtts_ms: vec![rtt(f)], lost: 0, sent: u64::from(f) * 10, path: path(f) });
            if pending.is_none() {
                pending = t.decide(current, Frame(f));
            }
        }
        most
    }

    #[test]
    fn when_punching_moves_a_match_off_the_relay_the_run_ahead_does_not_overshoot() {
        // 200 ms round trips directly; through the relay, 400 ms, until the hole opens 1.5 s in
        // (QUIC's smoothed estimate then moves over in about half a second).
        let direct = 200.0;
        let rtt = |f: u32| match f {
            0..45 => 400.0,
            45..60 => 400.0 - (f - 45) as f64 * (200.0 / 15.0),
            _ => direct,
        };
        let path = |f: u32| if f < 45 { PathKind::Relayed } else { PathKind::Direct };
        let steady = {
            let mut t = RunAheadTuner::default();
            feed(&mut t, Instant::now(), 5, |_| direct, 0.0);
            t.wanted().unwrap()
        };
        let most = drive(30 * 20, rtt, path);
        assert!(most <= steady, "the run-ahead reached {most}; 200 ms round trips call for {steady}");
        // On one path all along, the same: never past what its round trip calls for.
        assert_eq!(drive(30 * 20, |_| direct, |_| PathKind::Direct), steady);
    }

    #[test]
    fn after_an_outage_only_the_new_samples_count() {
        let t0 = Instant::now();
        let mut t = RunAheadTuner::default();
        let before = feed(&mut t, t0, 10, |_| 60.0, 0.0);
        let calm = t.wanted().unwrap();
        // During the outage no frame runs and nothing is sampled; the first samples after it
        // are inflated by the backlog.
        let back = before + Duration::from_secs(8);
        let mid = feed(&mut t, back, 2, |i| if i < 3 { 2000.0 } else { 60.0 }, 0.0);
        assert_eq!(t.wanted(), Some(15), "right after the outage the long round trips rule");
        // Five seconds on, the inflated samples are out of the window.
        feed(&mut t, mid, 6, |_| 60.0, 0.0);
        assert_eq!(t.wanted(), Some(calm));
    }
}
