//! The shell's callback lexicon: every name its layouts use, bound to the Rust function that
//! runs it. Layout files and this table must agree; `ridgeline ui-check` and the shell's start
//! both verify it.

use crate::ui::UiEvent;
use crate::ui::lexicon::{CallbackKind, Lexicon};

use super::{
    Shell, editor_events, in_game, lobby, main_menu, message_box, mods, online, options, replays, score, skirmish,
};

/// A screen's event handler.
pub type SystemFn = fn(&mut Shell, &UiEvent);
/// A layout's initialiser.
pub type InitFn = fn(&mut Shell);

const SYSTEM: [(&str, SystemFn); 11] = [
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
    ("EditorSystem", editor_events::system),
];

const INIT: [(&str, InitFn); 8] = [
    ("MainMenuInit", main_menu::init),
    ("SkirmishSetupInit", skirmish::init),
    ("OnlineInit", online::init),
    ("LobbyInit", lobby::init),
    ("OptionsInit", options::init),
    ("ReplaysInit", replays::init),
    ("ScoreScreenInit", score::init),
    ("ModsInit", mods::init),
];

/// Per-frame layout updates (none of the shell's screens needs one yet).
const UPDATE: [(&str, InitFn); 0] = [];

/// Layout shutdowns, run when a screen closes (none needed yet).
const SHUTDOWN: [(&str, InitFn); 0] = [];

/// Custom draw callbacks: the shell's own (see `Shell::custom_draw`) and the battle's radar and
/// selection panel, which the client draws over the windows' backgrounds.
const DRAW: [&str; 3] = ["MapPreviewDraw", "RadarDraw", "SelectionPanelDraw"];

/// The system callback with this name.
pub fn system(name: &str) -> Option<SystemFn> {
    SYSTEM.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
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
    for (n, _) in INIT.iter().chain(UPDATE.iter()).chain(SHUTDOWN.iter()) {
        l.register(CallbackKind::Layout, n);
    }
    for n in DRAW {
        l.register(CallbackKind::Draw, n);
    }
    l
}

/// The part of a window name after `File.wnd:`.
pub use crate::ui::window::short_name as short;
