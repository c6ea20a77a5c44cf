//! The WND parser: a layout in the original game's own style loads (what Ridgeline does not use
//! becomes a note), Ridgeline's layouts all pass `ui-check`, broken files are reported at
//! `file:line:col`, and no input makes the parser panic.

use crate::common;

use proptest::prelude::*;
use ridgeline::game::shell::load_bindings;
use ridgeline::ui::check::check;
use ridgeline::ui::wnd::model::{WindowType, status_bit, style_bit};
use ridgeline::ui::wnd::parse;

fn generals_style() -> String {
    common::read(&common::root().join("tests/data/wnd/GeneralsStyle.wnd"))
}

#[test]
fn an_original_style_layout_loads_with_notes_for_what_is_unused() {
    let f = parse("GeneralsStyle.wnd", &generals_style()).expect("parses");
    assert_eq!(f.version, 2);
    assert_eq!(f.layout_init.as_deref(), Some("MainMenuInit"));
    assert_eq!(f.windows.len(), 1);
    let root = &f.windows[0];
    assert_eq!(root.name, "MainMenu.wnd:MainMenuParent");
    assert_eq!(root.status, status_bit("ENABLED") | status_bit("IMAGE") | status_bit("SEE_THRU"));
    assert_eq!(root.system_callback.as_deref(), Some("MainMenuSystem"));
    assert_eq!(root.tooltip_callback, None);
    assert_eq!(root.enabled.len(), 9);
    assert_eq!(root.enabled[0].image, "MainMenuBackdrop");
    assert_eq!(root.children.len(), 3);
    let button = &root.children[0];
    assert_eq!(button.kind, WindowType::PushButton);
    assert_eq!(button.rect.upper_left, (12, 9));
    assert_eq!(button.style, style_bit("PUSHBUTTON") | style_bit("MOUSETRACK"));
    assert_eq!(button.text, "GUI:SinglePlayer");
    assert_eq!(button.text_colors.hilite, [255, 255, 0, 255]);
    assert!(button.font.as_ref().unwrap().bold);
    let list = &root.children[1];
    assert_eq!(list.gadget.as_ref().unwrap().values("COLUMNSWIDTH"), Some(&[70, 30][..]));
    assert_eq!(root.children[2].gadget.as_ref().unwrap().get("MAXVALUE", 0), 100);
    // The unknown status flag and the unknown key are kept as notes with their place.
    assert!(
        f.notes.iter().any(|n| n.contains("GeneralsStyle.wnd:44:") && n.contains("MOUSETRACK_OLD")),
        "{:?}",
        f.notes
    );
    assert!(f.notes.iter().any(|n| n.contains("SHOWDEBUGOUTLINE")), "{:?}", f.notes);
}

#[test]
fn binding_an_original_layout_notes_its_unknown_names_instead_of_failing() {
    let b = load_bindings(&common::roots()).unwrap();
    let r = check("GeneralsStyle.wnd", &generals_style(), Some(&b));
    // The original game's names are near none of Ridgeline's: notes with their place, no problem.
    assert!(r.problems.is_empty(), "{:#?}", r.problems);
    let all = r.notes;
    assert!(
        all.iter().any(
            |p| p.starts_with("GeneralsStyle.wnd:16:3: window \"MainMenu.wnd:MainMenuParent\": input callback \"MainMenuInput\" is not one of Ridgeline's")
        ),
        "{all:#?}"
    );
    assert!(all.iter().any(|p| p.contains("image(s) not in the game") && p.contains("Buttons-Left")), "{all:#?}");
    assert!(all.iter().any(|p| p.contains("layout callback \"MainMenuUpdate\" is not one of Ridgeline's")), "{all:#?}");
    // Standard gadget inputs and the original draw names bind.
    assert!(!all.iter().any(|p| p.contains("GadgetPushButtonInput") || p.contains("W3DGadgetListBoxDraw")), "{all:#?}");
}

#[test]
fn every_shipped_layout_passes_the_full_check() {
    let b = load_bindings(&common::roots()).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(common::root().join("ui")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "wnd") {
            n += 1;
            let r = check(&p.display().to_string(), &common::read(&p), Some(&b));
            assert!(r.problems.is_empty(), "{}: {:?}", p.display(), r.problems);
            assert!(r.notes.is_empty(), "{}: {:?}", p.display(), r.notes);
        }
    }
    assert!(n >= 8);
}

#[test]
fn broken_layouts_are_reported_at_file_line_col() {
    let cases: [(&str, &str); 6] = [
        ("WINDOW\n  WINDOWTYPE = BUTTONZ;\nEND\n", "x.wnd:2:16: unknown window type BUTTONZ"),
        ("WINDOW\n  NAME = \"a\"\nEND\n", "x.wnd:3:1: missing ';' before END"),
        ("WINDOW\n  TEXT = \"open\n", "x.wnd:2:10: unterminated string"),
        ("WINDOW\n  NAME = \"a\";\nEND\n", "x.wnd:1:1: window \"a\" has no SCREENRECT"),
        (
            "WINDOW\n  SCREENRECT = UPPERLEFT: 10 10, BOTTOMRIGHT: 5 5, CREATIONRESOLUTION: 800 600;\nEND\n",
            "x.wnd:2:3: SCREENRECT's BOTTOMRIGHT",
        ),
        (
            "WINDOW\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 5 5, CREATIONRESOLUTION: 800 600;\n",
            "x.wnd:1:1: this WINDOW has no END (the file ends first)",
        ),
    ];
    for (text, want) in cases {
        let e = parse("x.wnd", text).unwrap_err().to_string();
        assert!(e.starts_with(want), "{e:?} should start with {want:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mangled_layouts_never_panic(cut in 0usize..9000, len in 0usize..60, junk in "[ -~\\n]{0,20}") {
        let text = generals_style();
        let a = cut.min(text.len());
        let b = (a + len).min(text.len());
        let mangled = format!("{}{}{}", &text[..a], junk, &text[b..]);
        if let Err(e) = parse("f.wnd", &mangled) {
            prop_assert!(e.line >= 1 && e.col >= 1);
            prop_assert!(e.to_string().starts_with("f.wnd:"));
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        let _ = parse("f.wnd", &text);
    }
}

/// A one-button layout with `extra` lines inside the button's window (after its NAME).
fn one_button(extra: &str) -> String {
    format!(
        "FILE_VERSION = 2;\nWINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\n  NAME = \"T.wnd:B\";\n{extra}END\n"
    )
}

#[test]
fn slips_are_reported_where_they_are_with_the_name_meant() {
    let b = load_bindings(&common::roots()).unwrap();
    let problems = |text: &str| -> Vec<String> {
        let r = check("T.wnd", text, Some(&b));
        r.problems.iter().map(ToString::to_string).collect()
    };
    // A binding slip points at its key's line and column, with the name meant.
    let p = problems(&one_button("  STATUS = ENABLED;\n  DRAWCALLBACK = \"W3DGadgetPushButonDraw\";\n"));
    assert_eq!(
        p,
        ["T.wnd:7:3: unknown draw callback \"W3DGadgetPushButonDraw\" (did you mean W3DGadgetPushButtonDraw?)"]
    );
    let p = problems(&one_button("  FONT = NAME: \"Noto Sanz\", SIZE: 12, BOLD: 0;\n"));
    assert_eq!(p, ["T.wnd:6:3: window \"T.wnd:B\": unknown font \"Noto Sanz\" (did you mean Noto Sans?)"]);
    // A colour channel past 255 is refused, not clamped.
    let p = problems(&one_button("  TEXTCOLOR = ENABLED: 300 0 0 255, ENABLEDBORDER: 0 0 0 255;\n"));
    assert_eq!(p, ["T.wnd:6:15: ENABLED: 300 is not a colour channel (0 to 255)"]);
    // A missing `;` is named at the end of its own line, not as the next key's value.
    let p = problems(&one_button("  TEXT = \"Go\"\n  TOOLTIPTEXT = \"Now\";\n"));
    assert_eq!(p, ["T.wnd:6:10: missing ';' at the end of this line (before TOOLTIPTEXT on line 7)"]);
    // A window left open is named at its WINDOW line.
    let p = problems("FILE_VERSION = 2;\nWINDOW\n  WINDOWTYPE = USER;\n  NAME = \"T.wnd:Open\";\n");
    assert_eq!(p, ["T.wnd:2:1: this WINDOW \"T.wnd:Open\" has no END (the file ends first)"]);
}

/// A misspelt key (`TEXTCOLOUR`) would silently lose the colour it sets: it is refused at its
/// place with the key meant; a key of another game, near none, stays a note.
#[test]
fn a_misspelt_key_is_refused_with_the_key_meant_and_a_strangers_key_is_noted() {
    let menu = common::read(&common::root().join("ui/MessageBox.wnd"));
    let slip = menu.replacen("  TEXTCOLOR = ENABLED", "  TEXTCOLOUR = ENABLED", 1);
    let line = slip.lines().position(|l| l.contains("TEXTCOLOUR")).unwrap() + 1;
    let e = parse("MessageBox.wnd", &slip).unwrap_err().to_string();
    assert_eq!(e, format!("MessageBox.wnd:{line}:3: unknown key TEXTCOLOUR (did you mean TEXTCOLOR?)"));
    let stranger = menu.replacen("  TEXTCOLOR = ENABLED", "  SHOWDEBUGOUTLINE = 1;\n  TEXTCOLOR = ENABLED", 1);
    let file = parse("MessageBox.wnd", &stranger).unwrap();
    assert!(file.notes.iter().any(|n| n.contains("SHOWDEBUGOUTLINE is not used by Ridgeline")), "{:?}", file.notes);
}

/// A modder's layout with a misspelt key and callback slips: one `ui-check` run names them
/// all, each at its line (the slips were told only once the key was fixed).
#[test]
fn ui_check_names_a_misspelt_key_and_the_callback_slips_in_one_run() {
    let dir = common::temp_dir("ui-check-all-slips");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let menu = common::read(&common::root().join("ui/MessageBox.wnd"));
    let t = menu
        .replacen("  TEXTCOLOR = ENABLED", "  TEXTCOLOUR = ENABLED", 1)
        .replacen("SYSTEMCALLBACK = \"MessageBoxSystem\"", "SYSTEMCALLBACK = \"MessageBoxSistem\"", 1)
        .replacen("DRAWCALLBACK = \"W3DGadgetStaticTextDraw\"", "DRAWCALLBACK = \"W3DGadgetStaticTxtDraw\"", 1)
        .replacen("INPUTCALLBACK = \"GadgetStaticTextInput\"", "INPUTCALLBACK = \"GadgetStaticTextInputt\"", 1);
    for slip in ["TEXTCOLOUR", "MessageBoxSistem", "W3DGadgetStaticTxtDraw", "GadgetStaticTextInputt"] {
        assert!(t.contains(slip), "the test's layout has {slip}");
    }
    std::fs::write(dir.join("ui/MessageBox.wnd"), &t).unwrap();
    let at = |what: &str| 1 + t.lines().position(|l| l.contains(what)).unwrap();
    let o = common::ridgeline().args(["ui-check", "--mod", dir.to_str().unwrap()]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{out}");
    let file = dir.join("ui/MessageBox.wnd").display().to_string();
    for wanted in [
        format!("{file}:{}:3: unknown key TEXTCOLOUR (did you mean TEXTCOLOR?)", at("TEXTCOLOUR")),
        format!("{file}:{}:", at("MessageBoxSistem")) + "3: unknown system callback \"MessageBoxSistem\"",
        format!("{file}:{}:", at("W3DGadgetStaticTxtDraw"))
            + "5: unknown draw callback \"W3DGadgetStaticTxtDraw\" (did you mean W3DGadgetStaticTextDraw?)",
        format!("{file}:{}:", at("GadgetStaticTextInputt")) + "5: unknown input callback \"GadgetStaticTextInputt\"",
    ] {
        assert!(out.contains(&wanted), "wanted {wanted} in\n{out}");
    }
}
