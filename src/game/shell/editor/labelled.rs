//! Texts the editor stores as labels: words typed into a window that are the words of its own
//! label, or of another label of the same layout (`Options:…` in `Options.wnd`), are written
//! as that label (`TEXT = "Options:ButtonBack";`), so a translation still words the window
//! after an edit; other words are stored as they are (a label of another screen is not taken:
//! its words may change with that screen).
//!
//! Must not: change the string table, or turn words into a label the table does not hold.

use crate::ui::labels::{Labels, is_label};

/// What to store for the words `typed` in a window of the layout `layout` (`Options`) whose
/// text was `before`: `typed` itself when it is a label or no entry of the layout has these
/// words; else the label whose entry they are — the window's own label (`before`) first, then
/// the layout's first in the table's order.
pub(super) fn stored_text(labels: Option<&Labels>, layout: &str, before: &str, typed: &str) -> String {
    let Some(labels) = labels.filter(|_| !typed.is_empty() && !is_label(typed)) else {
        return typed.to_string();
    };
    if is_label(before) && labels.0.get(before).is_some_and(|t| t == typed) {
        return before.to_string();
    }
    let prefix = format!("{layout}:");
    labels
        .0
        .iter()
        .find(|(label, text)| label.starts_with(&prefix) && *text == typed)
        .map_or_else(|| typed.to_string(), |(label, _)| label.clone())
}

/// The layout part of a window's full name (`Options` for `Options.wnd:ButtonBack`), which its
/// labels start with.
pub(super) fn layout_of(window: &str) -> &str {
    window.split_once(':').map_or(window, |(file, _)| file).trim_end_matches(".wnd")
}

/// The words a window's `text` shows: its entry when it is a label the table holds.
pub(super) fn shown_words(labels: Option<&Labels>, text: &str) -> Option<String> {
    labels.filter(|_| is_label(text)).and_then(|l| l.0.get(text)).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_of_an_entry_are_stored_as_its_label_and_others_as_they_are() {
        let mut l = Labels::default();
        l.0.insert("MainMenu:ButtonSkirmish".into(), "Skirmish".into());
        l.0.insert("Other:Skirmish".into(), "Skirmish".into());
        l.0.insert("MainMenu:ButtonQuit".into(), "Quit".into());
        let l = Some(&l);
        let menu = "MainMenu";
        assert_eq!(
            stored_text(l, menu, "Other:Skirmish", "Skirmish"),
            "Other:Skirmish",
            "the window's own label first"
        );
        assert_eq!(stored_text(l, menu, "Plain words", "Skirmish"), "MainMenu:ButtonSkirmish");
        assert_eq!(stored_text(l, menu, "MainMenu:ButtonSkirmish", "Quit"), "MainMenu:ButtonQuit");
        assert_eq!(stored_text(l, "Options", "Plain words", "Quit"), "Quit", "another screen's label is not taken");
        assert_eq!(stored_text(l, menu, "MainMenu:ButtonSkirmish", "Leave now"), "Leave now");
        assert_eq!(stored_text(l, menu, "", "GUI:Typed"), "GUI:Typed", "a label typed stays a label");
        assert_eq!(stored_text(None, menu, "", "Skirmish"), "Skirmish");
        assert_eq!(shown_words(l, "MainMenu:ButtonQuit").as_deref(), Some("Quit"));
        assert_eq!(shown_words(l, "Quit"), None);
    }
}
