//! What a layout file describes: windows with their type, rectangle, name, status and style
//! flags, callbacks, font, texts, colours, per-state draw data, gadget data and Ridgeline's
//! layout extensions (anchors and scaling).

/// The window types of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WindowType {
    /// A plain or custom-drawn window.
    User,
    /// A push button.
    PushButton,
    /// A radio button.
    RadioButton,
    /// A check box.
    CheckBox,
    /// A vertical slider.
    VertSlider,
    /// A horizontal slider.
    HorzSlider,
    /// A scrolling list box.
    ScrollListBox,
    /// A text entry field.
    EntryField,
    /// Static text.
    StaticText,
    /// A progress bar.
    ProgressBar,
    /// A combo box.
    ComboBox,
    /// A tab control.
    TabControl,
}

impl WindowType {
    /// Every type with its keyword.
    pub const ALL: [(&'static str, WindowType); 12] = [
        ("USER", WindowType::User),
        ("PUSHBUTTON", WindowType::PushButton),
        ("RADIOBUTTON", WindowType::RadioButton),
        ("CHECKBOX", WindowType::CheckBox),
        ("VERTSLIDER", WindowType::VertSlider),
        ("HORZSLIDER", WindowType::HorzSlider),
        ("SCROLLLISTBOX", WindowType::ScrollListBox),
        ("ENTRYFIELD", WindowType::EntryField),
        ("STATICTEXT", WindowType::StaticText),
        ("PROGRESSBAR", WindowType::ProgressBar),
        ("COMBOBOX", WindowType::ComboBox),
        ("TABCONTROL", WindowType::TabControl),
    ];

    /// The type for a keyword.
    pub fn from_keyword(word: &str) -> Option<WindowType> {
        WindowType::ALL.iter().find(|(k, _)| k.eq_ignore_ascii_case(word)).map(|(_, t)| *t)
    }

    /// The keyword.
    pub fn keyword(self) -> &'static str {
        WindowType::ALL.iter().find(|(_, t)| *t == self).map_or("USER", |(k, _)| k)
    }
}

/// Status flag names and bits (`STATUS = ENABLED+IMAGE;`).
pub const STATUS_FLAGS: [(&str, u32); 26] = [
    ("ACTIVE", 1 << 0),
    ("TOGGLE", 1 << 1),
    ("DRAGABLE", 1 << 2),
    ("ENABLED", 1 << 3),
    ("HIDDEN", 1 << 4),
    ("ABOVE", 1 << 5),
    ("BELOW", 1 << 6),
    ("IMAGE", 1 << 7),
    ("TABSTOP", 1 << 8),
    ("NOINPUT", 1 << 9),
    ("NOFOCUS", 1 << 10),
    ("DESTROYED", 1 << 11),
    ("BORDER", 1 << 12),
    ("SMOOTH_TEXT", 1 << 13),
    ("ONE_LINE", 1 << 14),
    ("NO_FLUSH", 1 << 15),
    ("SEE_THRU", 1 << 16),
    ("RIGHT_CLICK", 1 << 17),
    ("WRAP_CENTERED", 1 << 18),
    ("CHECK_LIKE", 1 << 19),
    ("HOTKEY_TEXT", 1 << 20),
    ("USE_OVERLAY_STATES", 1 << 21),
    ("NOT_READY", 1 << 22),
    ("FLASHING", 1 << 23),
    ("ALWAYS_COLOR", 1 << 24),
    ("ON_MOUSE_DOWN", 1 << 25),
];

/// Style flag names and bits (`STYLE = PUSHBUTTON+MOUSETRACK;`).
pub const STYLE_FLAGS: [(&str, u32); 16] = [
    ("PUSHBUTTON", 1 << 0),
    ("RADIOBUTTON", 1 << 1),
    ("CHECKBOX", 1 << 2),
    ("VERTSLIDER", 1 << 3),
    ("HORZSLIDER", 1 << 4),
    ("SCROLLLISTBOX", 1 << 5),
    ("ENTRYFIELD", 1 << 6),
    ("STATICTEXT", 1 << 7),
    ("PROGRESSBAR", 1 << 8),
    ("USER", 1 << 9),
    ("MOUSETRACK", 1 << 10),
    ("ANIMATED", 1 << 11),
    ("TABSTOP", 1 << 12),
    ("TABCONTROL", 1 << 13),
    ("TABPANE", 1 << 14),
    ("COMBOBOX", 1 << 15),
];

/// The bit of a status flag by name.
pub fn status_bit(name: &str) -> u32 {
    STATUS_FLAGS.iter().find(|(n, _)| *n == name).map_or(0, |(_, b)| *b)
}

/// The bit of a style flag by name.
pub fn style_bit(name: &str) -> u32 {
    STYLE_FLAGS.iter().find(|(n, _)| *n == name).map_or(0, |(_, b)| *b)
}

/// An RGBA colour, 0–255 per channel.
pub type Rgba = [u8; 4];

/// `SCREENRECT`: corners in the authoring resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ScreenRect {
    /// Upper-left corner.
    pub upper_left: (i32, i32),
    /// Bottom-right corner.
    pub bottom_right: (i32, i32),
    /// The resolution the corners were authored for.
    pub creation_resolution: (i32, i32),
}

/// `FONT = NAME: "…", SIZE: n, BOLD: 0|1;`
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FontDef {
    /// Face name.
    pub name: String,
    /// Size in points at the authoring resolution.
    pub size: i32,
    /// Bold.
    pub bold: bool,
}

/// `TEXTCOLOR`: text and border colours per state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TextColors {
    /// Enabled text.
    pub enabled: Rgba,
    /// Enabled text border (shadow).
    pub enabled_border: Rgba,
    /// Disabled text.
    pub disabled: Rgba,
    /// Disabled border.
    pub disabled_border: Rgba,
    /// Highlighted text.
    pub hilite: Rgba,
    /// Highlighted border.
    pub hilite_border: Rgba,
}

/// One of the nine entries of a draw-data list.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DrawEntry {
    /// Image name (`NoImage` for none).
    pub image: String,
    /// Fill colour.
    pub color: Rgba,
    /// Border colour.
    pub border: Rgba,
}

impl DrawEntry {
    /// True when the entry names an image.
    pub fn has_image(&self) -> bool {
        !self.image.is_empty() && !self.image.eq_ignore_ascii_case("NoImage")
    }
}

/// Gadget-specific data: every `LABEL: values` pair of the block, by label.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GadgetData {
    /// The block's keyword (`LISTBOXDATA`…).
    pub block: String,
    /// Values by label, in file order.
    pub fields: Vec<(String, Vec<i64>)>,
}

impl GadgetData {
    /// The values of a field (the last one, if a label repeats).
    pub fn values(&self, label: &str) -> Option<&[i64]> {
        self.fields.iter().rev().find(|(l, _)| l == label).map(|(_, v)| v.as_slice())
    }

    /// The first value of a field, or `default`.
    pub fn get(&self, label: &str, default: i64) -> i64 {
        self.values(label).and_then(|v| v.first()).copied().unwrap_or(default)
    }
}

/// Ridgeline's extension: which parent edges a window keeps its distance to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Anchor {
    /// Keep the distance to the parent's left edge.
    pub left: bool,
    /// Keep the distance to the parent's right edge.
    pub right: bool,
    /// Keep the distance to the parent's top edge.
    pub top: bool,
    /// Keep the distance to the parent's bottom edge.
    pub bottom: bool,
}

/// Ridgeline's extension: how a window scales from its creation resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalingMode {
    /// X and Y scale separately (the original behaviour).
    Stretch,
    /// One uniform scale, letterboxed and centred.
    Aspect,
}

/// One window of a layout, with its children.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowDef {
    /// Line of its `WINDOW` keyword.
    pub line: usize,
    /// Type.
    pub kind: WindowType,
    /// Rectangle.
    pub rect: ScreenRect,
    /// `File.wnd:Id`.
    pub name: String,
    /// Status bits.
    pub status: u32,
    /// Status flag names Ridgeline does not know (kept for writing back).
    pub status_unknown: Vec<String>,
    /// Style bits.
    pub style: u32,
    /// Style flag names Ridgeline does not know (kept for writing back).
    pub style_unknown: Vec<String>,
    /// System callback name (None for `[None]`).
    pub system_callback: Option<String>,
    /// Input callback name.
    pub input_callback: Option<String>,
    /// Tooltip callback name.
    pub tooltip_callback: Option<String>,
    /// Draw callback name.
    pub draw_callback: Option<String>,
    /// Font.
    pub font: Option<FontDef>,
    /// Header template name.
    pub header_template: Option<String>,
    /// Tooltip delay in ms (-1: default).
    pub tooltip_delay: i32,
    /// Text.
    pub text: String,
    /// Tooltip text.
    pub tooltip_text: String,
    /// Extension: the sound a click plays (None: the gadget's default; `Some("")`: silence).
    pub click_sound: Option<String>,
    /// Extension: the sound the pointer coming onto it plays (as for `click_sound`).
    pub hover_sound: Option<String>,
    /// Text colours.
    pub text_colors: TextColors,
    /// Draw data for the enabled state.
    pub enabled: Vec<DrawEntry>,
    /// Draw data for the disabled state.
    pub disabled: Vec<DrawEntry>,
    /// Draw data for the highlighted state.
    pub hilite: Vec<DrawEntry>,
    /// Gadget data, if the window has a block.
    pub gadget: Option<GadgetData>,
    /// What a click does, whatever the window is called (Ridgeline's `ACTION` key: an action
    /// from the shell's list, such as `open:Options` or `command:0`).
    pub action: Option<String>,
    /// Extension: anchors.
    pub anchor: Option<Anchor>,
    /// Extension: scaling mode.
    pub scaling: Option<ScalingMode>,
    /// Keys Ridgeline does not use, in file order with their values as written (kept so a
    /// layout written back loses nothing).
    pub extra: Vec<(String, String)>,
    /// Where each key was read (key, line, column), so checks can point at the key; empty for
    /// a window made in code or the editor.
    pub key_lines: Vec<(String, usize, usize)>,
    /// Children in sibling order.
    pub children: Vec<WindowDef>,
}

/// A layout file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct WndFile {
    /// `FILE_VERSION`.
    pub version: i64,
    /// `LAYOUTINIT` callback.
    pub layout_init: Option<String>,
    /// `LAYOUTUPDATE` callback.
    pub layout_update: Option<String>,
    /// `LAYOUTSHUTDOWN` callback.
    pub layout_shutdown: Option<String>,
    /// Root windows.
    pub windows: Vec<WindowDef>,
    /// Things kept but ignored (unknown keys), each `file:line:col: note`.
    pub notes: Vec<String>,
}

impl WindowDef {
    /// The line and column of `key` in the file (the window's own line when it was not read
    /// from one).
    pub fn key_at(&self, key: &str) -> (usize, usize) {
        self.key_lines.iter().find(|(k, ..)| k == key).map_or((self.line, 1), |(_, l, c)| (*l, *c))
    }
}

impl WndFile {
    /// Every window, depth first.
    pub fn all_windows(&self) -> Vec<&WindowDef> {
        fn walk<'a>(w: &'a WindowDef, out: &mut Vec<&'a WindowDef>) {
            out.push(w);
            for c in &w.children {
                walk(c, out);
            }
        }
        let mut out = Vec::new();
        for w in &self.windows {
            walk(w, &mut out);
        }
        out
    }
}
