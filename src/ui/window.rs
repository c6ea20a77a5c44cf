//! A GameWindow: one retained node of the window tree, and the per-gadget state it carries.

use super::geometry::Rect;
use super::wnd::model::{
    Anchor, DrawEntry, GadgetData, ScalingMode, ScreenRect, TextColors, WindowDef, WindowType, status_bit,
};

/// A window's handle: its slot in the manager's arena and the slot's generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WindowId {
    /// Slot.
    pub index: u32,
    /// Generation of the slot when the window was made.
    pub generation: u32,
}

/// The part of a window name after `File.wnd:` (the whole name when it has no file).
pub fn short_name(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// A window's name key: a stable hash of its `File.wnd:Id` name (FNV-1a).
pub fn name_key(name: &str) -> u32 {
    name.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// Gadget state.
#[derive(Clone, Debug, PartialEq)]
pub enum Gadget {
    /// No gadget behaviour (a panel or custom window).
    None,
    /// A push button; `pressed` while the mouse is held on it.
    PushButton {
        /// Held down.
        pressed: bool,
    },
    /// A check box.
    CheckBox {
        /// Checked.
        checked: bool,
    },
    /// A radio button of a group among its siblings.
    RadioButton {
        /// Group number.
        group: i64,
        /// Selected.
        selected: bool,
    },
    /// Static text.
    StaticText {
        /// Centred (else left-aligned).
        centered: bool,
        /// Lines scrolled past (the wheel scrolls a text taller than its window).
        scroll: u32,
    },
    /// A text entry field.
    TextEntry {
        /// The text.
        text: String,
        /// Caret position in characters.
        caret: usize,
        /// Selection anchor (characters), if a selection exists.
        anchor: Option<usize>,
        /// Most characters allowed.
        max_len: usize,
        /// Show dots instead of text.
        secret: bool,
        /// Digits only.
        numeric: bool,
    },
    /// A scrolling list box.
    ListBox {
        /// Column widths as shares of the width.
        columns: Vec<f32>,
        /// Rows of cells.
        rows: Vec<Vec<String>>,
        /// Selected rows.
        selected: Vec<usize>,
        /// Several rows may be selected.
        multi: bool,
        /// First visible row.
        scroll: usize,
        /// Row height in pixels.
        row_height: f32,
    },
    /// A combo box: a closed list with one chosen item.
    ComboBox {
        /// Items.
        items: Vec<String>,
        /// Chosen item.
        selected: Option<usize>,
        /// The drop-down list is open.
        open: bool,
        /// Items shown when open.
        max_display: usize,
    },
    /// A slider.
    Slider {
        /// Minimum.
        min: i32,
        /// Maximum.
        max: i32,
        /// Value.
        value: i32,
        /// Vertical (else horizontal).
        vertical: bool,
    },
    /// A progress bar, 0–100.
    ProgressBar {
        /// Percent.
        percent: i32,
    },
    /// A tab control.
    TabControl {
        /// Tab captions.
        tabs: Vec<String>,
        /// Active tab.
        active: usize,
        /// Tab strip height in pixels.
        tab_height: f32,
    },
}

impl Gadget {
    /// The initial state for a window definition.
    pub fn from_def(def: &WindowDef) -> Gadget {
        let g = def.gadget.clone().unwrap_or_default();
        match def.kind {
            WindowType::User => Gadget::None,
            WindowType::PushButton => Gadget::PushButton { pressed: false },
            WindowType::CheckBox => Gadget::CheckBox { checked: false },
            WindowType::RadioButton => Gadget::RadioButton { group: g.get("GROUP", 0), selected: false },
            WindowType::StaticText => Gadget::StaticText { centered: g.get("CENTERED", 0) != 0, scroll: 0 },
            WindowType::EntryField => Gadget::TextEntry {
                text: String::new(),
                caret: 0,
                anchor: None,
                max_len: g.get("MAXLEN", 64).clamp(1, 4096) as usize,
                secret: g.get("SECRETTEXT", 0) != 0,
                numeric: g.get("NUMERICALONLY", 0) != 0,
            },
            WindowType::ScrollListBox => Gadget::ListBox {
                columns: list_columns(&g),
                rows: Vec::new(),
                selected: Vec::new(),
                multi: g.get("MULTISELECT", 0) != 0,
                scroll: 0,
                row_height: 20.0,
            },
            WindowType::ComboBox => Gadget::ComboBox {
                items: Vec::new(),
                selected: None,
                open: false,
                max_display: g.get("MAXDISPLAY", 5).clamp(1, 32) as usize,
            },
            WindowType::HorzSlider | WindowType::VertSlider => {
                let (min, max) = (g.get("MINVALUE", 0) as i32, g.get("MAXVALUE", 100) as i32);
                Gadget::Slider { min, max: max.max(min), value: min, vertical: def.kind == WindowType::VertSlider }
            }
            WindowType::ProgressBar => Gadget::ProgressBar { percent: 0 },
            WindowType::TabControl => {
                let n = g.get("TABCOUNT", 1).clamp(1, 16) as usize;
                Gadget::TabControl {
                    tabs: (1..=n).map(|i| format!("Tab {i}")).collect(),
                    active: 0,
                    tab_height: g.get("TABHEIGHT", 24) as f32,
                }
            }
        }
    }
}

/// Column shares of a list box: `COLUMNS` and `COLUMNSWIDTH` (percentages).
fn list_columns(g: &GadgetData) -> Vec<f32> {
    let n = g.get("COLUMNS", 1).clamp(1, 16) as usize;
    let widths: Vec<f32> = g.values("COLUMNSWIDTH").map(|v| v.iter().map(|w| *w as f32).collect()).unwrap_or_default();
    if widths.len() == n && widths.iter().sum::<f32>() > 0.0 {
        let total: f32 = widths.iter().sum();
        widths.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / n as f32; n]
    }
}

/// One retained window.
#[derive(Clone, Debug, PartialEq)]
pub struct GameWindow {
    /// Its handle.
    pub id: WindowId,
    /// `File.wnd:Id`.
    pub name: String,
    /// Hash of the name.
    pub key: u32,
    /// Type.
    pub kind: WindowType,
    /// Parent, if not a root.
    pub parent: Option<WindowId>,
    /// Children in sibling order (drawn first to last; the last is on top).
    pub children: Vec<WindowId>,
    /// The layout it belongs to.
    pub layout: u32,
    /// Authored rectangle.
    pub authored: ScreenRect,
    /// Placed rectangle in screen pixels.
    pub rect: Rect,
    /// Status bits.
    pub status: u32,
    /// Style bits.
    pub style: u32,
    /// Text.
    pub text: String,
    /// Tooltip.
    pub tooltip: String,
    /// Milliseconds of hovering before the tooltip shows (negative: the default).
    pub tooltip_delay: i32,
    /// The sound a click plays (None: the gadget's default; empty: none).
    pub click_sound: Option<String>,
    /// What a click does, declared by the layout (`ACTION`), whatever the window is called.
    pub action: Option<String>,
    /// The sound the pointer coming onto it plays (as for `click_sound`).
    pub hover_sound: Option<String>,
    /// Font size in pixels at the current screen size.
    pub font_px: f32,
    /// Bold font.
    pub bold: bool,
    /// The face its text draws in (0: the game's own; a mod's font named by its `FONT`).
    pub face: u16,
    /// Text colours.
    pub text_colors: TextColors,
    /// Draw data per state.
    pub enabled_draw: Vec<DrawEntry>,
    /// Draw data when disabled.
    pub disabled_draw: Vec<DrawEntry>,
    /// Draw data when highlighted.
    pub hilite_draw: Vec<DrawEntry>,
    /// System callback name.
    pub system_callback: Option<String>,
    /// Draw callback name.
    pub draw_callback: Option<String>,
    /// Gadget state.
    pub gadget: Gadget,
    /// The cursor is over it.
    pub hilited: bool,
    /// Scaling mode in effect.
    pub scaling: ScalingMode,
    /// Parent edges it keeps its distances to (extension).
    pub anchor: Option<Anchor>,
    /// An image set by code, drawn in a square at the window's left with the text beside it
    /// (extension; buttons use it).
    pub icon: Option<String>,
    /// A short mark set by code (a button's hotkey), drawn over the icon's corner, or over the
    /// window's top-left corner when it has no icon (extension; empty: none).
    pub mark: String,
}

impl GameWindow {
    /// True unless the HIDDEN status bit is set.
    pub fn visible(&self) -> bool {
        self.status & status_bit("HIDDEN") == 0
    }

    /// True if the ENABLED status bit is set.
    pub fn enabled(&self) -> bool {
        self.status & status_bit("ENABLED") != 0
    }

    /// True if the window takes part in tab order.
    pub fn tab_stop(&self) -> bool {
        self.status & status_bit("TABSTOP") != 0 || self.style & super::wnd::model::style_bit("TABSTOP") != 0
    }

    /// True if the window can take keyboard focus.
    pub fn focusable(&self) -> bool {
        self.status & status_bit("NOFOCUS") == 0
            && (self.tab_stop()
                || matches!(self.gadget, Gadget::TextEntry { .. } | Gadget::ListBox { .. } | Gadget::ComboBox { .. }))
    }

    /// True if mouse input may land on it.
    pub fn accepts_input(&self) -> bool {
        self.status & status_bit("NOINPUT") == 0
    }

    /// Sets or clears a status bit.
    pub fn set_status(&mut self, bit: u32, on: bool) {
        if on {
            self.status |= bit;
        } else {
            self.status &= !bit;
        }
    }
}
