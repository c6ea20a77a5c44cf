//! `ridgeline ui-check`: every layout (or the ones named) parsed and bound to the lexicon,
//! images, fonts and sounds, checked for the windows the game needs, with its notes (keys and
//! flags kept but unused, with "did you mean" for near misses) printed — as errors with
//! `--strict` — and, with mods in front, which of the game's files each mod overrides.
//!
//! Must not: change any file.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::ui::check::{Bindings, CheckReport, check_parsed, with_slips};

use crate::ui::lexicon::Lexicon;
use crate::ui::original_names::OriginalNames;

use super::error::ShellError;
use super::loading::bindings;
use super::required;

/// How to check.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Only the syntax.
    pub syntax_only: bool,
    /// Notes are problems too.
    pub strict: bool,
}

/// What the check found.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Problems, `file:line:col: message` (notes among them with `--strict`).
    pub problems: Vec<String>,
    /// Notes, `file:line:col: message`.
    pub notes: Vec<String>,
    /// Files that a mod in front replaces, as `mod file → file behind` (the game's or another
    /// mod's).
    pub overrides: Vec<(PathBuf, PathBuf)>,
    /// Whose each file of `overrides` is: (the mod in front, the owner of the file behind:
    /// `the game` or `mod "x"`).
    pub owners: Vec<(String, String)>,
    /// Conflicts between mods' single-window patches, each naming both mods and their
    /// `file:line:col`.
    pub conflicts: Vec<String>,
    /// Layouts checked.
    pub layouts: usize,
    /// Per file: name, windows, problems, notes.
    pub files: Vec<Value>,
}

impl Outcome {
    /// The report as one JSON object.
    pub fn json(&self) -> Value {
        json!({
            "files": self.files,
            "problems": self.problems,
            "notes": self.notes,
            "overrides": self.overrides.iter().zip(self.owners.iter()).map(|((m, g), (by, of))| json!({"file": m.display().to_string(), "mod": by, "overrides": g.display().to_string(), "of": of})).collect::<Vec<_>>(),
            "conflicts": self.conflicts,
        })
    }

    /// The report as lines for a person: problems, notes, what mods override, a summary.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self.problems.clone();
        out.extend(self.notes.iter().filter(|n| !self.problems.contains(n)).map(|n| format!("note: {n}")));
        out.extend(self.conflicts.iter().cloned());
        out.extend(self.overrides.iter().zip(self.owners.iter()).map(|((m, g), (by, of))| {
            let of = if of == "the game" { "the game's".to_string() } else { format!("{of}'s") };
            format!("{} ({by}) overrides {of} {}", m.display(), g.display())
        }));
        if self.problems.is_empty() {
            out.push(format!(
                "{} layout(s) ok{}",
                self.layouts,
                if self.notes.is_empty() { String::new() } else { format!(", {} note(s)", self.notes.len()) }
            ));
        }
        out
    }
}

/// The `.wnd` files in a folder, sorted.
pub fn layouts_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "wnd")).collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Files under `ui/`, `data/` and `maps/` of every root but the last (the mods) that the
/// roots behind it also have: what each mod replaces.
pub fn overrides(roots: &ContentRoots) -> Vec<(PathBuf, PathBuf)> {
    let all = roots.roots();
    let mut out = Vec::new();
    for (i, root) in all.iter().enumerate().take(all.len().saturating_sub(1)) {
        // Patches add up rather than replace each other (`patches.rs`).
        for r in crate::content::mod_info::content_files(root).into_iter().filter(|r| !r.starts_with("ui/patches")) {
            if let Some(behind) = all[i + 1..].iter().map(|b| b.join(&r)).find(|p| p.is_file()) {
                out.push((root.join(&r), behind));
            }
        }
    }
    out
}

/// A mod's layouts under an original game's name (`OptionsMenu.wnd`) and the game's layouts
/// they stand for (`Options.wnd`), behind them.
fn original_overrides(roots: &ContentRoots, names: &OriginalNames) -> Vec<(PathBuf, PathBuf)> {
    let all = roots.roots();
    let mut out = Vec::new();
    for (i, root) in all.iter().enumerate().take(all.len().saturating_sub(1)) {
        for l in names.layouts.iter().filter(|l| l.original != l.layout) {
            let theirs = root.join("ui").join(&l.original);
            let behind = all[i + 1..].iter().map(|b| b.join("ui").join(&l.layout)).find(|p| p.is_file());
            if let (true, Some(behind)) = (theirs.is_file(), behind) {
                out.push((theirs, behind));
            }
        }
    }
    out
}

/// Whose file `path` is: the owner of the content root it lies in (`the game`, `mod "x"`).
fn owner_of(roots: &ContentRoots, path: &Path) -> String {
    roots
        .roots()
        .iter()
        .find(|r| path.starts_with(r))
        .map_or_else(|| "the game".to_string(), |r| crate::content::mod_info::owner(roots, r))
}

/// Every mod's patches, applied to the layout each patches as the game loads it: the
/// problems of those that do not apply (a window the layout lacks, a key no patch sets), each
/// at the patch's `file:line:col`.
fn check_patches(roots: &ContentRoots, bindings: Option<&Bindings>) -> Vec<String> {
    let mut out = Vec::new();
    for layout in super::patches::patched_layouts(roots) {
        let names = bindings.map(|b| &b.names);
        let target = names
            .and_then(|n| super::loading::find_layout(roots, &layout, n))
            .or_else(|| roots.find(Path::new("ui").join(&layout)));
        let Some(path) = target else {
            for (p, _) in super::patches::patch_files(roots, &layout) {
                out.push(format!("{}:1:1: patches {layout}, which no content folder has", p.display()));
            }
            continue;
        };
        let Ok(text) = crate::content::read_text(&path) else { continue };
        let Ok(mut file) = crate::ui::wnd::parse(&path.display().to_string(), &text) else { continue };
        if let Some(n) = names {
            let found_as = path.file_name().and_then(|f| f.to_str()).unwrap_or_default();
            n.translate(found_as, &mut file);
        }
        out.extend(super::patches::apply_checked(roots, &layout, &mut file, bindings));
    }
    out
}

/// One layout: its report (an original game's layout checked under Ridgeline's names, the
/// optional windows it lacks among the notes) and its problems as lines.
fn check_one(p: &Path, shown: &str, text: &str, bindings: Option<&Bindings>) -> (CheckReport, Vec<String>) {
    // A misspelt key is told with the rest (an unknown callback, image or font), in one run.
    let (mut file, slips) = match crate::ui::wnd::parse_with_slips(shown, text) {
        Ok(parsed) => parsed,
        Err(e) => return (CheckReport::default(), vec![e.to_string()]),
    };
    let Some(b) = bindings else {
        let report = with_slips(check_parsed(shown, &file, None), slips);
        let problems = report.problems.iter().map(ToString::to_string).collect();
        return (report, problems);
    };
    let found_as = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let layout = b.names.translate(found_as, &mut file);
    let mut report = with_slips(check_parsed(shown, &file, Some(b)), slips);
    let mut problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    if problems.is_empty() {
        problems = required::missing_problems(shown, &layout, &file, &b.names);
        report.notes.extend(required::optional_notes(shown, &layout, &file, &b.names));
    }
    (report, problems)
}

/// Checks `paths` (folders stand for their layouts; none: every layout of the game and mods)
/// against `lexicon` (the shell's, `callbacks::lexicon`).
pub fn run(roots: &ContentRoots, lexicon: &Lexicon, given: Vec<PathBuf>, opts: Options) -> Result<Outcome, ShellError> {
    let mut paths: Vec<PathBuf> =
        given.into_iter().flat_map(|p| if p.is_dir() { layouts_in(&p) } else { vec![p] }).collect();
    if paths.is_empty() {
        paths = roots.roots().iter().flat_map(|r| layouts_in(&r.join("ui"))).collect();
    }
    let bindings = if opts.syntax_only { None } else { Some(bindings(roots, lexicon.clone())?) };
    let mut out = Outcome { layouts: paths.len(), overrides: overrides(roots), ..Outcome::default() };
    if let Some(b) = &bindings {
        out.overrides.extend(original_overrides(roots, &b.names));
    }
    out.owners = out.overrides.iter().map(|(m, g)| (owner_of(roots, m), owner_of(roots, g))).collect();
    out.conflicts = super::patches::conflicts(roots);
    if opts.strict {
        out.problems.extend(out.conflicts.iter().cloned());
    }
    out.problems.extend(check_patches(roots, bindings.as_ref()));
    // The mods' own descriptions are checked with their layouts.
    out.problems.extend(crate::content::mod_info::problems(roots));
    for p in &paths {
        let shown = p.display().to_string();
        let text = match crate::content::read_text(p) {
            Ok(t) => t,
            Err(e) => {
                out.problems.push(e.to_string());
                continue;
            }
        };
        let (report, problems) = check_one(p, &shown, &text, bindings.as_ref());
        let mut problems = problems;
        if opts.strict {
            problems.extend(report.notes.iter().cloned());
        }
        out.files
            .push(json!({"file": shown, "windows": report.windows, "problems": problems.len(), "notes": report.notes}));
        out.problems.extend(problems);
        out.notes.extend(report.notes);
    }
    Ok(out)
}
