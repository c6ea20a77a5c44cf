//! Pause and game speed: how fast logic frames fall due on this machine. They change when
//! frames run, never what a frame computes, so a paused or sped-up game has the same hash log
//! as the same game played straight. A skirmish pauses (P) and runs at 0.5×–3× (+ and −); a
//! watched replay runs up to 16×; an online battle keeps the stream's own pace (a pause there
//! must be agreed by every machine). The game also holds while a dialog covers a skirmish.
//!
//! Must not: touch the world or the stream; it only scales the time the battle hands to it.

/// Speeds a skirmish offers.
const SKIRMISH: &[f32] = &[0.5, 1.0, 1.5, 2.0, 3.0];
/// Speeds a replay offers.
const REPLAY: &[f32] = &[0.5, 1.0, 2.0, 4.0, 8.0, 16.0];
/// An online battle: the stream's pace only.
const ONLINE: &[f32] = &[1.0];

/// The battle's pace on this machine.
#[derive(Clone, Debug)]
pub struct Pace {
    steps: &'static [f32],
    index: usize,
    paused: bool,
    /// Held by a dialog (not the player's own pause).
    held: bool,
}

impl Pace {
    /// A skirmish's pace: normal speed, running.
    pub fn skirmish() -> Pace {
        Pace { steps: SKIRMISH, index: 1, paused: false, held: false }
    }

    /// A watched replay's pace.
    pub fn replay() -> Pace {
        Pace { steps: REPLAY, index: 1, paused: false, held: false }
    }

    /// An online battle's pace: fixed, never paused here.
    pub fn online() -> Pace {
        Pace { steps: ONLINE, index: 0, paused: false, held: false }
    }

    /// The speed factor (1 is 30 frames a second).
    pub fn speed(&self) -> f32 {
        self.steps.get(self.index).copied().unwrap_or(1.0)
    }

    /// True while the player has paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// True while frames stand still (paused, or held by a dialog).
    pub fn stopped(&self) -> bool {
        self.paused || self.held
    }

    /// Pauses or resumes (no effect online).
    pub fn toggle_pause(&mut self) {
        if self.steps.len() > 1 {
            self.paused = !self.paused;
        }
    }

    /// Holds the game while a dialog is open (a skirmish or replay; online keeps running).
    pub fn hold(&mut self, held: bool) {
        self.held = held && self.steps.len() > 1;
    }

    /// The next faster speed, if any.
    pub fn faster(&mut self) {
        self.index = (self.index + 1).min(self.steps.len() - 1);
    }

    /// The next slower speed, if any.
    pub fn slower(&mut self) {
        self.index = self.index.saturating_sub(1);
    }

    /// Game seconds that pass in `dt` real seconds.
    pub fn scale(&self, dt: f32) -> f32 {
        if self.stopped() { 0.0 } else { dt * self.speed() }
    }

    /// What the top bar says of the pace: nothing at normal speed.
    pub fn label(&self) -> String {
        if self.paused {
            "Paused".to_string()
        } else if self.speed() != 1.0 {
            format!("{}×", self.speed())
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skirmish_pauses_and_steps_between_half_and_three_times() {
        let mut p = Pace::skirmish();
        assert_eq!((p.speed(), p.scale(0.5), p.label()), (1.0, 0.5, String::new()));
        for _ in 0..10 {
            p.faster();
        }
        assert_eq!((p.speed(), p.label()), (3.0, "3×".to_string()));
        for _ in 0..10 {
            p.slower();
        }
        assert_eq!((p.speed(), p.scale(1.0)), (0.5, 0.5));
        p.toggle_pause();
        assert_eq!((p.scale(1.0), p.label()), (0.0, "Paused".to_string()));
        p.toggle_pause();
        p.hold(true);
        assert_eq!(p.scale(1.0), 0.0, "a dialog holds the game");
        assert!(!p.paused(), "but the player did not pause it");
    }

    #[test]
    fn online_keeps_the_stream_s_pace_and_replays_run_to_sixteen_times() {
        let mut p = Pace::online();
        p.toggle_pause();
        p.hold(true);
        p.faster();
        assert_eq!(p.scale(1.0), 1.0);
        let mut r = Pace::replay();
        for _ in 0..10 {
            r.faster();
        }
        assert_eq!(r.speed(), 16.0);
    }
}
