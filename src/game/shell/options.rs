//! Options: resolution, fullscreen, interface scaling, language, graphics quality, volumes,
//! scroll speed, player name; saved to the settings file. Opened from a battle's top bar, it
//! returns to the battle (which a skirmish holds meanwhile).

use crate::game::settings::UiScaling;
use crate::render::Quality;
use crate::ui::labels::{LANGUAGE_NAME, Labels};
use crate::ui::{EventKind, Key, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

/// Offered window sizes.
pub const RESOLUTIONS: [(u32, u32); 6] =
    [(1024, 768), (1280, 720), (1600, 900), (1920, 1080), (2560, 1080), (2560, 1440)];

/// A graphics level as Options lists it.
fn graphics_title(q: Quality) -> &'static str {
    match q {
        Quality::Low => "Low",
        Quality::Medium => "Medium",
        Quality::High => "High",
    }
}

/// Where Save and Back lead: the battle it was opened from, else the main menu.
fn back(shell: &Shell) -> Screen {
    if shell.in_battle { Screen::InGame } else { Screen::MainMenu }
}

fn id(shell: &Shell, n: &str) -> Option<crate::ui::WindowId> {
    shell.find(&format!("Options.wnd:{n}"))
}

/// How opaque the Options backdrop is over a running battle (of 255): the battle shows through.
const OVER_BATTLE_ALPHA: u8 = 150;

pub(super) fn init(shell: &mut Shell) {
    let s = shell.settings.clone();
    // Over a battle the backdrop lets the battle show through (the panel stays solid).
    if shell.in_battle
        && let Some(w) = id(shell, "OptionsParent").and_then(|p| shell.ui.window_mut(p))
    {
        for e in &mut w.enabled_draw {
            e.color[3] = e.color[3].min(OVER_BATTLE_ALPHA);
        }
    }
    if let Some(c) = id(shell, "ComboResolution") {
        let items = RESOLUTIONS.iter().map(|(w, h)| format!("{w} × {h}")).collect();
        shell.ui.combo_set(c, items, RESOLUTIONS.iter().position(|r| *r == s.resolution));
    }
    if let Some(c) = id(shell, "ComboLanguage") {
        // The game's own texts first (named by their own Language:Name entry), then every
        // language a root holds a table for.
        shell.languages = Labels::languages(&shell.roots);
        let own = Labels::load_all(&shell.roots).ok().and_then(|l| l.0.get(LANGUAGE_NAME).cloned());
        let mut items = vec![own.unwrap_or_else(|| "English".into())];
        items.extend(shell.languages.iter().map(|l| l.name.clone()));
        let at = shell.languages.iter().position(|l| l.code == s.language).map_or(0, |i| i + 1);
        shell.ui.combo_set(c, items, Some(at));
    }
    if let Some(c) = id(shell, "ComboGraphics") {
        let items = Quality::ALL.iter().map(|&q| graphics_title(q).to_string()).collect();
        shell.ui.combo_set(c, items, Quality::ALL.iter().position(|q| *q == s.graphics));
    }
    if let Some(c) = id(shell, "CheckFullscreen") {
        shell.ui.set_checked(c, s.fullscreen);
    }
    if let Some(c) = id(shell, "CheckModder") {
        shell.ui.set_checked(c, s.modder_mode);
    }
    let radio = if s.ui_scaling == UiScaling::Aspect { "RadioScaleAspect" } else { "RadioScaleStretch" };
    if let Some(r) = id(shell, radio) {
        shell.ui.set_checked(r, true);
    }
    for (n, v) in [
        ("SliderMaster", s.master_volume),
        ("SliderMusic", s.music_volume),
        ("SliderSfx", s.sfx_volume),
        ("SliderVoice", s.voice_volume),
        ("SliderScroll", s.scroll_speed),
    ] {
        if let Some(w) = id(shell, n) {
            shell.ui.slider_set(w, v as i32);
        }
    }
    if let Some(e) = id(shell, "EntryRelay") {
        shell.ui.entry_set(e, &s.relay);
    }
    if let Some(e) = id(shell, "EntryName") {
        shell.ui.entry_set(e, &s.player_name);
    }
}

impl Shell {
    /// Escape on a screen no window took it on: Options goes back (as Back does, unsaved
    /// changes dropped) to the battle or the main menu it was opened from. True when it did.
    pub fn escape(&mut self) -> bool {
        if self.screen() == Some(Screen::Options) && !self.message_open() {
            let to = back(self);
            self.open(to);
            return true;
        }
        false
    }
}

/// The volumes to hear now: the sliders' while the options are open (so a change is heard as
/// it is made), the saved ones otherwise (Back undoes what was not saved).
pub(super) fn live_volumes(shell: &Shell) -> crate::audio::Volumes {
    if shell.screen() == Some(Screen::Options) { read(shell).volumes() } else { shell.settings.volumes() }
}

/// Reads the widgets into settings.
fn read(shell: &Shell) -> crate::game::settings::Settings {
    let mut s = shell.settings.clone();
    if let Some(k) = id(shell, "ComboResolution").and_then(|c| shell.ui.combo_selected(c)) {
        s.resolution = RESOLUTIONS[k.min(RESOLUTIONS.len() - 1)];
    }
    if let Some(k) = id(shell, "ComboLanguage").and_then(|c| shell.ui.combo_selected(c)) {
        s.language = k.checked_sub(1).and_then(|i| shell.languages.get(i)).map_or(String::new(), |l| l.code.clone());
    }
    if let Some(k) = id(shell, "ComboGraphics").and_then(|c| shell.ui.combo_selected(c)) {
        s.graphics = Quality::ALL[k.min(Quality::ALL.len() - 1)];
    }
    s.fullscreen = id(shell, "CheckFullscreen").is_some_and(|c| shell.ui.checked(c));
    if let Some(c) = id(shell, "CheckModder") {
        s.modder_mode = shell.ui.checked(c);
    }
    s.ui_scaling = if id(shell, "RadioScaleStretch").is_some_and(|r| shell.ui.checked(r)) {
        UiScaling::Stretch
    } else {
        UiScaling::Aspect
    };
    let slider =
        |n: &str, d: u8| id(shell, n).and_then(|w| shell.ui.slider_value(w)).map_or(d, |v| v.clamp(0, 100) as u8);
    s.master_volume = slider("SliderMaster", s.master_volume);
    s.music_volume = slider("SliderMusic", s.music_volume);
    s.sfx_volume = slider("SliderSfx", s.sfx_volume);
    s.voice_volume = slider("SliderVoice", s.voice_volume);
    s.scroll_speed = slider("SliderScroll", s.scroll_speed).clamp(1, 20);
    let name = id(shell, "EntryName").map(|e| shell.ui.entry_text(e)).unwrap_or_default();
    if !name.trim().is_empty() {
        s.player_name = name.trim().to_string();
    }
    if let Some(e) = id(shell, "EntryRelay") {
        s.relay = shell.ui.entry_text(e).trim().to_string();
    }
    s
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    // Escape that no window took (the layout's root hears of it) goes back, as Back does.
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        shell.escape();
        return;
    }
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonSave" => {
            let s = read(shell);
            let language_was = shell.settings.language.clone();
            // A failed save is said in the window and nothing is applied.
            if let Some(saved) = shell.save_settings_as("Title:Options", s) {
                if saved.language != language_was {
                    // The new language's texts show from the screen opened next on.
                    match Labels::load_all(&shell.roots) {
                        Ok(own) => {
                            let roots = shell.roots.clone();
                            let labels = shell.labels_in_language(&roots, own);
                            shell.ui.set_labels_if_changed(labels);
                        }
                        Err(e) => log::warn!("the string table: {e}"),
                    }
                }
                let screen = shell.ui.fit().screen;
                shell.resize(screen);
                shell.open(back(shell));
            }
        }
        "ButtonBack" => shell.open(back(shell)),
        _ => {}
    }
}
