//! The layout editor's Save on a layout other mods patch, driven as a modder would (mods in
//! folders, F10, a nudge, `s`, the files read back as the watcher would): it writes only what
//! was edited. A mod with a patch of the layout gets the edited keys and the added windows
//! merged into that patch; a mod with its own copy of the layout gets the edit in that copy,
//! without the other mods' changes baked in. Either way the other mods' patches still apply
//! (their labels and windows as they were), and what was saved counts as saved once read back.

use std::path::{Path, PathBuf};

use crate::common::{self, click};

use ridgeline::content::ContentRoots;
use ridgeline::game::shell::layout_check::{self, Options};
use ridgeline::game::shell::{Shell, callbacks};
use ridgeline::ui::wnd::model::WindowType;
use ridgeline::ui::{Input, Key};

/// A mod `name` in `parent` whose `ui/patches/MainMenu.wnd` is `patch`.
fn patch_mod(parent: &Path, name: &str, patch: &str) -> PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(dir.join("ui/patches")).unwrap();
    std::fs::write(dir.join("mod.ron"), format!("(name: \"{name}\", version: \"1\")")).unwrap();
    std::fs::write(dir.join("ui/patches/MainMenu.wnd"), patch).unwrap();
    dir
}

/// Another mod's changes: the Options button renamed (by words, not a label), the subtitle
/// removed and a button added.
const OTHER: &str = "WINDOW
  NAME = \"ButtonOptions\";
  TEXT = \"Settings\";
END
WINDOW
  NAME = \"Subtitle\";
  PATCH = REMOVE;
END
WINDOW
  NAME = \"MainMenuParent\";
  CHILD
  WINDOW
    WINDOWTYPE = PUSHBUTTON;
    SCREENRECT = UPPERLEFT: 420 200, BOTTOMRIGHT: 640 240, CREATIONRESOLUTION: 800 600;
    NAME = \"ButtonThanks\";
    STATUS = ENABLED;
    STYLE = PUSHBUTTON+MOUSETRACK;
    TEXT = \"Thanks\";
    ACTION = \"credits\";
    ENABLEDDRAWDATA = IMAGE: ButtonNormal, COLOR: 255 255 255 255, BORDERCOLOR: 255 255 255 0;
  END
  ENDALLCHILDREN
END
";

/// The shell over `roots` with the editor on over the main menu and the Skirmish button
/// nudged ten units right.
fn edit_menu(roots: &ContentRoots, settings: &Path) -> Shell {
    let mut s = Shell::new(roots, (1280.0, 720.0), settings.to_path_buf()).expect("the mods load");
    s.prefs.settings.modder_mode = true;
    s.toggle_editor();
    assert!(s.edit_with(Some("MainMenu.wnd:ButtonSkirmish")));
    s.handle(Input::Key { key: Key::Right, shift: true });
    assert!(s.editor().unwrap().unsaved());
    s
}

/// `s` saves; the message says where; OK closes it.
fn save(s: &mut Shell) -> String {
    s.handle(Input::Char('s'));
    assert!(s.message_open(), "the save says where it went");
    let said = s.ui.window(s.find("MessageBox.wnd:MessageText").unwrap()).unwrap().text.clone();
    click(s, "MessageBox.wnd:ButtonOk");
    said
}

fn text(s: &Shell, name: &str) -> String {
    s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().text.clone()
}

/// Read back as the watcher would: nothing is asked, and the edits count as saved.
fn read_back_as_saved(s: &mut Shell, roots: &ContentRoots) {
    s.reload_layouts(roots).expect("the saved files load");
    assert!(!s.message_open(), "no question: the files are what was saved");
    assert!(!s.editor().unwrap().unsaved());
}

#[test]
fn a_save_into_a_mods_patch_writes_only_the_edited_keys_and_windows() {
    let tmp = common::temp_dir("editor-patch-save");
    let other = patch_mod(&tmp, "other", OTHER);
    let mine = patch_mod(&tmp, "mine", "WINDOW\n  NAME = \"ButtonCredits\";\n  TEXT = \"Cast\";\nEND\n");
    let roots = common::roots().with_mod(other.clone()).with_mod(mine.clone());
    let mut s = edit_menu(&roots, &tmp.join("settings.ron"));
    // A new button in the menu's frame too.
    assert!(s.edit_with(Some("MainMenu.wnd:MainMenuParent")));
    s.add_window(WindowType::PushButton);
    let added = s.editor().unwrap().selected.clone().unwrap();
    let said = save(&mut s);
    let patch = mine.join("ui/patches/MainMenu.wnd");
    assert!(said.contains(&patch.display().to_string()), "{said}");
    let written = common::read(&patch);
    // The mod's own change stays; the edit is there, as the keys it changed and the window added.
    assert!(written.contains("TEXT = \"Cast\""), "{written}");
    assert!(written.contains("NAME = \"MainMenu.wnd:ButtonSkirmish\";\n  SCREENRECT = UPPERLEFT: "), "{written}");
    assert!(!written.contains("MainMenu:ButtonSkirmish"), "the button's text is not copied: {written}");
    assert!(written.contains(&format!("NAME = \"{added}\"")) && written.contains("WINDOWTYPE = PUSHBUTTON"));
    // Nothing of the other mod's: its words, its removal, its button.
    for theirs in ["Settings", "Subtitle", "ButtonThanks", "ButtonOptions"] {
        assert!(!written.contains(theirs), "{theirs} copied into the editing mod: {written}");
    }
    assert!(!mine.join("ui/MainMenu.wnd").exists(), "no whole copy made");
    assert_eq!(common::read(&other.join("ui/patches/MainMenu.wnd")), OTHER);
    read_back_as_saved(&mut s, &roots);
    // Both mods still apply, each with its own words.
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Settings");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonCredits"), "Cast");
    assert!(s.find("MainMenu.wnd:ButtonThanks").is_some() && s.find("MainMenu.wnd:Subtitle").is_none());
    assert!(s.find(&added).is_some());
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    assert!(out.problems.is_empty() && out.conflicts.is_empty(), "{:?} {:?}", out.problems, out.conflicts);
}

#[test]
fn a_save_into_a_mods_own_copy_leaves_the_other_mods_patches_out_of_it() {
    let tmp = common::temp_dir("editor-whole-save");
    let other = patch_mod(&tmp, "other", OTHER);
    let mine = tmp.join("mine");
    std::fs::create_dir_all(mine.join("ui")).unwrap();
    let game_menu = common::read(&common::root().join("ui/MainMenu.wnd"));
    std::fs::write(mine.join("ui/MainMenu.wnd"), &game_menu).unwrap();
    let roots = common::roots().with_mod(other.clone()).with_mod(mine.clone());
    let mut s = edit_menu(&roots, &tmp.join("settings.ron"));
    let said = save(&mut s);
    let copy = mine.join("ui/MainMenu.wnd");
    assert!(said.contains(&copy.display().to_string()), "{said}");
    let written = common::read(&copy);
    // The edit is in the copy; the other mod's changes are not baked into it.
    assert_ne!(written, game_menu);
    assert!(written.contains("TEXT = \"MainMenu:ButtonOptions\""), "the label, not the other mod's words");
    assert!(written.contains("NAME = \"MainMenu.wnd:Subtitle\""), "the removed window is still the file's");
    assert!(!written.contains("ButtonThanks") && !written.contains("Settings"), "{written}");
    assert!(!mine.join("ui/patches").exists(), "no patch made");
    // Read back, the other mod's patch applies over the copy as before, and the edit shows.
    read_back_as_saved(&mut s, &roots);
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Settings");
    assert!(s.find("MainMenu.wnd:ButtonThanks").is_some() && s.find("MainMenu.wnd:Subtitle").is_none());
    let shell = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).expect("loads fresh too");
    let x = |s: &Shell| s.ui.window(s.find("MainMenu.wnd:ButtonSkirmish").unwrap()).unwrap().rect.x;
    let plain = Shell::new(&common::roots(), (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    assert!(x(&shell) > x(&plain), "the button stands right of the game's own place");
}

/// An original game's layout in a mod (`OptionsMenu.wnd`, read under Ridgeline's names) stays
/// as the original wrote it: the edit goes into a patch of `Options.wnd` beside it.
#[test]
fn an_original_layouts_edit_goes_into_a_patch_beside_it() {
    let dir = common::temp_dir("editor-original-save");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let original = common::read(&common::root().join("tests/data/generals/OptionsMenu.wnd"));
    std::fs::write(dir.join("ui/OptionsMenu.wnd"), &original).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    s.prefs.settings.modder_mode = true;
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    s.toggle_editor();
    assert_eq!(s.editor().unwrap().file, "Options.wnd");
    assert!(s.edit_with(Some("Options.wnd:SliderMusic")));
    s.handle(Input::Key { key: Key::Right, shift: true });
    let said = save(&mut s);
    let patch = dir.join("ui/patches/Options.wnd");
    assert!(said.contains(&patch.display().to_string()), "{said}");
    assert_eq!(common::read(&dir.join("ui/OptionsMenu.wnd")), original, "the original's file is untouched");
    assert!(!dir.join("ui/Options.wnd").exists(), "no second copy to shadow it");
    let written = common::read(&patch);
    assert!(written.starts_with("WINDOW\n  NAME = \"Options.wnd:SliderMusic\";\n  SCREENRECT"), "{written}");
    read_back_as_saved(&mut s, &roots);
}

/// What a patch cannot give (here a window moved earlier among its siblings: a patch keeps the
/// layout's order) is said at the save, names the window it shows otherwise, and stays unsaved
/// — also after the watcher reads the files back, without a question.
#[test]
fn what_a_patch_cannot_give_is_said_and_stays_unsaved() {
    let tmp = common::temp_dir("editor-patch-order");
    let mine = patch_mod(&tmp, "mine", "WINDOW\n  NAME = \"ButtonCredits\";\n  TEXT = \"Cast\";\nEND\n");
    let roots = common::roots().with_mod(mine.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    s.prefs.settings.modder_mode = true;
    s.toggle_editor();
    assert!(s.edit_with(Some("MainMenu.wnd:ButtonLoad")));
    s.handle(Input::Char('['));
    assert!(s.editor().unwrap().unsaved(), "moved before the Skirmish button");
    let said = save(&mut s);
    assert!(said.contains("Not all of it shows as edited"), "{said}");
    assert!(said.contains("these windows show otherwise (they stay unsaved): MenuPanel"), "{said}");
    assert!(s.editor().unwrap().unsaved());
    assert_eq!(
        common::read(&mine.join("ui/patches/MainMenu.wnd")),
        "WINDOW\n  NAME = \"ButtonCredits\";\n  TEXT = \"Cast\";\nEND\n"
    );
    s.reload_layouts(&roots).unwrap();
    assert!(!s.message_open(), "no question: the file is what was saved");
    assert!(s.editor().unwrap().unsaved());
}
