//! Gadget behaviour: how each kind of window answers the mouse and the keyboard. One file per
//! gadget kind; the functions here route to them by the window's [`Gadget`] variant, so a new
//! gadget is a new file plus one line in each dispatch it takes part in. The window manager
//! routes input to a window; the gadget says what it did (handled, capture the mouse, events).
//!
//! Must not: reach other windows, focus or the modal stack (the manager owns those), or draw.

pub(crate) mod check_box;
pub(crate) mod combo_box;
pub(crate) mod list_box;
pub(crate) mod push_button;
pub(crate) mod radio_button;
pub(crate) mod slider;
pub(crate) mod tab_control;
pub(crate) mod text_entry;

use super::event::{EventKind, Key};
use super::font::TextMeasure;
use super::geometry::Rect;
use super::window::Gadget;

/// Where the mouse is, and what a gadget needs to know of its window to answer it.
pub(crate) struct Pointer {
    /// Cursor.
    pub x: f32,
    /// Cursor.
    pub y: f32,
    /// The window's placed rectangle.
    pub rect: Rect,
    /// The window's font size in pixels, and whether bold (for caret placement).
    pub font_px: f32,
    /// Bold text.
    pub bold: bool,
    /// The window acts on the press instead of the release (`ON_MOUSE_DOWN`).
    pub on_down: bool,
    /// Text measurement, when the UI has fonts.
    pub measure: Option<std::sync::Arc<dyn TextMeasure + Send + Sync>>,
}

/// What a gadget did with an input.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Response {
    /// The input stops here (else it bubbles to the parent).
    pub handled: bool,
    /// The window takes the mouse until the button is released.
    pub capture: bool,
    /// Events for the window's owner, in order.
    pub events: Vec<EventKind>,
}

impl Response {
    /// Handled, nothing else.
    pub fn handled() -> Response {
        Response { handled: true, ..Response::default() }
    }

    /// Handled, with one event.
    pub fn event(kind: EventKind) -> Response {
        Response { handled: true, capture: false, events: vec![kind] }
    }

    /// Handled, taking the mouse.
    pub fn capture() -> Response {
        Response { handled: true, capture: true, events: Vec::new() }
    }
}

/// The left button went down on the window.
pub(crate) fn mouse_down(g: &mut Gadget, p: &Pointer) -> Response {
    match g {
        Gadget::PushButton { .. } => push_button::mouse_down(g, p),
        Gadget::CheckBox { .. } | Gadget::RadioButton { .. } => Response::capture(),
        Gadget::TextEntry { .. } => text_entry::mouse_down(g, p),
        Gadget::ListBox { .. } => list_box::mouse_down(g, p),
        Gadget::ComboBox { .. } => combo_box::mouse_down(g),
        Gadget::Slider { .. } => slider::mouse_down(g, p),
        Gadget::TabControl { .. } => tab_control::mouse_down(g, p),
        _ => Response::default(),
    }
}

/// The mouse moved while the window holds the capture.
pub(crate) fn drag(g: &mut Gadget, p: &Pointer) -> Response {
    match g {
        Gadget::Slider { .. } => slider::drag(g, p),
        _ => Response::default(),
    }
}

/// The left button went up while the window held the capture; `inside` if over the window.
pub(crate) fn mouse_up(g: &mut Gadget, inside: bool) -> Response {
    match g {
        Gadget::PushButton { .. } => push_button::mouse_up(g, inside),
        Gadget::CheckBox { .. } => check_box::mouse_up(g, inside),
        Gadget::RadioButton { .. } => radio_button::mouse_up(g, inside),
        _ => Response::default(),
    }
}

/// The wheel turned over the window (`height` is the window's); unhandled bubbles up.
pub(crate) fn wheel(g: &mut Gadget, height: f32, delta: f32) -> Response {
    match g {
        Gadget::ListBox { .. } => list_box::wheel(g, height, delta),
        _ => Response::default(),
    }
}

/// A key went down while the window has focus (`height` is the window's).
pub(crate) fn key(g: &mut Gadget, key: Key, shift: bool, height: f32) -> Response {
    match g {
        Gadget::TextEntry { .. } => text_entry::key(g, key, shift),
        Gadget::ListBox { .. } => list_box::key(g, key, height),
        Gadget::Slider { .. } => slider::key(g, key),
        Gadget::PushButton { .. } => push_button::key(key),
        Gadget::CheckBox { .. } => check_box::key(g, key),
        Gadget::ComboBox { .. } => combo_box::key(g, key),
        _ => Response::default(),
    }
}

/// A character was typed while the window has focus; `None` if the gadget takes no text.
pub(crate) fn char(g: &mut Gadget, c: char) -> Option<Response> {
    match g {
        Gadget::TextEntry { .. } => Some(text_entry::char(g, c)),
        _ => None,
    }
}
