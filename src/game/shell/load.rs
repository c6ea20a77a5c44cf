//! Load: the saved games in the config folder's `saves/`, newest first, a row each — the map,
//! the game time, when it was saved and the players (a file that does not read says why) —
//! with the chosen one's thumbnail and details beside the list; Load (or a double click on a
//! row) continues it; Delete (or the Del key) deletes the chosen one after asking; the chosen
//! save's picture drawn in its window.
//!
//! Must not: read a save's state (only its header; the client loads the game).

use std::path::PathBuf;

use crate::session::save::{EXTENSION, Save, SaveError, SaveHeader};
use crate::ui::draw::DrawCmd;
use crate::ui::manager::WindowManager;
use crate::ui::window::short_name as short;
use crate::ui::{EventKind, GameWindow, Key, Rect, UiEvent};

use super::question::Question;
use super::request::ShellRequest;
use super::screen::Screen;
use super::stage::Stage;

/// The list's window.
const LIST: &str = "Load.wnd:ListSaves";

/// The dynamic image name of the thumbnail of the save in file `name`.
pub(super) fn picture_key(name: &str) -> String {
    format!("@save/{name}")
}

pub(super) fn init(stage: &mut Stage) {
    let dir = stage.prefs.save_dir();
    let mut found: Vec<(u64, PathBuf, Result<SaveHeader, SaveError>)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == EXTENSION))
        .map(|p| {
            let header = Save::read_header(&p);
            let when = header.as_ref().map_or(0, |h| h.saved_at);
            (when, p, header)
        })
        .collect();
    // Newest first (by when they were saved; unreadable ones last, by name).
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut rows = Vec::new();
    stage.screens.saves.clear();
    for (_, path, header) in found {
        let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let row = match &header {
            Ok(h) => {
                if let Some(img) = h.thumbnail.as_ref().and_then(|t| t.image()) {
                    let key = picture_key(&name);
                    stage.content.dynamic_images.insert(key.clone(), image::DynamicImage::ImageRgb8(img).into_rgba8());
                    stage.content.fresh_images.push(key);
                }
                vec![h.map.clone(), game_time(h.frame), saved_on(h.saved_at), h.players.join(", ")]
            }
            Err(SaveError::Version { .. }) => {
                vec![name.clone(), String::new(), String::new(), stage.say("Load:OtherVersion", &[])]
            }
            Err(_) => vec![name.clone(), String::new(), String::new(), stage.say("Load:Unreadable", &[])],
        };
        rows.push(row);
        stage.screens.saves.push(path);
    }
    let note = if rows.is_empty() {
        stage.say("Load:NoSavesIn", &[("folder", &dir.display().to_string())])
    } else {
        String::new()
    };
    let any = !rows.is_empty();
    if let Some(l) = stage.find(LIST) {
        stage.ui.list_set_rows(l, rows);
        stage.ui.list_select(l, any.then_some(0));
    }
    stage.set_text("Load.wnd:SavesNote", &note);
    show_details(stage);
}

/// `frames` of game time as `m:ss` (or `h:mm:ss`).
fn game_time(frames: u32) -> String {
    let s = frames / crate::sim::FRAMES_PER_SECOND;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A time in seconds since 1970 as `YYYY-MM-DD HH:MM` (UTC).
fn saved_on(unix: u64) -> String {
    let stamp = crate::session::replay::utc_stamp(unix);
    // "YYYY-MM-DD HHMMSS" → "YYYY-MM-DD HH:MM".
    match stamp.split_once(' ') {
        Some((day, hms)) if hms.len() == 6 => format!("{day} {}:{}", &hms[..2], &hms[2..4]),
        _ => stamp,
    }
}

/// The save chosen in the list, if any.
pub(super) fn chosen(stage: &Stage) -> Option<PathBuf> {
    let list = stage.find(LIST)?;
    let row = *stage.ui.list_selected(list).first()?;
    stage.screens.saves.get(row).cloned()
}

/// The chosen save's details under its picture.
fn show_details(stage: &mut Stage) {
    let text = match chosen(stage).map(|p| Save::read_header(&p)) {
        Some(Ok(h)) => stage.say(
            "Load:Details",
            &[
                ("map", &h.map),
                ("time", &game_time(h.frame)),
                ("date", &saved_on(h.saved_at)),
                ("players", &h.players.join(", ")),
            ],
        ),
        Some(Err(e)) => e.to_string(),
        None => String::new(),
    };
    stage.set_text("Load.wnd:SaveDetails", &text);
}

pub(super) fn system(stage: &mut Stage, e: &UiEvent) {
    match (short(&e.name), &e.kind) {
        ("ButtonLoad", EventKind::Selected) | ("ListSaves", EventKind::ListActivated(_)) => continue_chosen(stage),
        ("ListSaves", EventKind::ListSelection(_)) => show_details(stage),
        ("ButtonBack", EventKind::Selected) => stage.open(Screen::MainMenu),
        ("ButtonDelete", EventKind::Selected) | ("ListSaves", EventKind::KeyUnhandled(Key::Delete)) => {
            ask_delete(stage)
        }
        _ => {}
    }
}

/// Asks whether to delete the chosen save (or says to choose one).
fn ask_delete(stage: &mut Stage) {
    let Some(path) = chosen(stage) else { return stage.tell("Title:Load", "Load:ChooseSave", &[]) };
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let text = stage.say("Load:AskDelete", &[("name", &name)]);
    stage.ask(Question::DeleteSave, &text);
}

/// Deletes the chosen save (the player said yes) and lists the saves again, the row below it
/// chosen; a file that will not go says why.
pub(super) fn delete_chosen(stage: &mut Stage) {
    let Some(path) = chosen(stage) else { return };
    let row = stage.find(LIST).and_then(|l| stage.ui.list_selected(l).first().copied()).unwrap_or(0);
    if let Err(e) = std::fs::remove_file(&path) {
        let name = path.display().to_string();
        return stage.tell("Title:DeleteSave", "Load:DeleteFailed", &[("name", &name), ("error", &e.to_string())]);
    }
    log::info!("deleted the saved game {}", path.display());
    init(stage);
    let left = stage.screens.saves.len();
    if let Some(l) = stage.find(LIST) {
        stage.ui.list_select(l, (left > 0).then(|| row.min(left - 1)));
    }
    show_details(stage);
}

/// Continues the save chosen in the list, or says to choose one.
pub(super) fn continue_chosen(stage: &mut Stage) {
    match chosen(stage) {
        Some(path) => stage.request(ShellRequest::LoadSave(path)),
        None => stage.tell("Title:Load", "Load:ChooseSave", &[]),
    }
}

/// The chosen save's thumbnail, as large as fits its window, keeping its shape.
pub(super) fn draw_save_picture(
    (ui, saves): (&WindowManager, &[PathBuf]),
    images: &std::collections::BTreeMap<String, image::RgbaImage>,
    w: &GameWindow,
    out: &mut Vec<DrawCmd>,
) {
    let list = ui.find("Load.wnd:ListSaves");
    let row = list.and_then(|l| ui.list_selected(l).first().copied());
    let Some(name) = row.and_then(|r| saves.get(r)).and_then(|p| p.file_name()) else { return };
    let key = picture_key(&name.to_string_lossy());
    let Some(img) = images.get(&key) else { return };
    let r = w.rect.inset(3.0);
    let scale = (r.w / img.width().max(1) as f32).min(r.h / img.height().max(1) as f32);
    let (iw, ih) = (img.width() as f32 * scale, img.height() as f32 * scale);
    let rect = Rect::new(r.x + (r.w - iw) / 2.0, r.y + (r.h - ih) / 2.0, iw, ih);
    out.push(DrawCmd::Image { rect, name: key, tint: [255; 4] });
}
