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
    // it started is a circle (reported once, at its first object in file order). Only objects
    // in a group that reaches itself can start one (`rings`), and a walk stays in its group.
    let ring = rings(rules);
    let mut reported = vec![false; rules.templates.len()];
    for start in 0..rules.templates.len() {
        if reported[start] || ring[start].is_none() {
            continue;
        }
        if let Some(circle) = circle_from(rules, TemplateId(start as u16), &ring)
            && circle.iter().all(|t| !reported[t.0 as usize])
        {
            for t in &circle {
                reported[t.0 as usize] = true;
            }
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
        let have = obtainable(rules, faction.starting_objects.iter().map(|&(t, _)| t));
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
        // Everything one of the faction's own objects offers to produce.
        let offered: BTreeSet<TemplateId> =
            rules.templates.iter().filter(|p| p.faction as usize == f).flat_map(|p| p.builds.iter().copied()).collect();
        for (i, o) in rules.templates.iter().enumerate() {
            let me = TemplateId(i as u16);
            if o.faction as usize != f || !offered.contains(&me) || producible.contains(&me) {
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

/// What a player starting with `start` can ever have: those, then whatever they (and what they
/// bring) produce once every prerequisite is had. Each object is taken up once, when the last of
/// its prerequisites is had and something had offers it.
fn obtainable(rules: &Rules, start: impl Iterator<Item = TemplateId>) -> BTreeSet<TemplateId> {
    let n = rules.templates.len();
    let prereqs = |t: usize| {
        let mut p: Vec<TemplateId> = rules.templates[t].prerequisites.clone();
        p.sort_unstable();
        p.dedup();
        p
    };
    // Who needs each object, and how many distinct prerequisites each still lacks.
    let mut needed_by: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut lacking: Vec<usize> = vec![0; n];
    for (t, slot) in lacking.iter_mut().enumerate() {
        let p = prereqs(t);
        *slot = p.len();
        for q in p {
            if let Some(list) = needed_by.get_mut(q.0 as usize) {
                list.push(t);
            }
        }
    }
    let mut offered = vec![false; n];
    let mut have = BTreeSet::new();
    let mut new: Vec<TemplateId> = start.filter(|t| (t.0 as usize) < n).collect();
    while let Some(t) = new.pop() {
        if !have.insert(t) {
            continue;
        }
        let i = t.0 as usize;
        for &p in &needed_by[i] {
            lacking[p] -= 1;
            if lacking[p] == 0 && offered[p] {
                new.push(TemplateId(p as u16));
            }
        }
        for &p in &rules.templates[i].builds {
            let j = p.0 as usize;
            if j < n && !offered[j] {
                offered[j] = true;
                if lacking[j] == 0 {
                    new.push(p);
                }
            }
        }
    }
    have
}

/// For each object, the group of objects that reach each other through prerequisites (the
/// lowest index in it) when that group holds a circle: two or more objects. None for the rest.
/// Tarjan's strongly connected components, with an explicit stack (no recursion on content).
fn rings(rules: &Rules) -> Vec<Option<usize>> {
    let n = rules.templates.len();
    let next_of =
        |t: usize, k: usize| rules.templates[t].prerequisites.get(k).map(|p| p.0 as usize).filter(|&p| p < n && p != t);
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0usize; n]);
    let (mut on_stack, mut stack, mut counter) = (vec![false; n], Vec::new(), 0usize);
    let mut ring = vec![None; n];
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut walk: Vec<(usize, usize)> = vec![(root, 0)];
        (index[root], low[root], on_stack[root]) = (counter, counter, true);
        counter += 1;
        stack.push(root);
        while let Some(&mut (t, ref mut k)) = walk.last_mut() {
            let len = rules.templates[t].prerequisites.len();
            if *k < len {
                let edge = next_of(t, *k);
                *k += 1;
                let Some(p) = edge else { continue };
                if index[p] == usize::MAX {
                    (index[p], low[p], on_stack[p]) = (counter, counter, true);
                    counter += 1;
                    stack.push(p);
                    walk.push((p, 0));
                } else if on_stack[p] {
                    low[t] = low[t].min(index[p]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent] = low[parent].min(low[t]);
            }
            if low[t] == index[t] {
                let at = stack.iter().rposition(|&q| q == t).unwrap_or(0);
                let group: Vec<usize> = stack.drain(at..).collect();
                for &q in &group {
                    on_stack[q] = false;
                }
                if group.len() > 1 {
                    let first = group.iter().copied().min().unwrap_or(t);
                    for q in group {
                        ring[q] = Some(first);
                    }
                }
            }
        }
    }
    ring
}

/// A circle of prerequisites through `start`, in order, if there is one: a depth-first walk
/// (prerequisites in their order, each object entered once) kept inside `start`'s group.
fn circle_from(rules: &Rules, start: TemplateId, ring: &[Option<usize>]) -> Option<Vec<TemplateId>> {
    let group = ring.get(start.0 as usize).copied().flatten()?;
    let inside = |p: TemplateId| ring.get(p.0 as usize).copied().flatten() == Some(group);
    let mut path: Vec<(TemplateId, usize)> = vec![(start, 0)];
    let mut seen = vec![false; ring.len()];
    seen[start.0 as usize] = true;
    while let Some(&mut (t, ref mut next)) = path.last_mut() {
        let prereqs = rules.templates.get(t.0 as usize).map_or(&[][..], |o| o.prerequisites.as_slice());
        match prereqs.get(*next).copied() {
            Some(p) => {
                *next += 1;
                if p == start && p != t {
                    return Some(path.iter().map(|&(t, _)| t).collect());
                }
                if p != t && inside(p) && !seen[p.0 as usize] {
                    seen[p.0 as usize] = true;
                    path.push((p, 0));
                }
            }
            None => {
                path.pop();
            }
        }
    }
    None
}
