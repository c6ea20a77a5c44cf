//! The names players read: each object's and upgrade's `display_name`, checked as one line of
//! a length a button holds, with the unique name standing in where there is none; and their
//! translation through the string table (`Object:<Name>`, `Object:<Name>.Description`,
//! `Upgrade:<Name>`, `Upgrade:<Name>.Description`), which replaces what players read only.
//!
//! Must not: change what files, mods, logs and tools refer to things by (the unique names), or
//! anything the simulation reads (translation is display only).

use std::sync::Arc;

use crate::sim::ids::{TemplateId, UpgradeId};

use super::{Builder, Definitions, Source};

/// Longest display name accepted, in characters (a control-bar button holds about this much).
const MAX_DISPLAY_NAME: usize = 32;

/// The names and descriptions as the data gives them, indexed like the rules' tables, so a
/// second translation starts from the data and not from the first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataTexts {
    /// Each object's display name.
    pub object_names: Vec<String>,
    /// Each object's description.
    pub object_descriptions: Vec<String>,
    /// Each upgrade's display name.
    pub upgrade_names: Vec<String>,
    /// Each upgrade's description.
    pub upgrade_descriptions: Vec<String>,
}

/// The label of an object's name in the string table (`Object:Ranger`).
pub fn object_label(unique_name: &str) -> String {
    format!("Object:{unique_name}")
}

/// The label of an upgrade's name in the string table (`Upgrade:Composite`).
pub fn upgrade_label(unique_name: &str) -> String {
    format!("Upgrade:{unique_name}")
}

/// The label of a description, beside its name's (`Object:Ranger.Description`).
pub fn description_label(name_label: &str) -> String {
    format!("{name_label}.Description")
}

impl Definitions {
    /// Words the names and descriptions players read by `lookup` (a string table: the text of
    /// a label, `None` where it has none), each falling back to the data's own words; a later
    /// call starts again from the data. The rules are untouched.
    pub fn translate(&mut self, lookup: impl Fn(&str) -> Option<String>) {
        let data = Arc::clone(&self.data_texts);
        let word = |label: String, fallback: &String| lookup(&label).unwrap_or_else(|| fallback.clone());
        let rules = Arc::clone(&self.rules);
        let objects = rules.templates.iter().map(|t| object_label(&t.name));
        let upgrades = rules.upgrades.iter().map(|u| upgrade_label(&u.name));
        let (mut names, mut about) = (Vec::new(), Vec::new());
        for (i, label) in objects.enumerate() {
            names.push(data.object_names.get(i).map_or_else(String::new, |n| word(label.clone(), n)));
            about
                .push(data.object_descriptions.get(i).map_or_else(String::new, |d| word(description_label(&label), d)));
        }
        (self.object_names, self.object_descriptions) = (names, about);
        let (mut names, mut about) = (Vec::new(), Vec::new());
        for (i, label) in upgrades.enumerate() {
            names.push(data.upgrade_names.get(i).map_or_else(String::new, |n| word(label.clone(), n)));
            about.push(
                data.upgrade_descriptions.get(i).map_or_else(String::new, |d| word(description_label(&label), d)),
            );
        }
        (self.upgrade_names, self.upgrade_descriptions) = (names, about);
    }

    /// The name players read for an object template (its unique name where it has no
    /// `display_name`; "?" for a template these definitions do not hold).
    pub fn object_name(&self, template: TemplateId) -> &str {
        self.object_names.get(template.0 as usize).map_or("?", String::as_str)
    }

    /// The name players read for an upgrade (as [`Definitions::object_name`]).
    pub fn upgrade_name(&self, upgrade: UpgradeId) -> &str {
        self.upgrade_names.get(upgrade.0 as usize).map_or("?", String::as_str)
    }
}

impl Builder<'_> {
    /// The name players read for `name`: its checked `display_name`, else `name` itself.
    pub(super) fn display_name(&mut self, src: &Source, item: &'static str, name: &str, given: Option<&str>) -> String {
        let shown = given.map(checked).transpose();
        self.check(shown, src, item, name, "display_name").flatten().unwrap_or_else(|| name.to_string())
    }
}

/// A display name as players will read it: trimmed, one line, not empty, not too long.
fn checked(given: &str) -> Result<String, String> {
    let name = given.trim();
    if name.is_empty() {
        return Err("is empty (leave it out to show the unique name)".to_string());
    }
    if name.chars().any(char::is_control) {
        return Err(format!("{given:?} holds a control character (a display name is one line)"));
    }
    let n = name.chars().count();
    if n > MAX_DISPLAY_NAME {
        return Err(format!("{n} characters; the limit is {MAX_DISPLAY_NAME}"));
    }
    Ok(name.to_string())
}
