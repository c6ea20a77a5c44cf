//! The layout editor's own panel (`ui/Editor.wnd`, made of the same retained gadgets as every
//! screen): the selected window's name, text, tooltip, anchors, status flags (hidden, enabled,
//! border and no input as boxes, every other flag from a list), font face (from
//! `ui/fonts.ron`), size and weight, the images of each state (the
//! background and the parts its kind draws: a check box's box and mark, a slider's track and
//! thumb…; from the atlas) with each one's tint and border colour and its state's text and text
//! border colour, the scaling extension, the gadget's data (`LABEL: values`, known
//! labels only) and its system, input, tooltip and draw callbacks (chosen from the lexicon), a
//! palette of window kinds to add, and undo, redo, save and close; beside it, a tree of the
//! layout's windows where a click selects one.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::game::shell::stage::Stage;
use crate::ui::window::Gadget;
use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::{WindowDef, WindowType};
use crate::ui::{Input, Rect, WindowId, WindowManager};

use super::session::{Editor, carry};
use super::tree::find_mut;
use super::values::{
    CALLBACK_KINDS, COLOUR_KINDS, SCALING_CHOICES, STATUS_CHECKS, callback_names, callback_of, colour_of, data_text,
    draw_list, face_choices, other_flags, status_bit, tree_rows,
};

/// The root windows of the panel's two halves: the tree (left) and the fields (right).
const PANELS: [&str; 2] = ["Editor.wnd:TreePanel", "Editor.wnd:EditorPanel"];

/// How far (authoring units) half `i` of the panel moves to stand beside the other: the tree
/// just left of the fields, the fields just right of the tree.
fn dock_shift(file: &WndFile, i: usize) -> i32 {
    let rect = |name: &str| file.windows.iter().find(|w| w.name == name).map(|w| w.rect);
    let (Some(tree), Some(fields)) = (rect(PANELS[0]), rect(PANELS[1])) else { return 0 };
    let gap = 2;
    if i == 0 {
        fields.upper_left.0 - gap - tree.bottom_right.0
    } else {
        tree.bottom_right.0 + gap - fields.upper_left.0
    }
}

/// Shows the edited tree on screen (the screen opens again from it) with the panel on top.
pub(super) fn show_edit(ed: &mut Editor, stage: &mut Stage) {
    stage.screens.use_layout(&ed.file, ed.tree.clone());
    stage.open(ed.screen);
    show_panel(ed, stage);
}

/// Puts the editor's panel (back) on top and fills it for the selection.
pub(super) fn show_panel(ed: &mut Editor, stage: &mut Stage) {
    if let Some(old) = ed.panel.take() {
        stage.ui.destroy_layout(old);
    }
    let Some(mut file) = stage.screens.layout("Editor.wnd").cloned() else { return };
    for (i, name) in PANELS.iter().enumerate() {
        let dx = dock_shift(&file, i);
        if ed.docked[i]
            && let Some(w) = file.windows.iter_mut().find(|w| w.name == *name)
        {
            carry(std::slice::from_mut(w), dx, 0);
        }
    }
    ed.panel = Some(stage.ui.create_layout("Editor.wnd", &file));
    fill_panel(ed, stage);
}

/// Which halves of the panel would cover the selected window where they normally stand (none
/// when both would: moving one would not bring it into view).
fn wanted_docking(ed: &Editor, stage: &Stage) -> [bool; 2] {
    let none = [false; 2];
    let Some(sel) = ed.selected.as_ref().and_then(|n| stage.find(n)).and_then(|id| stage.ui.window(id)).map(|w| w.rect)
    else {
        return none;
    };
    let Some(file) = stage.screens.layout("Editor.wnd") else { return none };
    let mut out = none;
    for (i, name) in PANELS.iter().enumerate() {
        let Some(w) = stage.find(name).and_then(|id| stage.ui.window(id)) else { return none };
        let authored = (w.authored.bottom_right.0 - w.authored.upper_left.0).max(1) as f32;
        let dx = dock_shift(file, i) as f32 * w.rect.w / authored;
        let home = if ed.docked[i] { Rect::new(w.rect.x - dx, w.rect.y, w.rect.w, w.rect.h) } else { w.rect };
        let over = home.intersect(&sel);
        out[i] = over.w > 0.0 && over.h > 0.0;
    }
    if out == [true; 2] { none } else { out }
}

/// The panel's fields from the selected window (a half that would cover the selection first
/// moves beside the other one, and back).
pub(super) fn fill_panel(ed: &mut Editor, stage: &mut Stage) {
    let wanted = wanted_docking(ed, stage);
    if ed.docked != wanted {
        ed.docked = wanted;
        show_panel(ed, stage);
        return;
    }
    let name = ed.selected.clone();
    let mut w = name.as_ref().and_then(|n| find_mut(&mut ed.tree.windows, n)).map(|w| w.clone());
    stage.set_text("Editor.wnd:LabelSelected", name.as_deref().unwrap_or("Nothing selected"));
    fill_tree(ed, stage.ui, name.as_deref());
    fill_flags(stage.ui, w.as_ref());
    fill_font(stage, w.as_ref());
    fill_looks(ed, stage, w.as_mut());
    fill_names(ed, stage, name.as_deref(), w);
}

/// The tree: every window of the layout, indented by depth, the selected one marked.
fn fill_tree(ed: &Editor, ui: &mut WindowManager, name: Option<&str>) {
    let rows = tree_rows(&ed.tree.windows);
    if let Some(id) = ui.find("Editor.wnd:ListTree") {
        let at = rows.iter().position(|(n, _)| Some(n.as_str()) == name);
        ui.list_set_rows(id, rows.into_iter().map(|(_, label)| vec![label]).collect());
        ui.list_select(id, at);
        if let Some(row) = at {
            ui.list_reveal(id, row);
        }
    }
}

/// The anchors, the status boxes and the list of the other status flags.
fn fill_flags(ui: &mut WindowManager, w: Option<&WindowDef>) {
    let anchor = w.and_then(|w| w.anchor).unwrap_or_default();
    for (n, on) in [
        ("CheckAnchorLeft", anchor.left),
        ("CheckAnchorRight", anchor.right),
        ("CheckAnchorTop", anchor.top),
        ("CheckAnchorBottom", anchor.bottom),
    ] {
        if let Some(id) = ui.find(&format!("Editor.wnd:{n}")) {
            ui.set_checked(id, on);
        }
    }
    let status = w.map_or(0, |w| w.status);
    for (n, flag) in STATUS_CHECKS {
        if let Some(id) = ui.find(&format!("Editor.wnd:{n}")) {
            ui.set_checked(id, status & status_bit(flag) != 0);
        }
    }
    if let Some(id) = ui.find("Editor.wnd:ComboFlags") {
        // Its first item names the list; the flags follow.
        let labels = std::iter::once("Other status flags".to_string())
            .chain(other_flags(status).into_iter().map(|(label, _)| label))
            .collect();
        ui.combo_set(id, labels, Some(0));
    }
}

/// The font's size, weight and face (from the font book).
fn fill_font(stage: &mut Stage, w: Option<&WindowDef>) {
    let font = w.and_then(|w| w.font.clone());
    let ui = &mut *stage.ui;
    if let Some(id) = ui.find("Editor.wnd:EntryFontSize") {
        ui.entry_set(id, &font.as_ref().map(|f| f.size.to_string()).unwrap_or_default());
    }
    if let Some(id) = ui.find("Editor.wnd:CheckFontBold") {
        ui.set_checked(id, font.as_ref().is_some_and(|f| f.bold));
    }
    if let Some(id) = ui.find("Editor.wnd:ComboFontFace") {
        let (faces, at) = face_choices(&stage.content.font_families, font.as_ref().map(|f| f.name.as_str()));
        ui.combo_set(id, faces, at);
    }
}

/// The scaling, and the image slot chosen (a state's background, or a part its kind draws: a
/// check box's box or mark…) with the colour chosen of that slot (its state's text or text
/// border, its entry's tint or border) and its image.
fn fill_looks(ed: &Editor, stage: &mut Stage, mut w: Option<&mut WindowDef>) {
    if let Some(id) = stage.find("Editor.wnd:ComboScaling") {
        let scaling = w.as_ref().and_then(|w| w.scaling);
        let at = SCALING_CHOICES.iter().position(|(_, s)| *s == scaling);
        stage.ui.combo_set(id, SCALING_CHOICES.iter().map(|(n, _)| n.to_string()).collect(), at);
    }
    let (slots, slot) = ed.chosen_slot();
    let (state, entry, _) = slots[slot].clone();
    let colour_kind = ed.colour_kind.min(COLOUR_KINDS.len() - 1);
    if let Some(id) = stage.find("Editor.wnd:ComboColorKind") {
        stage.ui.combo_set(id, COLOUR_KINDS.iter().map(|k| k.to_string()).collect(), Some(colour_kind));
    }
    let colour = w.as_mut().map(|w| colour_of(w, colour_kind, state, entry));
    if let Some(id) = stage.find("Editor.wnd:EntryColor") {
        let text = colour.map(|[r, g, b, a]| format!("{r} {g} {b} {a}")).unwrap_or_default();
        stage.ui.entry_set(id, &text);
    }
    if let Some(id) = stage.find("Editor.wnd:ComboImageState") {
        stage.ui.combo_set(id, slots.into_iter().map(|(_, _, label)| label).collect(), Some(slot));
    }
    let images = image_names(stage);
    let current = w.and_then(|w| draw_list(w, state).get(entry)).map(|d| d.image.clone());
    if let Some(id) = stage.find("Editor.wnd:ComboImage") {
        let at = current.and_then(|c| images.iter().position(|n| *n == c)).unwrap_or(0);
        stage.ui.combo_set(id, images, Some(at));
    }
}

/// The name, the gadget's data, the callback (of the kind chosen, from the lexicon), the text
/// and tooltip, and the palette of kinds to add.
fn fill_names(ed: &Editor, stage: &mut Stage, name: Option<&str>, mut w: Option<WindowDef>) {
    let ui = &mut *stage.ui;
    if let Some(id) = ui.find("Editor.wnd:EntryRename") {
        let short = name.map(crate::ui::window::short_name).unwrap_or_default().to_string();
        ui.entry_set(id, &short);
    }
    if let Some(id) = ui.find("Editor.wnd:EntryGadgetData") {
        let text = w.as_ref().and_then(|w| w.gadget.as_ref()).map(data_text).unwrap_or_default();
        ui.entry_set(id, &text);
    }
    let kind = ed.callback_kind;
    if let Some(id) = ui.find("Editor.wnd:ComboCallbackKind") {
        ui.combo_set(id, CALLBACK_KINDS.iter().map(|(n, _)| n.to_string()).collect(), Some(kind));
    }
    let callback = w.as_mut().and_then(|w| callback_of(w, kind).clone());
    let (text, tip) = w.map_or((String::new(), String::new()), |w| (w.text, w.tooltip_text));
    if let Some(id) = ui.find("Editor.wnd:EntryText") {
        ui.entry_set(id, &text);
    }
    if let Some(id) = ui.find("Editor.wnd:EntryTooltip") {
        ui.entry_set(id, &tip);
    }
    let mut names: Vec<String> = vec!["[None]".to_string()];
    names.extend(callback_names(&stage.content.lexicon, kind));
    // A name the lexicon does not list (an original layout's) stays shown as it is.
    let chosen = match callback.as_ref() {
        Some(c) => match names.iter().position(|n| n == c) {
            Some(i) => i,
            None => {
                names.push(c.clone());
                names.len() - 1
            }
        },
        None => 0,
    };
    if let Some(id) = ui.find("Editor.wnd:ComboCallback") {
        ui.combo_set(id, names, Some(chosen));
    }
    if let Some(id) = ui.find("Editor.wnd:ComboAdd") {
        let kinds: Vec<String> = WindowType::ALL.iter().map(|(k, _)| k.to_string()).collect();
        let keep = ui.combo_selected(id).unwrap_or(1);
        ui.combo_set(id, kinds, Some(keep));
    }
}

/// Says in the editor's bar why what was typed into the panel changed nothing, and puts the
/// fields back as they were.
pub(super) fn refuse(ed: &mut Editor, stage: &mut Stage, why: &str) {
    ed.note = Some(format!("not changed: {why}"));
    fill_panel(ed, stage);
}

/// The images a window may show: `NoImage`, then the atlas's images by name.
pub(super) fn image_names(stage: &Stage) -> Vec<String> {
    std::iter::once("NoImage".to_string()).chain(stage.content.images.images.keys().cloned()).collect()
}

/// True when `input` belongs to the editor's own panel (the pointer is over it, with no drag
/// under way, or one of its fields has the keyboard).
pub(super) fn panel_has(ed: &Editor, ui: &WindowManager, input: Input) -> bool {
    let on_panel = |id: WindowId| ui.window(id).is_some_and(|w| w.name.starts_with("Editor.wnd:"));
    match input {
        Input::MouseDown { x, y, .. } | Input::MouseUp { x, y, .. } | Input::Wheel { x, y, .. } => {
            ui.hit(x, y).is_some_and(on_panel) && ed.drag.is_none()
        }
        // Keys go to the panel only while one of its fields (text or choice) has them: after a
        // pick in the tree list, arrows nudge and letters edit as before.
        Input::Key { .. } | Input::Char(_) => {
            field_focused(ui)
                || ui
                    .focus()
                    .and_then(|id| ui.window(id))
                    .is_some_and(|w| on_panel(w.id) && matches!(w.gadget, Gadget::ComboBox { .. }))
        }
        Input::MouseMove { .. } => false,
    }
}

/// True while one of the panel's text fields has the keyboard: keys and characters (Space
/// included, and Ctrl+A, C, V and X) are typed there, not taken as editor commands.
pub(super) fn field_focused(ui: &WindowManager) -> bool {
    ui.focus()
        .and_then(|id| ui.window(id))
        .is_some_and(|w| w.name.starts_with("Editor.wnd:") && matches!(w.gadget, Gadget::TextEntry { .. }))
}
