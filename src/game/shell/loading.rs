//! What the shell loads when it starts or reloads: the bindings layouts are checked against
//! (lexicon, images, fonts, sounds), every layout it uses (each checked; all problems at once),
//! and the maps offered on the skirmish screen with their previews.
//!
//! Must not: open a screen or keep state (the shell holds what is loaded).

use std::collections::BTreeMap;
use std::path::PathBuf;

use image::RgbaImage;

use crate::content::ContentRoots;
use crate::content::mod_info::mod_screens;
use crate::map::preview::{StartMarks, start_on_picture};
use crate::map::{Map, MapContent};
use crate::ui::check::{Bindings, check_parsed};
use crate::ui::images::{FontBook, ImageSet};
use crate::ui::wnd::{WndFile, parse};

use crate::game::images::ImageKey;
use crate::ui::lexicon::Lexicon;
use crate::ui::original_names::OriginalNames;

use super::error::ShellError;
use super::screen::Screen;

/// A map offered on the skirmish screen.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    /// Folder.
    pub dir: PathBuf,
    /// Display name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Players it is made for.
    pub players: u8,
    /// Its start positions on the preview picture, as fractions of its sides from the top left.
    pub starts: Vec<(f32, f32)>,
}

/// The lexicon (`callbacks::lexicon`, handed in), images and fonts layouts are checked
/// against.
pub fn bindings(roots: &ContentRoots, mut lexicon: Lexicon) -> Result<Bindings, ShellError> {
    // A mod's own screens are opened by name, like the game's.
    for (name, ..) in mod_screens(roots) {
        lexicon.register(crate::ui::lexicon::CallbackKind::Action, &format!("open:{name}"));
    }
    let fonts_path = roots.find("ui/fonts.ron").unwrap_or_else(|| PathBuf::from("ui/fonts.ron"));
    Ok(Bindings {
        lexicon,
        images: ImageSet::load_all(roots)?,
        fonts: FontBook {
            files: roots.font_files().into_iter().map(|(name, ..)| name).collect(),
            ..FontBook::load(&fonts_path)?
        },
        sounds: Some(crate::defs::SoundTable::load(roots)?.sounds().iter().map(|s| s.name.clone()).collect()),
        labels: crate::ui::labels::Labels::load_all(roots)?,
        names: crate::ui::original_names::OriginalNames::load_all(roots)?,
    })
}

/// Every layout the shell uses (its screens and the message box), each checked against the
/// lexicon, images and fonts; all problems at once.
pub fn load_all_layouts(roots: &ContentRoots, bindings: &Bindings) -> Result<BTreeMap<String, WndFile>, ShellError> {
    let (layouts, problems) = load_layouts(roots, bindings);
    if problems.is_empty() { Ok(layouts) } else { Err(ShellError::Layouts(problems.join("\n"))) }
}

/// The layouts that load, and the problems of those that do not.
pub fn load_layouts(roots: &ContentRoots, bindings: &Bindings) -> (BTreeMap<String, WndFile>, Vec<String>) {
    let mut layouts = BTreeMap::new();
    let mut problems = Vec::new();
    for s in Screen::ALL {
        load_layout(roots, s.layout(), bindings, &mut layouts, &mut problems);
    }
    load_layout(roots, "MessageBox.wnd", bindings, &mut layouts, &mut problems);
    load_layout(roots, "Editor.wnd", bindings, &mut layouts, &mut problems);
    for (name, file, dir) in mod_screens(roots) {
        let taken = Screen::ALL.iter().any(|s| format!("{s:?}") == name || s.layout() == file)
            || ["MessageBox.wnd", "Editor.wnd"].contains(&file.as_str());
        if taken {
            let path = dir.join("mod.ron");
            problems.push(format!(
                "{}: screens: \"{file}\" takes the name of one of the game's screens: replace that file instead, or give the screen a name of its own",
                path.display()
            ));
            continue;
        }
        load_layout(roots, &file, bindings, &mut layouts, &mut problems);
    }
    (layouts, problems)
}

fn load_layout(
    roots: &ContentRoots,
    name: &str,
    b: &Bindings,
    out: &mut BTreeMap<String, WndFile>,
    problems: &mut Vec<String>,
) {
    let Some(path) = find_layout(roots, name, &b.names) else {
        problems.push(format!("ui/{name}: not found in any content root"));
        return;
    };
    let text = match crate::content::read_text(&path) {
        Ok(t) => t,
        Err(e) => {
            problems.push(e.to_string());
            return;
        }
    };
    let shown = path.display().to_string();
    // Parsed once, given Ridgeline's names (an original game's layout), then checked.
    let mut file = match parse(&shown, &text) {
        Ok(file) => file,
        Err(e) => {
            problems.push(e.to_string());
            return;
        }
    };
    let found_as = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    b.names.translate(&found_as, &mut file);
    let report = check_parsed(&shown, &file, Some(b));
    if !report.problems.is_empty() {
        problems.extend(report.problems.iter().map(ToString::to_string));
        return;
    }
    // The mods' single-window patches, the mods behind first, checked as they apply.
    let refused = super::patches::apply_checked(roots, name, &mut file, Some(b));
    if !refused.is_empty() {
        problems.extend(refused);
        return;
    }
    let missing = super::required::missing_problems(&shown, name, &file, &b.names);
    if !missing.is_empty() {
        problems.extend(missing);
        return;
    }
    out.insert(name.to_string(), file);
}

/// The layout file at `path` read as the game reads it: parsed and given Ridgeline's names
/// (an original game's layout), without the mods' patches.
pub fn read_layout(path: &std::path::Path, names: &OriginalNames) -> Result<WndFile, String> {
    let text = crate::content::read_text(path).map_err(|e| e.to_string())?;
    let mut file = parse(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    let found_as = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    names.translate(&found_as, &mut file);
    Ok(file)
}

/// The layout `name` as the game loads it from `roots` (its file, then every mod's patch of
/// it), without the checks: what the layout editor's save will look like when read back.
pub fn as_loaded(roots: &ContentRoots, name: &str, names: &OriginalNames) -> Result<WndFile, String> {
    let path = find_layout(roots, name, names).ok_or_else(|| format!("ui/{name}: not found in any content root"))?;
    let mut file = read_layout(&path, names)?;
    let problems = super::patches::apply_all(roots, name, &mut file);
    if problems.is_empty() { Ok(file) } else { Err(problems.join("\n")) }
}

/// The file of the layout `name`: the first root that holds it under its own name or under
/// the name of an original game's layout that stands for it (`OptionsMenu.wnd` for
/// `Options.wnd`), so a mod's original layout replaces the game's.
pub fn find_layout(roots: &ContentRoots, name: &str, names: &OriginalNames) -> Option<PathBuf> {
    let mut candidates = vec![name];
    candidates.extend(names.originals_of(name));
    roots.roots().iter().flat_map(|r| candidates.iter().map(move |c| r.join("ui").join(c))).find(|p| p.is_file())
}

/// The maps in the content roots with a small preview of each, and the problems of those
/// that could not be loaded (each naming its file).
pub fn find_maps(roots: &ContentRoots) -> (Vec<MapEntry>, BTreeMap<String, RgbaImage>, Vec<String>) {
    let mut maps = Vec::new();
    let mut previews = BTreeMap::new();
    let mut refused = Vec::new();
    let content = MapContent::load(roots).ok();
    for dir in roots.map_dirs() {
        let map = match Map::load(&dir) {
            Ok(m) => m,
            Err(e) => {
                refused.push(e.to_string());
                continue;
            }
        };
        if let Some(c) = &content {
            let mesh = match map.road_mesh(&c.roads) {
                Ok(mesh) => mesh,
                Err(e) => {
                    refused.push(e.to_string());
                    continue;
                }
            };
            let scale = (384 / map.file.size.0.max(1)).max(1);
            let rgb = crate::map::preview::render(&map, &c.classes, &mesh, scale, StartMarks::Plain);
            previews.insert(ImageKey::preview(&map.file.name).name(), image::DynamicImage::ImageRgb8(rgb).into_rgba8());
        }
        maps.push(MapEntry {
            dir,
            name: map.file.name.clone(),
            description: map.file.description.clone(),
            players: map.file.players,
            starts: (0..map.file.start_positions.len()).filter_map(|i| start_on_picture(&map, i)).collect(),
        });
    }
    (maps, previews, refused)
}
