//! The battle's own windows as a screen: what a click on the top bar, the control bar, the
//! alert log or the replay viewer's bar does — the Menu button opens the battle's menu,
//! the rest become [`ShellRequest`]s. The client fills the windows through [`Bars`].
//!
//! Must not: reach into the battle; it hears of Leave and button clicks as requests.

use crate::ui::window::short_name as short;
use crate::ui::{EventKind, UiEvent};

use super::bars::Bars;
use super::question::Question;
use super::request::{ReplayControl, ShellRequest};
use super::screen::Screen;
use super::stage::Stage;

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    if let (EventKind::SliderChanged(v), "SliderReplaySeek") = (&e.kind, short(&e.name)) {
        stage.request(ShellRequest::Replay(ReplayControl::Seek((*v).clamp(0, 1000) as u16)));
        return;
    }
    if let (EventKind::ListSelection(rows), "ListAlertLog") = (&e.kind, short(&e.name)) {
        if let Some(&row) = rows.first() {
            stage.request(ShellRequest::JumpToAlert(row));
        }
        return;
    }
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonReplayPlay" => stage.request(ShellRequest::Replay(ReplayControl::PlayPause)),
        "ButtonReplaySlower" => stage.request(ShellRequest::Replay(ReplayControl::Slower)),
        "ButtonReplayFaster" => stage.request(ShellRequest::Replay(ReplayControl::Faster)),
        "ButtonReplayView" => stage.request(ShellRequest::Replay(ReplayControl::View)),
        "ButtonReplayTakeOver" => stage.request(ShellRequest::Replay(ReplayControl::TakeOver)),
        "ButtonMenu" => super::game_menu::open(stage),
        "ButtonOptions" => stage.open(Screen::Options),
        "ButtonAlertLog" => Bars::new(stage.ui).toggle_alert_log(),
        "ButtonHintClose" => dismiss_hint(stage),
        name => {
            if let Some(i) = name.strip_prefix("ButtonCommand").and_then(|n| n.parse::<usize>().ok()) {
                stage.request(ShellRequest::CommandButton(i));
            }
        }
    }
}

/// Hides the hint for good (remembered in the settings).
fn dismiss_hint(stage: &mut Stage) {
    if let Some(id) = stage.find("InGame.wnd:HintPanel") {
        stage.ui.show(id, false);
    }
    stage.prefs.settings.hint_seen = true;
    stage.save_settings();
}

/// Asks whether to leave the battle (the Menu button and Escape); online, it says that
/// leaving surrenders.
pub(super) fn ask_leave_battle(stage: &mut Stage) {
    let label = if stage.screens.leave_surrenders { "Message:LeaveSurrenders" } else { "Message:Leave" };
    let text = stage.say(label, &[]);
    stage.ask(Question::LeaveBattle, &text);
}
