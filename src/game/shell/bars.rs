//! The battle's own windows as the client fills them each frame (`InGame.wnd`): the top bar
//! with the money, the clock and the power, the alert lines and the alert log, the control
//! bar's command buttons and queue, the replay viewer's bar and the first-battle hint, and the
//! texts that name the player's keys.
//!
//! Must not: reach into the battle (the client hands over what to show) or decide what a
//! click does (`in_game.rs` does).

use crate::game::button_view::ButtonView;
use crate::game::keys::KeyMap;
use crate::ui::{WindowId, WindowManager};

/// Command buttons in the control bar.
pub const COMMAND_BUTTONS: usize = 12;
/// Alert lines shown above the control bar.
const ALERT_LINES: usize = 3;
/// The replay bar's windows an observer of a live game does not have.
const REPLAY_ONLY: [&str; 6] = [
    "InGame.wnd:ButtonReplayPlay",
    "InGame.wnd:ButtonReplaySlower",
    "InGame.wnd:LabelReplaySpeed",
    "InGame.wnd:ButtonReplayFaster",
    "InGame.wnd:SliderReplaySeek",
    "InGame.wnd:ButtonReplayTakeOver",
];

/// Game time at `frame` as minutes and seconds ("12:05").
fn clock(frame: u32) -> String {
    let s = frame / crate::sim::FRAMES_PER_SECOND;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The battle's windows, borrowed from the shell's window manager.
pub struct Bars<'a> {
    ui: &'a mut WindowManager,
}

impl<'a> Bars<'a> {
    /// The bars of the layout open in `ui`.
    pub fn new(ui: &'a mut WindowManager) -> Bars<'a> {
        Bars { ui }
    }

    fn find(&self, name: &str) -> Option<WindowId> {
        self.ui.find(name)
    }

    fn set_text(&mut self, name: &str, text: &str) {
        if let Some(w) = self.ui.find(name).and_then(|id| self.ui.window_mut(id)) {
            w.text = text.to_string();
        }
    }

    fn say(&self, label: &str, args: &[(&str, &str)]) -> String {
        self.ui.labels().map_or_else(|| label.to_string(), |l| l.say(label, args))
    }

    /// Opens the alert log over the battle, or closes it.
    pub fn toggle_alert_log(&mut self) {
        if let Some(log) = self.find("InGame.wnd:AlertLog") {
            let open = self.ui.shown(log);
            self.ui.show(log, !open);
        }
    }

    /// True while the alert log is open.
    pub fn alert_log_open(&self) -> bool {
        self.find("InGame.wnd:AlertLog").is_some_and(|log| self.ui.shown(log))
    }

    /// Fills the alert log with `rows` (time, line), newest first; the rows are replaced only
    /// when they changed, so a chosen row stays chosen.
    pub fn set_alert_log(&mut self, rows: Vec<Vec<String>>) {
        if let Some(list) = self.find("InGame.wnd:ListAlertLog")
            && self.ui.list_rows(list) != rows.as_slice()
        {
            self.ui.list_set_rows(list, rows);
        }
    }

    /// Shows the replay viewer's bar for a watched replay at `frame` of `total` frames (hidden
    /// for `None`): play or pause, the speed, the seek bar (left alone while it is dragged),
    /// the time, whose view is shown, and Take over (only with a player's view).
    pub fn set_replay_bar(&mut self, watched: Option<(u32, u32)>, paused: bool, speed: &str, view: &str, seat: bool) {
        let Some(bar) = self.find("InGame.wnd:ReplayBar") else { return };
        self.ui.show(bar, watched.is_some());
        let Some((frame, total)) = watched else { return };
        self.show_replay_only(true);
        let play = self.say(if paused { "Replay:Play" } else { "Replay:Pause" }, &[]);
        self.set_text("InGame.wnd:ButtonReplayPlay", &play);
        self.set_text("InGame.wnd:LabelReplaySpeed", speed);
        self.set_text("InGame.wnd:ButtonReplayView", view);
        let tip = if seat { self.say("Tip:TakeOver", &[("view", view)]) } else { self.say("Tip:ChooseView", &[]) };
        if let Some(take) = self.find("InGame.wnd:ButtonReplayTakeOver") {
            self.ui.enable(take, seat);
            if let Some(w) = self.ui.window_mut(take) {
                w.tooltip = tip;
            }
        }
        self.set_text("InGame.wnd:LabelReplayTime", &format!("{} / {}", clock(frame), clock(total)));
        if let Some(seek) = self.find("InGame.wnd:SliderReplaySeek")
            && self.ui.capture() != Some(seek)
        {
            let permille = (frame as u64 * 1000 / total.max(1) as u64).min(1000) as i32;
            self.ui.slider_set(seek, permille);
        }
    }

    /// Shows the replay viewer's bar for an observer of a live game at game time `frame`: the
    /// view selector and the clock; a live game has no seek bar, no Take over, and its pace is
    /// the players' (the watcher's keys still pause a skirmish of computers).
    pub fn set_observer_bar(&mut self, frame: u32, view: &str) {
        let Some(bar) = self.find("InGame.wnd:ReplayBar") else { return };
        self.ui.show(bar, true);
        self.show_replay_only(false);
        self.set_text("InGame.wnd:ButtonReplayView", view);
        self.set_text("InGame.wnd:LabelReplayTime", &clock(frame));
    }

    /// Shows or hides the replay bar's windows that only a replay has.
    fn show_replay_only(&mut self, show: bool) {
        for name in REPLAY_ONLY {
            if let Some(id) = self.find(name) {
                self.ui.show(id, show);
            }
        }
    }

    /// Shows the first-battle hint when the player is about to play and has not dismissed it
    /// (`hint_seen`, from the settings).
    pub fn offer_hint(&mut self, playing: bool, hint_seen: bool) {
        let show = playing && !hint_seen;
        if let Some(id) = self.find("InGame.wnd:HintPanel") {
            self.ui.show(id, show);
        }
    }

    /// Words the texts that name keys (the hint, the alert log's and the replay bar's
    /// tooltips) with the player's keys: their labels name each key by its command
    /// (`{AlertJump}`).
    pub fn set_key_texts(&mut self, keys: &KeyMap) {
        let named: Vec<(String, String)> = keys.entries().iter().map(|(c, k)| (c.to_string(), k.to_string())).collect();
        let args: Vec<(&str, &str)> = named.iter().map(|(c, k)| (c.as_str(), k.as_str())).collect();
        let text = self.say("InGame:HintText", &args);
        self.set_text("InGame.wnd:HintText", &text);
        for name in ["ButtonAlertLog", "ButtonReplayPlay", "ButtonReplaySlower", "ButtonReplayFaster"] {
            let tip = self.say(&format!("InGame:{name}.Tip"), &args);
            if let Some(w) = self.find(&format!("InGame.wnd:{name}")).and_then(|id| self.ui.window_mut(id))
                && w.tooltip != tip
            {
                w.tooltip = tip;
            }
        }
    }

    /// Fills the control bar: per command button (hidden where none) its label, whether it
    /// can be used, its tooltip, and its icon with the key on it; then the queue line.
    pub fn set_commands(&mut self, buttons: &[ButtonView], queue: &str) {
        for i in 0..COMMAND_BUTTONS {
            let name = format!("InGame.wnd:ButtonCommand{i}");
            let Some(id) = self.find(&name) else { continue };
            match buttons.get(i) {
                Some(b) => {
                    self.ui.show(id, true);
                    self.ui.enable(id, b.usable);
                    self.set_text(&name, &b.label);
                    if let Some(w) = self.ui.window_mut(id) {
                        w.tooltip.clone_from(&b.tooltip);
                        w.icon.clone_from(&b.icon);
                        w.mark.clone_from(&b.key);
                    }
                }
                None => self.ui.show(id, false),
            }
        }
        self.set_text("InGame.wnd:LabelQueue", queue);
    }

    /// Shows the local player's power as "Power made/used"; while low the label is disabled,
    /// so it takes the layout's DISABLED text colour (the warning colour) and says so. None
    /// (no one player's view) leaves it empty.
    pub fn set_power(&mut self, power: Option<crate::sim::power::PowerBalance>) {
        let Some(power) = power else {
            self.set_text("InGame.wnd:LabelPower", "");
            if let Some(id) = self.find("InGame.wnd:LabelPower") {
                self.ui.enable(id, true);
            }
            return;
        };
        let (made, used) = (power.produced.to_string(), power.used.to_string());
        let label = if power.low() { "Power:Low" } else { "Power:Balance" };
        let text = self.say(label, &[("made", &made), ("used", &used)]);
        self.set_text("InGame.wnd:LabelPower", &text);
        if let Some(id) = self.find("InGame.wnd:LabelPower") {
            self.ui.enable(id, !power.low());
        }
    }

    /// Shows the first queued unit's progress under the selection panel (hidden when the
    /// selection has no queue).
    pub fn set_queue_progress(&mut self, percent: Option<u8>) {
        let Some(id) = self.find("InGame.wnd:QueueProgress") else { return };
        self.ui.show(id, percent.is_some());
        self.ui.progress_set(id, percent.unwrap_or(0) as i32);
    }

    /// Shows the newest alert lines above the control bar, newest at the bottom, in at most
    /// three lines of text: an alert that wraps takes two, and the oldest shown gives way so the
    /// newest never falls below the window (the window is empty when there are none).
    pub fn set_alerts(&mut self, lines: &[String]) {
        let Some(id) = self.find("InGame.wnd:AlertLine") else { return };
        let mut shown = lines.len().min(ALERT_LINES);
        loop {
            let text = lines[lines.len() - shown..].join("\n");
            self.set_text("InGame.wnd:AlertLine", &text);
            let rows = if text.is_empty() { 0 } else { self.ui.wrapped_lines(id).unwrap_or(shown) };
            if rows <= ALERT_LINES || shown <= 1 {
                let pad = "\n".repeat(ALERT_LINES.saturating_sub(rows));
                self.set_text("InGame.wnd:AlertLine", &if text.is_empty() { text } else { pad + &text });
                return;
            }
            shown -= 1;
        }
    }

    /// Shows the local player's money (none: no one player's view) and the game time
    /// (seconds) in the top bar, with the pace when it is not normal ("Paused", "2×").
    pub fn set_hud(&mut self, money: Option<i64>, seconds: u32, pace: &str) {
        self.set_text("InGame.wnd:LabelMoney", &money.map_or_else(String::new, |m| format!("${m}")));
        let clock = format!("{}:{:02}", seconds / 60, seconds % 60);
        let text = if pace.is_empty() { clock } else { format!("{clock}  {pace}") };
        self.set_text("InGame.wnd:LabelClock", &text);
    }
}
