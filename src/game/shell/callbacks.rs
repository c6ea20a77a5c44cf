//! The shell's callback lexicon: every name its layouts use, bound to the Rust function that
//! runs it. Layout files and this table must agree; `ridgeline ui-check` and the shell's start
//! both verify it.

use crate::ui::lexicon::{CallbackKind, Lexicon};

use super::bars::COMMAND_BUTTONS;
use super::stage::{Hooks, InitFn, SystemFn};
use super::{actions, game_menu, in_game, keys, load, lobby, main_menu, message_box, mods};
use super::{online, options, replays, score, skirmish};

/// What a system callback's name runs.
#[derive(Clone, Copy, Debug)]
pub enum System {
    /// A screen's handler, on the stage.
    Screen(SystemFn),
    /// The layout editor's panel (`EditorSystem`), which the shell hands to the editor.
    Editor,
}

/// The layout editor panel's system callback.
const EDITOR_SYSTEM: &str = "EditorSystem";

const SYSTEM: [(&str, SystemFn); 13] = [
    ("MainMenuSystem", main_menu::system),
    ("SkirmishSetupSystem", skirmish::system),
    ("OnlineSystem", online::system),
    ("LobbySystem", lobby::system),
    ("OptionsSystem", options::system),
    ("ReplaysSystem", replays::system),
    ("ScoreScreenSystem", score::system),
    ("MessageBoxSystem", message_box::system),
    ("InGameSystem", in_game::system),
    ("ModsSystem", mods::system),
    ("LoadSystem", load::system),
    ("GameMenuSystem", game_menu::system),
    ("KeysSystem", keys::system),
];

const INIT: [(&str, InitFn); 10] = [
    ("MainMenuInit", main_menu::init),
    ("SkirmishSetupInit", skirmish::init),
    ("OnlineInit", online::init),
    ("LobbyInit", lobby::init),
    ("OptionsInit", options::init),
    ("ReplaysInit", replays::init),
    ("ScoreScreenInit", score::init),
    ("ModsInit", mods::init),
    ("LoadInit", load::init),
    ("KeysInit", keys::init),
];

/// Per-frame layout updates (none of the shell's screens needs one yet).
const UPDATE: [(&str, InitFn); 0] = [];

/// Layout shutdowns, run when a screen closes (none needed yet).
const SHUTDOWN: [(&str, InitFn); 0] = [];

/// Custom draw callbacks: the shell's own (see `Shell::custom_draw`) and the battle's radar and
/// selection panel, which the client draws over the windows' backgrounds.
const DRAW: [&str; 4] = ["MapPreviewDraw", "RadarDraw", "SavePictureDraw", "SelectionPanelDraw"];

/// What the system callback with this name runs.
pub fn system(name: &str) -> Option<System> {
    if name == EDITOR_SYSTEM {
        return Some(System::Editor);
    }
    SYSTEM.iter().find(|(n, _)| *n == name).map(|(_, f)| System::Screen(*f))
}

/// The layout hooks, for the stage.
pub fn hooks() -> Hooks {
    Hooks { init: layout_init, shutdown: layout_shutdown }
}

/// The layout initialiser with this name.
pub fn layout_init(name: &str) -> Option<InitFn> {
    INIT.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The layout update with this name.
pub fn layout_update(name: &str) -> Option<InitFn> {
    UPDATE.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The layout shutdown with this name.
pub fn layout_shutdown(name: &str) -> Option<InitFn> {
    SHUTDOWN.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The standard gadget names plus everything above.
pub fn lexicon() -> Lexicon {
    let mut l = Lexicon::standard();
    for (n, _) in SYSTEM {
        l.register(CallbackKind::System, n);
    }
    l.register(CallbackKind::System, EDITOR_SYSTEM);
    for (n, _) in INIT.iter().chain(UPDATE.iter()).chain(SHUTDOWN.iter()) {
        l.register(CallbackKind::Layout, n);
    }
    for n in DRAW {
        l.register(CallbackKind::Draw, n);
    }
    for n in actions::names() {
        l.register(CallbackKind::Action, n);
    }
    for slot in 0..COMMAND_BUTTONS {
        l.register(CallbackKind::Action, &format!("command:{slot}"));
    }
    l.register_action_form(actions::is_action);
    for n in BY_NAME {
        l.handle_by_name(n);
    }
    for slot in 0..COMMAND_BUTTONS {
        l.handle_by_name(&format!("ButtonCommand{slot}"));
    }
    l
}

/// The buttons the screens' handlers answer by name (a layout without `ACTION`s, such as an
/// older mod's, keeps working through them); every other button needs an `ACTION` to do
/// anything, and `ui-check` says so. A tidy test keeps this list and the handlers in step.
pub const BY_NAME: [&str; 43] = [
    "ButtonAdd",
    "ButtonAlertLog",
    "ButtonAlignLeft",
    "ButtonAlignTop",
    "ButtonBack",
    "ButtonCancel",
    "ButtonClose",
    "ButtonContinue",
    "ButtonCopy",
    "ButtonCredits",
    "ButtonDelete",
    "ButtonDiscard",
    "ButtonDown",
    "ButtonHintClose",
    "ButtonHost",
    "ButtonHostRelay",
    "ButtonJoin",
    "ButtonLeave",
    "ButtonLoad",
    "ButtonMenu",
    "ButtonMods",
    "ButtonOk",
    "ButtonOnline",
    "ButtonOptions",
    "ButtonQuit",
    "ButtonRedo",
    "ButtonRejoin",
    "ButtonReplayFaster",
    "ButtonReplayPlay",
    "ButtonReplaySlower",
    "ButtonReplayTakeOver",
    "ButtonReplayView",
    "ButtonReplays",
    "ButtonReset",
    "ButtonSameSize",
    "ButtonSave",
    "ButtonSend",
    "ButtonSkirmish",
    "ButtonStart",
    "ButtonToggle",
    "ButtonUndo",
    "ButtonUp",
    "ButtonWatch",
];

/// The part of a window name after `File.wnd:`.
pub use crate::ui::window::short_name as short;
