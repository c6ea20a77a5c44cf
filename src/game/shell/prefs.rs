//! The player's settings as the shell keeps them: what the screens edit, what this copy last
//! loaded or saved (a save writes only what changed since, over what the file holds now, so
//! another copy of the game keeps its changes), where the file is, the folders beside it, and
//! the keys in use (the defaults with the player's changes) with what the Keys page edits.
//!
//! Must not: say anything to the player (the stage says a failed save in the window).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::game::keys::{KeyCommand, KeyMap};
use crate::game::settings::{Settings, SettingsError, UiScaling};
use crate::ui::labels::Language;
use crate::ui::wnd::model::ScalingMode;

/// The folder name of the player's own layouts mod, where the editor saves the game's layouts.
pub const OWN_LAYOUTS: &str = "my-layouts";

/// The player's settings and their file.
#[derive(Debug)]
pub struct Prefs {
    /// Options (saved by the options screen).
    pub settings: Settings,
    /// The settings as this copy last loaded or saved them.
    base: Settings,
    /// The settings file.
    path: PathBuf,
    /// The languages Options offers beside the game's own (found when Options opens).
    pub languages: Vec<Language>,
    /// The window sizes Options lists (found when Options opens: the window's own first when
    /// it is none of the presets).
    pub sizes: Vec<(u32, u32)>,
    /// Options' widgets as they stood when Keys was opened from it (unsaved), shown again on
    /// the way back.
    pub options_draft: Option<Settings>,
    /// The default keys (`data/keys.ron`).
    pub key_defaults: KeyMap,
    /// The keys as the Keys page shows them while it is open (saved by its Save).
    pub key_draft: KeyMap,
    /// The command the Keys page waits for a key for.
    pub key_waiting: Option<KeyCommand>,
    /// Why the player's keys in the settings are not used (they clash with the defaults), if
    /// they are not.
    pub key_problem: Option<String>,
    /// The keys in use: the defaults with the player's changes.
    keys: Arc<KeyMap>,
}

impl Prefs {
    /// The settings in `path` (the defaults, said in the log, when it cannot be read), and the
    /// default keys from `roots` (which must be readable).
    pub fn load(path: PathBuf, roots: &crate::content::ContentRoots) -> Result<Prefs, super::error::ShellError> {
        let settings = Settings::load(&path).unwrap_or_else(|e| {
            log::warn!("{e}; using default settings");
            Settings::default()
        });
        let mut prefs = Prefs {
            base: settings.clone(),
            settings,
            path,
            languages: Vec::new(),
            sizes: Vec::new(),
            options_draft: None,
            key_defaults: KeyMap::default(),
            key_draft: KeyMap::default(),
            key_waiting: None,
            key_problem: None,
            keys: Arc::default(),
        };
        prefs.key_defaults = KeyMap::load(roots).map_err(super::error::ShellError::Keys)?;
        prefs.follow_keys();
        Ok(prefs)
    }

    /// The keys in use: the defaults with the player's changes.
    pub fn keys(&self) -> Arc<KeyMap> {
        self.keys.clone()
    }

    /// Lays the settings' keys over the defaults; changes that clash with the defaults (a mod
    /// changed them, or a hand edit) are not used, and why is said in the log and on the Keys
    /// page.
    fn follow_keys(&mut self) {
        match self.key_defaults.with_changes(&self.settings.keys) {
            Ok(keys) => {
                self.keys = Arc::new(keys);
                self.key_problem = None;
            }
            Err(clash) => {
                let why = format!("{}: keys: {clash}; the default keys are used", self.path.display());
                log::warn!("{why}");
                self.keys = Arc::new(self.key_defaults.clone());
                self.key_problem = Some(why);
            }
        }
    }

    /// The settings file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves `wanted` as the settings; on success they become what the file now holds (this
    /// copy's changes over another copy's), which is returned. On failure nothing changes.
    pub fn save_as(&mut self, wanted: Settings) -> Result<Settings, SettingsError> {
        let merged = wanted.save_changes(&self.base, &self.path)?;
        self.base = merged.clone();
        self.settings = merged.clone();
        self.follow_keys();
        Ok(merged)
    }

    /// True when the settings changed since this copy last loaded or saved them (the window
    /// was resized or moved, say).
    pub fn unsaved(&self) -> bool {
        self.settings != self.base
    }

    /// How the interface scales, as the settings say.
    pub fn scaling_mode(&self) -> ScalingMode {
        match self.settings.ui_scaling {
            UiScaling::Aspect => ScalingMode::Aspect,
            UiScaling::Stretch => ScalingMode::Stretch,
        }
    }

    /// The folder battles are recorded into.
    pub fn replay_dir(&self) -> PathBuf {
        self.path.parent().map(|p| p.join("replays")).unwrap_or_default()
    }

    /// The folder battles are saved into (Menu → Save) and loaded from (Load).
    pub fn save_dir(&self) -> PathBuf {
        self.path.parent().map(|p| p.join("saves")).unwrap_or_default()
    }

    /// The player's own layouts mod folder (`mods/my-layouts/` beside the settings).
    pub fn own_layouts_dir(&self) -> Option<PathBuf> {
        self.path.parent().map(|d| d.join("mods").join(OWN_LAYOUTS))
    }
}
