//! Declared actions: what a click on a window does when its layout says so with the `ACTION`
//! key (`ACTION = "open:Options";`), whatever the window is called. A modder's new, copied or
//! renamed button thus does something, and two buttons can do the same thing. The list here is
//! the one the layout check (with did-you-mean), the editor's panel and `ui/FORMAT.md` offer.
//!
//! Must not: reach beyond the shell except through its requests, or act on windows without an
//! action (the screens' own handlers answer those by name).

use crate::game::keys::KeyCommand;
use crate::game::settings::{Settings, UiScaling};
use crate::ui::WindowId;

use super::bars::{Bars, COMMAND_BUTTONS};
use super::question::Question;
use super::request::ShellRequest;
use super::screen::Screen;
use super::skirmish_config::{SkirmishConfig, SlotChoice};
use super::stage::Stage;
use super::{game_menu, in_game, load, online, options, skirmish};

/// Every action a layout may declare, with what it does.
pub const ACTIONS: [(&str, &str); 42] = [
    ("open:MainMenu", "opens the main menu"),
    ("open:Skirmish", "opens the skirmish setup"),
    ("open:Online", "opens the online screen"),
    ("open:Replays", "opens the replays"),
    ("open:Load", "opens the saved games"),
    ("open:Options", "opens the options"),
    ("open:Keys", "opens the keys (Options → Keys)"),
    ("open:Mods", "opens the mods"),
    ("back", "leaves the screen as Escape does"),
    ("quit", "asks whether to leave Ridgeline"),
    ("credits", "shows the credits"),
    ("skirmish:start", "starts a skirmish with the setup last chosen"),
    ("skirmish:quick", "a quick battle: the first map, you against one Easy computer"),
    ("online:host", "hosts a game (opens the online screen first when elsewhere)"),
    ("online:host_relay", "hosts through the relay set in Options"),
    ("online:join", "joins the game whose code is in the online screen's field"),
    ("online:rejoin", "joins the last game joined again"),
    ("online:watch", "watches the game whose join code is in the field, as an observer"),
    ("replay:latest", "watches the newest replay"),
    ("option:fullscreen", "switches full screen on or off (saved)"),
    ("option:modder_mode", "switches modder mode on or off (saved)"),
    ("battle:stop", "the selected units stop"),
    ("battle:guard", "the selected units guard where they stand"),
    ("battle:attack_move", "the next click attack-moves the selected units"),
    ("battle:idle_worker", "selects the next idle builder or gatherer"),
    ("battle:pause", "pauses or resumes"),
    ("battle:alert_log", "opens or closes the alert log"),
    ("battle:menu", "opens the battle's menu (resume, save, options, leave)"),
    ("battle:resume", "closes the battle's menu: the battle goes on"),
    ("battle:save", "saves the battle into the saves folder"),
    ("battle:leave", "asks whether to leave the battle"),
    ("save:load", "continues the saved game chosen on the Load screen"),
    ("command:0", "the control bar's first command"),
    ("command:1", "the control bar's second command"),
    ("command:2", "the control bar's third command"),
    ("command:3", "the control bar's fourth command"),
    ("command:4", "the control bar's fifth command"),
    ("command:5", "the control bar's sixth command"),
    ("command:6", "the control bar's seventh command"),
    ("command:7", "the control bar's eighth command"),
    ("command:8", "the control bar's ninth command"),
    ("command:9", "the control bar's tenth command (up to command:11)"),
];

/// The command slots `command:N` may name (the control bar's buttons).
const COMMAND_SLOTS: usize = COMMAND_BUTTONS;

/// The options `option:set:<name>=<value>` may set, with the values each takes.
pub const SETTABLE: [(&str, &str); 6] = [
    ("master_volume", "0 to 100"),
    ("music_volume", "0 to 100"),
    ("sfx_volume", "0 to 100"),
    ("voice_volume", "0 to 100"),
    ("scroll_speed", "1 to 20"),
    ("ui_scaling", "Aspect or Stretch"),
];

/// The actions that show, hide or toggle a window (a panel, a sub-menu) of the layout, by name
/// (`show:PanelLoad`, or `show:File.wnd:Name` for another open layout's).
pub const PANEL_VERBS: [(&str, &str); 3] = [
    ("show", "shows the window named after the colon (and so its children)"),
    ("hide", "hides the window named after the colon (and so its children)"),
    ("toggle", "shows the window named after the colon if hidden, else hides it"),
];

/// The verb and the window an action `show:`, `hide:` or `toggle:` names.
pub fn panel_action(name: &str) -> Option<(&str, &str)> {
    let (verb, target) = name.split_once(':')?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    let target_ok = match target.split_once(':') {
        Some((file, short)) => file.ends_with(".wnd") && plain(file) && plain(short),
        None => plain(target),
    };
    (PANEL_VERBS.iter().any(|(v, _)| *v == verb) && target_ok).then_some((verb, target))
}

/// True if `name` is an action a layout may declare.
pub fn is_action(name: &str) -> bool {
    panel_action(name).is_some()
        || ACTIONS.iter().any(|(n, _)| *n == name)
        || name.strip_prefix("command:").and_then(|n| n.parse::<usize>().ok()).is_some_and(|n| n < COMMAND_SLOTS)
        || name.strip_prefix("option:set:").is_some_and(|set| set_option(&mut Settings::default(), set).is_ok())
}

/// Sets one option from `name=value` (a name of [`SETTABLE`]); why not, if it cannot.
fn set_option(s: &mut Settings, set: &str) -> Result<(), String> {
    let (name, value) = set.split_once('=').ok_or_else(|| format!("{set}: expected name=value"))?;
    let range =
        SETTABLE.iter().find(|(n, _)| *n == name).map(|(_, r)| *r).ok_or_else(|| format!("{name}: not an option"))?;
    let number = |lo: u8, hi: u8| value.parse::<u8>().ok().filter(|v| (lo..=hi).contains(v));
    let refused = || format!("{name}={value}: {range}");
    match name {
        "ui_scaling" => {
            s.ui_scaling = match value {
                "Aspect" => UiScaling::Aspect,
                "Stretch" => UiScaling::Stretch,
                _ => return Err(refused()),
            }
        }
        "scroll_speed" => s.scroll_speed = number(1, 20).ok_or_else(refused)?,
        volume => {
            let v = number(0, 100).ok_or_else(refused)?;
            match volume {
                "master_volume" => s.master_volume = v,
                "music_volume" => s.music_volume = v,
                "sfx_volume" => s.sfx_volume = v,
                _ => s.voice_volume = v,
            }
        }
    }
    Ok(())
}

/// Every action name, for did-you-mean and the editor's list.
pub fn names() -> impl Iterator<Item = &'static str> {
    ACTIONS.iter().map(|(n, _)| *n)
}

/// Runs the action `name` (a click on the window `from` that declares it, if any: a bare
/// window name in `show:`/`hide:`/`toggle:` is looked for in its layout); false if there is
/// no such action or no such window.
pub(super) fn run(stage: &mut Stage, name: &str, from: Option<WindowId>) -> bool {
    if let Some((verb, target)) = panel_action(name) {
        return show_panel(stage, verb, target, from);
    }
    if let Some(screen) = name.strip_prefix("open:") {
        // A mod's screen: `back` returns to the one on show now.
        if let Some(theirs) = stage.screens.mod_screen(screen) {
            if let Some(from) = stage.screen() {
                stage.screens.remember(from);
            }
            stage.open(theirs);
            return true;
        }
        let Some(screen) = Screen::ALL.into_iter().find(|s| format!("{s:?}") == screen) else { return false };
        if matches!(screen, Screen::Lobby | Screen::Score | Screen::InGame | Screen::GameMenu) {
            return false;
        }
        if screen == Screen::Keys {
            options::keep_draft(stage);
        }
        stage.open(screen);
        return true;
    }
    if let Some(set) = name.strip_prefix("option:set:") {
        if let Err(why) = set_option(&mut stage.prefs.settings, set) {
            log::warn!("{why}");
            return false;
        }
        stage.save_settings();
        return true;
    }
    if let Some(slot) = name.strip_prefix("command:").and_then(|n| n.parse::<usize>().ok()) {
        if slot >= COMMAND_SLOTS {
            return false;
        }
        stage.request(ShellRequest::CommandButton(slot));
        return true;
    }
    match name {
        "back" => back(stage),
        "quit" => {
            let text = stage.say("Message:Quit", &[]);
            stage.ask(Question::Quit, &text);
        }
        "credits" => stage.tell("Title:Credits", "Message:Credits", &[]),
        "skirmish:start" => skirmish::start(stage),
        "skirmish:quick" => {
            *stage.skirmish = SkirmishConfig::first(stage.content.maps.iter().map(|m| m.players));
            stage.skirmish.slots[1].who = SlotChoice::Computer(0);
            skirmish::start(stage);
        }
        "online:host" | "online:host_relay" | "online:join" if stage.screen() != Some(Screen::Online) => {
            stage.open(Screen::Online);
        }
        "online:host" => online::press_host(stage),
        "online:host_relay" => online::press_host_relay(stage),
        "online:join" => online::press_join(stage, false),
        "online:rejoin" => online::press_rejoin(stage),
        "online:watch" => online::press_join(stage, true),
        "replay:latest" => watch_latest_replay(stage),
        "option:fullscreen" | "option:modder_mode" => {
            if name == "option:fullscreen" {
                stage.prefs.settings.fullscreen = !stage.prefs.settings.fullscreen;
            } else {
                stage.prefs.settings.modder_mode = !stage.prefs.settings.modder_mode;
            }
            stage.save_settings();
        }
        "battle:stop" => stage.request(ShellRequest::Key(KeyCommand::Stop)),
        "battle:guard" => stage.request(ShellRequest::Key(KeyCommand::Guard)),
        "battle:attack_move" => stage.request(ShellRequest::Key(KeyCommand::AttackMove)),
        "battle:idle_worker" => stage.request(ShellRequest::Key(KeyCommand::IdleWorker)),
        "battle:pause" => stage.request(ShellRequest::Key(KeyCommand::Pause)),
        "battle:alert_log" => Bars::new(stage.ui).toggle_alert_log(),
        "battle:menu" => game_menu::open(stage),
        "battle:resume" => game_menu::resume(stage),
        "battle:save" => game_menu::save(stage),
        "battle:leave" => in_game::ask_leave_battle(stage),
        "save:load" => load::continue_chosen(stage),
        _ => return false,
    }
    true
}

/// Shows, hides or toggles the window `target` (see [`panel_action`]); false when there is
/// no such window open.
fn show_panel(stage: &mut Stage, verb: &str, target: &str, from: Option<WindowId>) -> bool {
    let found = match from {
        Some(from) => stage.ui.find_near(target, from),
        None => stage.ui.find(target),
    };
    let Some(id) = found else { return false };
    let visible = match verb {
        "show" => true,
        "hide" => false,
        _ => !stage.ui.window(id).is_some_and(|w| w.visible()),
    };
    stage.ui.show(id, visible);
    true
}

/// An event no screen's callback takes (a mod's screen has none): Escape leaves a mod's
/// screen as `back` does.
pub(super) fn unclaimed(stage: &mut Stage, e: &crate::ui::UiEvent) {
    if e.kind == crate::ui::EventKind::KeyUnhandled(crate::ui::Key::Escape) {
        leave_mod_screen(stage);
    }
}

/// Leaves a mod's screen for the screen it was opened from (the main menu when that is not
/// known); false on any other screen.
pub(super) fn leave_mod_screen(stage: &mut Stage) -> bool {
    if !matches!(stage.screen(), Some(Screen::Mod(_))) {
        return false;
    }
    let to = stage.screens.trail.pop().unwrap_or(Screen::MainMenu);
    stage.open(to);
    true
}

/// The menu screens Escape leaves as their Back button does (Options and Keys answer Escape
/// themselves; the lobby's Leave and the score's Continue are not pressed by a stray key).
const ESCAPE_IS_BACK: [Screen; 5] = [Screen::Skirmish, Screen::Load, Screen::Online, Screen::Replays, Screen::Mods];

/// After the screen's callback heard `e`: an Escape no window took (not one a message box
/// heard), on one of [`ESCAPE_IS_BACK`], presses the screen's Back button (named `ButtonBack`,
/// or declaring the `back` action; the first one shown and enabled), so the screen is left as
/// its Back leaves it. False where nothing was pressed.
pub(super) fn escape_as_back(stage: &mut Stage, e: &crate::ui::UiEvent, over_message: bool) -> bool {
    if over_message || e.kind != crate::ui::EventKind::KeyUnhandled(crate::ui::Key::Escape) {
        return false;
    }
    let Some(screen) = stage.screen().filter(|s| ESCAPE_IS_BACK.contains(s)) else { return false };
    let Some(file) = stage.screens.file_of(screen).map(str::to_string) else { return false };
    let is_back = |w: &crate::ui::GameWindow| {
        crate::ui::window::short_name(&w.name) == "ButtonBack" || w.action.as_deref() == Some("back")
    };
    let backs: Vec<_> =
        stage.ui.windows_of(&file).into_iter().filter(|id| stage.ui.window(*id).is_some_and(is_back)).collect();
    backs.into_iter().any(|id| stage.ui.press(id))
}

/// Leaves the screen as Escape does: a mod's screen goes back to where it was opened from,
/// the options where they came from, the other screens to the main menu.
fn back(stage: &mut Stage) {
    if leave_mod_screen(stage) {
        return;
    }
    if stage.screen() == Some(Screen::GameMenu) {
        game_menu::resume(stage);
    } else if !options::escape(stage) && stage.screen() != Some(Screen::MainMenu) {
        stage.open(Screen::MainMenu);
    }
}

/// Watches the newest replay in the replays folder, or says there is none.
fn watch_latest_replay(stage: &mut Stage) {
    let newest = std::fs::read_dir(stage.prefs.replay_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    match newest {
        Some((_, path)) => stage.request(ShellRequest::WatchReplay(path)),
        None => {
            let (title, text) = (stage.say("Title:Replays", &[]), stage.say("Message:NoReplayYet", &[]));
            stage.message(&title, &text, false);
        }
    }
}
