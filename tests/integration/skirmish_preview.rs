//! The skirmish screen's map preview as a player reads it: each start a row takes carries that
//! row's colour and number, wherever the row's colour was changed; an observer's row takes no
//! start (the rows below move up) and a closed row leaves its start unmarked.

use crate::common::{self, click};

use ridgeline::game::shell::{Screen, Shell, SlotChoice};
use ridgeline::map::Map;
use ridgeline::session::match_setup::COLOUR_SRGB;
use ridgeline::ui::draw::{DrawCmd, draw_list};
use ridgeline::ui::font::FixedMeasure;
use ridgeline::ui::{Input, Key, Rect};

/// A mark drawn on the preview: its centre in pixels, its colour and its number.
#[derive(Debug)]
struct Mark {
    centre: (f32, f32),
    colour: [u8; 3],
    number: String,
}

/// The preview picture's rectangle and the marks drawn on it.
fn marks(s: &Shell) -> (Rect, Vec<Mark>) {
    let cmds = draw_list(&s.ui, &FixedMeasure, &|w, out| s.custom_draw(w, out));
    let at = cmds
        .iter()
        .position(|c| matches!(c, DrawCmd::Image { name, .. } if name.starts_with("@preview/")))
        .expect("the preview is drawn");
    let DrawCmd::Image { rect: picture, .. } = &cmds[at] else { unreachable!() };
    let mut out = Vec::new();
    let mut rest = cmds[at + 1..].iter();
    while let Some(DrawCmd::Fill { rect, color: [r, g, b, _] }) = rest.next() {
        let Some(DrawCmd::Frame { .. }) = rest.next() else { panic!("a mark has a frame") };
        let Some(DrawCmd::Text { text, .. }) = rest.next() else { panic!("a mark has its number") };
        out.push(Mark {
            centre: (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0),
            colour: [*r, *g, *b],
            number: text.clone(),
        });
    }
    (*picture, out)
}

/// Where start `i` of the map in folder `maps/<folder>` falls on `picture`: the map's x across
/// from the left, its y up from the bottom.
fn start_on(picture: Rect, folder: &str, i: usize) -> (f32, f32) {
    let map = Map::load(&common::root().join("maps").join(folder)).expect("map loads");
    let (w, h) = map.file.size;
    let (x, y) = map.file.start_positions[i];
    (picture.x + x as f32 / w as f32 * picture.w, picture.y + (1.0 - y as f32 / h as f32) * picture.h)
}

fn near(a: (f32, f32), b: (f32, f32)) -> bool {
    (a.0 - b.0).abs() < 1.5 && (a.1 - b.1).abs() < 1.5
}

fn step(s: &mut Shell, name: &str, steps: i32) {
    click(s, name);
    s.handle(Input::Key { key: Key::Escape, shift: false });
    for _ in 0..steps.abs() {
        s.handle(Input::Key { key: if steps > 0 { Key::Down } else { Key::Up }, shift: false });
    }
}

#[test]
fn each_start_on_the_preview_shows_the_colour_and_number_of_the_row_that_takes_it() {
    let dir = common::temp_dir("skirmish-preview");
    let mut s = Shell::new(&common::roots(), (1280.0, 720.0), dir.join("settings.ron")).expect("shell starts");
    s.skirmish.map = s.content.maps.iter().position(|m| m.name == "Four Corners").expect("four corners");
    s.open(Screen::Skirmish);
    let playing: Vec<usize> = (0..4).filter(|&i| s.skirmish.slots[i].who != SlotChoice::Closed).collect();
    assert_eq!(playing, [0, 1], "a first skirmish: you and one computer");

    // You take Green: the first start turns green, still numbered 1.
    step(&mut s, "SkirmishSetup.wnd:ComboColor0", 2);
    let (picture, shown) = marks(&s);
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(near(shown[0].centre, start_on(picture, "four_corners", 0)), "{shown:?}");
    assert_eq!((shown[0].colour, shown[0].number.as_str()), (COLOUR_SRGB[2], "1"));
    assert!(near(shown[1].centre, start_on(picture, "four_corners", 1)), "{shown:?}");
    assert_eq!((shown[1].colour, shown[1].number.as_str()), (COLOUR_SRGB[1], "2"));

    // Row 2 watches, row 3 becomes a hard computer in Cyan: row 3 takes the second start.
    step(&mut s, "SkirmishSetup.wnd:ComboPlayer1", 10);
    assert_eq!(s.skirmish.slots[1].who, SlotChoice::Observer);
    step(&mut s, "SkirmishSetup.wnd:ComboPlayer2", -2);
    assert_eq!(s.skirmish.slots[2].who, SlotChoice::Computer(2));
    step(&mut s, "SkirmishSetup.wnd:ComboColor2", 4);
    let (_, shown) = marks(&s);
    let numbers: Vec<&str> = shown.iter().map(|m| m.number.as_str()).collect();
    assert_eq!(numbers, ["1", "3"], "the observer's row takes no start: {shown:?}");
    assert!(near(shown[1].centre, start_on(picture, "four_corners", 1)), "{shown:?}");
    assert_eq!(shown[1].colour, COLOUR_SRGB[6]);
}
