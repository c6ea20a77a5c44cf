//! What the original game's generic system callbacks do with a gadget's event. In Generals a
//! gadget tells its owner, and the owner's system callback decides; a panel whose callback is
//! one of these hands the event on to its parent instead of answering it, so a button deep in
//! a layout reaches the screen's handler at the root. Ridgeline follows the same rule when it
//! looks for the window that hears an event (`manager::WindowManager::emit`).
//!
//! Must not: decide what an event means (screens do), or name a screen's own callback.

use super::event::EventKind;

/// What a generic system callback does with an event that reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Every event goes on to the parent (`PassMessagesToParentSystem`).
    PassAll,
    /// Selections (a button pressed, a box ticked, a radio chosen) go on to the parent; other
    /// events stop here, heard by nobody (`PassSelectedButtonsToParentSystem`).
    PassSelections,
    /// The window answers nothing itself: the event goes on as if it had no system callback
    /// (a gadget's own system, `GadgetPushButtonSystem`…, and `GameWinDefaultSystem`).
    Transparent,
}

/// The original game's generic system callbacks, each with what it does.
pub const ROUTING_SYSTEMS: [(&str, Route); 16] = [
    ("PassMessagesToParentSystem", Route::PassAll),
    ("PassSelectedButtonsToParentSystem", Route::PassSelections),
    ("GameWinDefaultSystem", Route::Transparent),
    ("GadgetPushButtonSystem", Route::Transparent),
    ("GadgetCheckBoxSystem", Route::Transparent),
    ("GadgetRadioButtonSystem", Route::Transparent),
    ("GadgetTextEntrySystem", Route::Transparent),
    ("GadgetListBoxSystem", Route::Transparent),
    ("GadgetComboBoxSystem", Route::Transparent),
    ("GadgetHorizontalSliderSystem", Route::Transparent),
    ("GadgetVerticalSliderSystem", Route::Transparent),
    ("GadgetStaticTextSystem", Route::Transparent),
    ("GadgetProgressBarSystem", Route::Transparent),
    ("GadgetTabControlSystem", Route::Transparent),
    ("GameWinBlockSystem", Route::Transparent),
    ("GadgetScrollBarSystem", Route::Transparent),
];

/// Input callbacks of the original that need no code of their own: `GameWinBlockInput` (a
/// window that takes clicks so nothing under it does, as every Ridgeline panel already does).
pub const PLAIN_INPUTS: [&str; 1] = ["GameWinBlockInput"];

/// What the system callback `name` does with events, if it is a generic one.
pub fn route(name: &str) -> Option<Route> {
    ROUTING_SYSTEMS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// True if the event goes on past a window whose system callback routes it this way.
pub fn passes(route: Route, kind: &EventKind) -> bool {
    match route {
        Route::PassAll | Route::Transparent => true,
        Route::PassSelections => {
            matches!(kind, EventKind::Selected | EventKind::Toggled(_) | EventKind::RadioSelected)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_pass_a_selected_buttons_panel_and_other_events_stop() {
        let r = route("PassSelectedButtonsToParentSystem").unwrap();
        assert!(passes(r, &EventKind::Selected) && passes(r, &EventKind::Toggled(true)));
        assert!(!passes(r, &EventKind::SliderChanged(3)));
        assert!(passes(route("PassMessagesToParentSystem").unwrap(), &EventKind::SliderChanged(3)));
        assert_eq!(route("MainMenuSystem"), None);
    }
}
