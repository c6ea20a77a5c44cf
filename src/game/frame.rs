//! One client frame, the same for the game window, `ridgeline screenshot` and `bench render`:
//! the world pass over the battlefield, then the UI's draw list — the battle's overlay (health
//! bars, markers, floaters) under the windows, the window tree with the HUD's gadgets drawn by
//! their callbacks in their place in it, the layout editor's marks, and over the battlefield
//! the game's own cursor.
//!
//! Must not: fill the HUD's windows (`hud::sync` does, before) or present the frame (the caller
//! owns the surface or the offscreen target).

use crate::render::{Gpu, ObjectInstance, WorldPass};
use crate::ui::GameWindow;
use crate::ui::draw::{DrawCmd, draw_list};

use super::battle::Battle;
use super::hud;
use super::shell::Shell;

/// How much of the battlefield a frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// What the local player sees: under the shroud, with effects.
    Player,
    /// Everything, without effects (tools' views).
    Everything,
}

/// The objects' instances a frame draws: what the local player sees, or everything.
pub fn instances(battle: &Battle, sight: Sight) -> Vec<Vec<ObjectInstance>> {
    match sight {
        Sight::Player => battle.instances(),
        Sight::Everything => battle.scene.instances(battle.world(), None, 1.0, None),
    }
}

/// Draws the battlefield with `instances` (see [`instances`]; the render benchmark gives its
/// own crowd) into `target` as `sight` allows, `seconds` into the battle (for animated water
/// and the like).
#[allow(clippy::too_many_arguments)]
pub fn draw_world(
    gpu: &Gpu,
    pass: &mut WorldPass,
    target: &wgpu::TextureView,
    size: (u32, u32),
    battle: &Battle,
    sight: Sight,
    seconds: f32,
    instances: &[Vec<ObjectInstance>],
) {
    if sight == Sight::Player {
        pass.set_shroud(&gpu.queue, &battle.picture().shroud().soft_bytes());
    }
    // Tracers, flashes, smoke and scorches are the world's, with the interface or without.
    pass.set_sprites(battle.picture().sprites());
    pass.set_view(battle.picture().camera().eye(), seconds);
    pass.render(&gpu.device, &gpu.queue, target, size, battle.picture().view_proj(), instances);
}

/// The UI's draw list for one frame, over `battle` if one shows; `cursor`: the game draws its
/// own cursor over the battlefield (the window does; still pictures do not).
pub fn ui_commands(shell: &Shell, battle: Option<&Battle>, cursor: bool) -> Vec<DrawCmd> {
    let mut cmds = battle.map(Battle::overlay).unwrap_or_default();
    let fonts = shell.content.fonts.as_ref();
    let custom = |w: &GameWindow, out: &mut Vec<DrawCmd>| {
        if !battle.is_some_and(|b| hud::draw(b, w, fonts, out)) {
            shell.custom_draw(w, out);
        }
    };
    cmds.extend(draw_list(&shell.ui, fonts, &custom));
    cmds.extend(shell.editor_overlay());
    if let Some(b) = battle.filter(|_| cursor && !shell.message_open()) {
        cmds.extend(b.cursor());
    }
    cmds
}
