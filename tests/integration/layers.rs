//! No import circle anywhere in `src/`: in every top folder, the rooms (each direct
//! submodule, a file or a folder) import each other without a circle, and so do the sibling
//! files of every folder, as the crate's modules do in ARCHITECTURE.md's table. A circle (the
//! battle taking the shell's button type while the shell took the battle's puff image) is
//! reported with its members and a path through it, every circle at once.
//!
//! A circle may stay only by a named entry in [`ALLOWED`] that says why; an entry that no
//! longer matches a circle fails too, so the list cannot go stale.
//!
//! The checker is tested with circles that must be found.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::common::rust_source::{code_only, module_of, paths, resolve, rust_files};

/// Import graph: each node and the nodes it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// Circles that may stay: the graph (`rooms of src/sim` or `files of src/sim`), the nodes the
/// circle may hold (a circle that takes in any other node fails), and the reason.
const ALLOWED: &[(&str, &[&str], &str)] = &[
    (
        "files of src/sim",
        SYSTEMS_ON_WORLD,
        "systems on `World`: `world.rs` runs one tick by calling each system in a fixed order, and each \
         system is written as `impl World` or takes `&mut World` (its tests build worlds with \
         `test_support`); splitting the world's state from the tick would put the order of a tick and \
         the state it runs on in two places",
    ),
    (
        "rooms of src/sim",
        &[
            "combat",
            "damage",
            "economy",
            "help",
            "movement",
            "object_mut",
            "power",
            "production",
            "projectile",
            "queue",
            "research",
            "separation",
            "setup",
            "store",
            "targeting",
            "test_support",
            "upkeep",
            "victory",
            "vision",
            "world",
        ],
        "the same systems on `World`, seen as the rooms of src/sim (vision is a folder, and the store's \
         tests build their objects from `test_support`; the write handle `object_mut` keeps the store's marks)",
    ),
];

/// The simulation's systems and the world that runs them in order.
const SYSTEMS_ON_WORLD: &[&str] = &[
    "combat",
    "damage",
    "economy",
    "help",
    "movement",
    "power",
    "production",
    "projectile",
    "queue",
    "research",
    "separation",
    "setup",
    "targeting",
    "test_support",
    "upkeep",
    "victory",
    "vision",
    "world",
];

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every folder directly under `src/` (`sim`, `game`, `cli`…).
fn top_folders() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Imports between the direct submodules of `top` (`game`), from every file under it.
fn room_imports(top: &str) -> Graph {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root.join(top), &mut files);
    let mut edges = Graph::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let module = module_of(&rel);
        // `game/mod.rs` itself only declares the rooms.
        let Some(room) = module.get(1).cloned() else { continue };
        let code = code_only(&std::fs::read_to_string(&f).unwrap());
        let into = edges.entry(room.clone()).or_default();
        for p in paths(&code) {
            let (abs, in_crate) = resolve(&p.segments, &module);
            if in_crate
                && abs.first().map(String::as_str) == Some(top)
                && let Some(other) = abs.get(1).filter(|o| **o != room)
            {
                into.insert(other.clone());
            }
        }
    }
    edges
}

/// What each folder's `mod.rs` brings in from its own children, by name: `online` →
/// `OnlineError` → `error` for `pub use error::OnlineError;`. A child that imports
/// `super::OnlineError` uses the sibling that defines it.
fn reexports(
    files: &[std::path::PathBuf],
    rels: &[String],
    units: &BTreeSet<Vec<String>>,
) -> BTreeMap<Vec<String>, BTreeMap<String, String>> {
    let mut out: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
    for (f, rel) in files.iter().zip(rels) {
        if !rel.ends_with("mod.rs") {
            continue;
        }
        let folder = module_of(rel);
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        for p in paths(&code) {
            let segs: Vec<&String> = p.segments.iter().skip_while(|s| *s == "self").collect();
            let (Some(first), Some(name)) = (segs.first(), segs.last()) else { continue };
            let mut child = folder.clone();
            child.push((*first).clone());
            if segs.len() >= 2 && units.iter().any(|u| u.starts_with(&child)) {
                out.entry(folder.clone()).or_default().insert((*name).clone(), (*first).clone());
            }
        }
    }
    out
}

/// Imports between sibling files (and folders) of every folder under `top`, keyed by the
/// folder: `game/battle` → `look` → {`play`, `picture`, …}. A folder's `mod.rs` declares its
/// children and is left out, but what it re-exports is followed to the sibling that defines it.
fn sibling_imports(top: &str) -> BTreeMap<Vec<String>, Graph> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root.join(top), &mut files);
    let rels: Vec<String> =
        files.iter().map(|f| f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/")).collect();
    let units: BTreeSet<Vec<String>> = rels.iter().map(|r| module_of(r)).collect();
    let reexported = reexports(&files, &rels, &units);
    let mut out: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for (f, rel) in files.iter().zip(&rels) {
        if rel.ends_with("mod.rs") {
            continue;
        }
        let module = module_of(rel);
        let (folder, unit) = (module[..module.len() - 1].to_vec(), module[module.len() - 1].clone());
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        let into = out.entry(folder.clone()).or_default().entry(unit.clone()).or_default();
        for p in paths(&code) {
            let (abs, in_crate) = resolve(&p.segments, &module);
            if !in_crate || abs.len() <= folder.len() || abs[..folder.len()] != folder[..] {
                continue;
            }
            let named = &abs[folder.len()];
            let mut sibling = folder.clone();
            sibling.push(named.clone());
            // A sibling file, or a folder of files beside it, or a name the folder re-exports.
            let other = if units.iter().any(|u| u.starts_with(&sibling)) {
                Some(named)
            } else {
                reexported.get(&folder).and_then(|r| r.get(named))
            };
            if let Some(other) = other.filter(|o| **o != unit) {
                into.insert(other.clone());
            }
        }
    }
    out
}

/// A cycle in `edges`, as the path that closes it, if there is one.
fn cycle(edges: &Graph) -> Option<Vec<String>> {
    fn visit(n: &str, edges: &Graph, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut c = path[at..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

/// Every circle in `edges`: the groups of nodes that reach each other (strongly connected
/// components of more than one node), each sorted, in name order.
fn circles(edges: &Graph) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for next in edges.get(&n).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = edges.keys().map(|n| (n, reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (n, from_n) in &reaches {
        if !from_n.contains(*n) || out.iter().any(|c| c.contains(n)) {
            continue;
        }
        let group: Vec<String> =
            from_n.iter().filter(|m| reaches.get(m).is_some_and(|r| r.contains(*n))).cloned().collect();
        out.push(group);
    }
    out
}

/// A path that closes a circle through `members` (the graph cut down to them).
fn path_through(edges: &Graph, members: &[String]) -> String {
    let inside: Graph = members
        .iter()
        .map(|m| (m.clone(), edges.get(m).into_iter().flatten().filter(|t| members.contains(t)).cloned().collect()))
        .collect();
    cycle(&inside).unwrap_or_default().join(" → ")
}

/// Every import graph of `src/`: the rooms of each top folder, and the files of every folder.
fn every_graph() -> Vec<(String, Graph)> {
    let mut out = Vec::new();
    for top in top_folders() {
        out.push((format!("rooms of src/{top}"), room_imports(&top)));
        for (folder, edges) in sibling_imports(&top) {
            out.push((format!("files of src/{}", folder.join("/")), edges));
        }
    }
    out
}

/// The circles of `graphs` not allowed by `allowed`, and the allowed entries that match no
/// circle, as lines to print.
fn problems(graphs: &[(String, Graph)], allowed: &[(&str, &[&str], &str)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = BTreeSet::new();
    for (name, edges) in graphs {
        for members in circles(edges) {
            let entry =
                allowed.iter().position(|(g, m, _)| *g == name && members.iter().all(|x| m.contains(&x.as_str())));
            match entry {
                Some(at) => {
                    used.insert(at);
                }
                None => out.push(format!(
                    "{name}: {{{}}} import each other ({})",
                    members.join(", "),
                    path_through(edges, &members)
                )),
            }
        }
    }
    for (at, (name, members, _)) in allowed.iter().enumerate() {
        if !used.contains(&at) {
            out.push(format!(
                "{name}: the allowed circle {{{}}} matches no circle (gone, or grown past it)",
                members.join(", ")
            ));
        }
    }
    out
}

#[test]
fn no_folder_of_src_has_an_import_circle_but_the_named_ones() {
    let graphs = every_graph();
    for top in ["sim", "game", "net", "session", "lockstep", "ui", "online"] {
        let name = format!("rooms of src/{top}");
        assert!(graphs.iter().any(|(n, e)| *n == name && e.len() >= 4), "{name} was not found");
    }
    let found = problems(&graphs, ALLOWED);
    assert!(found.is_empty(), "import circles in src/:\n{}", found.join("\n"));
    for (_, _, reason) in ALLOWED {
        assert!(reason.len() > 40, "an allowed circle needs its reason: {reason}");
    }
}

#[test]
fn the_client_frame_sits_above_the_hud_the_battle_and_the_shell() {
    let edges = room_imports("game");
    let imports = |room: &str| edges.get(room).cloned().unwrap_or_default();
    for below in ["hud", "battle", "shell"] {
        assert!(imports("frame").contains(below), "frame imports {below}");
    }
    assert!(!imports("battle").contains("shell") && !imports("shell").contains("battle"));
    // The battle's parts are among what is checked.
    let battle = &sibling_imports("game")[&vec!["game".to_string(), "battle".to_string()]];
    assert!(battle["look"].contains("play") && battle["input"].contains("look"), "{battle:?}");
}

fn graph(pairs: &[(&str, &[&str])]) -> Graph {
    pairs.iter().map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect())).collect()
}

#[test]
fn the_checker_finds_every_circle() {
    let edges = graph(&[
        ("battle", &["images", "shell"]),
        ("shell", &["images", "battle"]),
        ("images", &[]),
        ("app", &["battle", "shell"]),
        ("a", &["b"]),
        ("b", &["c"]),
        ("c", &["a", "images"]),
    ]);
    assert_eq!(cycle(&edges), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    assert_eq!(
        circles(&edges),
        vec![vec!["a".to_string(), "b".into(), "c".into()], vec!["battle".to_string(), "shell".into()]]
    );
    let graphs = vec![("rooms of src/x".to_string(), edges.clone())];
    let found = problems(&graphs, &[]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[1].contains("{battle, shell}") && found[1].contains("battle → shell → battle"), "{found:?}");
    // An allowed circle is let through while it stays within its entry; an allowed one gone is
    // reported.
    let allowed: &[(&str, &[&str], &str)] = &[("rooms of src/x", &["a", "b", "c"], "why")];
    assert_eq!(problems(&graphs, allowed).len(), 1);
    let narrow: &[(&str, &[&str], &str)] = &[("rooms of src/x", &["a", "b"], "why")];
    assert_eq!(problems(&graphs, narrow).len(), 3, "a circle wider than its entry fails");
    let mut fine = edges.clone();
    fine.get_mut("shell").unwrap().remove("battle");
    fine.get_mut("c").unwrap().remove("a");
    assert_eq!(cycle(&fine), None);
    assert!(circles(&fine).is_empty());
    let graphs = vec![("rooms of src/x".to_string(), fine)];
    assert_eq!(
        problems(&graphs, allowed),
        vec!["rooms of src/x: the allowed circle {a, b, c} matches no circle (gone, or grown past it)"]
    );
}

/// The shell's leaves: the modules below every screen and the layout editor (the parts, the
/// stage over them, and what they load with), named here. Within `game/shell` a leaf imports
/// only other leaves, so any file of the shell, in any subfolder, may import one.
const SHELL_LEAVES: [&str; 17] = [
    "content",
    "error",
    "icons",
    "layout_check",
    "loading",
    "lobby_state",
    "mod_list",
    "outbox",
    "patches",
    "prefs",
    "question",
    "request",
    "required",
    "screen",
    "screens",
    "skirmish_config",
    "stage",
];

/// Imports inside `top` (a folder under `src/`, as its module path) that run back up, from
/// `files` (path under `src/`, source). A file's own folder is its parent folder, or for a
/// `mod.rs` the folder it declares. An import (any path in the code, `use` or not; test
/// modules left out) is allowed when it names the file itself, or a module inside the file's
/// own folder (a sibling, or below one); one naming the folder's own module (`super::Shell`,
/// a re-export in `mod.rs` included) or anything above it is refused unless it names a leaf
/// (`top::<leaf>` for a name in `leaves`). A leaf that imports, within `top`, anything but
/// another leaf is refused too. Each refusal reads `file:line: what it imports`.
fn upward_imports(top: &[&str], leaves: &[&str], files: &[(String, String)]) -> Vec<String> {
    let top: Vec<String> = top.iter().map(|s| s.to_string()).collect();
    let units: BTreeSet<Vec<String>> = files.iter().map(|(rel, _)| module_of(rel)).collect();
    let leaf_units: BTreeSet<Vec<String>> =
        leaves.iter().map(|l| top.iter().cloned().chain(std::iter::once(l.to_string())).collect()).collect();
    let mut refused = Vec::new();
    for (rel, src) in files {
        let module = module_of(rel);
        let folder = if rel.ends_with("mod.rs") { module.clone() } else { module[..module.len() - 1].to_vec() };
        // Test modules sit at the end of a file and see their own file through `super`.
        let code = code_only(src);
        let code = code.split("#[cfg(test)]").next().unwrap_or_default();
        for p in paths(code) {
            let (abs, in_crate) = resolve(&p.segments, &module);
            if !in_crate || !abs.starts_with(&top) {
                continue;
            }
            let Some(target) = (1..=abs.len()).rev().map(|n| abs[..n].to_vec()).find(|u| units.contains(u)) else {
                continue;
            };
            let inside = target.len() > folder.len() && target.starts_with(&folder);
            let fine = if leaf_units.contains(&module) {
                target == module || leaf_units.contains(&target)
            } else {
                target == module || inside || leaf_units.contains(&target)
            };
            if !fine {
                refused.push(format!("{rel}:{}: {}", p.line, p.segments.join("::")));
            }
        }
    }
    refused
}

/// Every `.rs` file under `src/<dir>`, as (path under `src/`, source).
fn sources(dir: &str) -> Vec<(String, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join(dir), &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

#[test]
fn no_import_in_the_shell_runs_back_up_but_to_a_leaf() {
    let files = sources("game/shell");
    assert!(files.iter().any(|(rel, _)| rel.starts_with("game/shell/editor/")), "the editor's folder was not found");
    for leaf in SHELL_LEAVES {
        assert!(files.iter().any(|(rel, _)| *rel == format!("game/shell/{leaf}.rs")), "no leaf {leaf}");
    }
    assert_eq!(upward_imports(&["game", "shell"], &SHELL_LEAVES, &files), Vec::<String>::new());
}

#[test]
fn the_upward_import_checker_finds_a_child_using_its_parent() {
    let file = |rel: &str, src: &str| (rel.to_string(), src.to_string());
    let files = vec![
        file("game/shell/mod.rs", "mod menu; mod screen; mod editor; pub struct Shell; use menu::open;"),
        file("game/shell/screen.rs", "pub enum Screen { Menu }"),
        file("game/shell/menu.rs", "use super::Shell;\nuse super::screen::Screen;\npub fn open(s: &mut Shell) {}"),
        file(
            "game/shell/editor/mod.rs",
            "mod panel;\nuse crate::game::shell::screen::Screen;\nuse crate::game::shell::menu::open;",
        ),
        file(
            "game/shell/editor/panel.rs",
            "use super::super::screen::Screen;\nfn f() { super::Editor::new(); }\n#[cfg(test)]\nmod tests { use super::*; }",
        ),
    ];
    let refused = upward_imports(&["game", "shell"], &["screen"], &files);
    assert_eq!(
        refused,
        vec![
            "game/shell/menu.rs:1: super::Shell".to_string(),
            "game/shell/editor/mod.rs:3: crate::game::shell::menu::open".to_string(),
            "game/shell/editor/panel.rs:2: super::Editor::new".to_string(),
        ]
    );
    // A leaf that stands on a non-leaf is no leaf.
    let mut leaning = files.clone();
    leaning[1].1 = "use super::menu::open;\npub enum Screen { Menu }".into();
    assert_eq!(upward_imports(&["game", "shell"], &["screen"], &leaning).len(), 4);
}

/// The files of `files` that implement `name` (inherent or trait impls), by path.
fn files_implementing(name: &str, files: &[(String, String)]) -> Vec<String> {
    let implements = |code: &str| {
        code.lines().map(str::trim).any(|l| {
            let words: Vec<&str> = l.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
            l.starts_with("impl") && words.contains(&name) && (words.get(1) == Some(&name) || l.contains(" for "))
        })
    };
    files.iter().filter(|(_, src)| implements(&code_only(src))).map(|(rel, _)| rel.clone()).collect()
}

#[test]
fn shell_is_implemented_in_one_file() {
    let files = sources("");
    assert_eq!(files_implementing("Shell", &files), vec!["game/shell/mod.rs".to_string()]);
    // The checker sees an impl block, a trait impl, and leaves other types and mentions alone.
    let fake = vec![
        ("a.rs".to_string(), "impl Shell {\n}\nimpl std::fmt::Debug for Shell {}".to_string()),
        ("b.rs".to_string(), "impl Shell {}".to_string()),
        ("c.rs".to_string(), "impl Shelly {}\nimpl Stage<'_> { fn f(s: &Shell) {} }\n// impl Shell".to_string()),
        ("d.rs".to_string(), "impl From<u8> for Shell {}".to_string()),
    ];
    assert_eq!(files_implementing("Shell", &fake), vec!["a.rs", "b.rs", "d.rs"]);
}

#[test]
fn the_sibling_graph_follows_a_name_its_folder_re_exports() {
    // `net/quic/tls.rs` says `use super::QuicError;`, which `net/quic/mod.rs` brings in with
    // `pub use error::{…, QuicError};`: the edge runs to the file that defines it.
    let net = sibling_imports("net");
    let quic = &net[&vec!["net".to_string(), "quic".to_string()]];
    assert!(quic["tls"].contains("error"), "tls → error through the re-export: {:?}", quic["tls"]);
}
