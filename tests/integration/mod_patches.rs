//! Single-window patches (`ui/patches/<Layout>.wnd`): two mods patching one layout both apply,
//! in load order (a key set, a window removed, a window added and acting); the same key of
//! the same window set by two mods is a conflict named with both mods and their
//! `file:line:col`, by `ui-check` and on the Mods screen, the front mod's value applying; a
//! patch naming a window the layout lacks is refused at its line with the name meant; and
//! `ui-check` names a replaced file by the mod it came from, not as "the game's".

use crate::common::{self, click};

use ridgeline::game::shell::layout_check::{self, Options};
use ridgeline::game::shell::{Screen, Shell, callbacks};

/// A mod `name` in `parent` whose `ui/patches/MainMenu.wnd` is `patch`.
fn patch_mod(parent: &std::path::Path, name: &str, patch: &str) -> std::path::PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(dir.join("ui/patches")).unwrap();
    std::fs::write(dir.join("mod.ron"), format!("(name: \"{name}\", version: \"1\")")).unwrap();
    std::fs::write(dir.join("ui/patches/MainMenu.wnd"), patch).unwrap();
    dir
}

/// Renames the Options button and removes the subtitle.
const RENAME: &str = "// Options is called Settings here; no subtitle.
WINDOW
  NAME = \"MainMenu.wnd:ButtonOptions\";
  TEXT = \"Settings\";
END
WINDOW
  NAME = \"Subtitle\";
  PATCH = REMOVE;
END
";

/// Adds a Credits-like button beside the menu's panel.
const ADD: &str = "WINDOW
  NAME = \"MainMenu.wnd:MainMenuParent\";
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

fn text(s: &Shell, name: &str) -> String {
    s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().text.clone()
}

#[test]
fn two_mods_patching_one_layout_both_apply() {
    let tmp = common::temp_dir("patch-two");
    let a = patch_mod(&tmp, "rename", RENAME);
    let b = patch_mod(&tmp, "thanks", ADD);
    let roots = common::roots().with_mod(b.clone()).with_mod(a.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).expect("both patches apply");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Settings");
    assert!(s.find("MainMenu.wnd:Subtitle").is_none(), "removed");
    // The rest of the game's menu is there, and acts.
    assert_eq!(text(&s, "MainMenu.wnd:ButtonSkirmish"), "Skirmish");
    click(&mut s, "MainMenu.wnd:ButtonThanks");
    assert!(s.message_open(), "the added button's action ran");
    click(&mut s, "MessageBox.wnd:ButtonOk");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert_eq!(s.screen(), Some(Screen::Options));
    // No conflict: they touch different windows.
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    assert!(out.conflicts.is_empty() && out.problems.is_empty(), "{:?} {:?}", out.conflicts, out.problems);
}

#[test]
fn two_mods_setting_one_key_of_one_window_conflict_named_with_both() {
    let tmp = common::temp_dir("patch-conflict");
    let mods = tmp.join("mods");
    let front = patch_mod(&mods, "front", RENAME);
    let behind = patch_mod(&mods, "behind", "WINDOW\n  NAME = \"ButtonOptions\";\n  TEXT = \"Preferences\";\nEND\n");
    let roots = common::roots().with_mod(behind.clone()).with_mod(front.clone());
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    let wanted = format!(
        "conflict: MainMenu.wnd window \"ButtonOptions\" TEXT set by mod \"front\" ({}:4:3) and by mod \"behind\" ({}:3:3); mod \"front\"'s applies (it is in front)",
        front.join("ui/patches/MainMenu.wnd").display(),
        behind.join("ui/patches/MainMenu.wnd").display()
    );
    assert_eq!(out.conflicts, std::slice::from_ref(&wanted));
    assert!(out.lines().contains(&wanted));
    // Not a refusal, unless strict.
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let strict =
        layout_check::run(&roots, &callbacks::lexicon(), vec![], Options { strict: true, ..Options::default() });
    assert!(strict.unwrap().problems.contains(&wanted));
    // The front mod's text is the one shown.
    let s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    assert_eq!(text(&s, "MainMenu.wnd:ButtonOptions"), "Settings");
    // The Mods screen says it in each mod's details.
    std::fs::write(tmp.join("settings.ron"), "(mods: [\"front\", \"behind\"])").unwrap();
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    s.open(Screen::Mods);
    let list = s.find("Mods.wnd:ListMods").unwrap();
    for id in ["front", "behind"] {
        let i = s.mod_rows().iter().position(|m| m.id == id).unwrap();
        s.ui.list_select(list, Some(i));
        s.dispatch();
        assert!(text(&s, "Mods.wnd:ModDetails").contains(&wanted), "{id}: {}", text(&s, "Mods.wnd:ModDetails"));
    }
}

/// `ui-check` names `wanted` among its problems, and the shell refuses to start with it.
fn refused_with(roots: &ridgeline::content::ContentRoots, tmp: &std::path::Path, wanted: &str) {
    let out = layout_check::run(roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    assert!(out.problems.iter().any(|p| p == wanted), "{:?}", out.problems);
    let e = Shell::new(roots, (1280.0, 720.0), tmp.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains(wanted), "{e}");
}

#[test]
fn a_patch_naming_a_window_the_layout_lacks_is_refused_at_its_line() {
    let tmp = common::temp_dir("patch-slip");
    let dir = patch_mod(&tmp, "slip", "WINDOW\n  NAME = \"ButtonOption\";\n  TEXT = \"Settings\";\nEND\n");
    let roots = common::roots().with_mod(dir.clone());
    let wanted = format!(
        "{}:2:3: patch names window \"ButtonOption\", which MainMenu.wnd does not have (did you mean ButtonOptions?); a new window needs a WINDOWTYPE",
        dir.join("ui/patches/MainMenu.wnd").display()
    );
    refused_with(&roots, &tmp, &wanted);
    // What a patch sets is checked where the patch says it.
    std::fs::write(
        dir.join("ui/patches/MainMenu.wnd"),
        "WINDOW\n  NAME = \"ButtonOptions\";\n  ACTION = \"credit\";\nEND\n",
    )
    .unwrap();
    let wanted = format!(
        "{}:3:3: unknown action \"credit\" (did you mean credits?)",
        dir.join("ui/patches/MainMenu.wnd").display()
    );
    refused_with(&roots, &tmp, &wanted);
    // A key no patch sets is named too.
    std::fs::write(
        dir.join("ui/patches/MainMenu.wnd"),
        "WINDOW\n  NAME = \"ButtonOptions\";\n  WINDOWTYPE = USER;\nEND\n",
    )
    .unwrap();
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    assert!(
        out.problems
            .iter()
            .any(|p| p.contains("MainMenu.wnd:3:3: window \"ButtonOptions\": WINDOWTYPE cannot be patched")),
        "{:?}",
        out.problems
    );
}

#[test]
fn ui_check_names_a_replaced_file_by_the_mod_it_came_from() {
    let tmp = common::temp_dir("patch-owners");
    let mk = |name: &str| {
        let dir = tmp.join(name);
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        std::fs::copy(common::root().join("ui/Replays.wnd"), dir.join("ui/Replays.wnd")).unwrap();
        dir
    };
    let (front, behind) = (mk("front"), mk("behind"));
    let roots = common::roots().with_mod(behind.clone()).with_mod(front.clone());
    let lines = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap().lines();
    let (f, b) = (front.join("ui/Replays.wnd"), behind.join("ui/Replays.wnd"));
    let game = common::root().join("ui/Replays.wnd");
    assert!(
        lines.contains(&format!("{} (mod \"front\") overrides mod \"behind\"'s {}", f.display(), b.display())),
        "{lines:?}"
    );
    assert!(
        lines.contains(&format!("{} (mod \"behind\") overrides the game's {}", b.display(), game.display())),
        "{lines:?}"
    );
    assert!(!lines.contains(&format!("{} (mod \"front\") overrides the game's {}", f.display(), b.display())));
}

/// A mod behind removes a window a mod in front changes: the front mod's change applies (the
/// window stays, changed), and the conflict is named once, with both mods and who did what.
#[test]
fn a_window_one_mod_removes_and_a_mod_in_front_changes_stays_changed() {
    let tmp = common::temp_dir("patch-remove-change");
    let remover = patch_mod(&tmp, "remover", "WINDOW\n  NAME = \"ButtonCredits\";\n  PATCH = REMOVE;\nEND\n");
    let changer = patch_mod(
        &tmp,
        "changer",
        "WINDOW\n  NAME = \"ButtonCredits\";\n  TEXT = \"Thanks\";\n  ACTION = \"credits\";\nEND\n",
    );
    let roots = common::roots().with_mod(remover.clone()).with_mod(changer.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).expect("the front mod's change applies");
    assert_eq!(text(&s, "MainMenu.wnd:ButtonCredits"), "Thanks");
    click(&mut s, "MainMenu.wnd:ButtonCredits");
    assert!(s.message_open(), "the changed button acts");
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    let said: Vec<&String> = out.conflicts.iter().filter(|c| c.contains("ButtonCredits")).collect();
    assert_eq!(said.len(), 1, "said once, not once a key: {said:?}");
    assert!(
        said[0].contains("changed (by the first) and removed (by the second) by mod \"changer\"")
            && said[0].contains("mod \"remover\"")
            && said[0].contains("mod \"changer\"'s applies"),
        "{}",
        said[0]
    );
    // The other way round (the remover in front), the window is gone.
    let roots = common::roots().with_mod(changer).with_mod(remover);
    let s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).expect("the removal applies");
    assert!(s.find("MainMenu.wnd:ButtonCredits").is_none());
}
