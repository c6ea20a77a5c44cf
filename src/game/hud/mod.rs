//! The in-game HUD: the owner of `InGame.wnd`'s windows while a battle runs. Each frame
//! [`sync`] fills them from the battle (top bar, power, command buttons, queue, alerts, replay
//! bar); the battle's own gadgets — the radar and the selection panel — are windows of the tree
//! like any other, drawn by their draw callbacks (`gadget.rs`) and found under the cursor by the
//! tree's own hit test, so z-order, tooltips, dialogs and mods treat them alike.
//!
//! Must not: change the world (a click on a gadget becomes the battle's order or camera move),
//! or decide what a shell screen does.

mod gadget;
pub mod panel;
pub mod radar;

use super::battle::Battle;
use super::shell::{Screen, Shell};

pub use gadget::{Gadget, draw, under};

/// Fills `InGame.wnd`'s windows from the battle as it stands.
pub fn sync(shell: &mut Shell, battle: &Battle) {
    shell.ui.set_skin(Screen::InGame.layout(), skin(&shell.content.skins, battle));
    // A watcher's "Everything" view belongs to no one player: no money or power is theirs.
    let one_player = !battle.sees_everything();
    let pace = battle.play().pace_label(battle.look().labels());
    shell.bars().set_hud(one_player.then(|| battle.play().money()), battle.play().clock(), &pace);
    shell.bars().set_power(one_player.then(|| battle.power()));
    let buttons: Vec<_> = battle.look().commands().into_iter().map(|c| c.view()).collect();
    shell.bars().set_commands(&buttons, &battle.queue_text());
    shell.bars().set_alerts(&battle.alert_lines());
    if shell.bars().alert_log_open() {
        let rows = battle.alerts().log().rev().map(|a| vec![a.line_time(), a.text.clone()]).collect();
        shell.bars().set_alert_log(rows);
    }
    shell.bars().set_queue_progress(panel::queue_progress(battle));
    let speed = format!("{}×", battle.play().pace().speed());
    let (paused, view) = (battle.play().pace().paused(), battle.view_label());
    shell.bars().set_replay_bar(battle.play().replay_position(), paused, &speed, &view, battle.can_take_over());
    if battle.play().observes() {
        shell.bars().set_observer_bar(battle.world().frame().0, &view);
    }
    shell.bars().set_key_texts(battle.look().keys());
}

/// The skin of the local player's faction (`ui/skins.ron`); none for a watcher, who plays no
/// faction, or a faction without one: the layout's own look.
fn skin<'a>(skins: &'a crate::ui::skin::Skins, battle: &Battle) -> Option<&'a crate::ui::skin::Skin> {
    if battle.play().watches() {
        return None;
    }
    let world = battle.world();
    let player = world.players().get(battle.local().index())?;
    let faction = world.rules().factions.get(player.faction as usize)?;
    skins.of(&faction.name)
}

/// How many pixels at the bottom of a screen `height` pixels tall the HUD's windows cover: from
/// the highest top of the shown `InGame.wnd` windows that reach the bottom edge (the control
/// bar, the radar, the selection panel — whatever a layout puts there).
pub fn covered_bottom(shell: &Shell, height: f32) -> f32 {
    let ui = &shell.ui;
    ui.roots()
        .iter()
        .filter(|&&id| ui.shown(id))
        .filter_map(|&id| ui.window(id))
        .filter(|w| w.name.starts_with("InGame.wnd:") && w.rect.y + w.rect.h >= height - 2.0 && w.rect.h < height * 0.5)
        .map(|w| height - w.rect.y)
        .fold(0.0, f32::max)
}
