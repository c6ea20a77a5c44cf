//! Long player names in the Load and Replays lists, as a player sees them: a cell too long for
//! its column ends in an ellipsis at the column's edge, and the whole text is on the screen
//! elsewhere — the Load screen's details panel, the line under the replay list once the row is
//! chosen.

use crate::common;

use ridgeline::game::shell::{Screen, Shell, SkirmishConfig, SlotChoice};
use ridgeline::ui::draw::{DrawCmd, draw_list};
use ridgeline::ui::font::{Fonts, TextMeasure};
use ridgeline::ui::{Input, MouseButton, Rect};

const LONG: &str = "Commander Alexandrina Montgomery-Fitzwilliam of the Northern Reaches";

fn shell(name: &str) -> Shell {
    let dir = common::temp_dir(name);
    Shell::new(&common::roots(), (1280.0, 720.0), dir.join("settings.ron")).expect("shell starts")
}

/// The texts drawn inside `rect`, with their left edges and sizes.
fn texts_in(s: &Shell, fonts: &Fonts, rect: Rect) -> Vec<(String, f32, f32)> {
    draw_list(&s.ui, fonts, &|w, out| s.custom_draw(w, out))
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { x, y, text, px, .. } if rect.contains(x + 1.0, y + 1.0) => Some((text, x, px)),
            _ => None,
        })
        .collect()
}

/// The list's cell that starts like `start`: it ends in an ellipsis within its column (from
/// `col_from` to `col_to`, shares of the list's width), and the whole text is not drawn.
fn assert_cut(s: &Shell, list: &str, start: &str, (col_from, col_to): (f32, f32)) {
    let fonts = Fonts::load().expect("fonts");
    let r = s.ui.window(s.find(list).unwrap()).unwrap().rect;
    let texts = texts_in(s, &fonts, r);
    let (text, x, px) =
        texts.iter().find(|(t, _, _)| t.starts_with(start)).cloned().unwrap_or_else(|| panic!("{texts:?}"));
    assert!(text.ends_with('…') && text.len() < start.len() + LONG.len(), "cut with an ellipsis: {text}");
    assert!(x >= r.x + col_from * r.w - 1.0, "{text} starts in its column");
    let right = x + fonts.width(&text, px, false);
    assert!(right <= r.x + col_to * r.w, "{text} ends at {right}, its column at {}", r.x + col_to * r.w);
    assert!(!texts.iter().any(|(t, _, _)| t.contains(LONG)), "the whole name is not drawn over the next column");
}

#[test]
fn a_long_name_in_the_replay_list_ends_in_an_ellipsis_and_the_chosen_row_shows_it_whole() {
    use ridgeline::session::Replay;
    let mut s = shell("long-replay-names");
    let dir = s.prefs.replay_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let setup_path = common::root().join("tests/data/match.ron");
    let mut setup: ridgeline::session::MatchSetup =
        ridgeline::content::parse_ron(&setup_path, &common::read(&setup_path)).unwrap();
    setup.slots[0].name = Some(LONG.into());
    let replay = Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup,
        local: 0,
        frames: 30 * 75,
        final_hash: "0123456789abcdef".into(),
        commands: Vec::new(),
        checkpoints: Vec::new(),
        pace: Vec::new(),
        origin: None,
        winner: Some(0),
    };
    replay.save(&dir.join("four_corners 2026-12-06 10-00.ron")).unwrap();
    s.open(Screen::Replays);
    // The players' column: the second, 18 % to 52 % of the list's width.
    assert_cut(&s, "Replays.wnd:ListReplays", "Commander Alex", (0.18, 0.52));
    // Chosen with a click: the line under the list holds it whole.
    let r = s.ui.window(s.find("Replays.wnd:ListReplays").unwrap()).unwrap().rect;
    let (x, y) = (r.x + 20.0, r.y + 8.0);
    s.handle(Input::MouseDown { x, y, button: MouseButton::Left });
    s.handle(Input::MouseUp { x, y, button: MouseButton::Left });
    let note = s.ui.window(s.find("Replays.wnd:ReplaysNote").unwrap()).unwrap().text.clone();
    assert!(note.contains(LONG) && note.contains("1:15"), "{note}");
}

#[test]
fn a_long_name_in_the_load_list_ends_in_an_ellipsis_and_the_details_show_it_whole() {
    let mut s = shell("long-save-names");
    let mut cfg = SkirmishConfig::default();
    cfg.slots[1].who = SlotChoice::Computer(1);
    let factions = ["Coalition".to_string(), "Dominion".to_string()];
    let setup = cfg.to_match_setup("proving_grounds", 2, &factions, LONG, 1);
    let b = ridgeline::game::battle::Battle::start(&common::roots(), &setup, common::SCREEN).expect("battle starts");
    b.play().save_into(&common::roots(), &s.prefs.save_dir(), 1_800_000_000).expect("saved");
    s.open(Screen::Load);
    // The players' column: the last, from 74 % of the list's width.
    assert_cut(&s, "Load.wnd:ListSaves", "Commander Alex", (0.74, 1.0));
    let details = s.ui.window(s.find("Load.wnd:SaveDetails").unwrap()).unwrap().text.clone();
    assert!(details.contains(LONG), "{details}");
}

/// The headings over a list's columns: each says what its column holds and starts where its
/// column does.
fn assert_headings(s: &Shell, list: &str, headings: &[(&str, &str, f32)]) {
    let r = s.ui.window(s.find(list).unwrap()).unwrap().rect;
    for &(name, text, share) in headings {
        let w = s.ui.window(s.find(name).unwrap_or_else(|| panic!("no heading {name}"))).unwrap();
        assert_eq!(w.text, text);
        let column = r.x + share * r.w;
        assert!((w.rect.x - column).abs() < 8.0, "{name} at {} over its column at {column}", w.rect.x);
        assert!(w.rect.bottom() <= r.y + 1.0 && w.rect.bottom() > r.y - 8.0, "{name} sits just above the list");
    }
}

#[test]
fn the_load_and_replay_lists_have_a_heading_over_each_column() {
    let mut s = shell("list-headings");
    s.open(Screen::Replays);
    let replays = [
        ("Replays.wnd:HeadingMap", "Map", 0.0),
        ("Replays.wnd:HeadingPlayers", "Players", 0.18),
        ("Replays.wnd:HeadingResult", "Result", 0.52),
        ("Replays.wnd:HeadingLength", "Length", 0.71),
        ("Replays.wnd:HeadingPlayed", "Played (UTC)", 0.81),
    ];
    assert_headings(&s, "Replays.wnd:ListReplays", &replays);
    s.open(Screen::Load);
    let saves = [
        ("Load.wnd:HeadingMap", "Map", 0.0),
        ("Load.wnd:HeadingTime", "Game time", 0.30),
        ("Load.wnd:HeadingSaved", "Saved", 0.44),
        ("Load.wnd:HeadingPlayers", "Players", 0.74),
    ];
    assert_headings(&s, "Load.wnd:ListSaves", &saves);
}
