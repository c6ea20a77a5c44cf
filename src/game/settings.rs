//! The player's options, saved as RON in the user's config directory
//! (`$RIDGELINE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/ridgeline`, else `~/.config/ridgeline`).
//!
//! A save re-reads the file and writes only what this copy changed since it loaded
//! (`settings_merge.rs`), so two copies of the game keep each other's changes and fields a
//! newer version wrote survive; it is written beside and renamed over, through a symlink.
//! A file the game cannot read is kept under a name of its own, never written over.

use std::path::{Path, PathBuf};

use super::settings_merge as merge;
use crate::content::{FileError, parse_ron};
use serde::{Deserialize, Serialize};

/// How the interface fits the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UiScaling {
    /// Keep proportions (letterbox; anchored windows hug the edges).
    Aspect,
    /// Stretch X and Y separately, as the original game did.
    Stretch,
}

/// Everything on the options screen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Window size in pixels (follows the player's resizing, see `settings_window.rs`).
    pub resolution: (u32, u32),
    /// Where the window's top-left corner was last, on the desktop in pixels (none: the window
    /// manager places it).
    pub window_position: Option<(i32, i32)>,
    /// Fullscreen.
    pub fullscreen: bool,
    /// Interface scaling.
    pub ui_scaling: UiScaling,
    /// Volume of everything, 0–100.
    pub master_volume: u8,
    /// Music volume, 0–100.
    pub music_volume: u8,
    /// Effects volume (weapons, explosions, the interface), 0–100.
    pub sfx_volume: u8,
    /// Voice volume (acknowledgements, announcements), 0–100.
    pub voice_volume: u8,
    /// Camera scroll speed, 1–20.
    pub scroll_speed: u8,
    /// The name shown to other players.
    pub player_name: String,
    /// The first battle's hint was dismissed.
    pub hint_seen: bool,
    /// The mods turned on, by folder name, the first winning over the later ones.
    pub mods: Vec<String>,
    /// Modder mode: F10 opens the layout editor.
    pub modder_mode: bool,
    /// The relay online games are hosted through (`ip:port` or `name:port` of a machine
    /// running `ridgeline relay`); empty until the player sets one (see deploy/README.md).
    pub relay: String,
    /// The join code of the last online game joined, for Online → Rejoin (empty if none).
    pub last_game: String,
    /// The interface's language: the code of a `ui/strings.<code>.ron` (empty: the game's own
    /// texts).
    pub language: String,
    /// How much the battlefield's picture draws (Low on a slow machine: half resolution, no
    /// shadows, fewer particles).
    pub graphics: crate::render::Quality,
    /// The player's keys where they differ from the defaults (`data/keys.ron`), by command
    /// (`{"Stop": "H"}`): Options → Keys writes them.
    pub keys: std::collections::BTreeMap<crate::game::keys::KeyCommand, crate::game::keys::Chord>,
    /// The last skirmish started (Skirmish → Start game), which the setup screen offers again.
    pub skirmish: LastSkirmish,
}

/// A skirmish setup as the settings keep it: by the map's folder name and each row's words,
/// so a map list or faction list that changed since cannot make it point at the wrong one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LastSkirmish {
    /// The map's folder name (empty: none kept).
    pub map: String,
    /// The rows from the top: `human`, `observer`, `closed` or a computer's difficulty
    /// (`easy` … `brutal`), with the faction's name, the colour and team indices.
    pub rows: Vec<LastRow>,
    /// The starting money's index in the setup's list.
    pub money: usize,
}

/// One row of a kept skirmish setup.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LastRow {
    /// Who: `human`, `observer`, `closed`, `easy`, `normal`, `hard` or `brutal`.
    pub who: String,
    /// The faction's name.
    pub faction: String,
    /// Colour index.
    pub colour: usize,
    /// Team (0: none).
    pub team: usize,
}

/// Most rows a kept skirmish setup has (the setup screen's).
const MAX_ROWS: usize = 8;

/// Longest join code the settings keep (a code is about 90 characters).
const MAX_CODE: usize = 300;

/// Copies of unreadable settings kept beside them (`settings.ron.unreadable`, `….2`, …); past
/// this many the file is not written over.
pub const MAX_UNREADABLE_COPIES: usize = 100;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            resolution: (1280, 720),
            window_position: None,
            fullscreen: false,
            ui_scaling: UiScaling::Aspect,
            master_volume: 80,
            music_volume: 60,
            sfx_volume: 80,
            voice_volume: 80,
            scroll_speed: 10,
            player_name: "Commander".into(),
            hint_seen: false,
            mods: Vec::new(),
            modder_mode: false,
            relay: String::new(),
            last_game: String::new(),
            language: String::new(),
            graphics: crate::render::Quality::High,
            keys: std::collections::BTreeMap::new(),
            skirmish: LastSkirmish::default(),
        }
    }
}

/// True when `text` reads as `host:port` (an IP address or a name, and a port): what the relay
/// setting must look like. Names are looked up only when hosting.
pub fn relay_shaped(text: &str) -> bool {
    if text.parse::<std::net::SocketAddr>().is_ok() {
        return true;
    }
    let Some((host, port)) = text.rsplit_once(':') else { return false };
    let name_ok = !host.is_empty()
        && host.len() <= 253
        && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    name_ok && port.parse::<u16>().is_ok_and(|p| p > 0)
}

impl Settings {
    /// The folders mods are looked for in: `mods/` beside the settings file (the player's),
    /// then `mods/` in each content root (the ones shipped with the game).
    pub fn mod_folders(settings_path: &Path, roots: &crate::content::ContentRoots) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = settings_path.parent().map(|d| d.join("mods")).into_iter().collect();
        out.extend(roots.roots().iter().map(|r| r.join("mods")));
        out
    }

    /// `base` with the turned-on mods put after any already in front of it (those given with
    /// `--mod` stay first) and before the game's own folders; mods no longer found are skipped.
    pub fn roots_with_mods(
        &self,
        base: &crate::content::ContentRoots,
        front: usize,
        settings_path: &Path,
    ) -> crate::content::ContentRoots {
        let found = crate::content::mod_info::find_mods(&Settings::mod_folders(settings_path, base));
        let mut roots: Vec<PathBuf> = base.roots().to_vec();
        let at = front.min(roots.len());
        let dirs: Vec<PathBuf> =
            self.mods.iter().filter_map(|id| found.iter().find(|m| &m.id == id).map(|m| m.dir.clone())).collect();
        for (i, d) in dirs.into_iter().enumerate() {
            if !roots.contains(&d) {
                roots.insert(at + i, d);
            }
        }
        crate::content::ContentRoots::new(roots)
    }

    /// The four volumes as the mixer takes them.
    pub fn volumes(&self) -> crate::audio::Volumes {
        crate::audio::Volumes {
            master: self.master_volume,
            effects: self.sfx_volume,
            voice: self.voice_volume,
            music: self.music_volume,
        }
    }
}

/// Why settings could not be saved or read.
pub type SettingsError = FileError;

impl Settings {
    /// The settings file's usual place: `RIDGELINE_CONFIG_DIR` if set, else the system's
    /// configuration folder for Ridgeline (`~/.config/ridgeline` on Linux, Application
    /// Support on macOS, AppData on Windows). `RIDGELINE_CONFIG_DIR` set but empty, or no
    /// configuration folder at all, is an error: the game never writes into whatever folder it
    /// was started from.
    pub fn default_path() -> Result<PathBuf, String> {
        let dir = match std::env::var_os("RIDGELINE_CONFIG_DIR") {
            Some(d) if d.is_empty() => {
                return Err("RIDGELINE_CONFIG_DIR is set but empty: name a folder, or unset it".into());
            }
            Some(d) => PathBuf::from(d),
            None => directories::ProjectDirs::from("", "", "Ridgeline")
                .map(|d| d.config_dir().to_path_buf())
                .ok_or("no configuration folder (no home folder): set RIDGELINE_CONFIG_DIR")?,
        };
        Ok(dir.join("settings.ron"))
    }

    /// Reads settings; a missing file gives the defaults. Fields this version does not know
    /// (a newer version's) are kept in the file and noted in the log.
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        if !path.exists() {
            return Ok(Settings::default());
        }
        let text = crate::content::read_text(path)?;
        Settings::parse(path, &text)
    }

    /// Settings from the text of the file `path`, checked.
    fn parse(path: &Path, text: &str) -> Result<Settings, SettingsError> {
        let settings: Settings = parse_ron(path, text)?;
        settings.check(path, text)?;
        if let Some(fields) = merge::fields(text) {
            let known = Settings::default().fields();
            for (name, _) in fields.iter().filter(|(n, _)| !known.iter().any(|(k, _)| k == n)) {
                let line = text.lines().position(|l| l.contains(name.as_str())).map_or(1, |i| i + 1);
                log::warn!("{}:{line}: `{name}` is no setting this version knows; kept as it is", path.display());
            }
        }
        Ok(settings)
    }

    /// This copy's fields as the file writes them.
    fn fields(&self) -> Vec<(String, String)> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new()).unwrap_or_default();
        merge::fields(&text).unwrap_or_default()
    }

    /// Refuses values the game cannot use (a window size outside
    /// [`crate::content::limits::WINDOW_SIZE`], a window position outside
    /// [`crate::content::limits::WINDOW_POSITION`], volumes over 100, a scroll speed outside 1–20,
    /// an empty or overlong name, two changed keys on one key they may not share), naming the
    /// file and the field's line in `text` (the file's contents).
    pub fn check(&self, path: &Path, text: &str) -> Result<(), SettingsError> {
        use crate::content::limits::{MAX_NAME, MAX_PLAYER_NAME, WINDOW_SIZE};
        let bad = |field: &str, message: String| {
            let line = text.lines().position(|l| l.contains(field)).map_or(1, |i| i + 1);
            Err(FileError::Syntax { path: path.into(), line, col: 1, message: format!("{field}: {message}") })
        };
        let (w, h) = self.resolution;
        if !WINDOW_SIZE.contains(&w) || !WINDOW_SIZE.contains(&h) {
            let range = format!("{}..={}", WINDOW_SIZE.start(), WINDOW_SIZE.end());
            return bad("resolution", format!("{w}×{h} is outside {range} pixels each way (the limit)"));
        }
        let place = crate::content::limits::WINDOW_POSITION;
        if let Some((x, y)) = self.window_position
            && (!place.contains(&x) || !place.contains(&y))
        {
            let range = format!("{}..={}", place.start(), place.end());
            return bad("window_position", format!("({x}, {y}) is outside {range} pixels each way (the limit)"));
        }
        for (field, v) in [
            ("master_volume", self.master_volume),
            ("music_volume", self.music_volume),
            ("sfx_volume", self.sfx_volume),
            ("voice_volume", self.voice_volume),
        ] {
            if v > 100 {
                return bad(field, format!("{v} is over 100"));
            }
        }
        if !(1..=20).contains(&self.scroll_speed) {
            return bad("scroll_speed", format!("{} is outside 1..=20", self.scroll_speed));
        }
        if self.player_name.trim().is_empty() || self.player_name.chars().count() > MAX_PLAYER_NAME.min(MAX_NAME) {
            return bad("player_name", format!("a name has 1 to {MAX_PLAYER_NAME} characters"));
        }
        if !self.relay.is_empty() && !relay_shaped(&self.relay) {
            return bad("relay", format!("\"{}\" is not host:port", self.relay.chars().take(80).collect::<String>()));
        }
        if self.last_game.len() > MAX_CODE {
            return bad("last_game", format!("a join code has at most {MAX_CODE} characters"));
        }
        if self.skirmish.rows.len() > MAX_ROWS || self.skirmish.map.len() > MAX_CODE {
            return bad(
                "skirmish",
                format!("a skirmish has at most {MAX_ROWS} rows and a map name of {MAX_CODE} bytes"),
            );
        }
        if !self.language.is_empty() && !crate::ui::labels::is_language_code(&self.language) {
            return bad("language", "a language code is 1 to 16 letters, digits, '-' and '_'".into());
        }
        let changed = self.keys.iter().enumerate();
        if let Some(((a, k), b)) = changed
            .flat_map(|(i, (a, k))| {
                self.keys
                    .iter()
                    .skip(i + 1)
                    .filter(move |(b, kb)| *kb == k && !a.may_share(**b))
                    .map(move |(b, _)| ((a, k), b))
            })
            .next()
        {
            return bad("keys", format!("{k} is both {a}'s key and {b}'s"));
        }
        Ok(())
    }

    /// Writes all of this copy's settings over the file's (fields it does not know kept);
    /// what is now in the file.
    pub fn save(&self, path: &Path) -> Result<Settings, SettingsError> {
        self.write_merged(None, path)
    }

    /// Writes what this copy changed since `since` (what it loaded or last saved) over what
    /// the file holds now, so another copy's changes stay; what is now in the file (the new
    /// `since`).
    pub fn save_changes(&self, since: &Settings, path: &Path) -> Result<Settings, SettingsError> {
        self.write_merged(Some(since), path)
    }

    fn write_merged(&self, since: Option<&Settings>, path: &Path) -> Result<Settings, SettingsError> {
        let real = crate::content::safe_write::resolve_links(path)?;
        let mine = self.fields();
        let base = since.map(Settings::fields);
        let disk = match std::fs::symlink_metadata(&real) {
            Err(_) => Vec::new(),
            Ok(_) => match crate::content::read_text(&real).map(|t| (Settings::parse(&real, &t), t)) {
                Ok((Ok(_), text)) => merge::fields(&text).unwrap_or_default(),
                _ => {
                    keep_unreadable(path, &real)?;
                    Vec::new()
                }
            },
        };
        let text = merge::text_of(&merge::merge(&disk, &mine, base.as_deref()));
        // What is written is what the game reads back.
        let merged = Settings::parse(path, &text)?;
        crate::content::write_file(path, text.as_bytes())?;
        Ok(merged)
    }
}

/// Keeps the unreadable settings file `real` (`path` once links are followed) under a name of
/// its own beside it, so a hand edit with a slip is never lost and never overwrites an earlier
/// kept copy.
fn keep_unreadable(path: &Path, real: &Path) -> Result<(), SettingsError> {
    let refuse = |why: String| FileError::Write(crate::content::WriteError::new(path, why));
    if !std::fs::metadata(real).is_ok_and(|m| m.is_file()) {
        return Err(refuse("not a regular file the game can read: not written over".into()));
    }
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let kept = (1..=MAX_UNREADABLE_COPIES)
        .map(|i| if i == 1 { format!("{name}.unreadable") } else { format!("{name}.unreadable.{i}") })
        .map(|n| real.with_file_name(n))
        .find(|k| std::fs::symlink_metadata(k).is_err())
        .ok_or_else(|| {
            refuse(format!(
                "unreadable, and {MAX_UNREADABLE_COPIES} unreadable copies are kept already: not written over"
            ))
        })?;
    std::fs::rename(real, &kept).map_err(|e| refuse(e.to_string()))?;
    log::warn!("{} could not be read; kept as {}", path.display(), kept.display());
    Ok(())
}
