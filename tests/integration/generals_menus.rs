//! The original game's shell layouts in a mod, acting and not just loading: four layouts in
//! the form of Command & Conquer: Generals' own (`tests/data/generals/`, written by hand for
//! these tests, never the game's files), placed in a mod under their original names
//! (`MainMenu.wnd`, `OptionsMenu.wnd`, `SkirmishGameOptionsMenu.wnd`, `ReplayMenu.wnd`),
//! replace Ridgeline's screens through `ui/generals-names.ron` and are driven by clicks: the
//! buttons' selections climb through the original's `PassSelectedButtonsToParentSystem` frames
//! to the screen, the sub-menus show and hide by `show:`/`hide:`/`toggle:` actions.

use crate::common::{self, click};

use ridgeline::game::settings::UiScaling;
use ridgeline::game::shell::{Screen, Shell, ShellRequest};
use ridgeline::ui::Input;
use ridgeline::ui::draw::{DrawCmd, draw_list};
use ridgeline::ui::font::FixedMeasure;

const LAYOUTS: [&str; 4] = ["MainMenu.wnd", "OptionsMenu.wnd", "SkirmishGameOptionsMenu.wnd", "ReplayMenu.wnd"];

/// A fresh mod holding the four original-style layouts under their original names.
fn generals_mod(name: &str) -> std::path::PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    for f in LAYOUTS {
        std::fs::copy(common::root().join("tests/data/generals").join(f), dir.join("ui").join(f)).unwrap();
    }
    dir
}

fn shell_with(dir: &std::path::Path) -> Shell {
    let roots = common::roots().with_mod(dir.to_path_buf());
    Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).expect("the original layouts load")
}

fn visible(s: &Shell, name: &str) -> bool {
    s.ui.window(s.find(name).unwrap_or_else(|| panic!("no window {name}"))).unwrap().visible()
}

#[test]
fn an_original_main_menu_in_a_mod_opens_options_skirmish_replays_and_credits_and_quits() {
    let dir = generals_mod("generals-menus");
    // Settings the original's options screen has no window for are left as they were.
    std::fs::write(dir.join("settings.ron"), "(fullscreen: true, ui_scaling: Stretch)").unwrap();
    let mut s = shell_with(&dir);
    assert!(s.prefs.settings.fullscreen, "the settings file was read");
    // The mod's main menu is on show, not the game's.
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    assert!(s.find("MainMenu.wnd:ButtonSinglePlayer").is_some() && s.find("MainMenu.wnd:ButtonQuit").is_none());
    // Options sits in a frame that passes selections up: the click reaches MainMenuSystem.
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert_eq!(s.screen(), Some(Screen::Options));
    // OptionsMenu.wnd's windows answer to Ridgeline's names, filled by OptionsMenuInit (OptionsInit).
    let combo = s.find("Options.wnd:ComboResolution").expect("ComboBoxResolution is the resolution list");
    assert!(!s.ui.combo_items(combo).is_empty());
    let music = s.find("Options.wnd:SliderMusic").expect("SliderMusicVolume is the music slider");
    let r = s.ui.window(music).unwrap().rect;
    s.handle(Input::MouseDown { x: r.x + r.w / 2.0, y: r.y + r.h / 2.0, button: ridgeline::ui::MouseButton::Left });
    s.handle(Input::MouseMove { x: r.x - 40.0, y: r.y });
    s.handle(Input::MouseUp { x: r.x - 40.0, y: r.y, button: ridgeline::ui::MouseButton::Left });
    // Accept (the original's name for Save) saves and goes back.
    click(&mut s, "Options.wnd:ButtonSave");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    assert_eq!(s.prefs.settings.music_volume, 0, "the music slider was dragged to the left");
    assert!(s.prefs.settings.fullscreen && s.prefs.settings.ui_scaling == UiScaling::Stretch);
    // Single player shows its sub-menu; its Skirmish opens the original's skirmish setup.
    assert!(!visible(&s, "MainMenu.wnd:MapBorder1"));
    click(&mut s, "MainMenu.wnd:ButtonSinglePlayer");
    assert!(visible(&s, "MainMenu.wnd:MapBorder1"));
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    assert_eq!(s.screen(), Some(Screen::Skirmish));
    let players = s.find("SkirmishSetup.wnd:ComboPlayer1").expect("ComboBoxPlayer1 is slot 1's player");
    assert!(!s.ui.combo_items(players).is_empty(), "SkirmishGameOptionsMenuInit filled the slots");
    let maps = s.find("SkirmishSetup.wnd:ListMaps").expect("ListboxMap is the map list");
    assert!(!s.ui.list_rows(maps).is_empty());
    // Select Map toggles the map panel, its OK hides it.
    assert!(!visible(&s, "SkirmishSetup.wnd:MapSelectPanel"));
    click(&mut s, "SkirmishSetup.wnd:ButtonSelectMap");
    assert!(visible(&s, "SkirmishSetup.wnd:MapSelectPanel"));
    click(&mut s, "SkirmishSetup.wnd:ButtonMapOK");
    assert!(!visible(&s, "SkirmishSetup.wnd:MapSelectPanel"));
    click(&mut s, "SkirmishSetup.wnd:ButtonBack");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    // Load shows its sub-menu; Load Replay opens the original's replay list.
    click(&mut s, "MainMenu.wnd:ButtonLoadReplay");
    click(&mut s, "MainMenu.wnd:ButtonReplay");
    assert_eq!(s.screen(), Some(Screen::Replays));
    assert!(s.find("Replays.wnd:ListReplays").is_some());
    click(&mut s, "Replays.wnd:ButtonBack");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    // Escape that no window takes leaves the original's replay list as its Back does.
    click(&mut s, "MainMenu.wnd:ButtonLoadReplay");
    click(&mut s, "MainMenu.wnd:ButtonReplay");
    assert_eq!(s.screen(), Some(Screen::Replays));
    if !s.handle(Input::Key { key: ridgeline::ui::Key::Escape, shift: false }) {
        s.escape();
    }
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    // Credits, then Exit: asked, and OK quits.
    click(&mut s, "MainMenu.wnd:ButtonCredits");
    assert!(s.message_open());
    click(&mut s, "MessageBox.wnd:ButtonOk");
    click(&mut s, "MainMenu.wnd:ButtonExit");
    assert!(s.message_open() && s.take_requests().is_empty());
    click(&mut s, "MessageBox.wnd:ButtonOk");
    assert_eq!(s.take_requests(), [ShellRequest::Quit]);
}

#[test]
fn an_original_main_menus_sub_menus_show_and_hide_by_actions() {
    let dir = generals_mod("generals-submenus");
    let mut s = shell_with(&dir);
    let subs = ["MapBorder1", "MapBorder2", "MapBorder3", "MapBorder4"].map(|n| format!("MainMenu.wnd:{n}"));
    // All hidden at first (their STATUS says HIDDEN), so none is drawn on another.
    assert!(subs.iter().all(|n| !visible(&s, n)));
    // A hidden parent's children take no clicks: Skirmish under the hidden single-player menu.
    click(&mut s, "MainMenu.wnd:ButtonSkirmish");
    assert_eq!(s.screen(), Some(Screen::MainMenu));
    click(&mut s, "MainMenu.wnd:ButtonSinglePlayer");
    click(&mut s, "MainMenu.wnd:ButtonTraining");
    assert!(visible(&s, &subs[0]) && visible(&s, &subs[3]), "single player, then its difficulty menu");
    click(&mut s, "MainMenu.wnd:ButtonDiffBack");
    assert!(visible(&s, &subs[0]) && !visible(&s, &subs[3]));
    click(&mut s, "MainMenu.wnd:ButtonSingleBack");
    assert!(!visible(&s, &subs[0]));
    // Multiplayer's frame passes every message up; its Back hides it.
    click(&mut s, "MainMenu.wnd:ButtonMultiplayer");
    assert!(visible(&s, &subs[1]));
    click(&mut s, "MainMenu.wnd:ButtonMultiBack");
    assert!(!visible(&s, &subs[1]));
    // The hidden sub-menus draw nothing: no text of theirs is in the draw list.
    let texts: Vec<String> = draw_list(&s.ui, &FixedMeasure, &|_, _| {})
        .into_iter()
        .filter_map(|c| if let DrawCmd::Text { text, .. } = c { Some(text) } else { None })
        .collect();
    assert!(texts.contains(&"SINGLE PLAYER".to_string()) && !texts.contains(&"NETWORK".to_string()), "{texts:?}");
}

#[test]
fn a_w3d_no_draw_backdrop_paints_nothing_when_hovered() {
    let dir = generals_mod("generals-nodraw");
    let mut s = shell_with(&dir);
    let earth = s.find("MainMenu.wnd:EarthMap").unwrap();
    let r = s.ui.window(earth).unwrap().rect;
    // A spot of the backdrop with no button over it.
    s.handle(Input::MouseMove { x: r.x + r.w - 5.0, y: r.y + r.h / 2.0 });
    assert_eq!(s.ui.hover(), Some(earth));
    let blue = draw_list(&s.ui, &FixedMeasure, &|_, _| {})
        .into_iter()
        .any(|c| matches!(c, DrawCmd::Fill { rect, color: [40, 60, 220, 255] } if rect == r));
    assert!(!blue, "W3DNoDraw: the hilite colour of the backdrop is never painted");
}

/// The original's `PassSelectedButtonsToParentSystem` hands a button's selection up to the
/// screen and stops other events (a slider's), as the original game does.
#[test]
fn a_selected_buttons_frame_passes_selections_up_and_stops_the_rest() {
    use ridgeline::ui::{EventKind, WindowManager};
    let text = "WINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 800 600, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:Root\";\n STATUS = ENABLED;\n SYSTEMCALLBACK = \"MainMenuSystem\";\n\
        CHILD\nWINDOW\n WINDOWTYPE = USER;\n SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 400 300, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:Frame\";\n STATUS = ENABLED;\n SYSTEMCALLBACK = \"PassSelectedButtonsToParentSystem\";\n\
        CHILD\nWINDOW\n WINDOWTYPE = PUSHBUTTON;\n SCREENRECT = UPPERLEFT: 10 10, BOTTOMRIGHT: 100 40, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:Button\";\n STATUS = ENABLED;\n SYSTEMCALLBACK = \"GadgetPushButtonSystem\";\nEND\n\
        CHILD\nWINDOW\n WINDOWTYPE = HORZSLIDER;\n SCREENRECT = UPPERLEFT: 10 100, BOTTOMRIGHT: 300 120, CREATIONRESOLUTION: 800 600;\n NAME = \"T.wnd:Slider\";\n STATUS = ENABLED;\n SLIDERDATA = MINVALUE: 0, MAXVALUE: 100;\nEND\nENDALLCHILDREN\nEND\nENDALLCHILDREN\nEND\n";
    let file = ridgeline::ui::wnd::parse("T.wnd", text).unwrap();
    let mut m = WindowManager::new((800.0, 600.0), ridgeline::ui::wnd::model::ScalingMode::Stretch);
    m.create_layout("T.wnd", &file);
    let press = |m: &mut WindowManager, x: f32, y: f32, to: f32| {
        m.handle(Input::MouseMove { x, y });
        m.handle(Input::MouseDown { x, y, button: ridgeline::ui::MouseButton::Left });
        m.handle(Input::MouseMove { x: to, y });
        m.handle(Input::MouseUp { x: to, y, button: ridgeline::ui::MouseButton::Left });
    };
    press(&mut m, 50.0, 25.0, 50.0);
    let events = m.drain_events();
    let selected = events.iter().find(|e| e.kind == EventKind::Selected).expect("the button was selected");
    assert_eq!(selected.callback.as_deref(), Some("MainMenuSystem"));
    assert_eq!(selected.owner, m.find("T.wnd:Root"));
    press(&mut m, 100.0, 110.0, 250.0);
    let events = m.drain_events();
    let moved = events.iter().find(|e| matches!(e.kind, EventKind::SliderChanged(_))).expect("the slider moved");
    assert_eq!(moved.callback, None, "a slider's change stops at the frame");
    assert_eq!(moved.owner, m.find("T.wnd:Frame"));
}

#[test]
fn a_missing_role_is_named_with_the_originals_name_and_a_slip_with_the_name_meant() {
    let dir = generals_mod("generals-missing");
    let options = dir.join("ui/OptionsMenu.wnd");
    let text = common::read(&options).replace("OptionsMenu.wnd:SliderMusicVolume", "OptionsMenu.wnd:SliderMusicVolum");
    std::fs::write(&options, &text).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    let err = Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap_err().to_string();
    // Said at the window meant.
    let at = text.lines().position(|l| l.contains("OptionsMenu.wnd:SliderMusicVolum\"")).unwrap() + 1;
    assert!(
        err.contains(&format!(
            "OptionsMenu.wnd:{at}:7: the game needs a window \"Options.wnd:SliderMusic\" (the original game calls it SliderMusicVolume); did you mean \"SliderMusicVolum\"?"
        )),
        "{err}"
    );
    // The version label is decoration: a main menu without one loads, with a note.
    let menu = dir.join("ui/MainMenu.wnd");
    std::fs::write(&menu, common::read(&menu).replace("MainMenu.wnd:LabelVersion", "MainMenu.wnd:Label2")).unwrap();
    let out = common::ridgeline().args(["ui-check", "--mod", dir.to_str().unwrap()]).output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.contains("no window \"MainMenu.wnd:Version\" (the original game calls it LabelVersion)"), "{out}");
    assert!(!out.contains("MainMenu.wnd:Version\"; did") && out.contains("needs a window"), "{out}");
}

#[test]
fn ui_check_lists_an_unknown_callback_with_its_window_and_line() {
    let dir = generals_mod("generals-unknown-callback");
    let text = common::read(&dir.join("ui/MainMenu.wnd"));
    let out = common::ridgeline().args(["ui-check", "--mod", dir.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "notes do not refuse the layout");
    let out = String::from_utf8_lossy(&out.stdout).to_string();
    let line = text.lines().position(|l| l.contains("W3DClockDraw")).unwrap() + 1;
    assert!(
        out.contains(&format!(
            "MainMenu.wnd:{line}:5: window \"MainMenu.wnd:StaticTextClock\": draw callback \"W3DClockDraw\" is not one of Ridgeline's"
        )),
        "{out}"
    );
    // The original's generic and screen callbacks are known: no note names them.
    for known in ["PassSelectedButtonsToParentSystem", "PassMessagesToParentSystem", "OptionsMenuSystem", "W3DNoDraw"] {
        assert!(!out.contains(&format!("\"{known}\"")), "{known}: {out}");
    }
}
