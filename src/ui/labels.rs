//! The string table: texts a layout names by label (`TEXT = "GUI:Skirmish";`, as the original
//! game's layouts do) instead of writing them out, read from `ui/strings.ron` in every content
//! root (a mod's entries win), so a mod can word or translate the interface without copying
//! layouts. A label with no entry shows as the label itself, and `ui-check` notes it.
//!
//! Languages: `ui/strings.<code>.ron` (`strings.de.ron`) holds a language's texts; chosen in
//! Options, its entries (from any root, a mod's first) come before the game's own
//! `strings.ron`, which fills whatever the translation leaves out. Its `Language:Name` entry is
//! the name Options shows.
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

/// The label whose entry in a language's file names the language (`"Language:Name": "Deutsch"`).
pub const LANGUAGE_NAME: &str = "Language:Name";

/// A language the content roots hold a string table for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    /// Its code, from the file name (`de` for `strings.de.ron`).
    pub code: String,
    /// The name it gives itself (its [`LANGUAGE_NAME`] entry), else the code.
    pub name: String,
}

impl Labels {
    /// Reads `ui/strings.ron` from every root that has one; the first root's entry wins.
    pub fn load_all(roots: &ContentRoots) -> Result<Labels, DefsErrors> {
        Labels::load_language(roots, "")
    }

    /// The table for `language` (a code; empty for the game's own texts): its
    /// `ui/strings.<language>.ron` entries from every root first, then the game's own
    /// `ui/strings.ron` for the rest. A code that is not a plain name is refused.
    pub fn load_language(roots: &ContentRoots, language: &str) -> Result<Labels, DefsErrors> {
        let mut files = Vec::new();
        if !language.is_empty() {
            if !is_language_code(language) {
                return Err(DefsErrors(vec![crate::defs::DefsError::Invalid {
                    path: "ui/strings.ron".into(),
                    line: 1,
                    item: "language",
                    name: language.to_string(),
                    field: "code",
                    message: "a language code is letters, digits, '-' and '_' (at most 16)".into(),
                }]));
            }
            files.push(format!("ui/strings.{language}.ron"));
        }
        files.push("ui/strings.ron".to_string());
        let mut table = BTreeMap::new();
        for file in &files {
            for root in roots.roots() {
                let path = root.join(file);
                if !path.is_file() {
                    continue;
                }
                let src = crate::defs::Source::read(&path).map_err(|e| DefsErrors(vec![e]))?;
                let entries: BTreeMap<String, String> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
                for (label, text) in entries {
                    table.entry(label).or_insert(text);
                }
            }
        }
        Ok(Labels(table))
    }

    /// The languages the roots hold a `ui/strings.<code>.ron` for, by code (a file that cannot
    /// be read is left out with a warning in the log).
    pub fn languages(roots: &ContentRoots) -> Vec<Language> {
        let mut found: BTreeMap<String, String> = BTreeMap::new();
        for root in roots.roots() {
            let Ok(dir) = std::fs::read_dir(root.join("ui")) else { continue };
            for entry in dir.flatten() {
                let file = entry.file_name();
                let Some(code) = file.to_str().and_then(|f| f.strip_prefix("strings.")?.strip_suffix(".ron")) else {
                    continue;
                };
                if !is_language_code(code) || found.contains_key(code) {
                    continue;
                }
                let name = crate::defs::Source::read(&entry.path())
                    .map_err(|e| e.to_string())
                    .and_then(|src| src.parse::<BTreeMap<String, String>>().map_err(|e| e.to_string()));
                match name {
                    Ok(table) => {
                        let name = table.get(LANGUAGE_NAME).cloned().unwrap_or_else(|| code.to_string());
                        found.insert(code.to_string(), name);
                    }
                    Err(e) => log::warn!("language {code} left out: {e}"),
                }
            }
        }
        found.into_iter().map(|(code, name)| Language { code, name }).collect()
    }

    /// The text a window shows for `text`: the table's entry when `text` is a label it has,
    /// else `text` as it is.
    pub fn resolve<'a>(&'a self, text: &'a str) -> &'a str {
        if is_label(text) { self.0.get(text).map_or(text, String::as_str) } else { text }
    }

    /// The text of a message the code says by label (`Alert:UnitReady`), each `{name}` in it
    /// replaced by its value from `args`; a label with no entry shows as itself.
    pub fn say(&self, label: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.resolve(label).to_string();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// The table's entry for `label`, else `fallback` (the data's own words: a unit's, a
    /// map's or a faction's name where no translation words it).
    pub fn word_or(&self, label: &str, fallback: &str) -> String {
        self.0.get(label).map_or_else(|| fallback.to_string(), String::clone)
    }

    /// True if `text` is a label the table has no entry for.
    pub fn missing(&self, text: &str) -> bool {
        is_label(text) && !self.0.contains_key(text)
    }
}

/// True if `code` can name a language file: 1–16 letters, digits, `-` and `_`.
pub fn is_language_code(code: &str) -> bool {
    (1..=16).contains(&code.len()) && code.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
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

    #[test]
    fn a_message_fills_in_its_values_and_a_missing_one_shows_its_label() {
        let t = Labels(BTreeMap::from([("Alert:Ready".to_string(), "Unit ready: {name}".to_string())]));
        assert_eq!(t.say("Alert:Ready", &[("name", "Rifleman")]), "Unit ready: Rifleman");
        assert_eq!(t.say("Alert:Gone", &[("name", "Rifleman")]), "Alert:Gone");
    }

    #[test]
    fn a_language_code_is_a_plain_name() {
        for ok in ["de", "pt-BR", "zh_Hans", "x1"] {
            assert!(is_language_code(ok), "{ok}");
        }
        for bad in ["", "../de", "de/..", "a.b", "de ron", "abcdefghijklmnopq"] {
            assert!(!is_language_code(bad), "{bad}");
        }
        let roots = ContentRoots::new(vec![std::env::temp_dir()]);
        assert!(Labels::load_language(&roots, "../../etc/passwd").is_err());
    }
}
