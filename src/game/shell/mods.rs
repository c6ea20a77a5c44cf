//! Mods: every mod folder found (the player's `mods/` beside the settings file, the game's
//! shipped `mods/`), each with its description, which of the game's files it replaces or adds,
//! and — for a broken one — its problems with their `file:line`. The player turns mods on and
//! off and orders them (the first wins); Save keeps the choice in the settings, and the client
//! then uses it: layouts at once, data from the next match.
//!
//! Must not: turn on a broken mod, or change any mod's files.

use std::path::{Path, PathBuf};

use crate::content::ContentRoots;
use crate::content::mod_info::{ModInfo, find_mods};
use crate::game::settings::Settings;
use crate::ui::labels::Labels;
use crate::ui::{EventKind, UiEvent};

use super::{Screen, Shell};
use crate::ui::window::short_name as short;

/// One mod as the screen shows it.
#[derive(Clone, Debug)]
pub struct ModRow {
    /// Folder name (what the settings keep).
    pub id: String,
    /// The folder.
    pub dir: PathBuf,
    /// Its `mod.ron`, if it has one.
    pub info: Option<ModInfo>,
    /// Turned on.
    pub enabled: bool,
    /// Files it brings: (path inside the mod, true when it replaces one of the game's).
    pub files: Vec<(String, bool)>,
    /// Why it cannot be used (empty: it can).
    pub problems: Vec<String>,
}

/// The files under `dir`'s `ui/`, `data/` and `maps/`, each marked when `game` has it too.
fn files_of(dir: &Path, game: &ContentRoots) -> Vec<(String, bool)> {
    crate::content::mod_info::content_files(dir)
        .into_iter()
        .map(|r| (r.display().to_string(), game.find(&r).is_some()))
        .collect()
}

/// What keeps a mod from being used, checked with only it in front of the game.
fn problems_of(dir: &Path, game: &ContentRoots, info: &Result<Option<ModInfo>, String>) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = info {
        out.push(e.clone());
    }
    let roots = game.clone().with_mod(dir.to_path_buf());
    if dir.join("ui").is_dir() {
        match super::layout_check::run(&roots, vec![dir.join("ui")], super::layout_check::Options::default()) {
            Ok(o) => out.extend(o.problems),
            Err(e) => out.push(e.to_string()),
        }
    }
    if dir.join("data").is_dir() || dir.join("maps").is_dir() {
        out.extend(crate::game::data_check::run(&roots).problems);
    }
    out
}

/// Most problems the start-up message shows for one refused mod (the Mods screen and the log
/// list them all).
const SHOWN_PROBLEMS: usize = 4;

/// A mod left out because it is broken: its folder name and every problem found.
pub type Refused = (String, Vec<String>);

/// Checks each mod `roots` puts in front of `game` (the game's own roots, with any `--mod`
/// folders) with only it in front of the game, and leaves out the broken ones alone: the good
/// ones stay on, in their order. Each refusal is logged with every problem. Returns the roots
/// to use and the mods refused.
pub fn leave_out_broken(roots: &ContentRoots, game: &ContentRoots) -> (ContentRoots, Vec<Refused>) {
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    for dir in roots.roots() {
        if game.roots().contains(dir) {
            kept.push(dir.clone());
            continue;
        }
        let info = ModInfo::load(dir).map_err(|e| e.to_string());
        let problems = problems_of(dir, game, &info);
        let id = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
        if problems.is_empty() {
            kept.push(dir.clone());
        } else {
            log::warn!("mod {id} ({}) left out: {} problem(s)", dir.display(), problems.len());
            for p in &problems {
                log::warn!("  {p}");
            }
            refused.push((id, problems));
        }
    }
    (ContentRoots::new(kept), refused)
}

/// What the player is told about mods left out at start: each mod with its first few
/// problems (the rest counted), the others said to be on.
pub fn refusal_message(refused: &[Refused], labels: &Labels) -> String {
    let mut text = labels.say(if refused.len() == 1 { "Mods:LeftOutOne" } else { "Mods:LeftOutMany" }, &[]);
    for (id, problems) in refused {
        let n = problems.len();
        let head = if n == 1 { "Mods:OneProblem" } else { "Mods:Problems" };
        text.push_str("\n\n");
        text.push_str(&labels.say(head, &[("mod", id), ("count", &n.to_string())]));
        for p in problems.iter().take(SHOWN_PROBLEMS) {
            text.push_str(&format!("\n  {p}"));
        }
        if n > SHOWN_PROBLEMS {
            text.push_str("\n  ");
            text.push_str(&labels.say("Mods:MoreProblems", &[("count", &(n - SHOWN_PROBLEMS).to_string())]));
        }
    }
    text.push_str("\n\n");
    text.push_str(&labels.say("Mods:SeeAll", &[]));
    text
}

impl Shell {
    /// Tells the player which mods were left out at start, and why ([`refusal_message`]).
    pub fn tell_refusals(&mut self, refused: &[Refused]) {
        let labels = self.ui.labels().unwrap_or_default();
        let (title, text) = (self.say("Title:Mods", &[]), refusal_message(refused, &labels));
        self.message(&title, &text, false);
    }

    /// The game's own content roots: the shell's without the mods the settings turned on.
    fn game_roots(&self) -> ContentRoots {
        let found = find_mods(&Settings::mod_folders(self.settings_path(), &self.roots));
        let on: Vec<&PathBuf> =
            self.settings.mods.iter().filter_map(|id| found.iter().find(|m| &m.id == id)).map(|m| &m.dir).collect();
        ContentRoots::new(self.roots.roots().iter().filter(|r| !on.contains(r)).cloned().collect())
    }

    /// The mods as the screen lists them (on ones first, in their order).
    pub fn mod_rows(&self) -> &[ModRow] {
        &self.mods_view
    }

    fn show_mods(&mut self, selected: Option<usize>) {
        let rows: Vec<Vec<String>> = self
            .mods_view
            .iter()
            .map(|m| {
                let state = if !m.problems.is_empty() {
                    "broken"
                } else if m.enabled {
                    "on"
                } else {
                    "off"
                };
                let name = m.info.as_ref().map_or_else(|| m.id.clone(), |i| i.name.clone());
                let version = m.info.as_ref().map_or_else(String::new, |i| i.version.clone());
                vec![state.to_string(), name, version]
            })
            .collect();
        if let Some(l) = self.find("Mods.wnd:ListMods") {
            self.ui.list_set_rows(l, rows);
            if let Some(i) = selected {
                self.ui.list_select(l, Some(i));
            }
        }
        let details = selected.and_then(|i| self.mods_view.get(i)).map_or_else(
            || {
                if self.mods_view.is_empty() {
                    let folder = Settings::mod_folders(self.settings_path(), &self.roots)
                        .first()
                        .map_or(String::new(), |d| d.display().to_string());
                    self.say("Message:NoMods", &[("folder", &folder)])
                } else {
                    self.say("Message:ChooseModToSee", &[])
                }
            },
            describe,
        );
        self.set_text("Mods.wnd:ModDetails", &details);
    }

    fn selected_mod(&self) -> Option<usize> {
        let l = self.find("Mods.wnd:ListMods")?;
        self.ui.list_selected(l).first().copied()
    }
}

/// A mod's details in a few lines.
fn describe(m: &ModRow) -> String {
    let mut lines = Vec::new();
    match &m.info {
        Some(i) => {
            lines.push(format!("{} {} by {} (made for {})", i.name, i.version, i.author, i.game_version));
            lines.push(i.description.clone());
        }
        None => lines.push(format!("{} (no mod.ron)", m.dir.display())),
    }
    let replaces: Vec<&str> = m.files.iter().filter(|(_, r)| *r).map(|(f, _)| f.as_str()).collect();
    let adds: Vec<&str> = m.files.iter().filter(|(_, r)| !*r).map(|(f, _)| f.as_str()).collect();
    if !replaces.is_empty() {
        lines.push(format!("Replaces: {}", replaces.join(", ")));
    }
    if !adds.is_empty() {
        lines.push(format!("Adds: {}", adds.join(", ")));
    }
    if !m.problems.is_empty() {
        lines.push(format!("Broken, not used: {}", m.problems.join("; ")));
    }
    lines.join("\n")
}

pub(super) fn init(shell: &mut Shell) {
    let game = shell.game_roots();
    let found = find_mods(&Settings::mod_folders(shell.settings_path(), &game));
    let mut rows: Vec<ModRow> = Vec::new();
    // The ones turned on first, in their order; then the rest by name.
    let mut order: Vec<&str> = shell.settings.mods.iter().map(String::as_str).collect();
    order.extend(found.iter().map(|m| m.id.as_str()).filter(|id| !shell.settings.mods.iter().any(|s| s == id)));
    for id in order {
        let Some(m) = found.iter().find(|m| m.id == id) else { continue };
        let problems = problems_of(&m.dir, &game, &m.info);
        rows.push(ModRow {
            id: m.id.clone(),
            dir: m.dir.clone(),
            info: m.info.clone().ok().flatten(),
            enabled: shell.settings.mods.iter().any(|s| s == id) && problems.is_empty(),
            files: files_of(&m.dir, &game),
            problems,
        });
    }
    shell.mods_view = rows;
    let first = (!shell.mods_view.is_empty()).then_some(0);
    shell.show_mods(first);
}

pub(super) fn system(shell: &mut Shell, e: &UiEvent) {
    let chosen = shell.selected_mod();
    match (short(&e.name), &e.kind) {
        ("ListMods", EventKind::ListSelection(_)) => shell.show_mods(chosen),
        ("ButtonToggle", EventKind::Selected) | ("ListMods", EventKind::ListActivated(_)) => {
            let title = shell.say("Title:Mods", &[]);
            let Some(i) = chosen else {
                let text = shell.say("Message:ChooseMod", &[]);
                return shell.message(&title, &text, false);
            };
            let broken = shell.mods_view.get(i).is_some_and(|m| !m.problems.is_empty());
            if broken {
                let text = shell.say("Message:ModBroken", &[]);
                return shell.message(&title, &text, false);
            }
            if let Some(m) = shell.mods_view.get_mut(i) {
                m.enabled = !m.enabled;
            }
            shell.show_mods(Some(i));
        }
        ("ButtonUp", EventKind::Selected) => {
            if let Some(i) = chosen.filter(|&i| i > 0) {
                shell.mods_view.swap(i, i - 1);
                shell.show_mods(Some(i - 1));
            }
        }
        ("ButtonDown", EventKind::Selected) => {
            if let Some(i) = chosen.filter(|&i| i + 1 < shell.mods_view.len()) {
                shell.mods_view.swap(i, i + 1);
                shell.show_mods(Some(i + 1));
            }
        }
        ("ButtonSave", EventKind::Selected) => {
            let mut s = shell.settings.clone();
            s.mods = shell.mods_view.iter().filter(|m| m.enabled).map(|m| m.id.clone()).collect();
            if shell.save_settings_as("Title:Mods", s).is_some() {
                shell.request(super::ShellRequest::ApplyMods);
                shell.open(Screen::MainMenu);
            }
        }
        ("ButtonBack", EventKind::Selected) => shell.open(Screen::MainMenu),
        _ => {}
    }
}
