//! What mods need of each other (`requires` in `mod.ron`): whether each requirement is met by
//! the mods that are on, worded for the player, and the load order that follows from them (a
//! mod in front of every mod it needs, so its files win over theirs).
//!
//! Must not: read files (callers hand in the mods' descriptions) or turn a mod on or off.

use super::mod_info::{ModInfo, Requirement};

/// True when version `have` is `want` or later: dot-separated parts compared as numbers where
/// both are numbers, else as text (`1.10` is after `1.9`); an empty `want` is met by any.
pub fn at_least(have: &str, want: &str) -> bool {
    if want.trim().is_empty() {
        return true;
    }
    let (a, b): (Vec<&str>, Vec<&str>) = (have.trim().split('.').collect(), want.trim().split('.').collect());
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied().unwrap_or("0"), b.get(i).copied().unwrap_or("0"));
        let order = match (x.parse::<u64>(), y.parse::<u64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => x.cmp(y),
        };
        if order != std::cmp::Ordering::Equal {
            return order == std::cmp::Ordering::Greater;
        }
    }
    true
}

/// A mod as the requirement check sees it: its folder name and its `mod.ron`, if any.
#[derive(Clone, Copy, Debug)]
pub struct ModRef<'a> {
    /// The folder name.
    pub id: &'a str,
    /// Its description (None: it has no `mod.ron`, or it could not be read).
    pub info: Option<&'a ModInfo>,
}

/// Why mod `m` cannot be on beside the mods `on` (those on, `m` may be among them), with
/// `found` the folder names of every mod found: one line per requirement not met, naming the
/// mod and what it needs. Empty: every requirement is met.
pub fn unmet(m: ModRef<'_>, on: &[ModRef<'_>], found: &[&str]) -> Vec<String> {
    let Some(info) = m.info else { return Vec::new() };
    info.requires.iter().filter_map(|r| why_not(m.id, r, on, found)).collect()
}

/// The one requirement `r` of mod `id`, if it is not met.
fn why_not(id: &str, r: &Requirement, on: &[ModRef<'_>], found: &[&str]) -> Option<String> {
    let wanted = if r.version.is_empty() { String::new() } else { format!(" {} or later", r.version) };
    let needs = format!("mod \"{id}\" requires mod \"{}\"{wanted}", r.id);
    match on.iter().find(|o| o.id == r.id) {
        Some(o) => {
            let have = o.info.map_or("", |i| i.version.as_str());
            (!at_least(have, &r.version)).then(|| {
                let have = if have.is_empty() { "no version".to_string() } else { format!("version {have}") };
                format!("{needs}, but \"{}\" is {have}", r.id)
            })
        }
        None if found.contains(&r.id.as_str()) => Some(format!("{needs}, which is off: turn it on too")),
        None => Some(format!("{needs}, which is not installed (no mods/{}/ found)", r.id)),
    }
}

/// The load order of `mods` (front first, as given) that puts every mod in front of the mods
/// it requires, keeping the given order where requirements do not decide; the indices into
/// `mods`. Mods that require each other in a circle keep their given order.
pub fn order(mods: &[ModRef<'_>]) -> Vec<usize> {
    let needs = |a: usize, b: usize| {
        mods[a].info.is_some_and(|i| i.requires.iter().any(|r| r.id == mods[b].id)) && mods[a].id != mods[b].id
    };
    let mut left: Vec<usize> = (0..mods.len()).collect();
    let mut out = Vec::with_capacity(mods.len());
    while !left.is_empty() {
        // The first mod no other mod still to place requires goes next (in front).
        let pick = left.iter().position(|&b| !left.iter().any(|&a| needs(a, b))).unwrap_or(0);
        out.push(left.remove(pick));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(version: &str, requires: &[(&str, &str)]) -> ModInfo {
        ModInfo {
            name: "m".into(),
            version: version.into(),
            author: String::new(),
            description: String::new(),
            game_version: String::new(),
            requires: requires.iter().map(|(id, v)| Requirement { id: (*id).into(), version: (*v).into() }).collect(),
            screens: Vec::new(),
        }
    }

    #[test]
    fn versions_compare_by_number() {
        assert!(at_least("1.10", "1.9"));
        assert!(!at_least("1.9", "1.10"));
        assert!(at_least("2", "1.5"));
        assert!(at_least("1.2", "1.2.0"));
        assert!(at_least("", ""));
        assert!(!at_least("", "1"));
    }

    #[test]
    fn a_requirement_off_missing_or_too_old_is_named() {
        let (a, b) = (info("1", &[("b", "2.0")]), info("1.5", &[]));
        let a_ref = ModRef { id: "a", info: Some(&a) };
        let b_ref = ModRef { id: "b", info: Some(&b) };
        let off = unmet(a_ref, &[a_ref], &["a", "b"]);
        assert_eq!(off, ["mod \"a\" requires mod \"b\" 2.0 or later, which is off: turn it on too"]);
        let missing = unmet(a_ref, &[a_ref], &["a"]);
        assert_eq!(missing, ["mod \"a\" requires mod \"b\" 2.0 or later, which is not installed (no mods/b/ found)"]);
        let old = unmet(a_ref, &[a_ref, b_ref], &["a", "b"]);
        assert_eq!(old, ["mod \"a\" requires mod \"b\" 2.0 or later, but \"b\" is version 1.5"]);
        let b2 = info("2.1", &[]);
        assert!(unmet(a_ref, &[ModRef { id: "b", info: Some(&b2) }, a_ref], &["a", "b"]).is_empty());
    }

    #[test]
    fn a_mod_goes_in_front_of_the_mods_it_requires() {
        let (a, b, c) = (info("1", &[]), info("1", &[("a", "")]), info("1", &[("b", "")]));
        let refs = [
            ModRef { id: "a", info: Some(&a) },
            ModRef { id: "b", info: Some(&b) },
            ModRef { id: "c", info: Some(&c) },
        ];
        assert_eq!(order(&refs), [2, 1, 0]);
        // Without requirements the given order stays.
        let plain = [ModRef { id: "x", info: None }, ModRef { id: "y", info: None }];
        assert_eq!(order(&plain), [0, 1]);
    }
}
