//! Options → Keys: every battle command with its key, in the keys file's order. A click on a
//! line waits for a key; the key pressed is that command's now, and a key another command had
//! is swapped (that command takes the old key), which the page says ("G was Guard's: Guard is
//! on S now"). A swap that would clash elsewhere is refused, naming the command. Reset puts the
//! defaults back; Save writes the changes from the defaults into the settings (merged like the
//! rest); Back and Escape leave without saving.
//!
//! Must not: act on a battle (the client hands the battle the saved keys) or write the keys
//! file (`data/keys.ron` holds the defaults; the settings hold the player's changes).

use crate::game::keys::{Chord, KeyCommand, KeyMap, Rebound};
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, Key, UiEvent};

use super::screen::Screen;
use super::stage::Stage;

/// The list of commands and keys.
const LIST: &str = "Keys.wnd:ListKeys";
/// The line under it: what to do, what a key press did.
const STATUS: &str = "Keys.wnd:LabelKeysStatus";

/// Opens the page on the player's keys, nothing waiting.
pub(super) fn init(stage: &mut Stage) {
    stage.prefs.key_draft = (*stage.prefs.keys()).clone();
    stage.prefs.key_waiting = None;
    let backdrop = stage.find("Keys.wnd:KeysParent");
    super::options::see_battle_through(stage, backdrop);
    fill(stage);
    let help = stage.prefs.key_problem.clone().unwrap_or_else(|| stage.say("Keys:Help", &[]));
    stage.set_text(STATUS, &help);
}

/// True while the page waits for a key: the client hands it the next one ([`bind`]); Escape
/// still goes to the page as input, and cancels.
pub fn waiting(stage: &Stage) -> bool {
    stage.screen() == Some(Screen::Keys) && stage.prefs.key_waiting.is_some() && !stage.screens.message_open()
}

/// A key was pressed while the page waits for one: the waiting command takes it. False when
/// nothing waits.
pub fn bind(stage: &mut Stage, chord: Chord) -> bool {
    let Some(command) = stage.prefs.key_waiting.take() else { return false };
    let name = title(stage, command);
    let key = chord.to_string();
    let line = match stage.prefs.key_draft.rebind(command, chord) {
        Ok(Rebound::Same) | Ok(Rebound::Moved) => stage.say("Keys:Bound", &[("command", &name), ("key", &key)]),
        Ok(Rebound::Swapped { other, now }) => {
            let other = title(stage, other);
            let args = [("command", name.as_str()), ("key", &key), ("other", &other), ("now", &now.to_string())];
            stage.say("Keys:Swapped", &args)
        }
        Err(conflict) => {
            let other = title(stage, conflict.with);
            stage.say("Keys:Refused", &[("key", &key), ("other", &other), ("command", &name)])
        }
    };
    fill(stage);
    stage.set_text(STATUS, &line);
    true
}

/// The page's events: a click on a line waits for its key; Reset, Save and Back; Escape stops
/// waiting, else leaves as Back does.
pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    match (&e.kind, short(&e.name)) {
        (EventKind::ListSelection(rows), "ListKeys") => {
            let command = rows.first().and_then(|&r| stage.prefs.key_draft.entries().get(r)).map(|(c, _)| *c);
            if let Some(command) = command {
                stage.prefs.key_waiting = Some(command);
                let (name, key) = (title(stage, command), stage.prefs.key_draft.key_text(command));
                let line = stage.say("Keys:Press", &[("command", &name), ("key", &key)]);
                stage.set_text(STATUS, &line);
            }
        }
        (EventKind::KeyUnhandled(Key::Escape), _) if stage.prefs.key_waiting.is_some() => {
            stage.prefs.key_waiting = None;
            let help = stage.say("Keys:Help", &[]);
            stage.set_text(STATUS, &help);
        }
        (EventKind::KeyUnhandled(Key::Escape), _) => stage.open(Screen::Options),
        (EventKind::Selected, "ButtonReset") => {
            stage.prefs.key_draft = stage.prefs.key_defaults.clone();
            stage.prefs.key_waiting = None;
            fill(stage);
            let line = stage.say("Keys:WereReset", &[]);
            stage.set_text(STATUS, &line);
        }
        (EventKind::Selected, "ButtonSave") => {
            let mut wanted = stage.prefs.settings.clone();
            wanted.keys = stage.prefs.key_draft.changes_from(&stage.prefs.key_defaults);
            if stage.save_settings_as("Title:Keys", wanted).is_some() {
                stage.open(Screen::Options);
            }
        }
        (EventKind::Selected, "ButtonBack") => stage.open(Screen::Options),
        _ => {}
    }
}

/// A command's name on the page (`Keys:Stop`, a numbered one with its number).
fn title(stage: &Stage, command: KeyCommand) -> String {
    let n = command.name().1.map(|n| n.to_string()).unwrap_or_default();
    stage.say(&command.label(), &[("n", &n)])
}

/// Shows every command and its key as the page holds them now (where the list was scrolled
/// to), no line chosen.
fn fill(stage: &mut Stage) {
    let Some(list) = stage.find(LIST) else { return };
    let map: KeyMap = stage.prefs.key_draft.clone();
    let rows: Vec<Vec<String>> = map.entries().iter().map(|(c, k)| vec![title(stage, *c), k.to_string()]).collect();
    stage.ui.list_set_rows(list, rows);
    stage.ui.list_select(list, None);
}
