//! The mods found, as the Mods screen lists them: each mod's folder, description, the game's
//! files it replaces or adds and — for a broken one — its problems, each checked with only it
//! in front of the game; and leaving broken mods out at start, with what the player is told.
//!
//! Must not: turn on a broken mod, or change any mod's files.

use std::path::{Path, PathBuf};

use crate::content::ContentRoots;
use crate::content::mod_info::{ModInfo, find_mods};
use crate::game::settings::Settings;
use crate::ui::labels::Labels;
use crate::ui::lexicon::Lexicon;

use super::layout_check;

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
fn problems_of(
    dir: &Path,
    game: &ContentRoots,
    info: &Result<Option<ModInfo>, String>,
    lexicon: &Lexicon,
) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = info {
        out.push(e.clone());
    }
    let roots = game.clone().with_mod(dir.to_path_buf());
    if dir.join("ui").is_dir() {
        match layout_check::run(&roots, lexicon, vec![dir.join("ui")], layout_check::Options::default()) {
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
/// to use and the mods refused. Layouts are checked against `lexicon`.
pub fn leave_out_broken(roots: &ContentRoots, game: &ContentRoots, lexicon: &Lexicon) -> (ContentRoots, Vec<Refused>) {
    let mut kept = Vec::new();
    let mut refused = Vec::new();
    for dir in roots.roots() {
        if game.roots().contains(dir) {
            kept.push(dir.clone());
            continue;
        }
        let info = ModInfo::load(dir).map_err(|e| e.to_string());
        let problems = problems_of(dir, game, &info, lexicon);
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

/// The game's own content roots: `roots` without the mods `settings` turned on.
pub fn game_roots(settings: &Settings, settings_path: &Path, roots: &ContentRoots) -> ContentRoots {
    let found = find_mods(&Settings::mod_folders(settings_path, roots));
    let on: Vec<&PathBuf> =
        settings.mods.iter().filter_map(|id| found.iter().find(|m| &m.id == id)).map(|m| &m.dir).collect();
    ContentRoots::new(roots.roots().iter().filter(|r| !on.contains(r)).cloned().collect())
}

/// Every mod found beside the settings and in `game` (the game's own roots), as the screen
/// lists them: the ones `settings` turned on first, in their order, then the rest by name.
pub fn rows(settings: &Settings, settings_path: &Path, game: &ContentRoots, lexicon: &Lexicon) -> Vec<ModRow> {
    let found = find_mods(&Settings::mod_folders(settings_path, game));
    let mut rows: Vec<ModRow> = Vec::new();
    let mut order: Vec<&str> = settings.mods.iter().map(String::as_str).collect();
    order.extend(found.iter().map(|m| m.id.as_str()).filter(|id| !settings.mods.iter().any(|s| s == id)));
    for id in order {
        let Some(m) = found.iter().find(|m| m.id == id) else { continue };
        let problems = problems_of(&m.dir, game, &m.info, lexicon);
        rows.push(ModRow {
            id: m.id.clone(),
            dir: m.dir.clone(),
            info: m.info.clone().ok().flatten(),
            enabled: settings.mods.iter().any(|s| s == id) && problems.is_empty(),
            files: files_of(&m.dir, game),
            problems,
        });
    }
    rows
}

/// A mod's details in a few lines.
pub fn describe(m: &ModRow) -> String {
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
