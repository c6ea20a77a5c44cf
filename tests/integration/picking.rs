//! Picking as a player clicks: a unit standing before a structure is the click's, and Tab
//! goes through the units under the click, then the structure.

use crate::common;

use glam::Vec2;
use ridgeline::game::battle::Battle;
use ridgeline::ui::{Key, MouseButton};

use common::{SCREEN, run_for as run, skirmish as battle};

#[test]
fn a_unit_before_a_structure_is_the_clicks_and_tab_takes_the_structure() {
    let mut b = battle();
    let me = b.local();
    let named = |b: &Battle, name: &str| {
        let t = b.world().rules().template_id(name).unwrap();
        b.world().objects().filter(|o| o.owner == me && o.template == t).map(|o| o.id).collect::<Vec<_>>()
    };
    let post = named(&b, "CommandPost")[0];
    let riflemen = named(&b, "Rifleman");
    // The riflemen sent to stand around the command post, close by.
    let cp = b.look().screen_pos(post).unwrap();
    for (k, &r) in riflemen.iter().enumerate() {
        let at = b.look().screen_pos(r).unwrap();
        b.controls().mouse_down(MouseButton::Left, at);
        b.controls().mouse_up(MouseButton::Left, at);
        let turn = k as f32 / riflemen.len() as f32 * std::f32::consts::TAU;
        let to = cp + Vec2::new(turn.cos() * 55.0, turn.sin() * 35.0);
        b.controls().mouse_down(MouseButton::Right, to);
        b.controls().mouse_up(MouseButton::Right, to);
        run(&mut b, 0.6);
    }
    run(&mut b, 8.0);
    let cam = *b.picture().camera();
    let boxed = |b: &Battle, id| b.scene.object_box(b.world(), b.world().object(id).unwrap()).unwrap();
    let (pl, ph) = boxed(&b, post);
    let post_middle = cam.project((pl + ph) * 0.5, SCREEN).unwrap();
    let mut tried = 0;
    for &r in &riflemen {
        let (l, h) = boxed(&b, r);
        let middle = cam.project((l + h) * 0.5, SCREEN).unwrap();
        // A pixel on the rifleman's box and the post's, nearer the rifleman's middle.
        let spot = (-8..=8)
            .flat_map(|x| (-8..=8).map(move |y| Vec2::new(x as f32, y as f32)))
            .map(|d| middle + d)
            .find(|&at| {
                cam.ray_hits_box(at, SCREEN, l, h).is_some()
                    && cam.ray_hits_box(at, SCREEN, pl, ph).is_some()
                    && (post_middle - at).length() > (middle - at).length()
            });
        let Some(at) = spot else { continue };
        tried += 1;
        b.controls().mouse_down(MouseButton::Left, at);
        b.controls().mouse_up(MouseButton::Left, at);
        let picked = b.picture().selection().to_vec();
        assert!(picked.len() == 1 && picked[0] != post, "a click on a unit before the post: {picked:?}");
        // Tab goes through what lies under the click, the post last.
        let mut seen = vec![picked[0]];
        for _ in 0..riflemen.len() + 1 {
            b.controls().key(Key::Tab, true);
            b.controls().key(Key::Tab, false);
            seen.push(b.picture().selection()[0]);
        }
        assert!(seen.contains(&post), "Tab reaches the command post: {seen:?}");
        // The units under the click come before it.
        let first_post = seen.iter().position(|&id| id == post).unwrap();
        assert!(seen[first_post..].iter().all(|id| *id == post || seen[..first_post].contains(id)), "{seen:?}");
        run(&mut b, 0.6);
    }
    assert!(tried > 0, "a rifleman stands before the post on screen: the case is tried");
}
