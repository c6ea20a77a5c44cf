//! The world pass offscreen (software adapters are fine): a battlefield renders through the
//! same passes the window uses, and the picture shows what the map says.

use crate::common;

use ridgeline::game::screenshot::{self, Overlay, ShotCamera, WorldShot};

fn centre(img: &image::RgbaImage) -> [u8; 4] {
    let (w, h) = img.dimensions();
    img.get_pixel(w / 2, h / 2).0
}

fn shot(camera: (f32, f32, f32)) -> image::RgbaImage {
    let shot = WorldShot {
        frames: 2,
        camera: Some(ShotCamera::At(camera.0, camera.1, camera.2)),
        size: (320, 200),
        ..WorldShot::new("proving_grounds")
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
    let shot = WorldShot { players: Some("idle,idle".into()), size: (800, 600), ..WorldShot::new("proving_grounds") };
    let plain = screenshot::world(&common::roots(), &shot, Overlay::None).unwrap();
    let layout = common::root().join("ui/MessageBox.wnd");
    let with_ui = screenshot::world(&common::roots(), &shot, Overlay::Layout(&layout)).unwrap();
    // The message box (130,150)-(670,450) at 800×600 covers its own rectangle and nothing else.
    let inside = |x: u32, y: u32| (130..670).contains(&x) && (150..450).contains(&y);
    let (mut in_changed, mut in_total, mut out_changed) = (0u32, 0u32, 0u32);
    for (x, y, p) in with_ui.enumerate_pixels() {
        let changed = *p != *plain.get_pixel(x, y);
        if inside(x, y) {
            in_total += 1;
            in_changed += changed as u32;
        } else {
            out_changed += changed as u32;
        }
    }
    assert!(in_changed * 10 > in_total * 9, "the box covers its rectangle ({in_changed} of {in_total} pixels)");
    assert_eq!(out_changed, 0, "nothing is drawn outside the box");
}

#[test]
fn a_bad_map_or_players_spec_is_an_error_not_a_panic() {
    let mut s = WorldShot { size: (64, 64), ..WorldShot::new("no_such_map") };
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
        players: Some("idle,ai:easy".into()),
        frames: 30,
        size: (640, 360),
        ..WorldShot::new("proving_grounds")
    };
    let plain = screenshot::world(&common::roots(), &shot, Overlay::None).unwrap();
    let hud = screenshot::world(&common::roots(), &shot, Overlay::Hud).unwrap();
    // The bar spans the top of the screen; the middle of the battlefield is untouched.
    let top_changed = (0..640).filter(|&x| plain.get_pixel(x, 5) != hud.get_pixel(x, 5)).count();
    assert!(top_changed > 600, "{top_changed} of 640 top pixels changed");
    assert_eq!(plain.get_pixel(320, 250), hud.get_pixel(320, 250));
}

/// Pixels within `radius` of `at` bright enough to be fire or a flash (no ground is).
fn bright_near(img: &image::RgbaImage, at: glam::Vec2, radius: f32) -> usize {
    img.enumerate_pixels()
        .filter(|(x, y, p)| {
            let d = glam::Vec2::new(*x as f32, *y as f32) - at;
            d.length() <= radius && p.0[0] > 220 && p.0[1] > 140
        })
        .count()
}

#[test]
fn an_explosion_shows_bright_pixels_at_its_place_for_a_while_and_none_after() {
    use ridgeline::game::display::to_point;
    use ridgeline::sim::event::GameEvent;
    use ridgeline::sim::{ObjectId, PlayerId};
    let shot = WorldShot {
        players: Some("idle,idle".into()),
        frames: 1,
        size: (320, 200),
        ..WorldShot::new("proving_grounds")
    };
    let (mut battle, mut shell) = screenshot::battle_for(&common::roots(), &shot).unwrap();
    // Open ground a little right of the middle of player 1's view (their base is to the left).
    let px = glam::Vec2::new(230.0, 110.0);
    let at = battle.look().ground_under(px).unwrap();
    let mut render = |b: &ridgeline::game::battle::Battle| {
        screenshot::render_battle(b, &mut shell, shot.size, screenshot::Overlay::Hud, (None, None)).unwrap()
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

#[test]
fn a_structure_s_shadow_darkens_the_ground_on_the_sun_s_far_side() {
    use glam::Vec2;
    use ridgeline::defs::model::Shape;
    use ridgeline::game::camera::Camera;
    use ridgeline::render::offscreen::{FORMAT, Offscreen};
    use ridgeline::render::world::models::shape_index;
    use ridgeline::render::{Gpu, ObjectInstance, WorldPass};
    let shot = WorldShot { players: Some("idle,idle".into()), size: (400, 300), ..WorldShot::new("proving_grounds") };
    let (battle, _) = screenshot::battle_for(&common::roots(), &shot).unwrap();
    let scene = &battle.scene;
    // Open grass (cell 70, 104), looked at from close above.
    let at = Vec2::new(700.0, 1040.0);
    let ground = scene.height(at);
    let camera = Camera { zoom: 2.0, ..Camera::looking_at(at.extend(ground)) };
    let screen = Vec2::new(400.0, 300.0);
    let gpu = Gpu::headless().unwrap();
    let target = Offscreen::new(&gpu, (400, 300));
    let mut pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &scene.statics());
    let render = |pass: &mut WorldPass, with_block: bool| {
        let mut groups = vec![Vec::new(); scene.library.len()];
        if with_block {
            // A plain 30-unit block (the built-in building mesh) standing there.
            groups[shape_index(Shape::Building)].push(ObjectInstance::still(
                at.extend(ground).to_array(),
                std::f32::consts::FRAC_PI_2,
                [30.0, 30.0, 30.0],
                [0.5, 0.5, 0.5],
                [0.5, 0.5, 0.5],
            ));
        }
        let view_proj = camera.view_proj(screen.x / screen.y);
        pass.render(&gpu.device, &gpu.queue, &target.view, (400, 300), view_proj, &groups);
        target.read(&gpu).unwrap()
    };
    // The sun is to the south-west: the shadow falls north-east.
    let luminance = |img: &image::RgbaImage, offset: Vec2| {
        let p = at + offset;
        let px = camera.project(p.extend(scene.height(p)), screen).unwrap();
        let c = img.get_pixel(px.x as u32, px.y as u32).0;
        c[0] as f32 * 0.3 + c[1] as f32 * 0.6 + c[2] as f32 * 0.1
    };
    let (ne, sw) = (Vec2::new(22.0, 20.0), Vec2::new(-22.0, -20.0));
    let bare = render(&mut pass, false);
    let (bare_ne, bare_sw) = (luminance(&bare, ne), luminance(&bare, sw));
    assert!((bare_ne / bare_sw - 1.0).abs() < 0.1, "open grass is alike on both sides: {bare_ne} vs {bare_sw}");
    let shaded = render(&mut pass, true);
    let (dark, lit) = (luminance(&shaded, ne), luminance(&shaded, sw));
    assert!(dark < lit * 0.75, "the far side is in shadow: {dark} vs {lit}");
    assert!((lit / bare_sw - 1.0).abs() < 0.05, "the near side keeps its light: {lit} vs {bare_sw}");
    // Graphics quality Low: no shadow map, and the scene drawn at half size, scaled up to the
    // whole target in the same light.
    pass.set_quality(ridgeline::render::Quality::Low);
    let low = render(&mut pass, true);
    assert_eq!(low.dimensions(), (400, 300));
    let (far, near) = (luminance(&low, ne), luminance(&low, sw));
    assert!((far / near - 1.0).abs() < 0.1, "no shadow at Low: {far} vs {near}");
    assert!((near / lit - 1.0).abs() < 0.08, "the same light, scaled up: {near} vs {lit}");
    let corner = low.get_pixel(399, 299).0;
    assert!(corner[..3].iter().any(|&c| c > 20), "the scaled picture reaches the target's far corner: {corner:?}");
}

#[test]
fn the_camera_shows_no_void_past_the_map_edge() {
    // The world pass clears to a pale sky colour; a view that showed past the map's edge
    // would show it. A camera asked for the corner, zoomed far out, stops at the edges.
    let sky = |p: &image::Rgba<u8>| {
        (p.0[0] as i32 - 155).abs() < 12 && (p.0[1] as i32 - 174).abs() < 12 && (p.0[2] as i32 - 194).abs() < 12
    };
    for camera in [(0.0, 0.0, 0.35), (128.0, 128.0, 0.35), (0.0, 128.0, 1.0)] {
        let img = shot(camera);
        let void = img.pixels().filter(|p| sky(p)).count();
        assert_eq!(void, 0, "camera {camera:?} shows {void} pixels of void");
    }
}

#[test]
fn a_four_way_junction_is_painted_with_road_markings() {
    // Crossroads has a four-way at its centre, cell (128, 128): seen from close above, the
    // square where the roads meet shows stop lines and zebra stripes, not bare asphalt.
    let shot =
        WorldShot { camera: Some(ShotCamera::At(128.0, 128.0, 2.5)), size: (640, 360), ..WorldShot::new("crossroads") };
    let img = screenshot::world(&common::roots(), &shot, Overlay::None).unwrap();
    // The patch spans about ±55 pixels around the middle at this size and zoom.
    let paint = (270..370)
        .flat_map(|x| (135..225).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0[..3].iter().all(|&c| c > 170))
        .count();
    assert!(paint > 400, "{paint} pixels of white paint in the junction");
}

#[test]
fn a_gun_that_just_fired_shows_a_muzzle_flash_and_one_at_rest_none() {
    use glam::Vec2;
    use ridgeline::game::camera::Camera;
    use ridgeline::game::scene::Shown;
    use ridgeline::render::offscreen::{FORMAT, Offscreen};
    use ridgeline::render::{Gpu, WorldPass};
    let shot = WorldShot { players: Some("idle,idle".into()), size: (400, 300), ..WorldShot::new("proving_grounds") };
    let (battle, _) = screenshot::battle_for(&common::roots(), &shot).unwrap();
    let scene = &battle.scene;
    let rules = battle.world().rules().clone();
    let tank = rules.template_id("Bulwark").unwrap();
    // Open grass, the tank aiming east; the camera close above.
    let at = Vec2::new(700.0, 1040.0);
    let camera = Camera { zoom: 3.0, ..Camera::looking_at(at.extend(scene.height(at))) };
    let screen = Vec2::new(400.0, 300.0);
    let gpu = Gpu::headless().unwrap();
    let target = Offscreen::new(&gpu, (400, 300));
    let mut pass = WorldPass::new(&gpu.device, &gpu.queue, FORMAT, &scene.statics());
    let mut render = |recoil: f32| {
        let mut groups = vec![Vec::new(); scene.library.len()];
        let shown = Shown { aim: Some(0.0), recoil, ..Shown::standing(tank, at, 0.0, ridgeline::sim::PlayerId(0)) };
        scene.push_shown(&mut groups, &rules, &shown);
        pass.render(&gpu.device, &gpu.queue, &target.view, (400, 300), camera.view_proj(screen.x / screen.y), &groups);
        target.read(&gpu).unwrap()
    };
    // The muzzle: past the barrel's end, 1.5 model heights east of the tank.
    let height = scene.model_height(tank);
    let muzzle = at + Vec2::new(height * 1.5, 0.0);
    let px = camera.project(muzzle.extend(scene.height(at) + height * 0.68), screen).unwrap();
    let fired = bright_near(&render(1.0), px, 12.0);
    let resting = bright_near(&render(0.0), px, 12.0);
    assert!(fired > 20, "a flash at the muzzle the moment it fires: {fired}");
    assert!(resting * 4 < fired, "none at rest: {resting} (fired {fired})");
}

#[test]
fn a_tracer_flies_in_the_world_pass_and_shows_without_the_interface() {
    use ridgeline::game::battle::Battle;
    let shot = WorldShot {
        players: Some("idle,idle".into()),
        frames: 1,
        size: (320, 200),
        ..WorldShot::new("proving_grounds")
    };
    let (mut battle, mut shell) = screenshot::battle_for(&common::roots(), &shot).unwrap();
    // Across open ground right of the middle of player 1's view.
    let (a, b) = (glam::Vec2::new(170.0, 110.0), glam::Vec2::new(290.0, 110.0));
    let lifted = |battle: &Battle, px: glam::Vec2| {
        let p = battle.look().ground_under(px).unwrap();
        p.extend(battle.scene.height(p) + 3.0)
    };
    let (from, to) = (lifted(&battle, a), lifted(&battle, b));
    let mut render = |b: &Battle| {
        screenshot::render_battle(b, &mut shell, shot.size, screenshot::Overlay::None, (None, None)).unwrap()
    };
    let mid = (a + b) / 2.0;
    let before = bright_near(&render(&battle), mid, 70.0);
    // The game's tracer (data/effects.ron: 320 units a second, 8 long) a tenth of a second
    // out of the muzzle, past its flash: well on its way along a longer path.
    assert!((to - from).length() > 60.0, "{}", (to - from).length());
    battle.stills().show_shot(from, to, 0.1);
    let flying = bright_near(&render(&battle), mid, 70.0);
    assert!(flying > before + 3, "a bright streak on its way, no interface drawn: {before} → {flying}");
    battle.age_display(1.0);
    let landed = bright_near(&render(&battle), mid, 70.0);
    assert!(landed <= before, "gone once it has landed: {landed} (before {before})");
}
