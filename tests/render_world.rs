//! The world pass offscreen (software adapters are fine): a battlefield renders through the
//! same passes the window uses, and the picture shows what the map says.

mod common;

use ridgeline::game::screenshot::{self, Overlay, WorldShot};

fn centre(img: &image::RgbaImage) -> [u8; 4] {
    let (w, h) = img.dimensions();
    img.get_pixel(w / 2, h / 2).0
}

fn shot(camera: (f32, f32, f32)) -> image::RgbaImage {
    let shot = WorldShot {
        map: "proving_grounds".into(),
        players: None,
        frames: 2,
        seed: 1,
        camera: Some(camera),
        size: (320, 200),
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    screenshot::world(&common::roots(), &shot, Overlay::None).expect("offscreen render")
}

#[test]
fn the_battlefield_shows_water_ground_and_the_players_base() {
    // Proving Grounds: a lake centred on cell (40, 92); player 1 (blue) starts at (20, 108)
    // with its command post there; open grass around (64, 100).
    let lake = centre(&shot((40.0, 92.0, 1.5)));
    assert!(lake[2] > lake[0] && lake[2] >= lake[1], "water is blue-grey: {lake:?}");
    let grass = centre(&shot((70.0, 104.0, 1.5)));
    assert!(grass[1] > grass[0] && grass[1] > grass[2], "grass is green: {grass:?}");
    let base = centre(&shot((20.0, 108.0, 2.0)));
    assert!(base[2] > base[0] + 30 && base[2] > base[1], "player 1's command post is blue: {base:?}");
    // Everything is opaque and the frame is not one colour.
    let img = shot((64.0, 64.0, 0.5));
    assert!(img.pixels().all(|p| p.0[3] == 255));
    let distinct: std::collections::BTreeSet<[u8; 4]> = img.pixels().map(|p| p.0).collect();
    assert!(distinct.len() > 500, "{} colours", distinct.len());
}

#[test]
fn a_layout_can_be_drawn_over_the_battlefield() {
    let shot = WorldShot {
        map: "proving_grounds".into(),
        players: Some("idle,idle".into()),
        frames: 0,
        seed: 1,
        camera: None,
        size: (800, 600),
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    let plain = screenshot::world(&common::roots(), &shot, Overlay::None).unwrap();
    let layout = common::root().join("ui/MessageBox.wnd");
    let with_ui = screenshot::world(&common::roots(), &shot, Overlay::Layout(&layout)).unwrap();
    let differing = plain.pixels().zip(with_ui.pixels()).filter(|(a, b)| a != b).count();
    assert!(differing > 1000, "the layout shows over the world ({differing} pixels differ)");
}

#[test]
fn a_bad_map_or_players_spec_is_an_error_not_a_panic() {
    let mut s = WorldShot {
        map: "no_such_map".into(),
        players: None,
        frames: 0,
        seed: 1,
        camera: None,
        size: (64, 64),
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    let e = screenshot::world(&common::roots(), &s, Overlay::None).unwrap_err().to_string();
    assert!(e.contains("no_such_map"), "{e}");
    s.map = "proving_grounds".into();
    s.players = Some("idle,robot".into());
    let e = screenshot::world(&common::roots(), &s, Overlay::None).unwrap_err().to_string();
    assert!(e.contains("robot"), "{e}");
}

#[test]
fn the_hud_shows_the_top_bar_over_the_battle() {
    let shot = WorldShot {
        map: "proving_grounds".into(),
        players: Some("idle,ai:easy".into()),
        frames: 30,
        seed: 1,
        camera: None,
        size: (640, 360),
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    let plain = screenshot::world(&common::roots(), &shot, Overlay::None).unwrap();
    let hud = screenshot::world(&common::roots(), &shot, Overlay::Hud).unwrap();
    // The bar spans the top of the screen; the middle of the battlefield is untouched.
    let top_changed = (0..640).filter(|&x| plain.get_pixel(x, 5) != hud.get_pixel(x, 5)).count();
    assert!(top_changed > 600, "{top_changed} of 640 top pixels changed");
    assert_eq!(plain.get_pixel(320, 250), hud.get_pixel(320, 250));
}
