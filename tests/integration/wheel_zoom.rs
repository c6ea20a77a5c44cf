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
