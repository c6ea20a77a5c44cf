//! Screens a mod brings (`screens` in its `mod.ron`) reached by `open:<name>` from a button's
//! action, left by `back` and Escape for the screen they came from, their names checked by
//! `ui-check` with "did you mean"; and mods that require others (`requires`): refused with
//! the mod and the requirement named when it is off or missing, at start and on the Mods
//! screen, and put in front of what they require.

use crate::common::{self, click};

use ridgeline::game::shell::layout_check::{self, Options};
use ridgeline::game::shell::{Screen, Shell, callbacks, leave_out_broken};
use ridgeline::ui::{Input, Key};

/// A mod `name` in `parent` bringing the screen `OptionsMenu2.wnd`, with a patch making the
/// main menu's Options button open it by `action` (`open:OptionsMenu2`, or a slip).
fn screen_mod(parent: &std::path::Path, name: &str, action: &str) -> std::path::PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(dir.join("ui/patches")).unwrap();
    std::fs::write(
        dir.join("mod.ron"),
        format!("(name: \"{name}\", version: \"1.0\", screens: [\"OptionsMenu2.wnd\"])"),
    )
    .unwrap();
    std::fs::copy(common::root().join("tests/data/mod_ui/OptionsMenu2.wnd"), dir.join("ui/OptionsMenu2.wnd")).unwrap();
    std::fs::write(
        dir.join("ui/patches/MainMenu.wnd"),
        format!("WINDOW\n  NAME = \"MainMenu.wnd:ButtonOptions\";\n  ACTION = \"{action}\";\nEND\n"),
    )
    .unwrap();
    dir
}

fn visible(s: &Shell, name: &str) -> bool {
    s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().visible()
}

#[test]
fn a_mods_own_screen_opens_from_a_button_acts_and_goes_back_where_it_came_from() {
    let tmp = common::temp_dir("mod-screen");
    let dir = screen_mod(&tmp, "more-options", "open:OptionsMenu2");
    let roots = common::roots().with_mod(dir.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).expect("the mod loads");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert!(matches!(s.screen(), Some(Screen::Mod(_))), "{:?}", s.screen());
    assert_eq!(s.ui.window(s.find("OptionsMenu2.wnd:Title").unwrap()).unwrap().text, "More Options");
    // Its own actions work: the panel shows and hides.
    assert!(!visible(&s, "OptionsMenu2.wnd:PanelDetails"));
    click(&mut s, "OptionsMenu2.wnd:ButtonDetails");
    assert!(visible(&s, "OptionsMenu2.wnd:PanelDetails"));
    // Back returns to the main menu it was opened from.
    click(&mut s, "OptionsMenu2.wnd:ButtonBack");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    assert!(s.find("OptionsMenu2.wnd:Title").is_none(), "its layout is closed");
    // Opened from the Mods screen, Escape goes back there.
    s.open(Screen::Mods);
    assert!(s.run_action("open:OptionsMenu2"));
    assert!(matches!(s.screen(), Some(Screen::Mod(_))));
    // As the window hands Escape over: to the UI, and to the shell when the UI leaves it.
    if !s.handle(Input::Key { key: Key::Escape, shift: false }) {
        s.escape();
    }
    assert_eq!(s.screen(), Some(Screen::Mods));
    assert!(s.run_action("open:OptionsMenu2"));
    assert!(s.escape(), "Escape the UI did not take leaves it too");
    assert_eq!(s.screen(), Some(Screen::Mods));
    // The game's own screens are untouched: open:Options still opens them.
    assert!(s.run_action("open:Options"));
    assert_eq!(s.screen(), Some(Screen::Options));
}

#[test]
fn ui_check_refuses_a_misspelt_mod_screen_with_the_name_meant() {
    let tmp = common::temp_dir("mod-screen-slip");
    let dir = screen_mod(&tmp, "more-options", "open:OptionsMenu2");
    // The slip is in the screen's own Back button.
    std::fs::write(
        dir.join("ui/OptionsMenu2.wnd"),
        common::read(&common::root().join("tests/data/mod_ui/OptionsMenu2.wnd"))
            .replace("\"back\"", "\"open:OptionMenu2\""),
    )
    .unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![dir.join("ui")], Options::default()).unwrap();
    let line =
        common::read(&dir.join("ui/OptionsMenu2.wnd")).lines().position(|l| l.contains("open:OptionMenu2")).unwrap()
            + 1;
    let wanted =
        format!("OptionsMenu2.wnd:{line}:5: unknown action \"open:OptionMenu2\" (did you mean open:OptionsMenu2?)");
    assert!(out.problems.iter().any(|p| p.ends_with(&wanted)), "{:?}", out.problems);
    // The game refuses to start on it, naming the same.
    let e = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).unwrap_err().to_string();
    assert!(e.contains("did you mean open:OptionsMenu2?"), "{e}");
    // A screen declared but missing is named at its line of mod.ron.
    std::fs::remove_file(dir.join("ui/OptionsMenu2.wnd")).unwrap();
    let out = layout_check::run(&roots, &callbacks::lexicon(), vec![], Options::default()).unwrap();
    let wanted =
        format!("{}:1:1: screens: \"OptionsMenu2.wnd\" is not in the mod's ui/ folder", dir.join("mod.ron").display());
    assert!(out.problems.contains(&wanted), "{:?}", out.problems);
}

/// A mod `name` in `parent` at `version` requiring `requires` (RON list body).
fn plain_mod(parent: &std::path::Path, name: &str, version: &str, requires: &str) -> std::path::PathBuf {
    let dir = parent.join(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(dir.join("mod.ron"), format!("(name: \"{name}\", version: \"{version}\", requires: [{requires}])"))
        .unwrap();
    dir
}

#[test]
fn a_mod_whose_requirement_is_off_or_missing_is_refused_naming_both() {
    let tmp = common::temp_dir("mod-requires");
    let mods = tmp.join("mods");
    let base = plain_mod(&mods, "base-art", "1.4", "");
    let addon = plain_mod(&mods, "addon", "1.0", "(id: \"base-art\", version: \"1.2\")");
    let greedy = plain_mod(&mods, "greedy", "1.0", "(id: \"base-art\", version: \"2.0\")");
    let lonely = plain_mod(&mods, "lonely", "1.0", "(id: \"nowhere\")");
    let game = common::roots();
    // The addon without base-art (which is installed): refused, naming both.
    let (usable, refused) = leave_out_broken(&game.clone().with_mod(addon.clone()), &game);
    assert_eq!(usable, game);
    assert_eq!(
        refused,
        [(
            "addon".to_string(),
            vec!["mod \"addon\" requires mod \"base-art\" 1.2 or later, which is off: turn it on too".to_string()]
        )]
    );
    // With it, both on, the addon in front of base-art whatever order they were given in.
    let given = game.clone().with_mod(addon.clone()).with_mod(base.clone());
    let (usable, refused) = leave_out_broken(&given, &game);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(&usable.roots()[..2], [addon.clone(), base.clone()]);
    // Too old a version, and a mod that is nowhere.
    let (_, refused) = leave_out_broken(&game.clone().with_mod(greedy).with_mod(base.clone()), &game);
    assert_eq!(
        refused[0].1,
        ["mod \"greedy\" requires mod \"base-art\" 2.0 or later, but \"base-art\" is version 1.4"]
    );
    let (_, refused) = leave_out_broken(&game.clone().with_mod(lonely), &game);
    assert_eq!(
        refused[0].1,
        ["mod \"lonely\" requires mod \"nowhere\", which is not installed (no mods/nowhere/ found)"]
    );
}

#[test]
fn the_mods_screen_refuses_a_mod_without_its_requirement_and_saves_it_behind() {
    let tmp = common::temp_dir("mod-requires-screen");
    let settings = tmp.join("settings.ron");
    let mods = tmp.join("mods");
    plain_mod(&mods, "base-art", "1.4", "");
    plain_mod(&mods, "addon", "1.0", "(id: \"base-art\", version: \"1.2\")");
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), settings).unwrap();
    s.open(Screen::Mods);
    let row = |s: &Shell, id: &str| s.mod_rows().iter().position(|m| m.id == id).unwrap();
    let list = s.find("Mods.wnd:ListMods").unwrap();
    let pick = |s: &mut Shell, i: usize| {
        s.ui.list_select(list, Some(i));
        s.dispatch();
    };
    let text = |s: &Shell, name: &str| s.ui.window(s.find(name).unwrap()).unwrap().text.clone();
    let addon = row(&s, "addon");
    pick(&mut s, addon);
    assert!(text(&s, "Mods.wnd:ModDetails").contains("Requires: base-art 1.2 or later"));
    click(&mut s, "Mods.wnd:ButtonToggle");
    assert!(s.message_open());
    assert_eq!(
        text(&s, "MessageBox.wnd:MessageText"),
        "mod \"addon\" requires mod \"base-art\" 1.2 or later, which is off: turn it on too"
    );
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(!s.mod_rows()[addon].enabled);
    // base-art first, then the addon; base-art then cannot go off under it.
    let base = row(&s, "base-art");
    pick(&mut s, base);
    click(&mut s, "Mods.wnd:ButtonToggle");
    pick(&mut s, addon);
    click(&mut s, "Mods.wnd:ButtonToggle");
    assert!(s.mod_rows()[addon].enabled && !s.message_open());
    pick(&mut s, base);
    click(&mut s, "Mods.wnd:ButtonToggle");
    assert_eq!(
        text(&s, "MessageBox.wnd:MessageText"),
        "mod \"addon\" requires mod \"base-art\": turn \"addon\" off first"
    );
    click(&mut s, "MessageBox.wnd:ButtonOk");
    // The addon put behind what it requires: Save first shows the order that will be used
    // (the list takes it, and says so) and keeps nothing yet; Save again keeps it.
    if addon < base {
        pick(&mut s, addon);
        click(&mut s, "Mods.wnd:ButtonDown");
    }
    assert!(row(&s, "addon") > row(&s, "base-art"));
    let kept = s.prefs.settings.mods.clone();
    click(&mut s, "Mods.wnd:ButtonSave");
    assert_eq!(s.screen(), Some(Screen::Mods), "not saved yet");
    assert_eq!(s.prefs.settings.mods, kept);
    assert!(row(&s, "addon") < row(&s, "base-art"), "the list shows the order to be used");
    let rows = s.ui.list_rows(list);
    assert_eq!((rows[row(&s, "addon")][1].as_str(), rows[row(&s, "base-art")][1].as_str()), ("addon", "base-art"));
    assert!(
        text(&s, "MessageBox.wnd:MessageText").contains("in the order that will be used: addon, base-art"),
        "{}",
        text(&s, "MessageBox.wnd:MessageText")
    );
    click(&mut s, "MessageBox.wnd:ButtonOk");
    click(&mut s, "Mods.wnd:ButtonSave");
    assert_eq!(s.prefs.settings.mods, ["addon", "base-art"]);
    assert_eq!(s.screen(), Some(Screen::MainMenu));
}

/// F10 on a mod's own screen edits that screen's layout, and `s` saves it into the mod's own
/// file (it did nothing: the screen had no layout of the game's to edit).
#[test]
fn f10_on_a_mods_own_screen_edits_its_layout_within_the_mod() {
    let tmp = common::temp_dir("mod-screen-f10");
    let dir = screen_mod(&tmp, "more-options", "open:OptionsMenu2");
    let roots = common::roots().with_mod(dir.clone());
    let mut s = Shell::new(&roots, (1280.0, 720.0), tmp.join("settings.ron")).unwrap();
    s.prefs.settings.modder_mode = true;
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    let screen = s.screen();
    assert!(matches!(screen, Some(Screen::Mod(_))), "{screen:?}");
    s.toggle_editor();
    assert!(s.editing(), "F10 turns the editor on over the mod's screen");
    assert_eq!(s.editor().unwrap().file, "OptionsMenu2.wnd");
    // Pick the title in the tree and nudge it ten units right; the screen shows it at once.
    assert!(s.edit_with(Some("OptionsMenu2.wnd:Title")));
    let x0 = s.ui.window(s.find("OptionsMenu2.wnd:Title").unwrap()).unwrap().rect.x;
    s.handle(Input::Key { key: Key::Right, shift: true });
    assert_eq!(s.screen(), screen, "still the mod's screen");
    assert!(s.ui.window(s.find("OptionsMenu2.wnd:Title").unwrap()).unwrap().rect.x > x0);
    s.handle(Input::Char('s'));
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert!(!s.editor().unwrap().unsaved());
    // The title stood at 100 60; the move is in the mod's own file (and nowhere else).
    let saved = common::read(&dir.join("ui/OptionsMenu2.wnd"));
    assert!(saved.contains("UPPERLEFT: 110 60"), "{saved}");
    assert!(!dir.join("ui/patches/OptionsMenu2.wnd").exists());
    // Read back as the watcher would: the screen is the saved one and nothing is asked.
    assert_eq!(s.reload_layouts(&roots).map(|_| s.message_open()), Ok(false));
    assert!(!s.editor().unwrap().unsaved());
}
