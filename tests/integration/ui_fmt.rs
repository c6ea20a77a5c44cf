//! The canonical layout writer: every shipped layout (and the Generals-style sample) reads back
//! as the same tree once written, writing is idempotent, generated trees survive the round
//! trip, and `ridgeline ui-fmt` writes through it.

use crate::common;

use proptest::prelude::*;
use ridgeline::ui::wnd::model::{
    Anchor, DrawEntry, FontDef, GadgetData, ScalingMode, ScreenRect, TextColors, WindowDef, WindowType, WndFile,
};
use ridgeline::ui::wnd::{parse, write};

/// The tree without what depends on where things stood in the text (lines, notes).
fn shape(mut f: WndFile) -> WndFile {
    fn strip(w: &mut WindowDef) {
        w.line = 0;
        w.key_lines.clear();
        w.children.iter_mut().for_each(strip);
    }
    f.windows.iter_mut().for_each(strip);
    f.notes.clear();
    f
}

fn layouts() -> Vec<std::path::PathBuf> {
    let root = common::root();
    let mut out = Vec::new();
    for dir in [root.join("ui"), root.join("tests/data/wnd")] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "wnd") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_layout_reads_back_the_same_after_writing_and_writing_is_idempotent() {
    let files = layouts();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let name = path.display().to_string();
        let text = common::read(&path);
        let tree = parse(&name, &text).unwrap();
        let written = write(&tree);
        let again = parse(&name, &written).unwrap_or_else(|e| panic!("{name}: the written text does not parse: {e}"));
        assert_eq!(shape(again.clone()), shape(tree), "{name}: the tree changed");
        assert_eq!(write(&again), written, "{name}: writing twice differs");
    }
}

#[test]
fn unknown_keys_are_kept_and_an_edit_changes_only_its_own_lines() {
    let text = common::read(&common::root().join("tests/data/wnd/GeneralsStyle.wnd"));
    let with_extra = text.replacen("  TOOLTIPDELAY", "  WOBBLE = FAST+7, LEVEL: 2 \"x\";\n  TOOLTIPDELAY", 1);
    let tree = parse("G.wnd", &with_extra).unwrap();
    let once = write(&tree);
    assert!(once.contains("WOBBLE = FAST+7, LEVEL: 2 \"x\";"), "{once}");
    let mut edited = parse("G.wnd", &once).unwrap();
    edited.windows[0].text = "Changed".into();
    let twice = write(&edited);
    let changed: Vec<(&str, &str)> = once.lines().zip(twice.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("TEXT = \"Changed\""));
}

#[test]
fn ui_fmt_writes_a_layout_through_the_writer() {
    let src = common::root().join("ui/MessageBox.wnd");
    let out = common::temp_dir("ui-fmt").join("MessageBox.wnd");
    let run = common::ridgeline().args(["ui-fmt"]).arg(&src).arg("--out").arg(&out).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // The shipped layouts are kept in the writer's form: writing one again changes no byte,
    // and what is written parses to the same tree.
    let tree = parse("MessageBox.wnd", &common::read(&src)).unwrap();
    assert_eq!(common::read(&out), common::read(&src));
    assert_eq!(parse("MessageBox.wnd", &common::read(&out)).unwrap(), tree);
    // To standard output without --out; a broken layout is refused with its place.
    let stdout = common::ridgeline().args(["ui-fmt"]).arg(&src).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&stdout.stdout), write(&tree));
    let bad = common::temp_dir("ui-fmt-bad").join("Bad.wnd");
    std::fs::write(&bad, "WINDOW\n  WINDOWTYPE = NOPE;\nEND\n").unwrap();
    let refused = common::ridgeline().args(["ui-fmt"]).arg(&bad).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("Bad.wnd:2"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 ,.:;+=!?'()_-]{0,24}"
}

fn rgba() -> impl Strategy<Value = [u8; 4]> {
    any::<[u8; 4]>()
}

fn draw() -> impl Strategy<Value = Vec<DrawEntry>> {
    prop::collection::vec(
        ("[A-Za-z][A-Za-z0-9_]{0,10}|NoImage|\"[a-z ]{1,6}\"", rgba(), rgba())
            .prop_map(|(image, color, border)| DrawEntry { image: image.trim_matches('"').to_string(), color, border }),
        0..4,
    )
}

fn leaf() -> impl Strategy<Value = WindowDef> {
    (
        (0usize..12, (-500i32..500, -500i32..500), (0i32..400, 0i32..400), any::<u32>(), any::<u16>()),
        (text(), text(), text(), prop::option::of("[A-Za-z]{1,12}"), prop::option::of("[A-Za-z]{1,12}")),
        (prop::option::of(("[A-Za-z ]{1,10}", 1i32..60, any::<bool>())), -1i32..3000, prop::array::uniform6(rgba())),
        (draw(), draw(), prop::option::of(any::<[bool; 4]>()), prop::option::of(any::<bool>())),
        (
            // Gadget field names: any capitalised word but the four that end a value in the
            // parser (a file naming one could never have been read, so none is written).
            prop::option::of(prop::collection::vec(
                (
                    "[A-Z]{2,8}".prop_filter("a block keyword", |k| {
                        !matches!(k.as_str(), "END" | "CHILD" | "WINDOW" | "ENDALLCHILDREN")
                    }),
                    prop::collection::vec(-99i64..999, 1..3),
                ),
                1..4,
            )),
            prop::option::of("[A-Za-z]{0,8}"),
            prop::option::of("[A-Za-z]{0,8}"),
            prop::option::of("[a-z]{1,6}(:[A-Za-z0-9]{1,6})?"),
        ),
    )
        .prop_map(|(a, b, c, d, e)| {
            let (kind, (x, y), (w, h), status, style) = a;
            let (name, txt, tip, system, draw_cb) = b;
            let (font, delay, colors) = c;
            let (enabled, hilite, anchor, scaling) = d;
            let (gadget, click, hover, action) = e;
            WindowDef {
                line: 0,
                kind: WindowType::ALL[kind].1,
                rect: ScreenRect { upper_left: (x, y), bottom_right: (x + w, y + h), creation_resolution: (800, 600) },
                name,
                status: status & ((1 << 26) - 1),
                status_unknown: Vec::new(),
                style: style as u32,
                style_unknown: Vec::new(),
                system_callback: system,
                input_callback: None,
                tooltip_callback: None,
                draw_callback: draw_cb,
                font: font.map(|(name, size, bold)| FontDef { name, size, bold }),
                header_template: None,
                tooltip_delay: delay,
                text: txt,
                tooltip_text: tip,
                click_sound: click,
                hover_sound: hover,
                action,
                text_colors: TextColors {
                    enabled: colors[0],
                    enabled_border: colors[1],
                    disabled: colors[2],
                    disabled_border: colors[3],
                    hilite: colors[4],
                    hilite_border: colors[5],
                },
                enabled,
                disabled: Vec::new(),
                hilite,
                gadget: gadget.map(|fields| GadgetData { block: "SLIDERDATA".into(), fields }),
                anchor: anchor.map(|[left, right, top, bottom]| Anchor { left, right, top, bottom }),
                scaling: scaling.map(|a| if a { ScalingMode::Aspect } else { ScalingMode::Stretch }),
                extra: Vec::new(),
                key_lines: Vec::new(),
                children: Vec::new(),
            }
        })
}

fn tree() -> impl Strategy<Value = WindowDef> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        (leaf(), prop::collection::vec(inner, 0..4)).prop_map(|(mut w, children)| {
            w.children = children;
            w
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generated_layouts_survive_writing(windows in prop::collection::vec(tree(), 1..3), version in 0i64..5) {
        let file = WndFile { version, windows, layout_init: Some("Init".into()), ..WndFile::default() };
        let written = write(&file);
        let back = parse("Gen.wnd", &written).map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
        prop_assert_eq!(shape(back.clone()), shape(file));
        prop_assert_eq!(write(&back), written);
    }
}

#[test]
fn the_shipped_layouts_are_in_canonical_form() {
    // A layout edited by hand or by the editor is written through `ui-fmt` before it is
    // committed, so the next edit's diff shows only that edit.
    for e in std::fs::read_dir(common::root().join("ui")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "wnd") {
            let text = common::read(&p);
            let tree = parse(&p.display().to_string(), &text).unwrap();
            assert!(write(&tree) == text, "{} is not as `ridgeline ui-fmt` writes it", p.display());
        }
    }
}

#[test]
fn format_md_lists_every_window_the_game_needs() {
    let doc = common::read(&common::root().join("ui/FORMAT.md"));
    for layout in ridgeline::game::shell::required::layouts() {
        for name in ridgeline::game::shell::required::required(layout) {
            let shown = if name.ends_with(|c: char| c.is_ascii_digit()) && !name.starts_with("ButtonCommand") {
                format!("`{}N`", name.trim_end_matches(|c: char| c.is_ascii_digit()))
            } else {
                format!("`{name}`")
            };
            assert!(doc.contains(&shown), "ui/FORMAT.md does not list {layout}'s {shown}");
        }
    }
    for (layout, names) in ridgeline::game::shell::required::OPTIONAL {
        let row = doc.lines().find(|l| l.starts_with(&format!("| `{layout}` |")) && l.contains(names[0]));
        let row = row.unwrap_or_else(|| panic!("ui/FORMAT.md has no row of {layout}'s optional windows"));
        for n in names {
            assert!(row.contains(&format!("`{n}`")), "ui/FORMAT.md does not list {layout}'s optional {n}");
        }
    }
}

/// Runs `ridgeline` with arguments; (exit code, stdout).
fn ridgeline(args: &[&str]) -> (Option<i32>, String) {
    let out = common::ridgeline().args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn ui_check_names_missing_windows_notes_near_misses_and_what_a_mod_overrides() {
    let dir = common::temp_dir("ui-check-mod");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    let menu = common::read(&common::root().join("ui/Replays.wnd"))
        .replacen("ANCHOR =", "ANCHR =", 1)
        .replace("\"Replays.wnd:ListReplays\"", "\"Replays.wnd:ListReplay\"");
    std::fs::write(dir.join("ui/Replays.wnd"), &menu).unwrap();
    let m = dir.display().to_string();
    let ui = dir.join("ui").display().to_string();
    let (code, out) = ridgeline(&["--mod", &m, "ui-check", &ui]);
    assert_eq!(code, Some(1), "{out}");
    // A misspelt key is refused at its place, with the key meant (it would lose what it sets).
    let line = menu.lines().position(|l| l.contains("ANCHR")).unwrap() + 1;
    assert!(out.contains(&format!("Replays.wnd:{line}:3: unknown key ANCHR (did you mean ANCHOR?)")), "{out}");
    assert!(out.contains("overrides the game's") && out.contains("ui/Replays.wnd"), "{out}");
    // With the key right, the missing window is named at the window meant, with its name.
    let menu = menu.replacen("ANCHR =", "ANCHOR =", 1);
    std::fs::write(dir.join("ui/Replays.wnd"), &menu).unwrap();
    let (code, out) = ridgeline(&["--mod", &m, "ui-check", &ui]);
    assert_eq!(code, Some(1), "{out}");
    let at = menu.lines().position(|l| l.contains("\"Replays.wnd:ListReplay\"")).unwrap() + 1;
    assert!(
        out.contains(&format!(
            "Replays.wnd:{at}:7: the game needs a window \"Replays.wnd:ListReplays\" (the original game calls it ListboxReplayFiles); did you mean \"ListReplay\"?"
        )),
        "{out}"
    );
    // Fixed but for a key of another game (near none of Ridgeline's): passes with a note,
    // fails with --strict.
    std::fs::write(
        dir.join("ui/Replays.wnd"),
        menu.replace("\"Replays.wnd:ListReplay\"", "\"Replays.wnd:ListReplays\"").replacen(
            "ANCHOR =",
            "SHOWDEBUGOUTLINE =",
            1,
        ),
    )
    .unwrap();
    let (code, out) = ridgeline(&["--mod", &m, "ui-check", &ui]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("note: ") && out.contains("1 layout(s) ok"), "{out}");
    let (code, _) = ridgeline(&["--mod", &m, "ui-check", "--strict", &ui]);
    assert_eq!(code, Some(1));
}

#[test]
fn one_broken_layout_does_not_stop_screenshots_of_the_others() {
    let dir = common::temp_dir("shot-broken-mod");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(dir.join("ui/Options.wnd"), "WINDOW\n WINDOWTYPE = NOPE;\nEND\n").unwrap();
    let m = dir.display().to_string();
    let out = dir.join("menu.png").display().to_string();
    let (code, _) = ridgeline(&["--mod", &m, "screenshot", "--ui", "MainMenu.wnd", "--out", &out]);
    assert_eq!(code, Some(0));
    assert!(std::path::Path::new(&out).is_file());
    let run =
        common::ridgeline().args(["--mod", &m, "screenshot", "--ui", "Options.wnd", "--out", &out]).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("Options.wnd"));
}
