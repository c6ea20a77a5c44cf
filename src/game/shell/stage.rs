//! What the screens (and the layout editor) act on: a borrowed view over the shell's owned
//! parts — the window manager, the screens' state, the settings, the content, the skirmish and
//! lobby being set up, the Mods screen's list and the out-queue — with the few acts they share:
//! opening a screen (and running its layout hooks), message boxes and questions, saving the
//! settings, queueing a request.
//!
//! The screens' hooks are handed in (`Hooks`, from `callbacks.rs`), so the stage knows no
//! screen and every screen and the editor can stand on it.
//!
//! Must not: own state (the parts do), or know a screen, the editor or the client.

use crate::game::settings::Settings;
use crate::ui::labels::Labels;
use crate::ui::{UiEvent, WindowId, WindowManager};

use super::content::Content;
use super::lobby_state::LobbyState;
use super::mod_list::ModRow;
use super::outbox::Outbox;
use super::prefs::Prefs;
use super::question::Question;
use super::request::ShellRequest;
use super::screen::Screen;
use super::screens::Screens;
use super::skirmish_config::SkirmishConfig;

/// A screen's event handler.
pub type SystemFn = fn(&mut Stage, &UiEvent);
/// A layout's initialiser (or update, or shutdown).
pub type InitFn = fn(&mut Stage);

/// The layout hooks by name (`callbacks.rs`'s tables), handed to the stage.
#[derive(Clone, Copy, Debug)]
pub struct Hooks {
    /// The layout initialiser with this name.
    pub init: fn(&str) -> Option<InitFn>,
    /// The layout shutdown with this name.
    pub shutdown: fn(&str) -> Option<InitFn>,
}

/// The shell's parts, borrowed for one act.
pub struct Stage<'a> {
    /// The window manager holding the open layouts.
    pub ui: &'a mut WindowManager,
    /// The screen on show, the message box, the layouts.
    pub screens: &'a mut Screens,
    /// The player's settings.
    pub prefs: &'a mut Prefs,
    /// Maps, factions, images, fonts.
    pub content: &'a mut Content,
    /// The skirmish being set up.
    pub skirmish: &'a mut SkirmishConfig,
    /// The online lobby as shown.
    pub lobby: &'a mut LobbyState,
    /// The Mods screen's list while it is open.
    pub mods: &'a mut Vec<ModRow>,
    /// Requests and sounds for the client.
    pub out: &'a mut Outbox,
    /// The screens' layout hooks.
    pub hooks: Hooks,
}

impl Stage<'_> {
    /// The screen on show.
    pub fn screen(&self) -> Option<Screen> {
        self.screens.screen()
    }

    /// Closes the current screen and any message (the battlefield takes the screen).
    pub fn close_screens(&mut self) {
        if let Some((old_screen, old)) = self.screens.take_current() {
            let file = self.screens.file_of(old_screen).unwrap_or_default();
            let shutdown = self.screens.layout(file).and_then(|f| f.layout_shutdown.clone());
            if let Some(f) = shutdown.as_deref().and_then(self.hooks.shutdown) {
                f(self);
            }
            self.ui.destroy_layout(old);
        }
        self.close_message();
    }

    /// Closes the current screen and opens another, running its layout's initialiser.
    pub fn open(&mut self, screen: Screen) {
        // The main menu is where every way back ends: a mod's screens' trail starts again.
        if screen == Screen::MainMenu {
            self.screens.trail.clear();
        }
        self.close_screens();
        let Some(file) = self.screens.open_layout(self.ui, screen) else { return };
        if let Some(init) = file.layout_init.as_deref().and_then(self.hooks.init) {
            init(self);
        }
    }

    /// Shows a modal message box over the current screen; `cancel` adds a Cancel button.
    pub fn message(&mut self, title: &str, text: &str, cancel: bool) {
        self.screens.show_message(self.ui, title, text, cancel, None);
    }

    /// Asks `question` with `text` (worded by the caller), titled from the string table, with
    /// OK and Cancel; the answer goes where the question says.
    pub fn ask(&mut self, question: Question, text: &str) {
        let title = self.say(question.title_label(), &[]);
        self.screens.show_message(self.ui, &title, text, true, Some(question));
    }

    /// The text of a message by label (`Message:NoReplay`), in the player's language, each
    /// `{name}` in it filled in from `args` (a label with no entry shows as itself).
    pub fn say(&self, label: &str, args: &[(&str, &str)]) -> String {
        self.ui.labels().map_or_else(|| label.to_string(), |l| l.say(label, args))
    }

    /// The player's language's words for `label`, else `fallback` (the data's own words; see
    /// [`Labels::word_or`]).
    pub fn word_or(&self, label: &str, fallback: &str) -> String {
        self.ui.labels().map_or_else(|| fallback.to_string(), |l| l.word_or(label, fallback))
    }

    /// Shows a message worded from the string table: the title `title` and the text `label`
    /// with `args` filled in (see [`Stage::say`]).
    pub fn tell(&mut self, title: &str, label: &str, args: &[(&str, &str)]) {
        let (title, text) = (self.say(title, &[]), self.say(label, args));
        self.message(&title, &text, false);
    }

    /// Closes the message box, if one is open.
    pub fn close_message(&mut self) {
        self.screens.close_message(self.ui);
    }

    /// Changes the screen size (and scaling mode from the settings).
    pub fn resize(&mut self, screen: (f32, f32)) {
        self.ui.resize(screen, self.prefs.scaling_mode());
    }

    /// Sets a window's text by name.
    pub fn set_text(&mut self, name: &str, text: &str) {
        if let Some(w) = self.ui.find(name).and_then(|id| self.ui.window_mut(id)) {
            w.text = text.to_string();
        }
    }

    /// A window id by name.
    pub fn find(&self, name: &str) -> Option<WindowId> {
        self.ui.find(name)
    }

    /// Queues a request for the client.
    pub fn request(&mut self, r: ShellRequest) {
        self.out.request(r);
    }

    /// Saves `wanted` as the settings; on success the settings become what the file now holds
    /// (this copy's changes over another copy's) and that is returned. On failure the window
    /// says what was not saved and why, under `title`, and the settings stay.
    pub fn save_settings_as(&mut self, title: &str, wanted: Settings) -> Option<Settings> {
        match self.prefs.save_as(wanted) {
            Ok(merged) => Some(merged),
            Err(e) => {
                log::warn!("the settings were not saved: {e}");
                self.tell(title, "Message:NotSaved", &[("error", &e.to_string())]);
                None
            }
        }
    }

    /// Saves the settings as they are now (after a change made in place); false, with the
    /// window saying why, when they could not be.
    pub fn save_settings(&mut self) -> bool {
        self.save_settings_as("Title:Options", self.prefs.settings.clone()).is_some()
    }

    /// Shows the interface in `language` (a code; empty for the game's own texts) from now on,
    /// as Options would, without saving it: the current screen opens again in its words. For
    /// tools (`screenshot --language`).
    pub fn use_language(&mut self, language: &str) {
        self.prefs.settings.language = language.to_string();
        let roots = self.content.roots.clone();
        let own = Labels::load_all(&roots).unwrap_or_else(|e| {
            log::warn!("the string table: {e}");
            Labels::default()
        });
        let labels = self.labels_in_language(&roots, own);
        if self.ui.set_labels_if_changed(labels)
            && let Some(screen) = self.screen()
        {
            self.open(screen);
        }
    }

    /// The string table of `roots` in the settings' language: `own` (the game's own texts)
    /// when none is chosen or the chosen one cannot be loaded (said in the log).
    pub fn labels_in_language(&self, roots: &crate::content::ContentRoots, own: Labels) -> Labels {
        let language = &self.prefs.settings.language;
        if language.is_empty() {
            return own;
        }
        Labels::load_language(roots, language).unwrap_or_else(|e| {
            log::warn!("language {language}: {e}; the game's own texts are used");
            own
        })
    }
}
