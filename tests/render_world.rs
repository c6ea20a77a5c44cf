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

/// Pixels within `radius` of `at` bright and warm enough to be fire or a flash.
fn bright_near(img: &image::RgbaImage, at: glam::Vec2, radius: f32) -> usize {
    img.enumerate_pixels()
        .filter(|(x, y, p)| {
            let d = glam::Vec2::new(*x as f32, *y as f32) - at;
            d.length() <= radius && p.0[0] > 220 && p.0[1] > 140 && p.0[2] < 200
        })
        .count()
}

#[test]
fn an_explosion_shows_bright_pixels_at_its_place_for_a_while_and_none_after() {
    use ridgeline::game::display::to_point;
    use ridgeline::sim::event::GameEvent;
    use ridgeline::sim::{ObjectId, PlayerId};
    let shot = WorldShot {
        map: "proving_grounds".into(),
        players: Some("idle,idle".into()),
        frames: 1,
        seed: 1,
        camera: None,
        size: (320, 200),
        script: Default::default(),
        select: Vec::new(),
        hover: None,
    };
    let (mut battle, mut shell) = screenshot::battle_for(&common::roots(), &shot).unwrap();
    // Open ground a little right of the middle of player 1's view (their base is to the left).
    let px = glam::Vec2::new(230.0, 110.0);
    let at = battle.ground_under(px).unwrap();
    let mut render = |b: &ridgeline::game::battle::Battle| {
        screenshot::render_battle(b, &mut shell, shot.size, screenshot::Overlay::Hud, None).unwrap()
    };
    let before = bright_near(&render(&battle), px, 25.0);
    let tank = battle.world().rules().template_id("Warhound").unwrap();
    let killed = GameEvent::Killed {
        object: ObjectId::from_bits(77),
        template: tank,
        owner: PlayerId(1),
        at: to_point(at).to_vec2(),
    };
    battle.display_events(&[killed]);
    battle.age_display(0.05);
    let during = bright_near(&render(&battle), px, 25.0);
    assert!(during > before + 25, "the explosion is bright where it happened: {before} → {during}");
    battle.age_display(0.25);
    let still = bright_near(&render(&battle), px, 25.0);
    assert!(still > before + 10, "and stays bright for some frames: {still}");
    battle.age_display(8.0);
    let after = bright_near(&render(&battle), px, 25.0);
    assert!(after <= before, "then nothing bright is left: {after} (before {before})");
}
