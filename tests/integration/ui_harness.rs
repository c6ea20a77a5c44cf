//! The headless UI harness: layouts loaded into a window manager with no GPU, input injected,
//! and the semantic events, focus, tab order, capture, modal blocking, enter/leave, bubbling
//! and gadget behaviour asserted.

use ridgeline::ui::wnd::model::ScalingMode;
use ridgeline::ui::wnd::parse;
use ridgeline::ui::{EventKind, Input, Key, MouseButton, UiEvent, WindowManager};

fn window(kind: &str, name: &str, rect: (i32, i32, i32, i32), extra: &str, children: &str) -> String {
    format!(
        "WINDOW\n  WINDOWTYPE = {kind};\n  SCREENRECT = UPPERLEFT: {} {}, BOTTOMRIGHT: {} {}, CREATIONRESOLUTION: 800 600;\n  NAME = \"Test.wnd:{name}\";\n{extra}\n{children}END\n",
        rect.0, rect.1, rect.2, rect.3
    )
}

fn child(s: String) -> String {
    format!("  CHILD\n{s}")
}

fn layout() -> String {
    let kids = [
        window("PUSHBUTTON", "Ok", (20, 20, 120, 50), "  STATUS = ENABLED+TABSTOP;", ""),
        window("PUSHBUTTON", "Fast", (140, 20, 240, 50), "  STATUS = ENABLED+TABSTOP+ON_MOUSE_DOWN;", ""),
        window("PUSHBUTTON", "Off", (260, 20, 360, 50), "  STATUS = TABSTOP;", ""),
        window("CHECKBOX", "Check", (20, 60, 200, 80), "  STATUS = ENABLED+TABSTOP;", ""),
        window("RADIOBUTTON", "RadioA", (20, 90, 200, 110), "  STATUS = ENABLED;\n  RADIOBUTTONDATA = GROUP: 1;", ""),
        window("RADIOBUTTON", "RadioB", (20, 120, 200, 140), "  STATUS = ENABLED;\n  RADIOBUTTONDATA = GROUP: 1;", ""),
        window(
            "ENTRYFIELD",
            "Entry",
            (20, 150, 200, 180),
            "  STATUS = ENABLED+TABSTOP;\n  TEXTENTRYDATA = MAXLEN: 5, SECRETTEXT: 0, NUMERICALONLY: 0;",
            "",
        ),
        window(
            "SCROLLLISTBOX",
            "List",
            (220, 60, 420, 120),
            "  STATUS = ENABLED+TABSTOP;\n  LISTBOXDATA = COLUMNS: 1, MULTISELECT: 0;",
            "",
        ),
        window(
            "HORZSLIDER",
            "Slider",
            (220, 150, 420, 170),
            "  STATUS = ENABLED+TABSTOP;\n  SLIDERDATA = MINVALUE: 0, MAXVALUE: 100;",
            "",
        ),
        window("USER", "Hidden", (440, 20, 540, 50), "  STATUS = ENABLED+HIDDEN;", ""),
        window(
            "USER",
            "Inner",
            (440, 60, 640, 200),
            "  STATUS = ENABLED;",
            &child(window("STATICTEXT", "Label", (450, 70, 630, 90), "  STATUS = ENABLED;\n  TEXT = \"hello\";", "")),
        ),
    ]
    .map(child)
    .concat();
    format!(
        "FILE_VERSION = 2;\n{}",
        window("USER", "Root", (0, 0, 800, 600), "  STATUS = ENABLED;\n  SYSTEMCALLBACK = \"TestSystem\";", &kids)
    )
}

fn manager() -> WindowManager {
    let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Stretch);
    m.create_layout("Test.wnd", &parse("Test.wnd", &layout()).unwrap());
    m
}

fn click(m: &mut WindowManager, x: f32, y: f32) -> Vec<UiEvent> {
    m.handle(Input::MouseMove { x, y });
    m.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    m.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    m.drain_events().into_iter().filter(|e| !matches!(e.kind, EventKind::MouseEntered | EventKind::MouseLeft)).collect()
}

fn names(events: &[UiEvent]) -> Vec<(String, EventKind)> {
    events.iter().map(|e| (e.name.trim_start_matches("Test.wnd:").to_string(), e.kind.clone())).collect()
}

#[test]
fn a_button_is_selected_on_release_inside_and_its_owner_hears() {
    let mut m = manager();
    let ev = click(&mut m, 50.0, 30.0);
    assert_eq!(names(&ev), vec![("Ok".into(), EventKind::Selected)]);
    assert_eq!(ev[0].callback.as_deref(), Some("TestSystem"), "bubbles to the root's system callback");
    // Press inside, release outside: nothing, and the capture is released.
    m.handle(Input::MouseDown { x: 50.0, y: 30.0, button: MouseButton::Left });
    assert_eq!(m.capture(), m.find("Test.wnd:Ok"));
    m.handle(Input::MouseMove { x: 700.0, y: 500.0 });
    m.handle(Input::MouseUp { x: 700.0, y: 500.0, button: MouseButton::Left });
    assert!(m.drain_events().iter().all(|e| e.kind != EventKind::Selected));
    assert_eq!(m.capture(), None);
}

#[test]
fn on_mouse_down_buttons_fire_on_press_and_disabled_ones_never() {
    let mut m = manager();
    m.handle(Input::MouseDown { x: 150.0, y: 30.0, button: MouseButton::Left });
    assert_eq!(names(&m.drain_events()).last().unwrap(), &("Fast".to_string(), EventKind::Selected));
    m.handle(Input::MouseUp { x: 150.0, y: 30.0, button: MouseButton::Left });
    assert!(click(&mut m, 300.0, 30.0).is_empty(), "a disabled button swallows the click");
}

#[test]
fn check_radio_list_slider_and_entry_behave() {
    let mut m = manager();
    assert_eq!(names(&click(&mut m, 30.0, 70.0)), vec![("Check".into(), EventKind::Toggled(true))]);
    assert_eq!(names(&click(&mut m, 30.0, 70.0)), vec![("Check".into(), EventKind::Toggled(false))]);
    // Radio group: selecting B clears A.
    click(&mut m, 30.0, 100.0);
    let (a, b) = (m.find("Test.wnd:RadioA").unwrap(), m.find("Test.wnd:RadioB").unwrap());
    assert!(m.checked(a));
    click(&mut m, 30.0, 130.0);
    assert!(m.checked(b) && !m.checked(a));
    // List: rows, click, keyboard, activation on a second click.
    let list = m.find("Test.wnd:List").unwrap();
    m.list_set_rows(list, (0..10).map(|i| vec![format!("row {i}")]).collect());
    assert_eq!(names(&click(&mut m, 300.0, 65.0)), vec![("List".into(), EventKind::ListSelection(vec![0]))]);
    m.handle(Input::Key { key: Key::Down, shift: false });
    m.handle(Input::Key { key: Key::Down, shift: false });
    m.handle(Input::Key { key: Key::Down, shift: false });
    assert_eq!(m.list_selected(list), vec![3]);
    m.handle(Input::Key { key: Key::Enter, shift: false });
    assert!(m.drain_events().iter().any(|e| e.kind == EventKind::ListActivated(3)));
    // Scrolling: three rows fit, the selection scrolled into view, the wheel scrolls back.
    if let Some(ridgeline::ui::Gadget::ListBox { scroll, .. }) = m.window(list).map(|w| &w.gadget) {
        assert_eq!(*scroll, 1);
    }
    m.handle(Input::Wheel { x: 300.0, y: 90.0, delta: 5.0 });
    if let Some(ridgeline::ui::Gadget::ListBox { scroll, .. }) = m.window(list).map(|w| &w.gadget) {
        assert_eq!(*scroll, 0);
    }
    // Slider: drag follows the mouse while captured, even outside.
    let slider = m.find("Test.wnd:Slider").unwrap();
    m.handle(Input::MouseDown { x: 320.0, y: 160.0, button: MouseButton::Left });
    assert_eq!(m.slider_value(slider), Some(50));
    m.handle(Input::MouseMove { x: 900.0, y: 300.0 });
    assert_eq!(m.slider_value(slider), Some(100));
    m.handle(Input::MouseUp { x: 900.0, y: 300.0, button: MouseButton::Left });
    assert!(m.drain_events().iter().any(|e| e.kind == EventKind::SliderChanged(100)));
    m.handle(Input::Key { key: Key::Left, shift: false });
    assert_eq!(m.slider_value(slider), Some(95));
    // Text entry: typing, max length, caret keys, selection, backspace, Enter.
    let entry = m.find("Test.wnd:Entry").unwrap();
    click(&mut m, 50.0, 160.0);
    assert_eq!(m.focus(), Some(entry));
    for c in "abcdefg".chars() {
        m.handle(Input::Char(c));
    }
    assert_eq!(m.entry_text(entry), "abcde", "max length 5");
    m.handle(Input::Key { key: Key::Home, shift: false });
    m.handle(Input::Key { key: Key::Right, shift: true });
    m.handle(Input::Key { key: Key::Right, shift: true });
    m.handle(Input::Char('X'));
    assert_eq!(m.entry_text(entry), "Xcde");
    m.handle(Input::Key { key: Key::End, shift: false });
    m.handle(Input::Key { key: Key::Backspace, shift: false });
    assert_eq!(m.entry_text(entry), "Xcd");
    m.drain_events();
    m.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(names(&m.drain_events()), vec![("Entry".into(), EventKind::EditDone("Xcd".into()))]);
}

#[test]
fn tab_order_skips_hidden_disabled_and_non_tab_windows_and_wraps() {
    let mut m = manager();
    let order: Vec<String> = m
        .tab_order()
        .iter()
        .map(|id| m.window(*id).unwrap().name.trim_start_matches("Test.wnd:").to_string())
        .collect();
    assert_eq!(order, ["Ok", "Fast", "Check", "Entry", "List", "Slider"]);
    m.handle(Input::Key { key: Key::Tab, shift: false });
    assert_eq!(m.focus(), m.find("Test.wnd:Ok"));
    m.handle(Input::Key { key: Key::Tab, shift: true });
    assert_eq!(m.focus(), m.find("Test.wnd:Slider"), "shift-tab wraps backwards");
    m.handle(Input::Key { key: Key::Tab, shift: false });
    assert_eq!(m.focus(), m.find("Test.wnd:Ok"));
    m.handle(Input::Key { key: Key::Enter, shift: false });
    assert_eq!(names(&m.drain_events()), vec![("Ok".into(), EventKind::Selected)], "Enter presses the focused button");
}

#[test]
fn enter_and_leave_follow_the_cursor_and_unhandled_clicks_bubble() {
    let mut m = manager();
    m.handle(Input::MouseMove { x: 50.0, y: 30.0 });
    m.handle(Input::MouseMove { x: 50.0, y: 70.0 });
    let ev = names(&m.drain_events());
    assert_eq!(
        ev,
        vec![
            ("Ok".into(), EventKind::MouseEntered),
            ("Ok".into(), EventKind::MouseLeft),
            ("Check".into(), EventKind::MouseEntered),
        ]
    );
    // The static text inside a plain window: the click lands on it, nothing handles it, it
    // bubbles up and is consumed by the UI (it never reaches the game).
    assert!(m.handle(Input::MouseDown { x: 460.0, y: 80.0, button: MouseButton::Left }));
    assert_eq!(m.hit(460.0, 80.0), m.find("Test.wnd:Label"));
    // Hidden windows are not hit.
    assert_eq!(m.hit(450.0, 30.0), m.find("Test.wnd:Root"));
}

#[test]
fn a_modal_window_blocks_everything_else_until_popped() {
    let mut m = manager();
    let dialog = format!(
        "FILE_VERSION = 2;\n{}",
        window(
            "USER",
            "Dialog",
            (300, 250, 500, 350),
            "  STATUS = ENABLED;\n  SYSTEMCALLBACK = \"DialogSystem\";",
            &child(window("PUSHBUTTON", "DialogOk", (320, 300, 480, 340), "  STATUS = ENABLED+TABSTOP;", "")),
        )
    );
    m.create_layout("Dialog.wnd", &parse("Dialog.wnd", &dialog).unwrap());
    let d = m.find("Test.wnd:Dialog").unwrap();
    m.push_modal(d);
    assert!(click(&mut m, 50.0, 30.0).is_empty(), "the button under the modal is blocked");
    assert!(
        m.handle(Input::MouseDown { x: 10.0, y: 590.0, button: MouseButton::Left }),
        "clicks outside are swallowed"
    );
    m.handle(Input::MouseUp { x: 10.0, y: 590.0, button: MouseButton::Left });
    assert_eq!(m.tab_order(), vec![m.find("Test.wnd:DialogOk").unwrap()]);
    let ev = click(&mut m, 400.0, 320.0);
    assert_eq!(ev[0].callback.as_deref(), Some("DialogSystem"));
    m.pop_modal(d);
    assert_eq!(names(&click(&mut m, 50.0, 30.0)), vec![("Ok".into(), EventKind::Selected)]);
}

#[test]
fn input_outside_every_window_reaches_the_game() {
    let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Aspect);
    let small =
        format!("FILE_VERSION = 2;\n{}", window("PUSHBUTTON", "Corner", (0, 0, 100, 40), "  STATUS = ENABLED;", ""));
    m.create_layout("Hud.wnd", &parse("Hud.wnd", &small).unwrap());
    assert!(m.handle(Input::MouseDown { x: 10.0, y: 10.0, button: MouseButton::Left }));
    m.handle(Input::MouseUp { x: 10.0, y: 10.0, button: MouseButton::Left });
    assert!(!m.handle(Input::MouseDown { x: 400.0, y: 300.0, button: MouseButton::Left }));
    assert!(!m.handle(Input::MouseMove { x: 400.0, y: 300.0 }));
}

#[test]
fn combo_tab_and_progress_gadgets() {
    let kids = [
        window(
            "COMBOBOX",
            "Combo",
            (20, 20, 220, 50),
            "  STATUS = ENABLED+TABSTOP;\n  COMBOBOXDATA = MAXDISPLAY: 3;",
            "",
        ),
        window(
            "TABCONTROL",
            "Tabs",
            (300, 20, 600, 200),
            "  STATUS = ENABLED;\n  TABCONTROLDATA = TABCOUNT: 3, TABHEIGHT: 30;",
            "",
        ),
        window("PROGRESSBAR", "Progress", (20, 300, 220, 320), "  STATUS = ENABLED;", ""),
        window("PUSHBUTTON", "Below", (20, 60, 220, 90), "  STATUS = ENABLED;", ""),
    ]
    .map(child)
    .concat();
    let text = format!(
        "FILE_VERSION = 2;\n{}",
        window("USER", "Root", (0, 0, 800, 600), "  STATUS = ENABLED;\n  SYSTEMCALLBACK = \"TestSystem\";", &kids)
    );
    let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Stretch);
    m.create_layout("Test.wnd", &parse("Test.wnd", &text).unwrap());
    let combo = m.find("Test.wnd:Combo").unwrap();
    m.combo_set(combo, vec!["a".into(), "b".into(), "c".into(), "d".into()], Some(0));
    // Open it; the drop-down covers the button below and takes the click (row 2 = "c").
    click(&mut m, 100.0, 35.0);
    assert!(m.open_combo().is_some());
    let ev = click(&mut m, 100.0, 50.0 + 30.0 * 2.5);
    assert_eq!(names(&ev), vec![("Combo".into(), EventKind::ComboSelected(2))]);
    assert_eq!(m.combo_selected(combo), Some(2));
    assert!(m.open_combo().is_none());
    // Escape closes an open drop-down without choosing.
    click(&mut m, 100.0, 35.0);
    m.handle(Input::Key { key: Key::Escape, shift: false });
    assert!(m.open_combo().is_none());
    // Tabs: a click on the third tab's strip.
    assert_eq!(names(&click(&mut m, 560.0, 30.0)), vec![("Tabs".into(), EventKind::TabChanged(2))]);
    assert!(click(&mut m, 560.0, 150.0).is_empty(), "below the strip is the pane");
    // Progress bars clamp.
    let p = m.find("Test.wnd:Progress").unwrap();
    m.progress_set(p, 150);
    assert!(matches!(m.window(p).unwrap().gadget, ridgeline::ui::Gadget::ProgressBar { percent: 100 }));
}

#[test]
fn the_draw_list_follows_state_and_clips_children() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::FixedMeasure;
    let mut m = manager();
    let entry = m.find("Test.wnd:Entry").unwrap();
    m.entry_set(entry, "hi");
    m.set_focus(Some(entry));
    let cmds = draw_list(&m, &FixedMeasure, &|_, _| {});
    // Hidden windows draw nothing; visible texts appear; the focused entry shows a caret.
    let texts: Vec<&str> = cmds
        .iter()
        .filter_map(|c| if let DrawCmd::Text { text, .. } = c { Some(text.as_str()) } else { None })
        .collect();
    assert!(texts.contains(&"hello") && texts.contains(&"hi"), "{texts:?}");
    assert!(
        cmds.iter().any(|c| matches!(c, DrawCmd::Clip(Some(r)) if r.w == 200.0 && r.h == 140.0)),
        "children of Inner are clipped to it"
    );
    let fills_before = cmds.iter().filter(|c| matches!(c, DrawCmd::Fill { .. })).count();
    m.set_focus(None);
    let cmds = draw_list(&m, &FixedMeasure, &|_, _| {});
    let fills_after = cmds.iter().filter(|c| matches!(c, DrawCmd::Fill { .. })).count();
    assert_eq!(fills_after + 1, fills_before, "the caret disappears with the focus");
}

#[test]
fn tooltips_show_after_resting_and_hide_on_move_or_press() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::FixedMeasure;
    let kids = [
        window(
            "PUSHBUTTON",
            "Tip",
            (20, 20, 120, 50),
            "  STATUS = ENABLED;\n  TOOLTIPTEXT = \"Fight the computer\";\n  TOOLTIPDELAY = 500;",
            "",
        ),
        window("PUSHBUTTON", "NoTip", (20, 60, 120, 90), "  STATUS = ENABLED;", ""),
    ]
    .map(child)
    .concat();
    let text = format!("FILE_VERSION = 2;\n{}", window("USER", "Root", (0, 0, 800, 600), "  STATUS = ENABLED;", &kids));
    let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Stretch);
    m.create_layout("Test.wnd", &parse("Test.wnd", &text).unwrap());
    m.handle(Input::MouseMove { x: 50.0, y: 30.0 });
    assert!(m.tooltip_pending());
    assert!(!m.advance(300));
    assert!(m.tooltip().is_none());
    assert!(m.advance(300), "due after 500 ms");
    let (tip, at) = m.tooltip().unwrap();
    assert_eq!((tip.as_str(), at), ("Fight the computer", (50.0, 30.0)));
    let drawn = draw_list(&m, &FixedMeasure, &|_, _| {});
    assert!(drawn.iter().any(|c| matches!(c, DrawCmd::Text { text, .. } if text == "Fight the computer")));
    // Pressing hides it; moving to a window without one ends it.
    m.handle(Input::MouseDown { x: 50.0, y: 30.0, button: MouseButton::Left });
    assert!(m.tooltip().is_none());
    m.handle(Input::MouseUp { x: 50.0, y: 30.0, button: MouseButton::Left });
    m.handle(Input::MouseMove { x: 50.0, y: 70.0 });
    m.advance(5000);
    assert!(m.tooltip().is_none() && !m.tooltip_pending());
    // A window hidden under a cursor at rest (a dialog closed by its own button) leaves no tip.
    m.handle(Input::MouseMove { x: 50.0, y: 30.0 });
    m.advance(5000);
    assert!(m.tooltip().is_some());
    let tip = m.find("Test.wnd:Tip").unwrap();
    m.show(tip, false);
    assert!(m.tooltip().is_none() && !m.tooltip_pending(), "the hidden button's tip stayed");
    m.advance(5000);
    assert!(m.tooltip().is_none());
}

#[test]
fn a_click_in_a_text_entry_puts_the_caret_at_the_nearest_character() {
    let mut m = manager();
    m.set_text_measure(std::sync::Arc::new(ridgeline::ui::font::FixedMeasure));
    let entry = m.find("Test.wnd:Entry").unwrap();
    m.entry_set(entry, "abcde");
    // Characters are 7 px wide at 14 px in the fixed measure; the text starts 4 px in.
    click(&mut m, 20.0 + 4.0 + 7.0 * 3.0 + 2.0, 165.0);
    m.handle(Input::Key { key: Key::Backspace, shift: false });
    assert_eq!(m.entry_text(entry), "abde");
    click(&mut m, 190.0, 165.0);
    m.handle(Input::Char('!'));
    assert_eq!(m.entry_text(entry), "abde!");
}

#[test]
fn a_text_longer_than_its_entry_scrolls_to_keep_the_caret_in_view() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::FixedMeasure;
    let entry = window(
        "ENTRYFIELD",
        "Code",
        (20, 150, 120, 180),
        "  STATUS = ENABLED+TABSTOP;\n  TEXTENTRYDATA = MAXLEN: 40, SECRETTEXT: 0, NUMERICALONLY: 0;",
        "",
    );
    let text = format!(
        "FILE_VERSION = 2;\n{}",
        window("USER", "Root", (0, 0, 800, 600), "  STATUS = ENABLED;", &child(entry))
    );
    let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Stretch);
    m.set_text_measure(std::sync::Arc::new(ridgeline::ui::font::FixedMeasure));
    m.create_layout("Test.wnd", &parse("Test.wnd", &text).unwrap());
    let id = m.find("Test.wnd:Code").unwrap();
    // 30 characters of 7 px = 210 px in a field whose inside (4 px margins) is 92 px wide:
    // with the caret at the end the text is shifted left by 210 + 2 - 92 = 120 px.
    m.entry_set(id, "abcdefghijklmnopqrstuvwxyz0123");
    let drawn = draw_list(&m, &FixedMeasure, &|_, _| {});
    let x = drawn
        .iter()
        .find_map(|c| match c {
            DrawCmd::Text { text, x, .. } if text.starts_with("abc") => Some(*x),
            _ => None,
        })
        .expect("the entry's text is drawn");
    assert_eq!(x, 24.0 - 120.0);
    // A click lands on the character under the pointer in the scrolled text: 25 characters in
    // is at -96 + 175 = 79 px; Backspace there removes the 25th character, 'y'.
    click(&mut m, 80.0, 165.0);
    m.handle(Input::Key { key: Key::Backspace, shift: false });
    assert_eq!(m.entry_text(id), "abcdefghijklmnopqrstuvwxz0123");
    // Home brings the start back into view, with the caret drawn inside the field.
    m.handle(Input::Key { key: Key::Home, shift: false });
    let drawn = draw_list(&m, &FixedMeasure, &|_, _| {});
    assert!(drawn.iter().any(|c| matches!(c, DrawCmd::Text { text, x, .. } if text.starts_with("abc") && *x == 24.0)));
}

/// A title of one line taller than its window (a 64 px font in a 70-unit window) is drawn
/// without the thin scroll bar a long text gets: there is nothing to scroll to.
#[test]
fn a_one_line_title_taller_than_its_window_draws_no_scroll_bar() {
    use ridgeline::ui::draw::{DrawCmd, draw_list};
    use ridgeline::ui::font::FixedMeasure;
    let bars = |text: &str| {
        let title = window(
            "STATICTEXT",
            "Title",
            (60, 60, 740, 130),
            &format!("  STATUS = ENABLED;\n  FONT = NAME: \"Noto Sans\", SIZE: 64, BOLD: 1;\n  TEXT = \"{text}\";"),
            "",
        );
        let mut m = WindowManager::new((800.0, 600.0), ScalingMode::Stretch);
        m.create_layout("Test.wnd", &parse("Test.wnd", &title).unwrap());
        // The bar is three pixels wide at the window's right edge.
        let cmds = draw_list(&m, &FixedMeasure, &|_, _| {});
        cmds.iter()
            .filter(|c| matches!(c, DrawCmd::Fill { rect, .. } if rect.w == 3.0 && rect.right() == 740.0))
            .count()
    };
    assert_eq!(bars("RIDGELINE"), 0, "one line: no bar");
    let long = "RIDGELINE HOLDS THE HIGH GROUND FOR EVER AND EVER";
    assert_eq!(bars(long), 2, "lines wrapped past the room for one: the track and the bar");
}
