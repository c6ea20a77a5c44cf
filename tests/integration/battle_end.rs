//! The end of a battle as a player meets it: the result's banner over the battlefield for a few
//! seconds (the last structure is seen to fall), then the score screen; a click or a key goes
//! on at once.

use crate::common;

use glam::Vec2;
use ridgeline::game::battle::{Battle, RESULT_HOLD_SECONDS};
use ridgeline::ui::MouseButton;
use ridgeline::ui::draw::DrawCmd;

use common::{run_for as run, skirmish};

/// A skirmish the tester has just given up: over, the computer the winner.
fn given_up() -> Battle {
    let mut b = skirmish();
    assert!(b.result_banner().is_none(), "no banner while the game goes on");
    b.play_mut().surrender();
    run(&mut b, 1.0);
    assert!(b.play_mut().surrender(), "the surrender ran");
    assert!(b.world().is_over());
    b
}

fn drawn_texts(b: &Battle) -> Vec<String> {
    b.overlay()
        .into_iter()
        .filter_map(|c| match c {
            DrawCmd::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn the_result_stays_on_screen_under_its_banner_before_the_score() {
    let mut b = given_up();
    assert_eq!(b.result_banner().as_deref(), Some("Defeat"));
    let texts = drawn_texts(&b);
    assert!(texts.iter().any(|t| t == "Defeat"), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("press a key")), "{texts:?}");
    // Held: the battle is still on screen well after the old three seconds.
    run(&mut b, RESULT_HOLD_SECONDS - 1.5);
    assert!(!b.result_done(), "still showing the battle after {} s", b.ended_for());
    run(&mut b, 1.0);
    assert!(b.result_done(), "then the score, after {} s", b.ended_for());
}

#[test]
fn a_click_or_a_key_under_the_banner_goes_on_to_the_score() {
    let mut b = given_up();
    run(&mut b, 0.5);
    assert!(!b.result_done());
    b.controls().mouse_down(MouseButton::Left, Vec2::new(640.0, 300.0));
    b.controls().mouse_up(MouseButton::Left, Vec2::new(640.0, 300.0));
    assert!(b.result_done(), "a click skips the rest");
    let mut b = given_up();
    b.controls().hotkey('x', false);
    assert!(b.result_done(), "a key skips the rest");
}
