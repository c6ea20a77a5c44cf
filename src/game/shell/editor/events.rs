//! The layout editor's panel events (`EditorSystem`, the system callback of `ui/Editor.wnd`):
//! each field, box, list and button of the panel becomes one undoable edit of the layout, or
//! one of the editor's own actions (the tree's pick, alignment, undo, redo, save, close). Text
//! fields apply on Enter, choices at once; what cannot be applied is refused in the editor's
//! bar.
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use crate::game::shell::stage::Stage;
use crate::ui::window::short_name;
use crate::ui::wnd::WndFile;
use crate::ui::wnd::model::{FontDef, WindowType};
use crate::ui::{EventKind, UiEvent};

use super::align::Align;
use super::labelled::{layout_of, stored_text};
use super::panel::{fill_panel, image_names, refuse, show_edit};
use super::save::save_and_tell;
use super::session::Editor;
use super::tree::find_mut;
use super::values::{
    CALLBACK_KINDS, COLOUR_KINDS, SCALING_CHOICES, STATUS_CHECKS, apply_data, callback_names, callback_of,
    default_font, draw_entry, draw_list, other_flags, parse_colour, rename_refused, set_colour, status_bit, tree_rows,
};

/// What a panel event asks of the editor beyond an edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Asked {
    /// Nothing more.
    Nothing,
    /// Close the editor (the panel's Close).
    Leave,
}

/// The panel's event `e`.
pub(super) fn event(ed: &mut Editor, stage: &mut Stage, e: &UiEvent) -> Asked {
    let name = short_name(&e.name);
    match &e.kind {
        EventKind::EditDone(text) => typed(ed, stage, name, text),
        EventKind::ComboSelected(i) => chosen(ed, stage, name, *i),
        EventKind::Toggled(on) => toggled(ed, stage, name, *on),
        EventKind::ListSelection(rows) if name == "ListTree" => {
            let picked = rows.first().and_then(|&i| tree_rows(&ed.tree.windows).get(i).map(|(n, _)| n.clone()));
            if let Some(picked) = picked
                && ed.selected.as_ref() != Some(&picked)
            {
                ed.selected = Some(picked);
                fill_panel(ed, stage);
            }
        }
        EventKind::Selected => return pressed(ed, stage, name),
        _ => {}
    }
    Asked::Nothing
}

/// One undoable edit of the tree (see [`Editor::edit_tree`]), shown when it changed anything.
fn edit(ed: &mut Editor, stage: &mut Stage, change: impl FnOnce(&mut WndFile, &str) -> Option<String>) {
    if ed.edit_tree(change) {
        show_edit(ed, stage);
    }
}

/// Changes the selected window's font (the default one if it has none) as one undoable edit;
/// `change` says whether it changed anything (nothing is recorded if not).
fn edit_font(ed: &mut Editor, stage: &mut Stage, change: impl FnOnce(&mut FontDef) -> bool) {
    edit(ed, stage, |tree, name| {
        let w = find_mut(&mut tree.windows, name)?;
        let mut font = w.font.clone().unwrap_or_else(default_font);
        if !change(&mut font) {
            return None;
        }
        w.font = Some(font);
        Some(name.to_string())
    });
}

/// A text field applied with Enter: text, tooltip, font size, colour, name, gadget data.
fn typed(ed: &mut Editor, stage: &mut Stage, field: &str, text: &str) {
    let text = text.to_string();
    match field {
        // Words that are a string-table entry's are stored as its label (a translation still
        // words the window).
        "EntryText" => {
            let labels = stage.ui.labels();
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.text = stored_text(labels.as_deref(), layout_of(name), &w.text, &text);
                Some(name.to_string())
            })
        }
        "EntryTooltip" => {
            let labels = stage.ui.labels();
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.tooltip_text = stored_text(labels.as_deref(), layout_of(name), &w.tooltip_text, &text);
                Some(name.to_string())
            })
        }
        "EntryFontSize" => {
            // Sizes the renderer can draw legibly; anything else leaves the font as it was.
            let Some(size) = text.trim().parse::<i32>().ok().filter(|s| (6..=72).contains(s)) else {
                return refuse(ed, stage, "a font size is a whole number from 6 to 72");
            };
            edit_font(ed, stage, |font| {
                font.size = size;
                true
            });
        }
        "EntryColor" => {
            let Some(colour) = parse_colour(&text) else {
                return refuse(ed, stage, "a colour is three or four numbers from 0 to 255 (red green blue alpha)");
            };
            let ((state, entry), kind) = (ed.chosen_entry(), ed.colour_kind);
            edit(ed, stage, |tree, name| {
                set_colour(find_mut(&mut tree.windows, name)?, kind, state, entry, colour).then(|| name.to_string())
            });
        }
        "EntryRename" => rename(ed, stage, text.trim()),
        "EntryGadgetData" => {
            let mut refused = None;
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                match apply_data(w.gadget.as_ref()?, &text) {
                    Ok(data) if Some(&data) != w.gadget.as_ref() => w.gadget = Some(data),
                    Ok(_) => return None,
                    Err(why) => {
                        refused = Some(why);
                        return None;
                    }
                }
                Some(name.to_string())
            });
            if let Some(why) = refused {
                refuse(ed, stage, &why);
            }
        }
        _ => {}
    }
}

/// Renames the selected window to `short` (within its layout), unless the game needs its
/// name or another window has it.
fn rename(ed: &mut Editor, stage: &mut Stage, short: &str) {
    let Some(name) = ed.selected.clone() else { return };
    if short_name(&name) == short {
        return;
    }
    if let Some(why) = rename_refused(&ed.file, &ed.tree, &name, short) {
        return refuse(ed, stage, &why);
    }
    let full = format!("{}:{short}", ed.file);
    edit(ed, stage, |tree, name| {
        find_mut(&mut tree.windows, name)?.name = full.clone();
        Some(full)
    });
}

/// A choice from one of the panel's lists: which callback, colour or image slot the panel
/// shows, or the callback, flag, font face, scaling or image chosen.
fn chosen(ed: &mut Editor, stage: &mut Stage, field: &str, i: usize) {
    match field {
        "ComboCallbackKind" => {
            ed.callback_kind = i.min(CALLBACK_KINDS.len() - 1);
            fill_panel(ed, stage);
        }
        "ComboColorKind" => {
            ed.colour_kind = i.min(COLOUR_KINDS.len() - 1);
            fill_panel(ed, stage);
        }
        "ComboImageState" => {
            ed.image_slot = i;
            fill_panel(ed, stage);
        }
        "ComboCallback" => choose_callback(ed, stage, i),
        "ComboFlags" => {
            // Choosing a flag switches it (the list then shows it on or off).
            let Some(bit) = i.checked_sub(1).and_then(|i| other_flags(0).get(i).map(|f| f.1)) else { return };
            edit(ed, stage, |tree, name| {
                find_mut(&mut tree.windows, name)?.status ^= bit;
                Some(name.to_string())
            });
        }
        "ComboFontFace" => {
            let Some(id) = stage.find("Editor.wnd:ComboFontFace") else { return };
            let Some(face) = stage.ui.combo_items(id).get(i).cloned() else { return };
            edit_font(ed, stage, |font| {
                let changed = font.name != face;
                font.name = face;
                changed
            });
        }
        "ComboScaling" => {
            let Some(&(_, scaling)) = SCALING_CHOICES.get(i) else { return };
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                if w.scaling == scaling {
                    return None;
                }
                w.scaling = scaling;
                Some(name.to_string())
            });
        }
        "ComboImage" => choose_image(ed, stage, i),
        _ => {}
    }
}

/// The callback list's item `i` (0: none) as the selected window's callback of the kind
/// the panel shows.
fn choose_callback(ed: &mut Editor, stage: &mut Stage, i: usize) {
    let kind = ed.callback_kind;
    let names = callback_names(&stage.content.lexicon, kind);
    // Past the lexicon's names is only the window's own unlisted name: nothing to change.
    let Some(chosen) = (match i.checked_sub(1) {
        None => Some(None),
        Some(k) => names.get(k).map(|n| Some(n.clone())),
    }) else {
        return;
    };
    edit(ed, stage, |tree, name| {
        let slot = callback_of(find_mut(&mut tree.windows, name)?, kind);
        if *slot == chosen {
            return None;
        }
        *slot = chosen;
        Some(name.to_string())
    });
}

/// The image list's item `i` as the image of the slot the panel shows.
fn choose_image(ed: &mut Editor, stage: &mut Stage, i: usize) {
    let Some(image) = image_names(stage).get(i).cloned() else { return };
    let (state, entry) = ed.chosen_entry();
    edit(ed, stage, |tree, name| {
        let w = find_mut(&mut tree.windows, name)?;
        if draw_list(w, state).get(entry).is_some_and(|d| d.image == image) {
            return None;
        }
        // Entries before it that the layout leaves out are written as nothing drawn.
        let d = draw_entry(w, state, entry);
        if d.image.eq_ignore_ascii_case("NoImage") && d.color[3] == 0 {
            d.color = [255, 255, 255, 255]; // drawn as it is, not as an untinted blank
        }
        d.image = image;
        Some(name.to_string())
    });
}

/// A box switched: an anchor, a status flag or bold.
fn toggled(ed: &mut Editor, stage: &mut Stage, field: &str, on: bool) {
    match field {
        "CheckAnchorLeft" | "CheckAnchorRight" | "CheckAnchorTop" | "CheckAnchorBottom" => {
            let edge = field.to_string();
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let mut a = w.anchor.unwrap_or_default();
                match edge.as_str() {
                    "CheckAnchorLeft" => a.left = on,
                    "CheckAnchorRight" => a.right = on,
                    "CheckAnchorTop" => a.top = on,
                    _ => a.bottom = on,
                }
                w.anchor = Some(a);
                Some(name.to_string())
            });
        }
        "CheckStatusHidden" | "CheckStatusEnabled" | "CheckStatusBorder" | "CheckStatusNoInput" => {
            let bit = STATUS_CHECKS.iter().find(|(n, _)| *n == field).map_or(0, |(_, f)| status_bit(f));
            edit(ed, stage, |tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.status = if on { w.status | bit } else { w.status & !bit };
                Some(name.to_string())
            });
        }
        "CheckFontBold" => edit_font(ed, stage, |font| {
            font.bold = on;
            true
        }),
        _ => {}
    }
}

/// A button: add a window, line the group up, undo, redo, save, close.
fn pressed(ed: &mut Editor, stage: &mut Stage, button: &str) -> Asked {
    let changed = match button {
        "ButtonAdd" => {
            let i = stage.find("Editor.wnd:ComboAdd").and_then(|c| stage.ui.combo_selected(c)).unwrap_or(0);
            WindowType::ALL.get(i).is_some_and(|&(_, kind)| ed.add_window(kind))
        }
        "ButtonAlignLeft" => ed.align_group(Align::Left),
        "ButtonAlignTop" => ed.align_group(Align::Top),
        "ButtonSameSize" => ed.align_group(Align::Size),
        "ButtonUndo" => ed.undo_edit(),
        "ButtonRedo" => ed.redo_edit(),
        "ButtonSave" => {
            save_and_tell(ed, stage);
            false
        }
        "ButtonClose" => return Asked::Leave,
        _ => false,
    };
    if changed {
        show_edit(ed, stage);
    }
    Asked::Nothing
}
