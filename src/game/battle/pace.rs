//! Pause and game speed on this machine: how fast logic frames fall due. They change when
//! frames run, never what a frame computes. In a skirmish and online the pause and the speed
//! are the stream's (control messages every machine applies alike, recorded in the replay:
//! `lockstep/pace.rs`); this keeps the speed the player asked for and mirrors what is in
//! force. A watched replay's pace is the watcher's own, up to 16×. A dialog over a skirmish or
//! a replay holds the game here, without telling anyone.
//!
//! Must not: touch the world; it only scales the time the battle hands to it.

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
    /// The speed asked for (a replay: the speed in force).
    index: usize,
    paused: bool,
    /// Held by a dialog (not the player's own pause).
    held: bool,
    /// The stream decides pause and speed (not a replay).
    follows_stream: bool,
    /// The stream's speed in force.
    in_force: f32,
}

impl Pace {
    /// A skirmish's pace: normal speed, running.
    pub fn skirmish() -> Pace {
        Pace { steps: SKIRMISH, index: 1, paused: false, held: false, follows_stream: true, in_force: 1.0 }
    }

    /// A watched replay's pace: the watcher's own.
    pub fn replay() -> Pace {
        Pace { steps: REPLAY, index: 1, paused: false, held: false, follows_stream: false, in_force: 1.0 }
    }

    /// An online battle's pace: the stream's, at a fixed speed; dialogs hold nothing.
    pub fn online() -> Pace {
        Pace { steps: ONLINE, index: 0, paused: false, held: false, follows_stream: true, in_force: 1.0 }
    }

    /// True when the stream decides the pause and speed (everything but a replay).
    pub fn follows_stream(&self) -> bool {
        self.follows_stream
    }

    /// Mirrors the stream: whether a pause is in force, and the speed in percent.
    pub fn follow(&mut self, paused: bool, percent: u16) {
        if self.follows_stream {
            self.paused = paused;
            self.in_force = f32::from(percent) / 100.0;
        }
    }

    /// The speed factor in force (1 is 30 frames a second).
    pub fn speed(&self) -> f32 {
        if self.follows_stream { self.in_force } else { self.wanted() }
    }

    /// The speed asked for, as a factor.
    pub fn wanted(&self) -> f32 {
        self.steps.get(self.index).copied().unwrap_or(1.0)
    }

    /// The speed asked for, in percent (what a speed change message carries).
    pub fn wanted_percent(&self) -> u16 {
        (self.wanted() * 100.0).round() as u16
    }

    /// True while the game is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// True while frames stand still (paused, or held by a dialog).
    pub fn stopped(&self) -> bool {
        self.paused || self.held
    }

    /// Pauses or resumes a replay (the stream's pause is asked for through the battle).
    pub fn toggle_pause(&mut self) {
        if !self.follows_stream {
            self.paused = !self.paused;
        }
    }

    /// Holds the game while a dialog is open (a skirmish or replay; online keeps running).
    pub fn hold(&mut self, held: bool) {
        self.held = held && self.steps.len() > 1;
    }

    /// Asks for the next faster speed; true if that is a change.
    pub fn faster(&mut self) -> bool {
        let was = self.index;
        self.index = (self.index + 1).min(self.steps.len() - 1);
        was != self.index
    }

    /// Asks for the next slower speed; true if that is a change.
    pub fn slower(&mut self) -> bool {
        let was = self.index;
        self.index = self.index.saturating_sub(1);
        was != self.index
    }

    /// Game seconds that pass in `dt` real seconds.
    pub fn scale(&self, dt: f32) -> f32 {
        if self.stopped() { 0.0 } else { dt * self.speed() }
    }

    /// What the top bar says of the pace: nothing at normal speed.
    pub fn label(&self, labels: &crate::ui::labels::Labels) -> String {
        if self.paused {
            labels.say("Pace:PausedShort", &[])
        } else if self.speed() != 1.0 {
            labels.say("Pace:SpeedShort", &[("speed", &self.speed().to_string())])
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skirmish_asks_for_speeds_between_half_and_three_times_and_shows_the_stream_s() {
        // The top bar's words, as the game's string table has them.
        let labels = crate::ui::labels::Labels(
            [("Pace:PausedShort", "Paused"), ("Pace:SpeedShort", "{speed}×")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        let mut p = Pace::skirmish();
        assert_eq!((p.speed(), p.scale(0.5), p.label(&labels)), (1.0, 0.5, String::new()));
        for _ in 0..10 {
            p.faster();
        }
        assert_eq!(p.wanted_percent(), 300);
        assert_eq!(p.speed(), 1.0, "asked for, not yet in force");
        p.follow(false, 300);
        assert_eq!((p.speed(), p.label(&labels)), (3.0, "3×".to_string()));
        for _ in 0..10 {
            p.slower();
        }
        assert!(!p.slower(), "no slower speed than the slowest");
        assert_eq!(p.wanted_percent(), 50);
        p.follow(true, 50);
        assert_eq!((p.scale(1.0), p.label(&labels)), (0.0, "Paused".to_string()));
        p.toggle_pause();
        assert!(p.paused(), "the stream's pause ends only through the stream");
        p.follow(false, 50);
        p.hold(true);
        assert_eq!(p.scale(1.0), 0.0, "a dialog holds the game");
        assert!(!p.paused(), "but the player did not pause it");
    }

    #[test]
    fn online_dialogs_hold_nothing_and_replays_pause_here_and_run_to_sixteen_times() {
        let mut p = Pace::online();
        p.hold(true);
        assert!(!p.faster());
        assert_eq!(p.scale(1.0), 1.0);
        let mut r = Pace::replay();
        for _ in 0..10 {
            r.faster();
        }
        assert_eq!(r.speed(), 16.0);
        r.toggle_pause();
        assert_eq!(r.scale(1.0), 0.0);
    }
}
