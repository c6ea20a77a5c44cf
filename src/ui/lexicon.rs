//! The callback lexicon: the names layout files may use for system, input, tooltip, draw and
//! layout callbacks, registered in one place. Loading a layout binds every name or reports it.

use std::collections::BTreeSet;

use super::wnd::model::WndFile;

/// Which callback slot a name fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CallbackKind {
    /// `SYSTEMCALLBACK`: a screen's event handler.
    System,
    /// `INPUTCALLBACK`: a gadget's input behaviour.
    Input,
    /// `TOOLTIPCALLBACK`.
    Tooltip,
    /// `DRAWCALLBACK`.
    Draw,
    /// `LAYOUTINIT`, `LAYOUTUPDATE`, `LAYOUTSHUTDOWN`.
    Layout,
    /// `ACTION`: what a click does, declared by the layout (Ridgeline's key).
    Action,
}

/// The gadget input behaviours every layout may name (they select built-in gadget code).
pub const GADGET_INPUTS: [&str; 13] = [
    "GadgetPushButtonInput",
    "GadgetCheckBoxInput",
    "GadgetRadioButtonInput",
    "GadgetTextEntryInput",
    "GadgetListBoxInput",
    "GadgetListBoxMultiInput",
    "GadgetComboBoxInput",
    "GadgetHorizontalSliderInput",
    "GadgetVerticalSliderInput",
    "GadgetStaticTextInput",
    "GadgetProgressBarInput",
    "GadgetTabControlInput",
    "GameWinDefaultInput",
];

/// The built-in draw behaviours (the original game's names select the default drawing, and
/// `W3DNoDraw` draws nothing of the window itself). Other names of that game are notes, and a
/// near miss of one of these is refused.
pub const DEFAULT_DRAWS: [&str; 25] = [
    "GameWinDefaultDraw",
    "W3DGameWinDefaultDraw",
    "W3DNoDraw",
    "W3DGadgetPushButtonDraw",
    "W3DGadgetPushButtonImageDraw",
    "W3DGadgetCheckBoxDraw",
    "W3DGadgetCheckBoxImageDraw",
    "W3DGadgetRadioButtonDraw",
    "W3DGadgetRadioButtonImageDraw",
    "W3DGadgetTextEntryDraw",
    "W3DGadgetTextEntryImageDraw",
    "W3DGadgetListBoxDraw",
    "W3DGadgetListBoxImageDraw",
    "W3DGadgetStaticTextDraw",
    "W3DGadgetStaticTextImageDraw",
    "W3DGadgetHorizontalSliderDraw",
    "W3DGadgetHorizontalSliderImageDraw",
    "W3DGadgetVerticalSliderDraw",
    "W3DGadgetVerticalSliderImageDraw",
    "W3DGadgetComboBoxDraw",
    "W3DGadgetComboBoxImageDraw",
    "W3DGadgetProgressBarDraw",
    "W3DGadgetProgressBarImageDraw",
    "W3DGadgetTabControlDraw",
    "W3DGadgetTabControlImageDraw",
];

/// Registered callback names by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lexicon {
    names: BTreeSet<(CallbackKind, String)>,
    /// Window names (short, `ButtonSkirmish`) the game's code answers a click on by name.
    handled: BTreeSet<String>,
    /// Tests for actions with a value in their name (`option:set:music_volume=40`), which no
    /// list could hold.
    action_forms: Vec<fn(&str) -> bool>,
}

/// A name a layout uses that nothing registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unbound {
    /// Which slot.
    pub kind: CallbackKind,
    /// The name.
    pub name: String,
    /// The window whose key names it (empty for layout callbacks).
    pub window: String,
    /// Line of its key (or 1 for layout callbacks).
    pub line: usize,
    /// Column of its key.
    pub col: usize,
}

impl Lexicon {
    /// The built-in gadget inputs and default draws.
    pub fn standard() -> Lexicon {
        let mut l = Lexicon::default();
        for n in GADGET_INPUTS {
            l.register(CallbackKind::Input, n);
        }
        for n in DEFAULT_DRAWS {
            l.register(CallbackKind::Draw, n);
        }
        for (n, _) in super::routes::ROUTING_SYSTEMS {
            l.register(CallbackKind::System, n);
        }
        for n in super::routes::PLAIN_INPUTS {
            l.register(CallbackKind::Input, n);
        }
        l
    }

    /// The names registered for a kind, sorted.
    pub fn names(&self, kind: CallbackKind) -> Vec<String> {
        self.names.iter().filter(|(k, _)| *k == kind).map(|(_, n)| n.clone()).collect()
    }

    /// Registers a name.
    pub fn register(&mut self, kind: CallbackKind, name: &str) {
        self.names.insert((kind, name.to_string()));
    }

    /// Registers a window name (short) whose clicks the game's code answers by name.
    pub fn handle_by_name(&mut self, name: &str) {
        self.handled.insert(name.to_string());
    }

    /// True if the game's code answers a click on a window called `name` (short or full).
    pub fn handles(&self, name: &str) -> bool {
        self.handled.contains(crate::ui::window::short_name(name))
    }

    /// Registers a test for actions with a value in their name.
    pub fn register_action_form(&mut self, test: fn(&str) -> bool) {
        self.action_forms.push(test);
    }

    /// True if the name is registered for the kind.
    pub fn knows(&self, kind: CallbackKind, name: &str) -> bool {
        self.names.contains(&(kind, name.to_string()))
            || (kind == CallbackKind::Action && self.action_forms.iter().any(|f| f(name)))
    }

    /// Every callback name in a layout that is not registered.
    pub fn unbound(&self, file: &WndFile) -> Vec<Unbound> {
        let mut out = Vec::new();
        for (name, _) in [(&file.layout_init, 0), (&file.layout_update, 1), (&file.layout_shutdown, 2)] {
            if let Some(n) = name
                && !self.knows(CallbackKind::Layout, n)
            {
                out.push(Unbound {
                    kind: CallbackKind::Layout,
                    name: n.clone(),
                    window: String::new(),
                    line: 1,
                    col: 1,
                });
            }
        }
        for w in file.all_windows() {
            for (kind, key, name) in [
                (CallbackKind::System, "SYSTEMCALLBACK", &w.system_callback),
                (CallbackKind::Input, "INPUTCALLBACK", &w.input_callback),
                (CallbackKind::Tooltip, "TOOLTIPCALLBACK", &w.tooltip_callback),
                (CallbackKind::Draw, "DRAWCALLBACK", &w.draw_callback),
                (CallbackKind::Action, "ACTION", &w.action),
            ] {
                if let Some(n) = name
                    && !self.knows(kind, n)
                {
                    let (line, col) = w.key_at(key);
                    out.push(Unbound { kind, name: n.clone(), window: w.name.clone(), line, col });
                }
            }
        }
        out
    }
}
