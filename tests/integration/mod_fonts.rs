//! Fonts in mods: a mod's `ui/fonts/<Name>.ttf` draws the text of windows whose `FONT` names
//! it (by the file's stem) in its own face — the pixels differ from the game's Noto Sans — and
//! a name no font file gives falls back to Noto Sans, which `ui-check` says. The font file is
//! one already on the machine (Cantarell from the `sctk-adwaita` crate in the cargo registry,
//! else DejaVu Serif), copied into the test's mod: nothing is downloaded.

use std::path::PathBuf;

use crate::common;

use ridgeline::game::screenshot;
use ridgeline::game::shell::layout_check::{self, Options};
use ridgeline::game::shell::{Shell, callbacks};
use ridgeline::ui::draw::DrawCmd;

/// A TrueType font file on this machine that is not Noto Sans.
fn a_font_file() -> PathBuf {
    let cargo = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_default();
    let registry = cargo.join("registry/src");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&registry)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|index| std::fs::read_dir(index.path()).into_iter().flatten().flatten())
        .filter(|c| c.file_name().to_string_lossy().starts_with("sctk-adwaita-"))
        .map(|c| c.path().join("src/title/Cantarell-Regular.ttf"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    let system = PathBuf::from("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf");
    found.pop().or_else(|| system.is_file().then_some(system)).unwrap_or_else(|| {
        panic!("no font file found: looked for sctk-adwaita's Cantarell under {} and DejaVu Serif", registry.display())
    })
}

/// A mod bringing the screen `OptionsMenu2.wnd` whose title's `FONT` is `font`, with the
/// font file `ui/fonts/<file_as>.ttf` when given.
fn font_mod(parent: &std::path::Path, name: &str, font: &str, file_as: Option<&str>) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(dir.join("ui/fonts")).unwrap();
    std::fs::write(dir.join("mod.ron"), format!("(name: \"{name}\", version: \"1\", screens: [\"OptionsMenu2.wnd\"])"))
        .unwrap();
    let layout = common::read(&common::root().join("tests/data/mod_ui/OptionsMenu2.wnd"))
        .replace("NAME: \"Noto Sans\", SIZE: 40", &format!("NAME: \"{font}\", SIZE: 40"));
    std::fs::write(dir.join("ui/OptionsMenu2.wnd"), layout).unwrap();
    if let Some(stem) = file_as {
        std::fs::copy(a_font_file(), dir.join("ui/fonts").join(format!("{stem}.ttf"))).unwrap();
    }
    dir
}

/// The mod's screen drawn offscreen at 800×600, and the shell.
fn draw(dir: &std::path::Path) -> (image::RgbaImage, Shell) {
    let roots = common::roots().with_mod(dir.to_path_buf());
    let mut s = Shell::new(&roots, (800.0, 600.0), dir.join("settings.ron")).expect("the mod loads");
    assert!(s.run_action("open:OptionsMenu2"));
    (screenshot::render_shell(&s, (800, 600)).expect("offscreen render"), s)
}

/// Pixels of the title's box (100–700, 60–140) that differ between two pictures.
fn title_differs(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    let mut n = 0;
    for y in 60..140 {
        for x in 100..700 {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            n += usize::from((0..3).map(|i| p[i].abs_diff(q[i]) as u32).sum::<u32>() > 60);
        }
    }
    n
}

#[test]
fn a_mods_font_draws_its_labels_in_its_own_face() {
    let tmp = common::temp_dir("mod-font");
    let (theirs, s) = draw(&font_mod(&tmp, "with-font", "Orbit", Some("Orbit")));
    let (fallback, _) = draw(&font_mod(&tmp, "no-file", "Orbit", None));
    let (game, _) = draw(&font_mod(&tmp, "game-font", "Noto Sans", None));
    theirs.save(tmp.join("mod-font.png")).unwrap();
    fallback.save(tmp.join("fallback-font.png")).unwrap();
    // The title is drawn in the mod's face: a Font command precedes its text.
    let title = s.find("OptionsMenu2.wnd:Title").unwrap();
    let face = s.ui.window(title).unwrap().face;
    assert_ne!(face, 0, "the title names the mod's font");
    let cmds = ridgeline::game::frame::ui_commands(&s, None, false);
    let at = cmds.iter().position(|c| matches!(c, DrawCmd::Text { text, .. } if text == "More Options")).unwrap();
    assert!(cmds[..at].iter().rev().find_map(|c| if let DrawCmd::Font(f) = c { Some(*f) } else { None }) == Some(face));
    // Its pixels differ from the fallback's, which are the game's own face's.
    let changed = title_differs(&theirs, &fallback);
    assert!(changed > 400, "only {changed} title pixels differ from the fallback");
    assert_eq!(title_differs(&fallback, &game), 0, "a name no file gives draws in Noto Sans");
    // Only the title changed: the buttons keep the game's face.
    let (y0, y1) = (200, 240);
    let buttons = (y0..y1)
        .flat_map(|y| (100..320).map(move |x| (x, y)))
        .filter(|&(x, y)| theirs.get_pixel(x, y) != game.get_pixel(x, y))
        .count();
    assert_eq!(buttons, 0);
}

#[test]
fn ui_check_says_which_font_names_fall_back() {
    let tmp = common::temp_dir("mod-font-check");
    let dir = font_mod(&tmp, "fonts", "Orbit", Some("Orbit"));
    // A second title in a name the game accepts but no file gives.
    let layout = common::read(&dir.join("ui/OptionsMenu2.wnd"))
        .replace("NAME: \"Noto Sans\", SIZE: 15", "NAME: \"Arial\", SIZE: 15");
    let layout = layout.replacen(
        "TEXT = \"Details\";",
        "TEXT = \"Details\";\n    FONT = NAME: \"Arial\", SIZE: 15, BOLD: 0;",
        1,
    );
    std::fs::write(dir.join("ui/OptionsMenu2.wnd"), layout).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![dir.join("ui")], Options::default()).unwrap();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let note = out.notes.iter().find(|n| n.contains("no font file gives")).expect("a fallback note");
    assert!(note.contains("(Arial at ") && note.contains("drawn in the game's Noto Sans"), "{note}");
    assert!(!out.notes.iter().any(|n| n.contains("Orbit")), "the mod's font is not a fallback: {:?}", out.notes);
    // Without the file, the name is not the game's: noted as drawn with Noto Sans.
    std::fs::remove_file(dir.join("ui/fonts/Orbit.ttf")).unwrap();
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![dir.join("ui")], Options::default()).unwrap();
    assert!(out.notes.iter().any(|n| n.contains("font(s) not in the game (Orbit at ")), "{:?}", out.notes);
}
