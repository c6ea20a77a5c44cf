//! The string table: texts a layout names by label (`TEXT = "GUI:Skirmish";`, as the original
//! game's layouts do) instead of writing them out, read from `ui/strings.ron` in every content
//! root (a mod's entries win), so a mod can word or translate the interface without copying
//! layouts. A label with no entry shows as the label itself, and `ui-check` notes it.
//!
//! Must not: change a text that is not a label (anything with a space, or without a `:`).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::content::ContentRoots;
use crate::defs::DefsErrors;

/// Label → text, merged over the content roots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels(pub BTreeMap<String, String>);

/// Shared between the window manager and the checks.
pub type SharedLabels = Arc<Labels>;

impl Labels {
    /// Reads `ui/strings.ron` from every root that has one; the first root's entry wins.
    pub fn load_all(roots: &ContentRoots) -> Result<Labels, DefsErrors> {
        let mut table = BTreeMap::new();
        for root in roots.roots() {
            let path = root.join("ui/strings.ron");
            if !path.is_file() {
                continue;
            }
            let src = crate::defs::Source::read(&path).map_err(|e| DefsErrors(vec![e]))?;
            let entries: BTreeMap<String, String> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
            for (label, text) in entries {
                table.entry(label).or_insert(text);
            }
        }
        Ok(Labels(table))
    }

    /// The text a window shows for `text`: the table's entry when `text` is a label it has,
    /// else `text` as it is.
    pub fn resolve<'a>(&'a self, text: &'a str) -> &'a str {
        if is_label(text) { self.0.get(text).map_or(text, String::as_str) } else { text }
    }

    /// True if `text` is a label the table has no entry for.
    pub fn missing(&self, text: &str) -> bool {
        is_label(text) && !self.0.contains_key(text)
    }
}

/// True if `text` has the form of a label: `Prefix:Name`, letters, digits, `_`, `-` and `.`
/// only, no spaces.
pub fn is_label(text: &str) -> bool {
    let Some((prefix, name)) = text.split_once(':') else { return false };
    let ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    ok(prefix) && ok(name) && prefix.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_resolve_and_other_texts_stay() {
        let t = Labels(BTreeMap::from([("GUI:Skirmish".to_string(), "Skirmish".to_string())]));
        assert_eq!(t.resolve("GUI:Skirmish"), "Skirmish");
        assert_eq!(t.resolve("GUI:Missing"), "GUI:Missing");
        assert!(t.missing("GUI:Missing") && !t.missing("GUI:Skirmish"));
        for plain in ["Time: 3:00", "12:30", "Hello", "", "a:b c", ":x", "x:"] {
            assert!(!is_label(plain), "{plain}");
            assert_eq!(t.resolve(plain), plain);
        }
    }
}
