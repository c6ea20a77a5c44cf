//! Declared actions as a modder uses them: a button's `ACTION` key makes a click do something
//! whatever the button is called — a copied button, a second button for an existing action and
//! a renamed one all work; `ui-check` names an unknown action with a did-you-mean and notes a
//! button that does nothing; the editor's panel sets an action like a callback.

use crate::common::{self, click};

use ridgeline::game::shell::{Screen, Shell, ShellRequest};
use ridgeline::ui::{Input, MouseButton};

/// A combo box stepped `steps` items down with the keyboard (from its first).
fn combo_step(s: &mut Shell, name: &str, steps: i32) {
    click(s, name);
    s.handle(Input::Key { key: ridgeline::ui::Key::Escape, shift: false });
    for _ in 0..steps {
        s.handle(Input::Key { key: ridgeline::ui::Key::Down, shift: false });
    }
}

/// A combo box stepped `steps` items on (up when negative) from where it is.
fn combo_step_from(s: &mut Shell, name: &str, steps: i32) {
    let key = if steps > 0 { ridgeline::ui::Key::Down } else { ridgeline::ui::Key::Up };
    // Each step is an edit that rebuilds the panel: the combo is taken up again for the next.
    for _ in 0..steps.abs() {
        click(s, name);
        s.handle(Input::Key { key: ridgeline::ui::Key::Escape, shift: false });
        s.handle(Input::Key { key, shift: false });
    }
}

/// A mod whose main menu is the game's with `change` applied to its text; the shell on it.
fn menu_mod(name: &str, change: impl Fn(String) -> String) -> (Shell, std::path::PathBuf) {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let menu = common::read(&common::root().join("ui/MainMenu.wnd"));
    let changed = change(menu.clone());
    assert_ne!(changed, menu, "the change applies");
    std::fs::write(dir.join("ui/MainMenu.wnd"), changed).unwrap();
    let roots = common::roots().with_mod(dir.clone());
    (Shell::new(&roots, (1280.0, 720.0), dir.join("settings.ron")).unwrap(), dir)
}

/// The main menu's layout text with the window block named `from` copied as `to` (the last of
/// its siblings), moved `dy` units down, declaring `action`.
fn copy_button(text: &str, from: &str, to: &str, dy: i32, action: &str) -> String {
    let name_line = format!("NAME = \"MainMenu.wnd:{from}\";");
    let at = text.find(&name_line).unwrap();
    // The window's own lines are indented two spaces past its WINDOW, CHILD and END.
    let key_pad = &text[text[..at].rfind('\n').unwrap() + 1..at];
    let pad = &key_pad[2..];
    let (child, end_mark) = (format!("\n{pad}CHILD\n"), format!("\n{pad}END\n"));
    let start = text[..at].rfind(&child).unwrap() + 1;
    let end = at + text[at..].find(&end_mark).unwrap() + end_mark.len();
    let block = &text[start..end];
    let mut copy = block.replace(&name_line, &format!("NAME = \"MainMenu.wnd:{to}\";"));
    // Its own action, and a place of its own further down.
    copy = copy.lines().filter(|l| !l.trim_start().starts_with("ACTION")).collect::<Vec<_>>().join("\n") + "\n";
    copy = copy.replacen(&format!("{key_pad}STATUS"), &format!("{key_pad}ACTION = \"{action}\";\n{key_pad}STATUS"), 1);
    let shift = |line: &str| -> String {
        let Some((head, nums)) = line.split_once(": ") else { return line.to_string() };
        let mut parts = nums.trim_end_matches(',').split(' ').map(|n| n.parse::<i32>().unwrap());
        let (x, y) = (parts.next().unwrap(), parts.next().unwrap());
        format!("{head}: {x} {}{}", y + dy, if line.ends_with(',') { "," } else { "" })
    };
    copy = copy
        .lines()
        .map(|l| if l.contains("UPPERLEFT:") || l.contains("BOTTOMRIGHT:") { shift(l) } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    // Last among its siblings, so it lies on top where it overlaps them.
    let last = end - 1 + text[end - 1..].find(&format!("\n{pad}ENDALLCHILDREN\n")).unwrap() + 1;
    format!("{}{}{}", &text[..last], copy, &text[last..])
}

#[test]
fn a_copied_button_with_an_action_does_it_and_a_renamed_one_keeps_working() {
    // A second Options button, copied from Credits, a little lower.
    let (mut s, _dir) =
        menu_mod("actions-copy", |t| copy_button(&t, "ButtonCredits", "ButtonSettings", 30, "open:Options"));
    click(&mut s, "MainMenu.wnd:ButtonSettings");
    assert_eq!(s.screen(), Some(Screen::Options), "the new button opens the options");
    // The original Options button still does too.
    click(&mut s, "Options.wnd:ButtonBack");
    click(&mut s, "MainMenu.wnd:ButtonOptions");
    assert_eq!(s.screen(), Some(Screen::Options));
    // A renamed Skirmish button keeps its action.
    let (mut s, _dir) =
        menu_mod("actions-rename", |t| t.replace("MainMenu.wnd:ButtonSkirmish", "MainMenu.wnd:ButtonFight"));
    click(&mut s, "MainMenu.wnd:ButtonFight");
    assert_eq!(s.screen(), Some(Screen::Skirmish));
    // A button taking a battle command or a control-bar slot asks the client for it.
    let (mut s, _dir) = menu_mod("actions-battle", |t| {
        let t = copy_button(&t, "ButtonCredits", "ButtonHalt", 30, "battle:stop");
        copy_button(&t, "ButtonCredits", "ButtonFirst", 60, "command:0")
    });
    click(&mut s, "MainMenu.wnd:ButtonHalt");
    click(&mut s, "MainMenu.wnd:ButtonFirst");
    let stop = ShellRequest::Key(ridgeline::game::keys::KeyCommand::Stop);
    assert_eq!(s.take_requests(), [stop, ShellRequest::CommandButton(0)]);
}

#[test]
fn ui_check_names_an_unknown_action_and_notes_a_button_that_does_nothing() {
    let dir = common::temp_dir("actions-check");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let menu = common::read(&common::root().join("ui/MainMenu.wnd"));
    let t = copy_button(&menu, "ButtonCredits", "ButtonSettings", 30, "open:Optoins");
    // A copy without an action, under a name nothing answers.
    let t = copy_button(&t, "ButtonCredits", "ButtonExtra", 60, "credits").replace("      ACTION = \"credits\";\n", "");
    std::fs::write(dir.join("ui/MainMenu.wnd"), &t).unwrap();
    let line_of =
        |name: &str| 1 + t.lines().position(|l| l.contains(&format!("NAME = \"MainMenu.wnd:{name}\";"))).unwrap();
    let o = common::ridgeline().args(["ui-check", "--mod", dir.to_str().unwrap()]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("unknown action \"open:Optoins\" (did you mean open:Options?)"), "{out}");
    // At the ACTION key's own line (the copy's, below its NAME) and column.
    let key_line = (line_of("ButtonSettings")..).find(|&n| t.lines().nth(n - 1).unwrap().contains("ACTION")).unwrap();
    assert!(out.contains(&format!("MainMenu.wnd:{key_line}:7: unknown action")), "{out}");
    assert!(out.contains("\"MainMenu.wnd:ButtonExtra\" does nothing when clicked"), "{out}");
    // The stock layouts need no such note: every button acts.
    let o = common::ridgeline().args(["ui-check"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success() && !out.contains("does nothing"), "{out}");
}

#[test]
fn the_editor_sets_a_buttons_action_from_the_list() {
    let dir = common::temp_dir("actions-editor");
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), dir.join("settings.ron")).unwrap();
    s.prefs.settings.modder_mode = true;
    s.toggle_editor();
    let name = "MainMenu.wnd:ButtonCredits";
    let r = s.ui.window(s.find(name).unwrap()).unwrap().rect;
    s.handle(Input::MouseMove { x: r.x + 5.0, y: r.y + 5.0 });
    s.handle(Input::MouseDown { x: r.x + 5.0, y: r.y + 5.0, button: MouseButton::Left });
    s.handle(Input::MouseUp { x: r.x + 5.0, y: r.y + 5.0, button: MouseButton::Left });
    assert_eq!(s.editor().unwrap().selected.as_deref(), Some(name));
    // The kind list's last entry is the action; its list offers the actions.
    combo_step(&mut s, "Editor.wnd:ComboCallbackKind", 4);
    let list = s.find("Editor.wnd:ComboCallback").unwrap();
    let items = s.ui.combo_items(list).to_vec();
    let at = items.iter().position(|i| i == "open:Replays").expect("the actions are offered");
    let now = s.ui.combo_selected(list).unwrap_or(0);
    assert_eq!(items[now], "credits", "the button's own action is shown");
    combo_step_from(&mut s, "Editor.wnd:ComboCallback", at as i32 - now as i32);
    let action = s.editor().unwrap().tree.all_windows().iter().find(|w| w.name == name).unwrap().action.clone();
    assert_eq!(action.as_deref(), Some("open:Replays"));
    // Out of the editor, the button does what it now says.
    s.toggle_editor();
    click(&mut s, name);
    assert_eq!(s.screen(), Some(Screen::Replays));
}

#[test]
fn the_list_of_buttons_answered_by_name_matches_the_screens_handlers() {
    // Every "Button…" name the shell's screens match on is listed, and nothing else.
    let mut in_code = std::collections::BTreeSet::new();
    let mut files = Vec::new();
    common::rust_source::rust_files(&common::root().join("src/game/shell"), &mut files);
    assert!(files.len() > 20, "the shell's files were not found");
    for path in files {
        if path.file_name().is_some_and(|n| n == "callbacks.rs") {
            continue;
        }
        let text = common::read(&path);
        for (i, _) in text.match_indices("\"Button") {
            let name: String = text[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            // `ButtonCommand` is matched as a prefix with its slot number after it.
            if name != "ButtonCommand" && !name.starts_with("ButtonCommand") {
                in_code.insert(name);
            }
        }
    }
    let listed: std::collections::BTreeSet<String> =
        ridgeline::game::shell::callbacks::BY_NAME.iter().map(|s| s.to_string()).collect();
    assert_eq!(listed, in_code);
}

#[test]
fn an_option_set_action_sets_and_saves_it_and_a_bad_value_is_refused_by_ui_check() {
    let (mut s, dir) = menu_mod("actions-option", |t| {
        copy_button(&t, "ButtonCredits", "ButtonQuiet", 30, "option:set:music_volume=0")
    });
    assert_ne!(s.prefs.settings.music_volume, 0);
    click(&mut s, "MainMenu.wnd:ButtonQuiet");
    assert_eq!(s.prefs.settings.music_volume, 0);
    let saved = ridgeline::game::settings::Settings::load(&dir.join("settings.ron")).unwrap();
    assert_eq!(saved.music_volume, 0, "saved");
    // ui-check knows the form and its values.
    let bad = common::temp_dir("actions-option-bad");
    std::fs::create_dir_all(bad.join("ui")).unwrap();
    let menu = common::read(&common::root().join("ui/MainMenu.wnd"));
    for (action, ok) in
        [("option:set:music_volume=40", true), ("option:set:music_volume=400", false), ("option:set:loudness=1", false)]
    {
        std::fs::write(bad.join("ui/MainMenu.wnd"), copy_button(&menu, "ButtonCredits", "ButtonX", 30, action))
            .unwrap();
        let o = common::ridgeline().args(["ui-check", "--mod", bad.to_str().unwrap()]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.success(), ok, "{action}: {out}");
        if !ok {
            assert!(out.contains(&format!("unknown action \"{action}\"")), "{out}");
        }
    }
}
