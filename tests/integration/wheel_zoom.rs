//! The mouse wheel as a player uses it: zooming in or out keeps the ground under the cursor
//! under it (the view closes in on what the player points at, not the screen's middle).

use crate::common;

use glam::Vec2;

use common::{SCREEN, run_for as run, skirmish};

#[test]
fn the_wheel_zooms_toward_the_point_under_the_cursor() {
    let mut b = skirmish();
    // Over the middle of the map, away from its edges.
    let middle = b.scene.size() / 2.0;
    b.controls().look_at(middle);
    run(&mut b, 0.1);
    let cursor = Vec2::new(SCREEN.x * 0.2, SCREEN.y * 0.25);
    b.controls().mouse_move(cursor);
    let pointed = b.look().ground_under(cursor).expect("ground under the cursor");
    let target = b.picture().camera().target.truncate();
    let zoom = b.picture().camera().zoom;
    b.controls().wheel(3.0);
    run(&mut b, 1.0);
    assert!(b.picture().camera().zoom > zoom * 1.3, "zoomed in");
    let still = b.look().ground_under(cursor).unwrap();
    assert!(still.distance(pointed) < 3.0, "the ground under the cursor stays: {pointed} → {still}");
    let moved = b.picture().camera().target.truncate();
    assert!(moved.distance(pointed) < target.distance(pointed) - 20.0, "the view closed in on it");
    // Out again: the same point stays under the cursor.
    b.controls().wheel(-3.0);
    run(&mut b, 1.0);
    let back = b.look().ground_under(cursor).unwrap();
    assert!(back.distance(pointed) < 3.0, "zooming out keeps it too: {pointed} → {back}");
}

#[test]
fn zoomed_all_the_way_in_the_view_looks_out_and_picking_still_finds_the_ground() {
    use ridgeline::game::camera::{CLOSE_PITCH, PITCH};
    let mut b = skirmish();
    let middle = b.scene.size() / 2.0;
    b.controls().look_at(middle);
    run(&mut b, 0.1);
    assert_eq!(b.picture().camera().pitch(), PITCH, "the default zoom looks down as always");
    // The wheel in all the way, pointing low on the screen, a little left.
    let cursor = Vec2::new(SCREEN.x * 0.4, SCREEN.y * 0.7);
    b.controls().mouse_move(cursor);
    let pointed = b.look().ground_under(cursor).expect("ground under the cursor");
    b.controls().wheel(12.0);
    run(&mut b, 2.0);
    let cam = *b.picture().camera();
    assert_eq!(cam.pitch(), CLOSE_PITCH, "the closest zoom looks out across the land");
    let still = b.look().ground_under(cursor).unwrap();
    assert!(still.distance(pointed) < 3.0, "the ground under the cursor stays while tilting: {pointed} → {still}");
    // The top of the screen is sky: nothing to pick there.
    assert_eq!(b.look().ground_under(Vec2::new(SCREEN.x / 2.0, 2.0)), None);
    // Below the horizon every pick is the first ground along the ray: it projects back under
    // the cursor, and no point of the ray before it is under the ground.
    let eye = cam.eye();
    for y in [0.35, 0.5, 0.65, 0.8, 0.95] {
        for x in [0.05, 0.5, 0.95] {
            let px = Vec2::new(SCREEN.x * x, SCREEN.y * y);
            let Some(g) = b.look().ground_under(px) else { panic!("no ground under {px}") };
            let ground = g.extend(b.scene.height(g));
            let back = cam.project(ground, SCREEN).unwrap();
            assert!(back.distance(px) < 1.5, "{px} picks {g}, seen at {back}");
            for k in 1..40 {
                let p = eye.lerp(ground, k as f32 / 40.0);
                assert!(p.z > b.scene.height(p.truncate()) - 0.2, "{px}: the ray goes under the ground before {g}");
            }
        }
    }
    // The radar frames the view: four lines, its far side cut, never the whole map.
    let rect = ridgeline::ui::Rect::new(10.0, 500.0, 200.0, 200.0);
    let cmds = ridgeline::game::hud::radar::draw(&b, rect, "@preview/Proving Grounds");
    let lines: Vec<_> = cmds.iter().filter(|c| matches!(c, ridgeline::ui::draw::DrawCmd::Line { .. })).collect();
    assert_eq!(lines.len(), 4, "the view is outlined");
}

#[test]
fn each_wheel_step_in_tilts_the_view_a_little_and_never_back() {
    use ridgeline::game::camera::{CLOSE_PITCH, PITCH, WHEEL_STEP_TILT};
    let mut b = skirmish();
    let middle = b.scene.size() / 2.0;
    b.controls().look_at(middle);
    b.controls().mouse_move(SCREEN / 2.0);
    run(&mut b, 0.1);
    // One notch at a time from the default zoom in to the closest: every notch, once the zoom
    // has eased to it, looks a little lower, by no more than the bound; none jumps.
    let mut pitches = vec![b.picture().camera().pitch()];
    for _ in 0..12 {
        b.controls().wheel(1.0);
        let mut last = *pitches.last().unwrap();
        // While the zoom eases, no frame's pitch moves against the wheel.
        for _ in 0..20 {
            run(&mut b, 0.05);
            let p = b.picture().camera().pitch();
            assert!(p <= last + 1e-6, "the view tilted back up while zooming in: {last} → {p}");
            last = p;
        }
        pitches.push(b.picture().camera().pitch());
    }
    assert_eq!(pitches[0], PITCH);
    assert!((pitches.last().unwrap() - CLOSE_PITCH).abs() < 0.01, "{pitches:?}");
    let steps: Vec<f32> = pitches.windows(2).map(|w| w[0] - w[1]).collect();
    assert!(steps.iter().all(|&d| (0.0..=WHEEL_STEP_TILT + 0.005).contains(&d)), "{steps:?}");
    // The tilt is spread: most notches between the default and the closest zoom tilt the view.
    assert!(steps.iter().filter(|&&d| d > 0.03).count() >= 7, "{steps:?}");
}
