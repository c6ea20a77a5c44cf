//! The interface's sounds: a click when a button, box or tab is used and a soft tick when the
//! pointer comes onto an enabled push button — each gadget's own `CLICKSOUND` / `HOVERSOUND`
//! from its layout when it names one (`[None]` for silence), the game's defaults otherwise.
//!
//! Must not: play anything itself (the client hands the names to the mixer).

use crate::audio::cues::names;
use crate::ui::event::{EventKind, UiEvent};
use crate::ui::manager::WindowManager;
use crate::ui::wnd::model::WindowType;

/// The sound an interface event makes, if any.
pub(super) fn sound_for(ui: &WindowManager, e: &UiEvent) -> Option<String> {
    let w = ui.window(e.window)?;
    let clicky = matches!(
        w.kind,
        WindowType::PushButton
            | WindowType::CheckBox
            | WindowType::RadioButton
            | WindowType::ComboBox
            | WindowType::TabControl
    );
    let (own, default) = match e.kind {
        EventKind::Selected
        | EventKind::Toggled(_)
        | EventKind::RadioSelected
        | EventKind::ComboSelected(_)
        | EventKind::TabChanged(_) => (&w.click_sound, clicky.then_some(names::CLICK)),
        EventKind::MouseEntered if w.enabled() => {
            (&w.hover_sound, (w.kind == WindowType::PushButton).then_some(names::HOVER))
        }
        _ => return None,
    };
    match own {
        Some(name) if name.is_empty() => None,
        Some(name) => Some(name.clone()),
        None => default.map(str::to_string),
    }
}
