//! Options: resolution (the window's own size listed first when it is none of the presets),
//! fullscreen, interface scaling, language, graphics quality, volumes,
//! scroll speed, player name; saved to the settings file. Opened from a battle's top bar, it
//! returns to the battle (which a skirmish holds meanwhile).

use crate::game::settings::UiScaling;
use crate::render::Quality;
use crate::ui::labels::{LANGUAGE_NAME, Labels};
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, Key, UiEvent};

use crate::ui::WindowManager;

use super::prefs::Prefs;
use super::screen::Screen;
use super::stage::Stage;

/// Offered window sizes.
pub const RESOLUTIONS: [(u32, u32); 6] =
    [(1024, 768), (1280, 720), (1600, 900), (1920, 1080), (2560, 1080), (2560, 1440)];

/// The sizes the resolution list offers: the window's own size `current` first when it is none
/// of [`RESOLUTIONS`], then the presets; and which one is `current`.
fn resolutions(current: (u32, u32)) -> (Vec<(u32, u32)>, usize) {
    match RESOLUTIONS.iter().position(|r| *r == current) {
        Some(at) => (RESOLUTIONS.to_vec(), at),
        None => (std::iter::once(current).chain(RESOLUTIONS).collect(), 0),
    }
}

/// The size the resolution list starts at: the window's while it is a window (what the player
/// resized it to), the size it returns to while fullscreen.
fn current_size(ui: &WindowManager, prefs: &Prefs) -> (u32, u32) {
    if prefs.settings.fullscreen {
        return prefs.settings.resolution;
    }
    let (w, h) = ui.fit().screen;
    (w.round() as u32, h.round() as u32)
}

/// A graphics level as Options lists it.
fn graphics_title(q: Quality) -> &'static str {
    match q {
        Quality::Low => "Low",
        Quality::Medium => "Medium",
        Quality::High => "High",
    }
}

/// Where Save and Back lead: the battle it was opened from, else the main menu.
fn back(stage: &Stage) -> Screen {
    if stage.screens.in_battle { Screen::InGame } else { Screen::MainMenu }
}

fn id(ui: &WindowManager, n: &str) -> Option<crate::ui::WindowId> {
    ui.find(&format!("Options.wnd:{n}"))
}

/// How opaque the Options backdrop is over a running battle (of 255): the battle shows through.
const OVER_BATTLE_ALPHA: u8 = 150;

/// Over a battle the backdrop `backdrop` lets the battle show through (the panel on it stays
/// solid).
pub(super) fn see_battle_through(stage: &mut Stage, backdrop: Option<crate::ui::WindowId>) {
    if stage.screens.in_battle
        && let Some(w) = backdrop.and_then(|p| stage.ui.window_mut(p))
    {
        for e in &mut w.enabled_draw {
            e.color[3] = e.color[3].min(OVER_BATTLE_ALPHA);
        }
    }
}

/// Keeps the widgets' values (unsaved) while Keys is open over Options, to show them again on
/// the way back.
pub(super) fn keep_draft(stage: &mut Stage) {
    if stage.screen() == Some(Screen::Options) {
        stage.prefs.options_draft = Some(read(stage.ui, stage.prefs));
    }
}

pub(super) fn init(stage: &mut Stage) {
    // Back from Keys, the values shown before (unsaved) show again.
    let s = stage.prefs.options_draft.take().unwrap_or_else(|| stage.prefs.settings.clone());
    let backdrop = id(stage.ui, "OptionsParent");
    see_battle_through(stage, backdrop);
    if let Some(c) = id(stage.ui, "ComboResolution") {
        let current = current_size(stage.ui, stage.prefs);
        let (sizes, at) = resolutions(current);
        let mut items: Vec<String> = sizes.iter().map(|(w, h)| format!("{w} × {h}")).collect();
        if !RESOLUTIONS.contains(&current) {
            items[0] = stage.say("Status:ThisWindow", &[("size", &items[0])]);
        }
        stage.prefs.sizes = sizes;
        stage.ui.combo_set(c, items, Some(at));
    }
    if let Some(c) = id(stage.ui, "ComboLanguage") {
        // The game's own texts first (named by their own Language:Name entry), then every
        // language a root holds a table for.
        stage.prefs.languages = Labels::languages(&stage.content.roots);
        let own = Labels::load_all(&stage.content.roots).ok().and_then(|l| l.0.get(LANGUAGE_NAME).cloned());
        let mut items = vec![own.unwrap_or_else(|| "English".into())];
        items.extend(stage.prefs.languages.iter().map(|l| l.name.clone()));
        let at = stage.prefs.languages.iter().position(|l| l.code == s.language).map_or(0, |i| i + 1);
        stage.ui.combo_set(c, items, Some(at));
    }
    if let Some(c) = id(stage.ui, "ComboGraphics") {
        let items = Quality::ALL.iter().map(|&q| graphics_title(q).to_string()).collect();
        stage.ui.combo_set(c, items, Quality::ALL.iter().position(|q| *q == s.graphics));
    }
    if let Some(c) = id(stage.ui, "CheckFullscreen") {
        stage.ui.set_checked(c, s.fullscreen);
    }
    if let Some(c) = id(stage.ui, "CheckModder") {
        stage.ui.set_checked(c, s.modder_mode);
    }
    let radio = if s.ui_scaling == UiScaling::Aspect { "RadioScaleAspect" } else { "RadioScaleStretch" };
    if let Some(r) = id(stage.ui, radio) {
        stage.ui.set_checked(r, true);
    }
    for (n, v) in [
        ("SliderMaster", s.master_volume),
        ("SliderMusic", s.music_volume),
        ("SliderSfx", s.sfx_volume),
        ("SliderVoice", s.voice_volume),
        ("SliderScroll", s.scroll_speed),
    ] {
        if let Some(w) = id(stage.ui, n) {
            stage.ui.slider_set(w, v as i32);
        }
    }
    if let Some(e) = id(stage.ui, "EntryRelay") {
        stage.ui.entry_set(e, &s.relay);
    }
    if let Some(e) = id(stage.ui, "EntryName") {
        stage.ui.entry_set(e, &s.player_name);
    }
}

/// Escape on a screen no window took it on: Options goes back (as Back does, unsaved changes
/// dropped) to the battle or the main menu it was opened from. True when it did.
pub(super) fn escape(stage: &mut Stage) -> bool {
    if stage.screen() == Some(Screen::Options) && !stage.screens.message_open() {
        let to = back(stage);
        stage.open(to);
        return true;
    }
    false
}

/// The volumes to hear now: the sliders' while the options are open (so a change is heard as
/// it is made), the saved ones otherwise (Back undoes what was not saved).
pub(super) fn live_volumes(ui: &WindowManager, screen: Option<Screen>, prefs: &Prefs) -> crate::audio::Volumes {
    if screen == Some(Screen::Options) { read(ui, prefs).volumes() } else { prefs.settings.volumes() }
}

/// Reads the widgets into settings.
fn read(ui: &WindowManager, prefs: &Prefs) -> crate::game::settings::Settings {
    let mut s = prefs.settings.clone();
    if let Some(k) = id(ui, "ComboResolution").and_then(|c| ui.combo_selected(c)) {
        // The list as it was shown (the window may have been resized since).
        let sizes = if prefs.sizes.is_empty() { &RESOLUTIONS[..] } else { &prefs.sizes[..] };
        s.resolution = sizes[k.min(sizes.len() - 1)];
    }
    if let Some(k) = id(ui, "ComboLanguage").and_then(|c| ui.combo_selected(c)) {
        s.language = k.checked_sub(1).and_then(|i| prefs.languages.get(i)).map_or(String::new(), |l| l.code.clone());
    }
    if let Some(k) = id(ui, "ComboGraphics").and_then(|c| ui.combo_selected(c)) {
        s.graphics = Quality::ALL[k.min(Quality::ALL.len() - 1)];
    }
    // A layout without a window for a setting (an original game's) leaves it as it was.
    if let Some(c) = id(ui, "CheckFullscreen") {
        s.fullscreen = ui.checked(c);
    }
    if let Some(c) = id(ui, "CheckModder") {
        s.modder_mode = ui.checked(c);
    }
    if let Some(r) = id(ui, "RadioScaleStretch") {
        s.ui_scaling = if ui.checked(r) { UiScaling::Stretch } else { UiScaling::Aspect };
    }
    let slider = |n: &str, d: u8| id(ui, n).and_then(|w| ui.slider_value(w)).map_or(d, |v| v.clamp(0, 100) as u8);
    s.master_volume = slider("SliderMaster", s.master_volume);
    s.music_volume = slider("SliderMusic", s.music_volume);
    s.sfx_volume = slider("SliderSfx", s.sfx_volume);
    s.voice_volume = slider("SliderVoice", s.voice_volume);
    s.scroll_speed = slider("SliderScroll", s.scroll_speed).clamp(1, 20);
    let name = id(ui, "EntryName").map(|e| ui.entry_text(e)).unwrap_or_default();
    if !name.trim().is_empty() {
        s.player_name = name.trim().to_string();
    }
    if let Some(e) = id(ui, "EntryRelay") {
        s.relay = ui.entry_text(e).trim().to_string();
    }
    s
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    // Escape that no window took (the layout's root hears of it) goes back, as Back does.
    if e.kind == EventKind::KeyUnhandled(Key::Escape) {
        escape(stage);
        return;
    }
    if e.kind != EventKind::Selected {
        return;
    }
    match short(&e.name) {
        "ButtonSave" => {
            let s = read(stage.ui, stage.prefs);
            let language_was = stage.prefs.settings.language.clone();
            // A failed save is said in the window and nothing is applied.
            if let Some(saved) = stage.save_settings_as("Title:Options", s) {
                if saved.language != language_was {
                    // The new language's texts show from the screen opened next on.
                    match Labels::load_all(&stage.content.roots) {
                        Ok(own) => {
                            let roots = stage.content.roots.clone();
                            let labels = stage.labels_in_language(&roots, own);
                            stage.ui.set_labels_if_changed(labels);
                        }
                        Err(e) => log::warn!("the string table: {e}"),
                    }
                }
                let screen = stage.ui.fit().screen;
                stage.resize(screen);
                stage.open(back(stage));
            }
        }
        "ButtonBack" => stage.open(back(stage)),
        _ => {}
    }
}
