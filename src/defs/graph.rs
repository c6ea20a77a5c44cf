//! Checks on how definitions refer to each other, once every table is built: prerequisites
//! that name the object itself or go round in a circle, structures that produce another
//! faction's objects or scenery, structures that research another faction's upgrades, starting objects of another faction, and objects a faction
//! could never get because something they need can never be had. Each problem names the file,
//! the line of the object and the field, as every definition error does.
//!
//! Must not: change the rules; it only reads them.

use std::collections::BTreeSet;

use crate::sim::ids::TemplateId;
use crate::sim::rules::{ObjectKind, Rules};

use super::{DefsError, RuleSources};

/// Every problem with the rules' graph of prerequisites, products and starting objects.
pub fn check(rules: &Rules, src: &RuleSources) -> Vec<DefsError> {
    let mut errors = Vec::new();
    let objects = &src.objects;
    let name = |t: TemplateId| rules.templates.get(t.0 as usize).map_or("?", |o| o.name.as_str());
    for (i, o) in rules.templates.iter().enumerate() {
        let me = TemplateId(i as u16);
        if o.prerequisites.contains(&me) {
            errors.push(objects.invalid("object", &o.name, "prerequisites", "an object cannot require itself"));
        }
        for &u in &o.researches {
            if rules.upgrades.get(u.0 as usize).is_some_and(|up| up.faction != o.faction) {
                let m = format!("\"{}\" is another faction's upgrade", rules.upgrade(u).name);
                errors.push(objects.invalid("object", &o.name, "researches", m));
            }
        }
        for &p in &o.builds {
            let Some(product) = rules.templates.get(p.0 as usize) else { continue };
            if product.kind == ObjectKind::Prop {
                let m = format!("\"{}\" is scenery and cannot be produced", product.name);
                errors.push(objects.invalid("object", &o.name, "builds", m));
            } else if product.faction != o.faction {
                let m = format!("\"{}\" belongs to another faction", product.name);
                errors.push(objects.invalid("object", &o.name, "builds", m));
            }
        }
    }
    // Circles of prerequisites: follow them from each object; a walk that comes back to where
    // it started is a circle (reported once, at its first object in file order).
    let mut reported = BTreeSet::new();
    for start in 0..rules.templates.len() {
        if let Some(circle) = circle_from(rules, TemplateId(start as u16))
            && circle.iter().all(|t| !reported.contains(t))
        {
            reported.extend(circle.iter().copied());
            let path: Vec<&str> = circle.iter().chain(circle.first()).map(|&t| name(t)).collect();
            let m = format!("prerequisites go round in a circle: {}", path.join(" → "));
            errors.push(objects.invalid("object", name(circle[0]), "prerequisites", m));
        }
    }
    for (f, faction) in rules.factions.iter().enumerate() {
        for &(t, _) in &faction.starting_objects {
            if rules.templates.get(t.0 as usize).is_some_and(|o| o.faction as usize != f && o.kind != ObjectKind::Prop)
            {
                let m = format!("\"{}\" belongs to another faction", name(t));
                errors.push(src.factions.invalid("faction", &faction.name, "starting_objects", m));
            }
            // Scenery a player owned would be theirs to lose last: a beaten player would live on
            // in a tree. Only the scenery's own (unplayable) factions start with props.
            if faction.playable && rules.templates.get(t.0 as usize).is_some_and(|o| o.kind == ObjectKind::Prop) {
                let m =
                    format!("\"{}\" is scenery (a prop); a playable faction starts with units and structures", name(t));
                errors.push(src.factions.invalid("faction", &faction.name, "starting_objects", m));
            }
        }
        if !faction.playable {
            continue;
        }
        // What this faction can ever have: its starting objects, then whatever those (and what
        // they bring) produce once every prerequisite is had.
        let mut have: BTreeSet<TemplateId> = faction.starting_objects.iter().map(|&(t, _)| t).collect();
        loop {
            let more: Vec<TemplateId> = have
                .iter()
                .filter_map(|&t| rules.templates.get(t.0 as usize))
                .flat_map(|o| o.builds.iter().copied())
                .filter(|p| !have.contains(p))
                .filter(|p| {
                    rules.templates.get(p.0 as usize).is_some_and(|o| o.prerequisites.iter().all(|q| have.contains(q)))
                })
                .collect();
            if more.is_empty() {
                break;
            }
            have.extend(more);
        }
        // What can be produced once everything had is had (a starting object may still be one
        // no factory could ever make again).
        let producible: BTreeSet<TemplateId> = have
            .iter()
            .filter_map(|&t| rules.templates.get(t.0 as usize))
            .flat_map(|o| o.builds.iter().copied())
            .filter(|p| {
                rules.templates.get(p.0 as usize).is_some_and(|o| o.prerequisites.iter().all(|q| have.contains(q)))
            })
            .collect();
        for (i, o) in rules.templates.iter().enumerate() {
            let offered =
                rules.templates.iter().any(|p| p.faction as usize == f && p.builds.contains(&TemplateId(i as u16)));
            if o.faction as usize != f || !offered || producible.contains(&TemplateId(i as u16)) {
                continue;
            }
            let missing: Vec<&str> = o.prerequisites.iter().filter(|q| !have.contains(q)).map(|&q| name(q)).collect();
            let why = if missing.is_empty() {
                "nothing that produces it can ever be had".to_string()
            } else {
                format!("it needs {}, which {} can never have", missing.join(" and "), faction.name)
            };
            errors.push(objects.invalid("object", &o.name, "prerequisites", format!("can never be built: {why}")));
        }
    }
    errors
}

/// A circle of prerequisites through `start`, in order, if there is one.
fn circle_from(rules: &Rules, start: TemplateId) -> Option<Vec<TemplateId>> {
    // Depth-first with an explicit stack (no recursion on content): (object, next prerequisite).
    let mut path: Vec<(TemplateId, usize)> = vec![(start, 0)];
    let mut done = BTreeSet::new();
    while let Some(&mut (t, ref mut next)) = path.last_mut() {
        let prereqs = rules.templates.get(t.0 as usize).map_or(&[][..], |o| o.prerequisites.as_slice());
        match prereqs.get(*next).copied() {
            Some(p) => {
                *next += 1;
                if p == start && p != t {
                    return Some(path.iter().map(|&(t, _)| t).collect());
                }
                if p != t && !done.contains(&p) && !path.iter().any(|&(q, _)| q == p) {
                    path.push((p, 0));
                }
            }
            None => {
                done.insert(t);
                path.pop();
            }
        }
    }
    None
}
