//! The headless run's frame clock: when the next frame is due at 30 frames a second. A frame
//! that ran a little late is made up for, no faster than [`CATCH_UP`] times the pace (so the
//! run holds 30 frames a second over small stalls, as the other machines do); a stall longer
//! than [`FORGIVE`] (an outage, a pause) is not made up at all: the clock starts again from
//! where the run stands, so the frames missed are never played in a burst.
//!
//! Must not: read the clock (every call takes `now`) or sleep.

use std::time::{Duration, Instant};

/// How much faster than the pace a run that fell behind may go while it catches up: one frame
/// at most every 1/`CATCH_UP` of a frame's time.
pub const CATCH_UP: f64 = 1.25;

/// Lateness beyond this is forgiven rather than made up.
pub const FORGIVE: Duration = Duration::from_millis(500);

/// The frame clock of one run.
#[derive(Clone, Copy, Debug)]
pub struct FrameClock {
    frame_time: Duration,
    /// When frame `frame` (the schedule's origin) was due.
    origin: Instant,
    frame: u32,
}

impl FrameClock {
    /// A clock at `frames_per_second`, with `frame` due at `now`.
    pub fn new(frames_per_second: u32, frame: u32, now: Instant) -> FrameClock {
        FrameClock { frame_time: Duration::from_secs(1) / frames_per_second.max(1), origin: now, frame }
    }

    /// When the frame after `ran` is due, `ran` having run at `now`.
    pub fn next_due(&mut self, ran: u32, now: Instant) -> Instant {
        let next = ran.saturating_add(1);
        let scheduled = self.origin + self.frame_time * next.saturating_sub(self.frame);
        // Far behind (an outage): start again from here, without the frames missed.
        if now.saturating_duration_since(scheduled) > FORGIVE {
            // `ran` ran now: the schedule goes on from it.
            self.origin = now;
            self.frame = ran;
            return self.next_due(ran, now);
        }
        scheduled.max(now + self.frame_time.div_f64(CATCH_UP))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs frames `from..to` each at the moment it is due (or when `outage` ends, for a frame
    /// due within it); returns when each ran.
    fn run(
        clock: &mut FrameClock,
        from: u32,
        to: u32,
        mut now: Instant,
        outage: Option<(Instant, Instant)>,
    ) -> Vec<Instant> {
        let mut ran = Vec::new();
        for f in from..to {
            if let Some((start, end)) = outage
                && now >= start
                && now < end
            {
                now = end;
            }
            ran.push(now);
            now = clock.next_due(f, now);
        }
        ran
    }

    #[test]
    fn after_an_outage_the_run_goes_on_at_the_pace_not_in_a_burst() {
        let t0 = Instant::now();
        let mut clock = FrameClock::new(30, 0, t0);
        let frame = Duration::from_secs(1) / 30;
        // Ten seconds without frames from the 3rd second on.
        let outage = (t0 + Duration::from_secs(3), t0 + Duration::from_secs(13));
        let times = run(&mut clock, 0, 600, t0, Some(outage));
        for w in times.windows(2) {
            let gap = w[1] - w[0];
            assert!(gap >= frame.div_f64(CATCH_UP) - Duration::from_micros(1), "a burst: {gap:?}");
        }
        // In the second after the outage, the pace: none of the 300 frames missed is made up.
        let after = times.iter().filter(|&&t| t >= outage.1 && t < outage.1 + Duration::from_secs(1)).count();
        assert!((30..=31).contains(&after), "{after} frames in the second after the outage");
    }

    #[test]
    fn small_stalls_are_made_up_so_the_run_keeps_thirty_frames_a_second() {
        let t0 = Instant::now();
        let mut clock = FrameClock::new(30, 0, t0);
        // A 200 ms stall every two seconds, for twenty seconds.
        let mut now = t0;
        let mut ran = 0u32;
        while now < t0 + Duration::from_secs(20) {
            let stalled = ran % 60 == 59;
            let due = clock.next_due(ran, now);
            now = if stalled { due + Duration::from_millis(200) } else { due };
            ran += 1;
        }
        assert!((595..=601).contains(&ran), "{ran} frames in twenty seconds");
    }

    #[test]
    fn a_run_that_starts_late_is_due_from_its_first_frame() {
        let t0 = Instant::now();
        let mut clock = FrameClock::new(30, 900, t0);
        let frame = Duration::from_secs(1) / 30;
        assert_eq!(clock.next_due(900, t0), t0 + frame);
        assert_eq!(clock.next_due(901, t0 + frame), t0 + frame * 2);
    }
}
