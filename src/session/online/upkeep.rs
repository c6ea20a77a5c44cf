//! The upkeep every online game shares, headless or in the window: players who leave (or
//! are dropped) removed at an agreed frame on every machine, the host's drop and run-ahead
//! notices applied, and the host's choice of run-ahead from the round trips it measures.
//!
//! Must not: change the world except through the stream (drops and run-ahead changes are
//! scheduled on it for a frame every machine reaches after hearing of them).

use std::collections::VecDeque;

use crate::lockstep::Transport;
use crate::lockstep::transport::{PeerId, TransportEvent};
use crate::net::quic::{QuicTransport, SharedQuic};
use crate::net::wire::WireMessage;
use crate::session::Session;
use crate::session::match_setup::ResolvedSlot;
use crate::session::peer::PeerEvent;
use crate::sim::FRAMES_PER_SECOND;
use crate::sim::ids::{Frame, PlayerId};

use super::OnlineError;

/// What a joiner who comes after the start is told.
pub const LATE_JOINER: &str = "the game has already started";

/// Handles peers leaving and the host's drop notices, in any online match (headless or in the
/// window): the host removes a leaver's players at the first frame nobody has their data for
/// and tells everyone; a joiner applies what the host tells. Returns the slots that left and
/// whether the host itself is gone. Control messages it does not handle are kept in `pending`.
pub fn departures<T: Transport>(
    session: &mut Session<T>,
    net: &SharedQuic,
    slots: &[ResolvedSlot],
    me: PeerId,
    pending: &mut Vec<(PeerId, WireMessage)>,
) -> Result<(Vec<u8>, bool), OnlineError> {
    let mut gone = Vec::new();
    let mut host_gone = false;
    let mut leavers: Vec<PeerId> = session
        .take_peer_events()
        .into_iter()
        .filter_map(|e| match e {
            PeerEvent::Left(p) => Some(p),
            PeerEvent::Connected(_) => None,
        })
        .collect();
    while let Some(Some(e)) = net.with(QuicTransport::take_peer_event) {
        if let TransportEvent::Left(p) = e {
            leavers.push(p);
        }
    }
    for peer in leavers {
        if me != PeerId(0) {
            // A joiner only ever talks to the host.
            host_gone = true;
            gone.extend(slots.iter().filter(|s| s.machine == 0).map(|s| s.slot));
            continue;
        }
        for s in slots.iter().filter(|s| s.machine == peer.0) {
            let from = drop_everywhere(session, net, s.player);
            log::warn!("{peer} left; player {} is removed from frame {from}", s.player);
            gone.push(s.slot);
        }
    }
    while let Some(Some((from, msg))) = net.with(QuicTransport::take_control) {
        match msg {
            WireMessage::Dropped { player, from: at } if from == PeerId(0) => {
                session.drop_player(player, at);
                if let Some(s) = slots.get(player.index()) {
                    gone.push(s.slot);
                }
            }
            WireMessage::RunAhead { at, value } if from == PeerId(0) => {
                if !session.schedule_run_ahead(at, value as u32) {
                    log::error!("the host's run-ahead change for frame {at} came after that frame ran here");
                }
            }
            WireMessage::Refused { reason } => return Err(OnlineError::Refused(reason)),
            // Someone joining with the code after the start: told at once, not left hanging.
            WireMessage::Hello(_) if me == PeerId(0) => {
                log::info!("{from} tried to join the running game; refused");
                let reason = LATE_JOINER.to_string();
                net.with(|n| n.send_control(Some(from), &[WireMessage::Refused { reason }]).ok());
            }
            other => pending.push((from, other)),
        }
    }
    Ok((gone, host_gone))
}

/// The host removes `player` from every machine's game: at the first frame nobody has their
/// data for (so every machine has run the same commands of theirs), here and in a `Dropped`
/// notice to everyone. Returns that frame.
pub fn drop_everywhere<T: Transport>(session: &mut Session<T>, net: &SharedQuic, player: PlayerId) -> Frame {
    let stream = session.stream();
    let from = stream.declared_through(player).map_or(Frame(0), Frame::next).max(stream.next_frame());
    session.drop_player(player, from);
    net.with(|n| n.send_control(None, &[WireMessage::Dropped { player, from }]).ok());
    from
}

/// The host's choice of run-ahead, from the round-trip times it measures: enough frames for a
/// command to reach everyone before it runs (half the 90th-percentile round trip, plus the
/// jitter, plus a 25 ms cushion), between 2 and 15 frames, changed at most every three seconds.
#[derive(Clone, Debug, Default)]
pub struct RunAheadTuner {
    samples: VecDeque<f64>,
    last_change: Option<u32>,
    /// The largest run-ahead used so far.
    pub max: u32,
}

/// Round-trip samples the tuner keeps (about three seconds' worth).
const RTT_SAMPLES: usize = 90;

impl RunAheadTuner {
    /// Notes round-trip times, in milliseconds.
    pub fn observe(&mut self, rtts_ms: impl IntoIterator<Item = f64>) {
        for r in rtts_ms {
            self.samples.push_back(r);
            if self.samples.len() > RTT_SAMPLES {
                self.samples.pop_front();
            }
        }
    }

    /// The run-ahead these round trips call for.
    pub fn wanted(&self) -> Option<u32> {
        if self.samples.len() < 10 {
            return None;
        }
        let mut v: Vec<f64> = self.samples.iter().copied().collect();
        v.sort_by(f64::total_cmp);
        let p90 = v[(v.len() * 9 / 10).min(v.len() - 1)];
        let median = v[v.len() / 2];
        let frame_ms = 1000.0 / FRAMES_PER_SECOND as f64;
        let needed = 1.0 + ((p90 / 2.0 + (p90 - median) + 25.0) / frame_ms).ceil();
        Some((needed as u32).clamp(2, 15))
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

    /// After `frame` ran, on every tenth frame: samples the round trips to the other machines
    /// and, where `adapt` (the host of an adaptive game), moves the run-ahead to fit them,
    /// scheduled here and announced to everyone. Returns the samples (in milliseconds) when
    /// it took them.
    pub fn tune<T: Transport>(
        &mut self,
        session: &mut Session<T>,
        net: &SharedQuic,
        frame: Frame,
        adapt: bool,
    ) -> Option<Vec<f64>> {
        if !frame.0.is_multiple_of(10) {
            return None;
        }
        let rtts: Vec<f64> =
            net.with(|n| n.rtts()).unwrap_or_default().iter().map(|(_, d)| d.as_secs_f64() * 1000.0).collect();
        self.observe(rtts.iter().copied());
        let stream = session.stream();
        let (current, next) = (stream.run_ahead(), stream.next_frame());
        self.max = self.max.max(current);
        if adapt && let Some((at, value)) = self.decide(current, next) {
            session.schedule_run_ahead(at, value);
            net.with(|n| n.send_control(None, &[WireMessage::RunAhead { at, value: value as u8 }]).ok());
            log::info!("run-ahead {current} → {value} from frame {at}");
        }
        Some(rtts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_ahead_follows_the_round_trip_and_settles_between_changes() {
        let mut t = RunAheadTuner::default();
        assert_eq!(t.wanted(), None, "too few samples to judge");
        t.observe(std::iter::repeat_n(0.3, 30));
        assert_eq!(t.wanted(), Some(2), "loopback: the least");
        assert_eq!(t.decide(3, Frame(300)), Some((Frame(300 + 6 + 15), 2)));
        // 200 ms round trips with 50 ms of jitter: (p90/2 + jitter + 25 ms) / 33.3 ms, plus one.
        let mut slow = RunAheadTuner::default();
        slow.observe((0..90).map(|i| if i % 10 == 0 { 250.0 } else { 200.0 + (i % 3) as f64 }));
        assert_eq!(slow.wanted(), Some(1 + ((250.0f64 / 2.0 + 48.0 + 25.0) / (1000.0 / 30.0)).ceil() as u32));
        let (at, v) = slow.decide(2, Frame(900)).unwrap();
        assert_eq!((at, v), (Frame(900 + 4 + 15), 7));
        assert_eq!(slow.max, 7);
        // Settled: no second change within three seconds, then one.
        slow.observe(std::iter::repeat_n(0.3, 90));
        assert_eq!(slow.decide(7, Frame(950)), None);
        assert_eq!(slow.decide(7, Frame(990)), Some((Frame(990 + 14 + 15), 2)));
        // Never beyond fifteen frames.
        let mut awful = RunAheadTuner::default();
        awful.observe(std::iter::repeat_n(5000.0, 30));
        assert_eq!(awful.wanted(), Some(15));
    }
}
