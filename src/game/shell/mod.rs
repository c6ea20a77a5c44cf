//! The shell: the menus before and after a game. Each screen is a WND layout from `ui/` plus a system callback (and a
//! layout init) registered in `callbacks.rs`; the screens act on a [`Stage`] (`stage.rs`), a borrowed view of the
//! shell's owned parts:
//!
//! - `screens.rs` ([`Screens`]): the layouts, the screen on show, the message box and its question;
//! - `prefs.rs` ([`Prefs`]): the player's settings and their file;
//! - `content.rs` ([`Content`]): the roots, maps, factions, images and fonts;
//! - `skirmish_config.rs`, `lobby_state.rs`, `mod_list.rs`: what the skirmish, lobby and Mods screens set up;
//! - `outbox.rs` ([`Outbox`]): the requests and sounds for the client;
//! - `editor/` ([`LayoutEditor`]): the layout editor, which acts on the stage too.
//!
//! The screens are one file each (`main_menu.rs`, `skirmish.rs`, `online.rs`, `lobby.rs`, `options.rs`, `keys.rs`,
//! `replays.rs`, `score.rs`, `mods.rs`, `in_game.rs`, `message_box.rs`, with `actions.rs` for declared actions and
//! `bars.rs` for the battle's windows the client fills). This file composes the parts and is the one file that
//! implements [`Shell`]: it routes input and events, and hands the editor the answers to its questions. No file below
//! it imports it.
//!
//! Must not: draw (the renderer draws the UI's draw list) or touch a running game.

mod actions;
mod bars;
pub mod callbacks;
mod content;
mod editor;
mod error;
mod game_menu;
mod icons;
mod in_game;
pub mod keys;
pub mod layout_check;
mod load;
mod loading;
mod lobby;
mod lobby_state;
mod main_menu;
mod message_box;
mod mod_list;
mod mods;
mod online;
mod options;
mod outbox;
mod patches;
mod prefs;
mod question;
mod replays;
mod request;
pub mod required;
mod score;
mod screen;
mod screens;
mod skirmish;
mod skirmish_config;
mod sounds;
mod stage;

use std::path::PathBuf;
use std::sync::Arc;

use crate::content::ContentRoots;
use crate::ui::check::Bindings;
use crate::ui::draw::DrawCmd;
use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::WindowType;
use crate::ui::{EventKind, GameWindow, Input, UiEvent, WindowId, WindowManager};

pub use actions::{ACTIONS, PANEL_VERBS, SETTABLE, is_action, panel_action};
pub use bars::{Bars, COMMAND_BUTTONS};
pub use callbacks::System;
pub use content::Content;
pub use editor::{Editor, LayoutEditor};
pub use error::ShellError;
pub use loading::MapEntry;
pub use lobby_state::LobbyState;
pub use mod_list::{ModRow, Refused, refusal_message};
pub use options::RESOLUTIONS;
pub use outbox::Outbox;
pub use prefs::Prefs;
pub use question::Question;
pub use request::{ReplayControl, ShellRequest};
pub use screen::Screen;
pub use screens::Screens;
pub use skirmish_config::{SLOTS, SkirmishConfig, Slot, SlotChoice};
pub use stage::Stage;

/// The lexicon, images and fonts layouts are checked against.
pub fn load_bindings(roots: &ContentRoots) -> Result<Bindings, ShellError> {
    loading::bindings(roots, callbacks::lexicon())
}

/// The mods in use: the `--mod` folders, then those `settings` turn on, each checked alone in
/// front of the game's own content (see `mod_list.rs`); the roots to use and the mods refused.
pub fn mods_in_use(
    base: &ContentRoots,
    settings: &super::settings::Settings,
    at: &std::path::Path,
) -> (ContentRoots, Vec<Refused>) {
    mod_list::mods_in_use(base, settings, at, &callbacks::lexicon())
}

/// Checks each mod `roots` puts in front of `game` with only it in front of the game, and
/// leaves out the broken ones alone (see `mod_list.rs`). Returns the roots to use and the mods
/// refused.
pub fn leave_out_broken(roots: &ContentRoots, game: &ContentRoots) -> (ContentRoots, Vec<Refused>) {
    mod_list::leave_out_broken(roots, game, &callbacks::lexicon())
}

/// The shell: its owned parts.
pub struct Shell {
    /// The window manager holding the open layouts.
    pub ui: WindowManager,
    /// The screen on show, the message box, the layouts.
    pub screens: Screens,
    /// The player's settings.
    pub prefs: Prefs,
    /// Maps, factions, images, fonts.
    pub content: Content,
    /// The skirmish being set up.
    pub skirmish: SkirmishConfig,
    /// The online lobby as shown.
    pub lobby: LobbyState,
    /// The Mods screen's list while it is open.
    mods: Vec<ModRow>,
    /// The layout editor.
    editor: LayoutEditor,
    /// Requests and sounds for the client.
    out: Outbox,
}

impl std::fmt::Debug for Shell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shell").field("screen", &self.screens.screen()).finish_non_exhaustive()
    }
}

impl Shell {
    /// Loads every layout (checked against the lexicon, images and fonts), the settings, the
    /// maps and factions, and opens the main menu.
    pub fn new(roots: &ContentRoots, screen: (f32, f32), settings_path: PathBuf) -> Result<Shell, ShellError> {
        let bindings = load_bindings(roots)?;
        let (layouts, problems) = loading::load_layouts(roots, &bindings);
        if !problems.is_empty() {
            return Err(ShellError::Layouts(problems.join("\n")));
        }
        Shell::with_layouts(roots, screen, settings_path, bindings, layouts)
    }

    /// For tools (screenshots): like [`Shell::new`], but a broken layout is left out instead of
    /// refusing them all; its problems come back beside the shell.
    pub fn new_lenient(
        roots: &ContentRoots,
        screen: (f32, f32),
        settings_path: PathBuf,
    ) -> Result<(Shell, Vec<String>), ShellError> {
        let bindings = load_bindings(roots)?;
        let (layouts, problems) = loading::load_layouts(roots, &bindings);
        Ok((Shell::with_layouts(roots, screen, settings_path, bindings, layouts)?, problems))
    }

    fn with_layouts(
        roots: &ContentRoots,
        screen: (f32, f32),
        settings_path: PathBuf,
        bindings: Bindings,
        layouts: std::collections::BTreeMap<String, WndFile>,
    ) -> Result<Shell, ShellError> {
        let prefs = Prefs::load(settings_path, roots)?;
        let (content, refused_maps) = Content::load(roots, bindings.images, bindings.fonts.families, bindings.lexicon)?;
        let mut shell = Shell {
            ui: WindowManager::new(screen, prefs.scaling_mode()),
            screens: Screens::new(layouts),
            skirmish: skirmish::opening_setup(&content, &prefs.settings),
            prefs,
            content,
            lobby: LobbyState::default(),
            mods: Vec::new(),
            editor: LayoutEditor::default(),
            out: Outbox::default(),
        };
        shell.ui.set_text_measure(shell.content.fonts.clone());
        let mut stage = shell.stage();
        let labels = stage.labels_in_language(roots, bindings.labels);
        stage.ui.set_labels(Arc::new(labels));
        stage.open(Screen::MainMenu);
        message_box::show_maps_left_out(&mut stage, &refused_maps);
        Ok(shell)
    }

    /// The shell's parts as the screens act on them.
    pub fn stage(&mut self) -> Stage<'_> {
        self.parts().0
    }

    /// The stage and, beside it, the editor that acts on it.
    fn parts(&mut self) -> (Stage<'_>, &mut LayoutEditor) {
        let stage = Stage {
            ui: &mut self.ui,
            screens: &mut self.screens,
            prefs: &mut self.prefs,
            content: &mut self.content,
            skirmish: &mut self.skirmish,
            lobby: &mut self.lobby,
            mods: &mut self.mods,
            out: &mut self.out,
            hooks: callbacks::hooks(),
        };
        (stage, &mut self.editor)
    }

    /// The battle's windows, for the client to fill.
    pub fn bars(&mut self) -> Bars<'_> {
        Bars::new(&mut self.ui)
    }

    /// Shows the first-battle hint when the player is about to play and has not dismissed it.
    pub fn offer_hint(&mut self, playing: bool) {
        let seen = self.prefs.settings.hint_seen;
        self.bars().offer_hint(playing, seen);
    }

    /// True when the layout `file` (`Options.wnd`…) loaded.
    pub fn has_layout(&self, file: &str) -> bool {
        self.screens.layout(file).is_some()
    }

    /// The screen on show.
    pub fn screen(&self) -> Option<Screen> {
        self.screens.screen()
    }

    /// Uses `file` for the screen layout `name` (a layout given by path, as `screenshot --ui`
    /// does); it takes effect when that screen next opens.
    pub fn use_layout(&mut self, name: &str, file: WndFile) {
        self.screens.use_layout(name, file);
    }

    /// Closes the current screen and any message (the battlefield takes the screen).
    pub fn close_screens(&mut self) {
        self.stage().close_screens();
    }

    /// Closes the current screen and opens another.
    pub fn open(&mut self, screen: Screen) {
        self.stage().open(screen);
    }

    /// True while a message box is open.
    pub fn message_open(&self) -> bool {
        self.screens.message_open()
    }

    /// The question the open message box asks, if it asks one.
    pub fn question(&self) -> Option<Question> {
        self.screens.question()
    }

    /// Shows a modal message box over the current screen; `cancel` adds a Cancel button.
    pub fn message(&mut self, title: &str, text: &str, cancel: bool) {
        self.stage().message(title, text, cancel);
    }

    /// Closes the message box, if one is open.
    pub fn close_message(&mut self) {
        self.stage().close_message();
    }

    /// The text of a message the shell says by label, in the player's language (see [`Stage::say`]).
    pub fn say(&mut self, label: &str, args: &[(&str, &str)]) -> String {
        self.stage().say(label, args)
    }

    /// Shows a message worded from the string table (see [`Stage::tell`]).
    pub fn tell(&mut self, title: &str, label: &str, args: &[(&str, &str)]) {
        self.stage().tell(title, label, args);
    }

    /// A window id by name.
    pub fn find(&self, name: &str) -> Option<WindowId> {
        self.ui.find(name)
    }

    /// The focused text entry's selection (all of its text when nothing is selected): what Ctrl+C copies.
    pub fn focused_selection(&self) -> Option<String> {
        self.ui.focus().and_then(|id| self.ui.entry_selection(id))
    }

    /// Runs the current screen's per-frame layout update, if it has one, and hands over what
    /// the screens asked of the client since the last call.
    pub fn update(&mut self) -> Vec<ShellRequest> {
        let update = self.screens.shown_layout().and_then(|f| f.layout_update.clone());
        if let Some(f) = update.as_deref().and_then(callbacks::layout_update) {
            f(&mut self.stage());
        }
        self.take_requests()
    }

    /// What the screens asked of the client since the last call, in order.
    pub fn take_requests(&mut self) -> Vec<ShellRequest> {
        self.out.take_requests()
    }

    /// The interface sounds queued since the last call (names from the sound table).
    pub fn take_sounds(&mut self) -> Vec<String> {
        self.out.take_sounds()
    }

    /// The volumes to hear now (the options' sliders while that screen is open).
    pub fn volumes(&self) -> crate::audio::Volumes {
        options::live_volumes(&self.ui, self.screen(), &self.prefs)
    }

    /// Feeds input to the UI and runs the callbacks of the events it caused; true if the UI consumed it.
    pub fn handle(&mut self, input: Input) -> bool {
        // While editing, the editor takes the input (a message it shows still answers).
        if self.editor.editing() && !self.message_open() && !self.editor.panel_has(&self.ui, input) {
            // The pointer is still followed (the app reads the cursor from the UI).
            if let Input::MouseMove { .. } = input {
                self.ui.handle(input);
            }
            let (mut stage, editor) = self.parts();
            editor.input(&mut stage, &input);
            return true;
        }
        let consumed = self.ui.handle(input);
        self.dispatch();
        consumed
    }

    /// Runs the system callbacks of queued UI events.
    pub fn dispatch(&mut self) {
        loop {
            let events = self.ui.drain_events();
            if events.is_empty() {
                return;
            }
            for e in events {
                self.run_event(&e);
            }
        }
    }

    /// One UI event: its sound, then the window's declared action or its system callback (the
    /// editor's panel goes to the editor); an answer to one of the editor's questions goes to
    /// the editor.
    fn run_event(&mut self, e: &UiEvent) {
        if let Some(sound) = sounds::sound_for(&self.ui, e) {
            self.out.sound(sound);
        }
        let (mut stage, editor) = self.parts();
        // A window that declares an action does it, whatever it is called.
        let action = stage.ui.window(e.window).and_then(|w| w.action.clone());
        if let (EventKind::Selected, Some(action)) = (&e.kind, action) {
            if !actions::run(&mut stage, &action, Some(e.window)) {
                log::warn!("{}: unknown action \"{action}\"", e.name);
            }
            return;
        }
        match e.callback.as_deref().and_then(callbacks::system) {
            Some(System::Screen(f)) => {
                let over_message = stage.screens.message_open();
                f(&mut stage, e);
                actions::escape_as_back(&mut stage, e, over_message);
            }
            Some(System::Editor) => editor.event(&mut stage, e),
            None => actions::unclaimed(&mut stage, e),
        }
        if let Some((question, ok)) = stage.screens.take_answer() {
            editor.answer(&mut stage, question, ok);
        }
    }

    /// Runs the action `name` (a click on a window that declares it); false if there is no such action.
    pub fn run_action(&mut self, name: &str) -> bool {
        actions::run(&mut self.stage(), name, None)
    }

    /// Escape no window took: Options or a mod's screen goes back where it came from; true if so.
    pub fn escape(&mut self) -> bool {
        options::escape(&mut self.stage()) || actions::leave_mod_screen(&mut self.stage())
    }

    /// Changes the screen size (and scaling mode from the settings).
    pub fn resize(&mut self, screen: (f32, f32)) {
        self.stage().resize(screen);
    }

    /// Draws windows whose draw callback is the shell's own (the map preview).
    pub fn custom_draw(&self, w: &GameWindow, out: &mut Vec<DrawCmd>) {
        if w.draw_callback.as_deref() == Some("SavePictureDraw") {
            load::draw_save_picture((&self.ui, &self.screens.saves), &self.content.dynamic_images, w, out);
        }
        if w.draw_callback.as_deref() == Some("MapPreviewDraw") {
            skirmish::draw_preview(&self.content, &self.skirmish, w.rect, out);
        }
    }

    /// Opens the score screen with an outcome line and rows of (player, units lost, units
    /// destroyed, structures, score); its Continue goes to `then`.
    pub fn show_score(&mut self, outcome: &str, rows: Vec<Vec<String>>, then: Screen) {
        score::show(&mut self.stage(), outcome, rows, then);
    }

    /// Tells the player a peer left the game.
    pub fn show_disconnected(&mut self, player: &str) {
        message_box::show_disconnected(&mut self.stage(), player);
    }

    /// Tells the player the game went out of sync, on which frame, and where the report is.
    pub fn show_out_of_sync(&mut self, frame: u32, report: Option<&str>) {
        message_box::show_out_of_sync(&mut self.stage(), frame, report);
    }

    /// Asks the host whether to drop `names`, whom the battle has waited for `seconds`.
    pub fn ask_drop(&mut self, names: &str, seconds: u32) {
        message_box::ask_drop(&mut self.stage(), names, seconds);
    }

    /// Closes the drop question if it is open (the battle no longer waits).
    pub fn close_drop_question(&mut self) {
        message_box::close_drop_question(&mut self.stage());
    }

    /// Opens the battle's menu (Escape in a battle, as the top bar's Menu does): Resume, Save,
    /// Options, Leave.
    pub fn open_game_menu(&mut self) {
        game_menu::open(&mut self.stage());
    }

    /// Asks whether to leave the battle (the battle menu's Leave); online, it says that
    /// leaving surrenders.
    pub fn ask_leave_battle(&mut self) {
        in_game::ask_leave_battle(&mut self.stage());
    }

    /// Shows the lobby's table and chat again (the client calls this as they change).
    pub fn refresh_lobby(&mut self) {
        lobby::refresh(&mut self.stage());
    }

    /// Remembers `code` as the last game joined (Online → Rejoin), in the saved settings.
    pub fn remember_game(&mut self, code: &str) {
        online::remember_game(&mut self.stage(), code);
    }

    /// Saves the settings as they are now; false, with the window saying why, when they could not be.
    pub fn save_settings(&mut self) -> bool {
        self.stage().save_settings()
    }

    /// The client says, each frame, whether a battle runs under the screens (Options then
    /// returns to it) and whether leaving it surrenders (an online battle).
    pub fn follow_battle(&mut self, running: bool, leaving_surrenders: bool) {
        self.screens.in_battle = running;
        self.screens.leave_surrenders = leaving_surrenders;
    }

    /// Whether the running battle can be saved (the battle menu's Save is greyed out when not).
    pub fn battle_saves(&mut self, saves: bool) {
        self.screens.battle_saves = saves;
    }

    /// A line for the online lobby's chat (what the lobby or a player said).
    pub fn lobby_says(&mut self, line: String) {
        self.lobby.chat.push(line);
    }

    /// The join code the lobby shows.
    pub fn set_lobby_code(&mut self, code: String) {
        self.lobby.code = Some(code);
    }

    /// The content roots changed (the Mods screen's choice): all content comes from these now.
    pub fn use_roots(&mut self, roots: ContentRoots) {
        self.content.roots = roots;
    }

    /// Tells the player which mods were left out at start, and why ([`refusal_message`]).
    pub fn tell_refusals(&mut self, refused: &[Refused]) {
        mods::tell_refusals(&mut self.stage(), refused);
    }

    /// The mods as the Mods screen lists them (on ones first, in their order).
    pub fn mod_rows(&self) -> &[ModRow] {
        &self.mods
    }

    /// Reads every layout again (a modder saved one while the game runs). If all are sound and
    /// any changed, the new ones replace the old and the current screen opens again from its
    /// layout; returns whether anything changed. If any is broken, nothing is replaced and the
    /// problems come back, each naming its file, line and column. A layout with unsaved edits
    /// in the editor keeps them, and the modder is asked when its file changed under them
    /// ([`LayoutEditor::take_up`]).
    pub fn reload_layouts(&mut self, roots: &ContentRoots) -> Result<bool, String> {
        let bindings = load_bindings(roots).map_err(|e| e.to_string())?;
        let mut layouts = loading::load_all_layouts(roots, &bindings).map_err(|e| match e {
            ShellError::Layouts(list) => list,
            other => other.to_string(),
        })?;
        let conflicts = self.editor.take_up(&mut layouts);
        let (mut stage, editor) = self.parts();
        // The string table may have changed with them (a mod's wording).
        let labels = stage.labels_in_language(roots, bindings.labels);
        let labels_changed = stage.ui.set_labels_if_changed(labels);
        let changed = stage.screens.replace_layouts(layouts) || labels_changed;
        if changed {
            if let Some(screen) = stage.screen() {
                stage.open(screen);
            }
            editor.show_panel(&mut stage);
        }
        if !conflicts.is_empty() {
            let text = stage.say("Message:LayoutConflict", &[("files", &conflicts.join(", "))]);
            stage.ask(Question::LayoutConflict, &text);
        }
        Ok(changed)
    }

    /// Reads the interface's images and fonts again; true when they changed (the client then
    /// rebuilds its atlas and draws with the new fonts).
    pub fn reload_images(&mut self, roots: &ContentRoots) -> Result<bool, String> {
        let changed = self.content.reload_images(roots)?;
        self.ui.set_text_measure(self.content.fonts.clone());
        Ok(changed)
    }

    /// Looks for maps again (a map was added, changed or removed while the game runs): the
    /// skirmish list follows at once (the screen reopens if it is on show). True when the list
    /// or a preview changed; the client must then upload the new previews.
    pub fn refresh_maps(&mut self, roots: &ContentRoots) -> bool {
        if !self.content.refresh_maps(roots) {
            return false;
        }
        if self.skirmish.map >= self.content.maps.len() {
            self.skirmish.map = SkirmishConfig::first(self.content.maps.iter().map(|m| m.players)).map;
        }
        if self.screen() == Some(Screen::Skirmish) && !self.editor.editing() {
            self.open(Screen::Skirmish);
        }
        true
    }

    /// Quitting with unsaved layout edits asks Save / Don't save / Cancel first: true when it asked.
    pub fn ask_before_quit(&mut self) -> bool {
        let (mut stage, editor) = self.parts();
        editor.ask_before_quit(&mut stage)
    }

    /// True while the layout editor is on.
    pub fn editing(&self) -> bool {
        self.editor.editing()
    }

    /// The editing session, if any.
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.session()
    }

    /// F10: starts editing the screen on show (in modder mode), or stops.
    pub fn toggle_editor(&mut self) {
        let (mut stage, editor) = self.parts();
        editor.toggle(&mut stage);
    }

    /// Turns the editor on and selects the window `name` (see [`LayoutEditor::edit_with`]).
    pub fn edit_with(&mut self, name: Option<&str>) -> bool {
        let (mut stage, editor) = self.parts();
        editor.edit_with(&mut stage, name)
    }

    /// Adds a new window of `kind` inside the selected one while editing.
    pub fn add_window(&mut self, kind: WindowType) {
        let (mut stage, editor) = self.parts();
        editor.add_window(&mut stage, kind);
    }

    /// The client tells whether Shift is held.
    pub fn set_shift(&mut self, held: bool) {
        self.editor.set_shift(held);
    }

    /// The client tells whether Alt is held.
    pub fn set_alt(&mut self, held: bool) {
        self.editor.set_alt(held);
    }

    /// The editor's marks over the screen.
    pub fn editor_overlay(&self) -> Vec<DrawCmd> {
        self.editor.overlay(&self.ui)
    }

    /// True while one of the editor panel's text fields has the keyboard.
    pub fn editor_field_focused(&self) -> bool {
        self.editor.field_focused(&self.ui)
    }

    /// True while the editor takes typed text.
    pub fn editor_takes_text(&self) -> bool {
        self.editor.takes_text(&self.ui)
    }
}
