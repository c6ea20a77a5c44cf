//! Placing a structure where it does not fit, as a player does: a Shift-click on a red
//! outline queues nothing and says at once what is in the way.

use crate::common;

use glam::Vec2;
use ridgeline::game::scene::to_display;
use ridgeline::ui::MouseButton;

use common::{SCREEN, run_for as run, skirmish as battle};

#[test]
fn a_shift_click_on_a_red_outline_queues_nothing_and_says_what_is_in_the_way() {
    let mut b = battle();
    let me = b.local();
    let dozer_t = b.world().rules().template_id("Dozer").unwrap();
    let dozer = b.world().objects().find(|o| o.owner == me && o.template == dozer_t).unwrap().id;
    let post = b.world().objects().find(|o| o.owner == me && o.kind.blocks_ground()).unwrap().pos;
    b.controls().select(vec![dozer]);
    // The dozer busy on a move, so a Shift-placed structure would wait in its queue.
    let away = Vec2::new(1100.0, 650.0);
    b.controls().mouse_down(MouseButton::Right, away);
    b.controls().mouse_up(MouseButton::Right, away);
    run(&mut b, 0.3);
    assert!(b.world().object(dozer).unwrap().nav.goal.is_some(), "the dozer is on its way");
    b.controls().command_button(0);
    let p = to_display(post);
    let on_post = b.picture().camera().project(p.extend(b.scene.height(p)), SCREEN).unwrap();
    b.controls().mouse_move(on_post);
    assert_eq!(b.look().placement_preview().map(|(fits, _)| fits), Some(false), "the outline is red there");
    b.controls().set_shift(true);
    b.controls().mouse_down(MouseButton::Left, on_post);
    b.controls().mouse_up(MouseButton::Left, on_post);
    b.controls().set_shift(false);
    run(&mut b, 0.3);
    assert!(b.world().object(dozer).unwrap().queue.is_empty(), "nothing queued on a red outline");
    assert_eq!(b.queue_text(), "It does not fit there: a structure is in the way.");
    assert!(b.picture().placing().is_some(), "placing goes on: another spot may be tried");
}
