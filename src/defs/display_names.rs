//! The names players read: each object's and upgrade's `display_name`, checked as one line of
//! a length a button holds, with the unique name standing in where there is none.
//!
//! Must not: change what files, mods, logs and tools refer to things by (the unique names).

use crate::sim::ids::{TemplateId, UpgradeId};

use super::{Builder, Definitions, Source};

/// Longest display name accepted, in characters (a control-bar button holds about this much).
const MAX_DISPLAY_NAME: usize = 32;

impl Definitions {
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
