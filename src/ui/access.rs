//! Reading and setting gadget state from screen code: texts, list rows, combo items, slider
//! values, check marks. Setting state never sends events (only the player's input does).

use super::manager::WindowManager;
use super::window::{Gadget, WindowId};

impl WindowManager {
    /// Replaces a list box's rows (selection and scroll are kept in range).
    pub fn list_set_rows(&mut self, id: WindowId, new_rows: Vec<Vec<String>>) {
        if let Some(Gadget::ListBox { rows, selected, scroll, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *rows = new_rows;
            selected.retain(|r| *r < rows.len());
            *scroll = (*scroll).min(rows.len().saturating_sub(1));
        }
    }

    /// Selects one list row (or none).
    pub fn list_select(&mut self, id: WindowId, row: Option<usize>) {
        if let Some(Gadget::ListBox { rows, selected, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *selected = row.filter(|r| *r < rows.len()).into_iter().collect();
        }
    }

    /// Scrolls a list box just enough that `row` is in view.
    pub fn list_reveal(&mut self, id: WindowId, row: usize) {
        let Some(w) = self.window_mut(id) else { return };
        let height = w.rect.h;
        if let Gadget::ListBox { rows, scroll, row_height, .. } = &mut w.gadget {
            let visible = (height / row_height.max(1.0)).floor().max(1.0) as usize;
            if row < *scroll {
                *scroll = row;
            } else if row >= *scroll + visible {
                *scroll = row + 1 - visible;
            }
            *scroll = (*scroll).min(rows.len().saturating_sub(1));
        }
    }

    /// A list box's scroll: the first row in view.
    pub fn list_scroll(&self, id: WindowId) -> usize {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::ListBox { scroll, .. }) => *scroll,
            _ => 0,
        }
    }

    /// A list box's selected rows.
    pub fn list_selected(&self, id: WindowId) -> Vec<usize> {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::ListBox { selected, .. }) => selected.clone(),
            _ => Vec::new(),
        }
    }

    /// A list box's rows.
    pub fn list_rows(&self, id: WindowId) -> Vec<Vec<String>> {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::ListBox { rows, .. }) => rows.clone(),
            _ => Vec::new(),
        }
    }

    /// Sets a combo box's items and chosen item.
    pub fn combo_set(&mut self, id: WindowId, new_items: Vec<String>, choose: Option<usize>) {
        if let Some(Gadget::ComboBox { items, selected, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *items = new_items;
            *selected = choose.filter(|c| *c < items.len());
        }
    }

    /// A combo box's items.
    pub fn combo_items(&self, id: WindowId) -> &[String] {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::ComboBox { items, .. }) => items,
            _ => &[],
        }
    }

    /// A combo box's chosen item.
    pub fn combo_selected(&self, id: WindowId) -> Option<usize> {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::ComboBox { selected, .. }) => *selected,
            _ => None,
        }
    }

    /// Sets a slider's value (clamped to its range).
    pub fn slider_set(&mut self, id: WindowId, v: i32) {
        if let Some(Gadget::Slider { min, max, value, .. }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *value = v.clamp(*min, *max);
        }
    }

    /// A slider's value.
    pub fn slider_value(&self, id: WindowId) -> Option<i32> {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::Slider { value, .. }) => Some(*value),
            _ => None,
        }
    }

    /// Checks or clears a check box, or selects a radio button (clearing its group).
    pub fn set_checked(&mut self, id: WindowId, on: bool) {
        let parent = self.window(id).and_then(|w| w.parent);
        let mut group = None;
        match self.window_mut(id).map(|w| &mut w.gadget) {
            Some(Gadget::CheckBox { checked }) => *checked = on,
            Some(Gadget::RadioButton { group: g, selected }) => {
                *selected = on;
                group = on.then_some(*g);
            }
            _ => {}
        }
        if let (Some(g), Some(p)) = (group, parent) {
            let siblings = self.window(p).map(|w| w.children.clone()).unwrap_or_default();
            for s in siblings.into_iter().filter(|s| *s != id) {
                if let Some(Gadget::RadioButton { group, selected }) = self.window_mut(s).map(|w| &mut w.gadget)
                    && *group == g
                {
                    *selected = false;
                }
            }
        }
    }

    /// True if a check box is checked or a radio button selected.
    pub fn checked(&self, id: WindowId) -> bool {
        matches!(
            self.window(id).map(|w| &w.gadget),
            Some(Gadget::CheckBox { checked: true } | Gadget::RadioButton { selected: true, .. })
        )
    }

    /// Sets a text entry's text (caret at the end).
    pub fn entry_set(&mut self, id: WindowId, value: &str) {
        if let Some(Gadget::TextEntry { text, caret, anchor, max_len, .. }) = self.window_mut(id).map(|w| &mut w.gadget)
        {
            *text = value.chars().take(*max_len).collect();
            *caret = text.chars().count();
            *anchor = None;
        }
    }

    /// A text entry's text.
    pub fn entry_text(&self, id: WindowId) -> String {
        match self.window(id).map(|w| &w.gadget) {
            Some(Gadget::TextEntry { text, .. }) => text.clone(),
            _ => String::new(),
        }
    }

    /// A text entry's selected text (all of it when nothing is selected): what Ctrl+C copies.
    pub fn entry_selection(&self, id: WindowId) -> Option<String> {
        let Some(Gadget::TextEntry { text, caret, anchor, secret: false, .. }) = self.window(id).map(|w| &w.gadget)
        else {
            return None;
        };
        let Some(anchor) = *anchor else { return Some(text.clone()) };
        let (a, b) = (anchor.min(*caret), anchor.max(*caret));
        Some(text.chars().skip(a).take(b - a).collect())
    }

    /// Sets a progress bar.
    pub fn progress_set(&mut self, id: WindowId, value: i32) {
        if let Some(Gadget::ProgressBar { percent }) = self.window_mut(id).map(|w| &mut w.gadget) {
            *percent = value.clamp(0, 100);
        }
    }
}
