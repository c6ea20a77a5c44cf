//! The shell: the menus before and after a game. Each screen is a WND layout from `ui/` plus a
//! system callback (and a layout init) registered in `callbacks.rs`; the shell opens and closes
//! layouts, shows message boxes, and keeps what the screens edit (settings, the skirmish setup).
//!
//! Must not: draw (the renderer draws the UI's draw list) or touch a running game.

pub mod actions;
pub mod callbacks;
pub mod editor;
pub mod editor_align;
mod editor_events;
mod editor_handles;
mod editor_input;
mod editor_overlay;
mod editor_panel;
mod editor_save;
mod editor_tree;
mod editor_values;
mod icons;
mod in_game;
pub mod layout_check;
mod loading;
pub mod lobby;
mod main_menu;
mod message_box;
mod mods;
mod online;
mod options;
pub mod reload;
mod replays;
mod request;
pub mod required;
mod score;
mod screen;
mod settings_save;
mod skirmish;
mod sounds;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use image::RgbaImage;
use thiserror::Error;

use crate::content::ContentRoots;
use crate::defs::Definitions;
use crate::ui::check::Bindings;
use crate::ui::draw::DrawCmd;
use crate::ui::font::Fonts;
use crate::ui::images::ImageSet;
use crate::ui::wnd::WndFile;
use crate::ui::{EventKind, GameWindow, Input, LayoutId, Rect, WindowId, WindowManager};

use super::images::{ImageKey, puff_image};
use super::settings::{Settings, UiScaling};

pub use loading::{MapEntry, load_bindings};
use loading::{find_maps, load_layouts};
pub use message_box::Question;
pub use mods::{Refused, leave_out_broken, refusal_message};
pub use request::{ReplayControl, ShellRequest};
pub use screen::Screen;
pub use skirmish::{SkirmishConfig, SlotChoice};

/// Why the shell could not start.
#[derive(Debug, Error)]
pub enum ShellError {
    /// A layout is missing or broken (every problem listed).
    #[error("layout problems:\n{0}")]
    Layouts(String),
    /// Definitions, UI images, fonts or sounds are broken (every problem listed).
    #[error(transparent)]
    Content(#[from] crate::defs::DefsErrors),
    /// Object icons could not be drawn from their models.
    #[error(transparent)]
    Icons(#[from] crate::game::scene::SceneError),
    /// The interface's fonts could not be read.
    #[error("the interface's fonts: {0}")]
    Fonts(&'static str),
}

/// The shell and everything its screens edit.
pub struct Shell {
    /// The window manager holding the open layouts.
    pub ui: WindowManager,
    /// A battle is running under the screens (the client says so each frame): Options then
    /// returns to it rather than to the main menu.
    pub in_battle: bool,
    /// The battle is an online one, where leaving surrenders (the HUD says so each frame).
    pub leave_surrenders: bool,
    layouts: BTreeMap<String, WndFile>,
    current: Option<(Screen, LayoutId)>,
    message: Option<LayoutId>,
    /// The question the open message box asks, if any.
    question: Option<Question>,
    /// Options (saved by the options screen).
    pub settings: Settings,
    /// The settings as this copy last loaded or saved them: a save writes only what changed
    /// since (`settings_save.rs`).
    settings_base: Settings,
    settings_path: PathBuf,
    /// Maps found in the content roots.
    pub maps: Vec<MapEntry>,
    /// Playable faction names.
    pub factions: Vec<String>,
    /// Where the shell's content came from (mods first).
    pub roots: ContentRoots,
    /// The skirmish being set up.
    pub skirmish: SkirmishConfig,
    /// What the screens asked of the client since the last update.
    requests: Vec<ShellRequest>,
    /// Interface sounds to play (names from the sound table), oldest first.
    sounds: Vec<String>,
    /// The Mods screen's list while it is open.
    mods_view: Vec<mods::ModRow>,
    /// The layout editor, while it is on (F10).
    editor: Option<editor::Editor>,
    /// Editing sessions left (F10 off) with unsaved edits, by layout file: their edits stay
    /// on screen and the next F10 on that layout takes them up again.
    shelved_edits: BTreeMap<String, editor::Editor>,
    /// Shift is held (the client says so when it changes): clicks in the editor add to its group.
    shift: bool,
    /// Alt is held: the editor moves a window alone, leaving its children where they are.
    alt: bool,
    /// Lobby state.
    pub lobby: lobby::LobbyState,
    /// Pictures made at run time (map previews), by `@name`.
    pub dynamic_images: BTreeMap<String, RgbaImage>,
    /// UI images (atlas regions).
    pub images: ImageSet,
    /// The font families layouts may name (`ui/fonts.ron`), for the editor's choice.
    font_families: Vec<String>,
    /// The callback names layouts may use, for the editor's choice.
    lexicon: crate::ui::lexicon::Lexicon,
    /// The last score shown.
    pub score_rows: Vec<Vec<String>>,
    /// The languages Options offers beside the game's own (found when Options opens).
    pub(super) languages: Vec<crate::ui::labels::Language>,
    /// The game's fonts, loaded once: the UI measures with them and the renderer draws them.
    pub fonts: Arc<Fonts>,
}

impl std::fmt::Debug for Shell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shell").field("current", &self.current).finish_non_exhaustive()
    }
}

impl Shell {
    /// Loads every layout (checked against the lexicon, images and fonts), the settings, the
    /// maps and factions, and opens the main menu.
    pub fn new(roots: &ContentRoots, screen: (f32, f32), settings_path: PathBuf) -> Result<Shell, ShellError> {
        let bindings = load_bindings(roots)?;
        let (layouts, problems) = load_layouts(roots, &bindings);
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
        let (layouts, problems) = load_layouts(roots, &bindings);
        Ok((Shell::with_layouts(roots, screen, settings_path, bindings, layouts)?, problems))
    }

    /// True when the layout `file` (`Options.wnd`…) loaded.
    pub fn has_layout(&self, file: &str) -> bool {
        self.layouts.contains_key(file)
    }

    fn with_layouts(
        roots: &ContentRoots,
        screen: (f32, f32),
        settings_path: PathBuf,
        bindings: Bindings,
        layouts: BTreeMap<String, WndFile>,
    ) -> Result<Shell, ShellError> {
        let settings = Settings::load(&settings_path).unwrap_or_else(|e| {
            log::warn!("{e}; using default settings");
            Settings::default()
        });
        let defs = Definitions::load(roots)?;
        let factions = defs.rules.factions.iter().filter(|f| f.playable).map(|f| f.name.clone()).collect();
        let (maps, mut dynamic_images, refused_maps) = find_maps(roots);
        dynamic_images.extend(icons::icons(roots, &defs)?);
        dynamic_images.insert(ImageKey::Puff.name(), puff_image(32));
        let fonts = Arc::new(Fonts::load().map_err(ShellError::Fonts)?);
        let mode = match settings.ui_scaling {
            UiScaling::Aspect => crate::ui::wnd::model::ScalingMode::Aspect,
            UiScaling::Stretch => crate::ui::wnd::model::ScalingMode::Stretch,
        };
        let skirmish = SkirmishConfig::first(maps.iter().map(|m| m.players));
        let mut shell = Shell {
            ui: WindowManager::new(screen, mode),
            in_battle: false,
            leave_surrenders: false,
            layouts,
            current: None,
            message: None,
            question: None,
            settings_base: settings.clone(),
            settings,
            settings_path,
            maps,
            factions,
            roots: roots.clone(),
            skirmish,
            requests: Vec::new(),
            sounds: Vec::new(),
            mods_view: Vec::new(),
            editor: None,
            shelved_edits: BTreeMap::new(),
            shift: false,
            alt: false,
            lobby: lobby::LobbyState::default(),
            dynamic_images,
            images: bindings.images,
            font_families: bindings.fonts.families,
            lexicon: bindings.lexicon,
            score_rows: Vec::new(),
            languages: Vec::new(),
            fonts,
        };
        shell.ui.set_text_measure(shell.fonts.clone());
        let labels = shell.labels_in_language(roots, bindings.labels);
        shell.ui.set_labels(Arc::new(labels));
        shell.open(Screen::MainMenu);
        // A map that cannot be loaded is left out of the list, and the player is told why.
        if !refused_maps.is_empty() {
            let n = refused_maps.len().to_string();
            let head = shell.say(if n == "1" { "Message:MapLeftOut" } else { "Message:MapsLeftOut" }, &[("count", &n)]);
            let title = shell.say("Title:Maps", &[]);
            shell.message(&title, &format!("{head}\n{}", refused_maps.join("\n")), false);
        }
        Ok(shell)
    }

    /// The string table in the settings' language: `own` (the game's own texts, as loaded with
    /// the layouts) when none is chosen or the chosen one cannot be loaded (said in the log).
    pub(super) fn labels_in_language(
        &self,
        roots: &ContentRoots,
        own: crate::ui::labels::Labels,
    ) -> crate::ui::labels::Labels {
        let language = &self.settings.language;
        if language.is_empty() {
            return own;
        }
        crate::ui::labels::Labels::load_language(roots, language).unwrap_or_else(|e| {
            log::warn!("language {language}: {e}; the game's own texts are used");
            own
        })
    }

    /// The screen on show.
    pub fn screen(&self) -> Option<Screen> {
        self.current.map(|(s, _)| s)
    }

    /// Uses `file` for the screen layout `name` (a layout given by path, as `screenshot --ui`
    /// does); it takes effect when that screen next opens.
    pub fn use_layout(&mut self, name: &str, file: WndFile) {
        self.layouts.insert(name.to_string(), file);
    }

    /// Closes the current screen and any message (the battlefield takes the screen).
    pub fn close_screens(&mut self) {
        if let Some((old_screen, old)) = self.current.take() {
            let shutdown = self.layouts.get(old_screen.layout()).and_then(|f| f.layout_shutdown.clone());
            if let Some(f) = shutdown.as_deref().and_then(callbacks::layout_shutdown) {
                f(self);
            }
            self.ui.destroy_layout(old);
        }
        self.close_message();
    }

    /// Closes the current screen and opens another.
    pub fn open(&mut self, screen: Screen) {
        self.close_screens();
        let Some(file) = self.layouts.get(screen.layout()).cloned() else { return };
        let id = self.ui.create_layout(screen.layout(), &file);
        self.current = Some((screen, id));
        if let Some(init) = file.layout_init.as_deref().and_then(callbacks::layout_init) {
            init(self);
        }
    }

    /// The focused text entry's selection (all of its text when nothing is selected): what
    /// Ctrl+C copies.
    pub fn focused_selection(&self) -> Option<String> {
        self.ui.focus().and_then(|id| self.ui.entry_selection(id))
    }

    /// Runs the current screen's per-frame layout update, if it has one, and hands over what
    /// the screens asked of the client since the last call.
    pub fn update(&mut self) -> Vec<ShellRequest> {
        let update = self.current.and_then(|(screen, _)| self.layouts.get(screen.layout()));
        if let Some(f) = update.and_then(|f| f.layout_update.clone()).as_deref().and_then(callbacks::layout_update) {
            f(self);
        }
        self.take_requests()
    }

    /// What the screens asked of the client since the last call, in order.
    pub fn take_requests(&mut self) -> Vec<ShellRequest> {
        std::mem::take(&mut self.requests)
    }

    /// The volumes to hear now (the options' sliders while that screen is open).
    pub fn volumes(&self) -> crate::audio::Volumes {
        options::live_volumes(self)
    }

    /// The interface sounds queued since the last call (names from the sound table).
    pub fn take_sounds(&mut self) -> Vec<String> {
        std::mem::take(&mut self.sounds)
    }

    /// Queues a request for the client.
    pub(crate) fn request(&mut self, r: ShellRequest) {
        self.requests.push(r);
    }

    /// Feeds input to the UI and runs the callbacks of the events it caused; returns true if
    /// the UI consumed the input.
    pub fn handle(&mut self, input: Input) -> bool {
        // While editing, the editor takes the input (a message it shows still answers).
        if self.editing() && !self.message_open() && !self.editor_panel_has(input) {
            // The pointer is still followed (the app reads the cursor from the UI).
            if let Input::MouseMove { .. } = input {
                self.ui.handle(input);
            }
            self.editor_input(&input);
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
                if let Some(sound) = sounds::sound_for(&self.ui, &e) {
                    self.sounds.push(sound);
                }
                // A window that declares an action does it, whatever it is called.
                let action = self.ui.window(e.window).and_then(|w| w.action.clone());
                if let (EventKind::Selected, Some(action)) = (&e.kind, action) {
                    if !self.run_action(&action) {
                        log::warn!("{}: unknown action \"{action}\"", e.name);
                    }
                    continue;
                }
                if let Some(f) = e.callback.as_deref().and_then(callbacks::system) {
                    f(self, &e);
                }
            }
        }
    }

    /// Changes the screen size (and scaling mode from the settings).
    pub fn resize(&mut self, screen: (f32, f32)) {
        let mode = match self.settings.ui_scaling {
            UiScaling::Aspect => crate::ui::wnd::model::ScalingMode::Aspect,
            UiScaling::Stretch => crate::ui::wnd::model::ScalingMode::Stretch,
        };
        self.ui.resize(screen, mode);
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

    /// Draws windows whose draw callback is the shell's own (the map preview).
    pub fn custom_draw(&self, w: &GameWindow, out: &mut Vec<DrawCmd>) {
        if w.draw_callback.as_deref() == Some("MapPreviewDraw")
            && let Some(map) = self.maps.get(self.skirmish.map)
        {
            let key = ImageKey::preview(&map.name).name();
            if self.dynamic_images.contains_key(&key) {
                let r = w.rect.inset(3.0);
                let side = r.w.min(r.h);
                let sq = Rect::new(r.x + (r.w - side) / 2.0, r.y + (r.h - side) / 2.0, side, side);
                out.push(DrawCmd::Image { rect: sq, name: key, tint: [255; 4] });
            }
        }
    }

    pub(crate) fn settings_path(&self) -> &PathBuf {
        &self.settings_path
    }
}
