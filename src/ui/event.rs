//! Input the window manager receives, and the semantic events gadgets send to their owners.

use super::window::WindowId;

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MouseButton {
    /// Left.
    Left,
    /// Right.
    Right,
}

/// Keys the UI understands (text arrives as [`Input::Char`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Tab (with shift: backwards).
    Tab,
    /// Enter.
    Enter,
    /// Escape.
    Escape,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Space.
    Space,
    /// Select all (Ctrl+A): a text entry selects its whole text.
    SelectAll,
}

/// Raw input, in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// The cursor moved.
    MouseMove {
        /// X.
        x: f32,
        /// Y.
        y: f32,
    },
    /// A button went down.
    MouseDown {
        /// X.
        x: f32,
        /// Y.
        y: f32,
        /// Which.
        button: MouseButton,
    },
    /// A button came up.
    MouseUp {
        /// X.
        x: f32,
        /// Y.
        y: f32,
        /// Which.
        button: MouseButton,
    },
    /// The wheel turned (positive: away from the user).
    Wheel {
        /// X.
        x: f32,
        /// Y.
        y: f32,
        /// Notches.
        delta: f32,
    },
    /// A key went down.
    Key {
        /// Which.
        key: Key,
        /// Shift held.
        shift: bool,
    },
    /// A character was typed.
    Char(char),
}

/// What happened, in a gadget's terms.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A push button was clicked.
    Selected,
    /// A check box changed.
    Toggled(bool),
    /// A radio button became the selected one of its group.
    RadioSelected,
    /// A text entry's text changed.
    TextChanged(String),
    /// Enter was pressed in a text entry.
    EditDone(String),
    /// A list box selection changed (selected rows).
    ListSelection(Vec<usize>),
    /// A list row was double-clicked.
    ListActivated(usize),
    /// A slider moved.
    SliderChanged(i32),
    /// A combo box item was chosen.
    ComboSelected(usize),
    /// A tab became active.
    TabChanged(usize),
    /// The cursor entered the window.
    MouseEntered,
    /// The cursor left the window.
    MouseLeft,
    /// A key nobody handled reached the layout's root (Escape in a dialog, …).
    KeyUnhandled(Key),
}

/// An event for a window's owner.
#[derive(Clone, Debug, PartialEq)]
pub struct UiEvent {
    /// The gadget the event is about.
    pub window: WindowId,
    /// Its name (`File.wnd:Id`).
    pub name: String,
    /// The owner: the nearest ancestor (or itself) with a system callback that answers (the
    /// original's generic ones hand events on or stop them: `ui/routes.rs`).
    pub owner: Option<WindowId>,
    /// That owner's system callback name.
    pub callback: Option<String>,
    /// What happened.
    pub kind: EventKind,
}
