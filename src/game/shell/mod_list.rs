//! The mods found, as the Mods screen lists them: each mod's folder, description, the game's
//! files it replaces or adds and — for a broken one — its problems, each checked with only it
//! in front of the game; and leaving broken mods out at start, with what the player is told.
//!
//! Must not: turn on a broken mod, or change any mod's files.

use std::path::{Path, PathBuf};

use crate::content::ContentRoots;
use crate::content::mod_info::{ModInfo, find_mods};
use crate::content::requires::{ModRef, order, unmet};
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
    /// Files it brings: (path inside the mod, true when it replaces one of the game's). Its
    /// string tables (`ui/strings*.ron`) are among them, but merge rather than replace: see
    /// `strings`.
    pub files: Vec<(String, bool)>,
    /// Its string tables, each merged entry by entry into the game's: (path inside the mod,
    /// entries the game's table lacks, entries that override the game's words).
    pub strings: Vec<(String, usize, usize)>,
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

/// True for a string table's path inside a mod (`ui/strings.ron`, `ui/strings.de.ron`).
fn is_string_table(rel: &str) -> bool {
    rel.strip_prefix("ui/strings").is_some_and(|r| r.ends_with(".ron") && !r.contains('/'))
}

/// The string tables of the mod in `dir`, each as (path inside the mod, entries it adds,
/// entries of the game's it overrides): a language's table is held against the game's table
/// of that language, else the game's own words. A table that cannot be read counts nothing
/// (the mod's problems say why).
fn strings_of(dir: &Path, files: &[(String, bool)], game: &ContentRoots) -> Vec<(String, usize, usize)> {
    let read = |path: &Path| {
        crate::defs::Source::read(path)
            .ok()
            .and_then(|src| src.parse::<std::collections::BTreeMap<String, String>>().ok())
            .unwrap_or_default()
    };
    let own = Labels::load_all(game).unwrap_or_default();
    files
        .iter()
        .filter(|(rel, _)| is_string_table(rel))
        .map(|(rel, _)| {
            let code = rel.trim_start_matches("ui/strings").trim_end_matches(".ron").trim_start_matches('.');
            let theirs =
                if code.is_empty() { own.clone() } else { Labels::load_language(game, code).unwrap_or_default() };
            let entries = read(&dir.join(rel));
            let overrides = entries.keys().filter(|k| theirs.0.contains_key(*k)).count();
            (rel.clone(), entries.len() - overrides, overrides)
        })
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
            refuse(&mut refused, id, dir, problems);
        }
    }
    let kept = meet_requirements(kept, game, &mut refused);
    (ContentRoots::new(kept), refused)
}

/// The mods in use: the `--mod` folders `base` (the command line's roots, the game's own
/// last) puts first, then those `settings` turn on, each checked alone in front of the
/// game's own content so one broken folder (a `--mod` one too) is left out without taking the
/// others with it. Returns the roots to use and the mods refused.
pub fn mods_in_use(
    base: &ContentRoots,
    settings: &crate::game::settings::Settings,
    settings_path: &std::path::Path,
    lexicon: &Lexicon,
) -> (ContentRoots, Vec<Refused>) {
    let front = base.roots().len().saturating_sub(1);
    let wanted = settings.roots_with_mods(base, front, settings_path);
    let game = ContentRoots::new(base.roots()[front..].to_vec());
    leave_out_broken(&wanted, &game, lexicon)
}

/// Logs and records one mod left out.
fn refuse(refused: &mut Vec<Refused>, id: String, dir: &Path, problems: Vec<String>) {
    log::warn!("mod {id} ({}) left out: {} problem(s)", dir.display(), problems.len());
    for p in &problems {
        log::warn!("  {p}");
    }
    refused.push((id, problems));
}

/// The folder name of a mod folder.
fn id_of(dir: &Path) -> String {
    dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `kept` (mods front first, then the game's roots) without the mods whose requirements are
/// not on (each refused, naming what it requires; leaving one out may leave out those that
/// need it), the rest ordered so each mod is in front of the mods it requires.
fn meet_requirements(kept: Vec<PathBuf>, game: &ContentRoots, refused: &mut Vec<Refused>) -> Vec<PathBuf> {
    let (mut mods, rest): (Vec<PathBuf>, Vec<PathBuf>) = kept.into_iter().partition(|d| !game.roots().contains(d));
    // Every mod that could have been on: beside these ones, and in the game's mods/ folders.
    let mut folders: Vec<PathBuf> = mods.iter().filter_map(|d| d.parent().map(Path::to_path_buf)).collect();
    folders.extend(game.roots().iter().map(|r| r.join("mods")));
    let found: Vec<String> = find_mods(&folders).into_iter().map(|m| m.id).collect();
    let found: Vec<&str> = found.iter().map(String::as_str).collect();
    loop {
        let infos: Vec<(String, Option<ModInfo>)> =
            mods.iter().map(|d| (id_of(d), ModInfo::load(d).ok().flatten())).collect();
        let refs: Vec<ModRef<'_>> = infos.iter().map(|(id, info)| ModRef { id, info: info.as_ref() }).collect();
        let broken = refs.iter().enumerate().find_map(|(i, m)| {
            let why = unmet(*m, &refs, &found);
            (!why.is_empty()).then_some((i, why))
        });
        match broken {
            Some((i, why)) => {
                let dir = mods.remove(i);
                refuse(refused, id_of(&dir), &dir, why);
            }
            None => {
                let mut ordered: Vec<PathBuf> = order(&refs).into_iter().map(|i| mods[i].clone()).collect();
                ordered.extend(rest);
                return ordered;
            }
        }
    }
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
        let files = files_of(&m.dir, game);
        rows.push(ModRow {
            id: m.id.clone(),
            dir: m.dir.clone(),
            info: m.info.clone().ok().flatten(),
            enabled: settings.mods.iter().any(|s| s == id) && problems.is_empty(),
            strings: strings_of(&m.dir, &files, game),
            files,
            problems,
        });
    }
    rows
}

/// Why row `i` cannot be on beside the rows turned on (`i` counted as on): each requirement
/// of its `mod.ron` not met, naming it and what it requires. Empty: all met.
pub fn unmet_requirements(rows: &[ModRow], i: usize) -> Vec<String> {
    let Some(m) = rows.get(i) else { return Vec::new() };
    let on: Vec<ModRef<'_>> = rows
        .iter()
        .enumerate()
        .filter(|(j, r)| r.enabled || *j == i)
        .map(|(_, r)| ModRef { id: &r.id, info: r.info.as_ref() })
        .collect();
    let found: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    unmet(ModRef { id: &m.id, info: m.info.as_ref() }, &on, &found)
}

/// The mods on that require row `i` (what turning it off would break), by folder name.
pub fn required_by(rows: &[ModRow], i: usize) -> Vec<String> {
    let Some(m) = rows.get(i) else { return Vec::new() };
    rows.iter()
        .filter(|r| r.enabled && r.info.as_ref().is_some_and(|info| info.requires.iter().any(|q| q.id == m.id)))
        .map(|r| r.id.clone())
        .collect()
}

/// The mods turned on, by folder name, in the load order their requirements ask for (each
/// in front of the mods it requires), else in the list's order.
pub fn enabled_in_order(rows: &[ModRow]) -> Vec<String> {
    let on: Vec<&ModRow> = rows.iter().filter(|r| r.enabled).collect();
    let refs: Vec<ModRef<'_>> = on.iter().map(|r| ModRef { id: &r.id, info: r.info.as_ref() }).collect();
    order(&refs).into_iter().map(|i| on[i].id.clone()).collect()
}

/// A mod's details in a few lines, with what else the list knows of it (`notes`, one line
/// each: its requirements not met, its patches' conflicts with other mods').
pub fn describe(m: &ModRow, notes: &[String]) -> String {
    let mut lines = Vec::new();
    match &m.info {
        Some(i) => {
            let mut line = format!("{} {}", i.name, i.version);
            if !i.author.is_empty() {
                line.push_str(&format!(" by {}", i.author));
            }
            if !i.game_version.is_empty() {
                line.push_str(&format!(" (made for {})", i.game_version));
            }
            lines.push(line);
            lines.push(i.description.clone());
            if !i.requires.is_empty() {
                let needs: Vec<String> =
                    i.requires
                        .iter()
                        .map(|r| {
                            if r.version.is_empty() { r.id.clone() } else { format!("{} {} or later", r.id, r.version) }
                        })
                        .collect();
                lines.push(format!("Requires: {}", needs.join(", ")));
            }
            if !i.screens.is_empty() {
                lines.push(format!("Screens: {}", i.screens.join(", ")));
            }
        }
        None => lines.push(format!("{} (no mod.ron)", m.dir.display())),
    }
    // String tables merge entry by entry: said with what they add and override, not as files
    // replaced.
    let whole = |f: &&(String, bool)| !is_string_table(&f.0);
    let replaces: Vec<&str> = m.files.iter().filter(whole).filter(|(_, r)| *r).map(|(f, _)| f.as_str()).collect();
    let adds: Vec<&str> = m.files.iter().filter(whole).filter(|(_, r)| !*r).map(|(f, _)| f.as_str()).collect();
    for (file, added, overridden) in &m.strings {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        lines.push(format!(
            "Merges {file} into the game's strings: adds {added} string{}, overrides {overridden} (the rest stay the game's)",
            plural(*added)
        ));
    }
    if !replaces.is_empty() {
        lines.push(format!("Replaces: {}", replaces.join(", ")));
    }
    if !adds.is_empty() {
        lines.push(format!("Adds: {}", adds.join(", ")));
    }
    if !m.problems.is_empty() {
        lines.push(format!("Broken, not used: {}", m.problems.join("; ")));
    }
    lines.extend(notes.iter().cloned());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(author: &str, game_version: &str) -> ModRow {
        let info = ModInfo {
            name: "Desert".into(),
            version: "1.0".into(),
            author: author.into(),
            game_version: game_version.into(),
            description: String::new(),
            requires: Vec::new(),
            screens: Vec::new(),
        };
        ModRow {
            id: "desert".into(),
            dir: PathBuf::from("mods/desert"),
            info: Some(info),
            enabled: true,
            files: Vec::new(),
            strings: Vec::new(),
            problems: Vec::new(),
        }
    }

    #[test]
    fn a_mods_details_leave_out_an_author_or_game_version_it_does_not_give() {
        assert_eq!(describe(&row("", ""), &[]).lines().next(), Some("Desert 1.0"));
        assert_eq!(describe(&row("Ann", ""), &[]).lines().next(), Some("Desert 1.0 by Ann"));
        assert_eq!(describe(&row("", "0.9"), &[]).lines().next(), Some("Desert 1.0 (made for 0.9)"));
    }
}
