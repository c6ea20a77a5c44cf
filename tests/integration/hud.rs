//! The in-game HUD as one owner: the radar and the selection panel are windows of the tree,
//! drawn by their draw callbacks in their place in it and found under the cursor through it,
//! so a dialog covers them like any window; and the one client frame is what the window,
//! `screenshot` and `bench render` draw.

use ridgeline::game::frame;
use ridgeline::game::hud::{self, Gadget};
use ridgeline::game::screenshot::{WorldShot, battle_for};
use ridgeline::game::shell::Screen;
use ridgeline::ui::Rect;
use ridgeline::ui::draw::DrawCmd;

use crate::common;

fn battle() -> (ridgeline::game::battle::Battle, ridgeline::game::shell::Shell) {
    let shot = WorldShot { players: Some("idle,ai:easy".into()), frames: 30, ..WorldShot::new("proving_grounds") };
    let (battle, mut shell) = battle_for(&common::roots(), &shot).unwrap();
    shell.open(Screen::InGame);
    hud::sync(&mut shell, &battle);
    (battle, shell)
}

fn rect_named(shell: &ridgeline::game::shell::Shell, name: &str) -> Rect {
    shell.ui.window(shell.find(name).unwrap()).unwrap().rect
}

/// Where in the draw list the radar's ground (the map preview inside `rect`) is drawn.
fn radar_at(cmds: &[DrawCmd], rect: Rect) -> Option<usize> {
    cmds.iter().position(|c| {
        matches!(c, DrawCmd::Image { rect: r, name, .. } if name == "@preview/Proving Grounds" && rect.contains(r.x + 1.0, r.y + 1.0))
    })
}

#[test]
fn the_gadgets_are_found_under_the_cursor_through_the_tree() {
    let (_battle, mut shell) = battle();
    let radar = rect_named(&shell, "InGame.wnd:Radar");
    let panel = rect_named(&shell, "InGame.wnd:SelectionPanel");
    let middle = |r: Rect| (r.x + r.w / 2.0, r.y + r.h / 2.0);
    let (x, y) = middle(radar);
    assert_eq!(hud::under(&shell, x, y), Some((Gadget::Radar, radar)));
    let (px, py) = middle(panel);
    assert_eq!(hud::under(&shell, px, py), Some((Gadget::SelectionPanel, panel)));
    // A dialog takes the mouse: the radar under it is not clicked through.
    shell.message("Leave battle", "Leave?", true);
    assert_eq!(hud::under(&shell, x, y), None);
}

#[test]
fn the_radar_is_drawn_in_its_place_in_the_tree_under_a_dialog() {
    let (battle, mut shell) = battle();
    let radar = rect_named(&shell, "InGame.wnd:Radar");
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    let at = radar_at(&cmds, radar).expect("the radar's ground is drawn in its window");
    // The panel's name line is drawn too, through its own callback.
    assert!(cmds.iter().any(|c| matches!(c, DrawCmd::Text { .. })));
    shell.message("Leave battle", "Leave?", true);
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    let at = radar_at(&cmds, radar).unwrap_or(at);
    // The dialog dims everything under it: that fill comes after the radar.
    let dim = cmds
        .iter()
        .rposition(|c| matches!(c, DrawCmd::Fill { rect, color } if rect.x == 0.0 && rect.y == 0.0 && color[3] == 110))
        .expect("the dialog dims the screen");
    assert!(at < dim, "the radar ({at}) is drawn under the dialog's dimming ({dim})");
}

#[test]
fn a_window_that_says_radar_draw_shows_the_radar_wherever_a_layout_puts_it() {
    let (battle, mut shell) = battle();
    // A mod may rename and move the radar: the window's draw callback is what counts.
    let text = std::fs::read_to_string(common::root().join("ui/InGame.wnd")).unwrap();
    let renamed = text.replace("\"InGame.wnd:Radar\"", "\"InGame.wnd:MiniMap\"");
    assert_ne!(renamed, text);
    let file = ridgeline::ui::wnd::parse("InGame.wnd", &renamed).unwrap();
    shell.use_layout("InGame.wnd", file);
    shell.open(Screen::InGame);
    hud::sync(&mut shell, &battle);
    assert!(shell.find("InGame.wnd:Radar").is_none());
    let minimap = rect_named(&shell, "InGame.wnd:MiniMap");
    let cmds = frame::ui_commands(&shell, Some(&battle), false);
    assert!(radar_at(&cmds, minimap).is_some(), "the renamed window draws the radar");
    let (x, y) = (minimap.x + minimap.w / 2.0, minimap.y + minimap.h / 2.0);
    assert_eq!(hud::under(&shell, x, y), Some((Gadget::Radar, minimap)));
}
