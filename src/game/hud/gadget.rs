//! The battle's gadgets among `InGame.wnd`'s windows, known by their draw callbacks: a window
//! whose `DRAWCALLBACK` is `RadarDraw` shows the radar, one with `SelectionPanelDraw` the
//! selection panel, wherever a layout puts it. Drawn in their place in the tree (under
//! tooltips, dialogs and later windows) and hit-tested through it.
//!
//! Must not: find a gadget by its window's name (a mod may rename or move it).

use crate::ui::draw::DrawCmd;
use crate::ui::font::TextMeasure;
use crate::ui::{GameWindow, Rect};

use super::super::battle::Battle;
use super::super::images::ImageKey;
use super::super::shell::Shell;

/// One of the battle's gadgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gadget {
    /// The map in miniature: click to look, right-click to order, drag to pan.
    Radar,
    /// What is selected, and the production queue of a selected factory.
    SelectionPanel,
}

impl Gadget {
    /// The gadget a window shows, by its draw callback.
    pub fn of(w: &GameWindow) -> Option<Gadget> {
        match w.draw_callback.as_deref()? {
            "RadarDraw" => Some(Gadget::Radar),
            "SelectionPanelDraw" => Some(Gadget::SelectionPanel),
            _ => None,
        }
    }
}

/// Draws window `w` if it shows one of the battle's gadgets (its words measured by `text`);
/// false when it does not.
pub fn draw(battle: &Battle, w: &GameWindow, text: &dyn TextMeasure, out: &mut Vec<DrawCmd>) -> bool {
    match Gadget::of(w) {
        Some(Gadget::Radar) => {
            out.extend(super::radar::draw(battle, w.rect, &ImageKey::preview(&battle.scene.map.file.name).name()));
            true
        }
        Some(Gadget::SelectionPanel) => {
            out.extend(super::panel::draw(battle, w.rect, text));
            true
        }
        None => false,
    }
}

/// The gadget under (x, y), if the tree's hit test finds one there (nothing covers it: no
/// dialog, no window above it), with its window's rectangle.
pub fn under(shell: &Shell, x: f32, y: f32) -> Option<(Gadget, Rect)> {
    let w = shell.ui.window(shell.ui.hit(x, y)?)?;
    Gadget::of(w).map(|g| (g, w.rect))
}
