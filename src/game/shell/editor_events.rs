//! The layout editor's panel events (`EditorSystem`, the system callback of `ui/Editor.wnd`):
//! each field, box, list and button of the panel becomes one undoable edit of the layout, or
//! one of the editor's own actions (the tree's pick, alignment, undo, redo, save, close).
//!
//! Must not: change the edited layout except through the editor's undoable edits.

use super::Shell;
use super::editor_tree::find_mut;
use super::editor_values::{
    CALLBACK_KINDS, COLOUR_KINDS, SCALING_CHOICES, STATUS_CHECKS, apply_data, callback_names, callback_of, draw_entry,
    draw_list, other_flags, parse_colour, rename_refused, set_colour, status_bit, tree_rows,
};

/// The panel's events: text and tooltip applied on Enter, the callback chosen from the list,
/// status flags, font face, size and weight, scaling, the image slot's image and colours, the
/// gadget's data, the tree, alignment, undo, redo, save and close.
pub(super) fn system(shell: &mut Shell, e: &crate::ui::UiEvent) {
    use crate::ui::EventKind;
    match (crate::ui::window::short_name(&e.name), &e.kind) {
        ("EntryText", EventKind::EditDone(text)) => {
            let text = text.clone();
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.text = text;
                Some(name.to_string())
            });
        }
        ("EntryTooltip", EventKind::EditDone(text)) => {
            let text = text.clone();
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.tooltip_text = text;
                Some(name.to_string())
            });
        }
        ("ComboCallbackKind", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.callback_kind = (*i).min(CALLBACK_KINDS.len() - 1);
            }
            shell.fill_panel();
        }
        ("ComboCallback", EventKind::ComboSelected(i)) => {
            let kind = shell.editor.as_ref().map_or(0, |e| e.callback_kind);
            let names = callback_names(&shell.lexicon, kind);
            // Past the lexicon's names is only the window's own unlisted name: nothing to change.
            let Some(chosen) = (match i.checked_sub(1) {
                None => Some(None),
                Some(k) => names.get(k).map(|n| Some(n.clone())),
            }) else {
                return;
            };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                let slot = callback_of(w, kind);
                if *slot == chosen {
                    return None;
                }
                *slot = chosen;
                Some(name.to_string())
            });
        }
        ("ButtonAdd", EventKind::Selected) => {
            let kinds = crate::ui::wnd::model::WindowType::ALL;
            let i = shell.find("Editor.wnd:ComboAdd").and_then(|c| shell.ui.combo_selected(c)).unwrap_or(0);
            if let Some(&(_, kind)) = kinds.get(i) {
                shell.add_window(kind);
            }
        }
        (
            edge @ ("CheckAnchorLeft" | "CheckAnchorRight" | "CheckAnchorTop" | "CheckAnchorBottom"),
            EventKind::Toggled(on),
        ) => {
            let (edge, on) = (edge.to_string(), *on);
            shell.edit_tree(|tree, name| {
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
        (
            check @ ("CheckStatusHidden" | "CheckStatusEnabled" | "CheckStatusBorder" | "CheckStatusNoInput"),
            EventKind::Toggled(on),
        ) => {
            let bit = STATUS_CHECKS.iter().find(|(n, _)| *n == check).map_or(0, |(_, f)| status_bit(f));
            let on = *on;
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.status = if on { w.status | bit } else { w.status & !bit };
                Some(name.to_string())
            });
        }
        ("ComboFlags", EventKind::ComboSelected(i)) => {
            // Choosing a flag switches it (the list then shows it on or off).
            let Some(bit) = i.checked_sub(1).and_then(|i| other_flags(0).get(i).map(|f| f.1)) else { return };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                w.status ^= bit;
                Some(name.to_string())
            });
        }
        ("EntryFontSize", EventKind::EditDone(text)) => {
            // Sizes the renderer can draw legibly; anything else leaves the font as it was.
            let Some(size) = text.trim().parse::<i32>().ok().filter(|s| (6..=72).contains(s)) else {
                shell.refuse("a font size is a whole number from 6 to 72");
                return;
            };
            shell.edit_font(|font| {
                font.size = size;
                true
            });
        }
        ("CheckFontBold", EventKind::Toggled(on)) => {
            let on = *on;
            shell.edit_font(|font| {
                font.bold = on;
                true
            });
        }
        ("ComboColorKind", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.colour_kind = (*i).min(COLOUR_KINDS.len() - 1);
            }
            shell.fill_panel();
        }
        ("EntryColor", EventKind::EditDone(text)) => {
            let Some(colour) = parse_colour(text) else {
                shell.refuse("a colour is three or four numbers from 0 to 255 (red green blue alpha)");
                return;
            };
            let (state, entry) = shell.image_slot();
            let kind = shell.editor.as_ref().map_or(0, |e| e.colour_kind);
            shell.edit_tree(|tree, name| {
                set_colour(find_mut(&mut tree.windows, name)?, kind, state, entry, colour).then(|| name.to_string())
            });
        }
        ("ComboFontFace", EventKind::ComboSelected(i)) => {
            let Some(id) = shell.find("Editor.wnd:ComboFontFace") else { return };
            let Some(face) = shell.ui.combo_items(id).get(*i).cloned() else { return };
            shell.edit_font(|font| {
                let changed = font.name != face;
                font.name = face;
                changed
            });
        }
        ("ComboScaling", EventKind::ComboSelected(i)) => {
            let Some(&(_, scaling)) = SCALING_CHOICES.get(*i) else { return };
            shell.edit_tree(|tree, name| {
                let w = find_mut(&mut tree.windows, name)?;
                if w.scaling == scaling {
                    return None;
                }
                w.scaling = scaling;
                Some(name.to_string())
            });
        }
        ("ListTree", EventKind::ListSelection(rows)) => {
            let names = shell.editor.as_ref().map(|e| tree_rows(&e.tree.windows)).unwrap_or_default();
            let picked = rows.first().and_then(|&i| names.get(i)).map(|(n, _)| n.clone());
            if let (Some(name), Some(e)) = (picked, shell.editor.as_mut())
                && e.selected.as_ref() != Some(&name)
            {
                e.selected = Some(name);
                shell.fill_panel();
            }
        }
        ("ButtonAlignLeft", EventKind::Selected) => shell.align_group(super::editor_align::Align::Left),
        ("ButtonAlignTop", EventKind::Selected) => shell.align_group(super::editor_align::Align::Top),
        ("ButtonSameSize", EventKind::Selected) => shell.align_group(super::editor_align::Align::Size),
        ("EntryRename", EventKind::EditDone(text)) => {
            let short = text.trim().to_string();
            let Some(e) = shell.editor.as_ref() else { return };
            let Some(name) = e.selected.clone() else { return };
            if crate::ui::window::short_name(&name) == short {
                return;
            }
            if let Some(why) = rename_refused(&e.file, &e.tree, &name, &short) {
                shell.refuse(&why);
                return;
            }
            let full = format!("{}:{short}", e.file);
            shell.edit_tree(|tree, name| {
                find_mut(&mut tree.windows, name)?.name = full.clone();
                Some(full)
            });
        }
        ("ComboImageState", EventKind::ComboSelected(i)) => {
            if let Some(e) = shell.editor.as_mut() {
                e.image_slot = *i;
            }
            shell.fill_panel();
        }
        ("ComboImage", EventKind::ComboSelected(i)) => {
            let Some(image) = shell.image_names().get(*i).cloned() else { return };
            let (state, entry) = shell.image_slot();
            shell.edit_tree(|tree, name| {
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
        ("EntryGadgetData", EventKind::EditDone(text)) => {
            let text = text.clone();
            let mut refused = None;
            shell.edit_tree(|tree, name| {
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
                shell.refuse(&why);
            }
        }
        ("ButtonUndo", EventKind::Selected) => shell.undo_edit(),
        ("ButtonRedo", EventKind::Selected) => shell.redo_edit(),
        ("ButtonSave", EventKind::Selected) => shell.save_and_tell(),
        ("ButtonClose", EventKind::Selected) => shell.leave_editor(),
        _ => {}
    }
}
