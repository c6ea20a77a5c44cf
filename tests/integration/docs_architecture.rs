//! ARCHITECTURE.md cannot go stale: its code map has an entry for every folder under `src/` (and
//! every file at its top), each entry begins with the first sentence of that module's `//!`
//! word for word, and every path the page names exists — in the code map, the invariants and
//! each Decision, which must also say where in the code it lives.
//!
//! The checker is tested with a page that must fail (a stale sentence, a missing folder, a
//! Decision naming no path, a path that does not exist).

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

/// The first sentence of a Rust file's `//!`: its first paragraph, lines joined by spaces, up to
/// the first full stop that ends a sentence (followed by a space or the paragraph's end; `e.g.`
/// and `i.e.` do not end one).
fn first_sentence(source: &str) -> String {
    let mut words = Vec::new();
    for line in source.lines() {
        let Some(text) = line.strip_prefix("//!") else { break };
        let text = text.trim();
        if text.is_empty() {
            if words.is_empty() {
                continue;
            }
            break;
        }
        words.push(text);
    }
    let para = words.join(" ");
    let mut from = 0;
    while let Some(at) = para[from..].find('.').map(|i| i + from) {
        let upto = &para[..=at];
        let ends = para[at + 1..].is_empty() || para[at + 1..].starts_with(' ');
        if ends && !upto.ends_with("e.g.") && !upto.ends_with("i.e.") {
            return upto.to_string();
        }
        from = at + 1;
    }
    para
}

/// The file holding a room's `//!`: `dir/mod.rs`, else `dir.rs`; a file is its own.
fn module_file(root: &Path, entry: &str) -> std::path::PathBuf {
    match entry.strip_suffix('/') {
        Some(dir) if root.join(dir).join("mod.rs").exists() => root.join(dir).join("mod.rs"),
        Some(dir) => root.join(format!("{dir}.rs")),
        None => root.join(entry),
    }
}

/// One `## ` section of the page, without its heading line.
fn section<'a>(page: &'a str, name: &str) -> &'a str {
    let after = page.split(&format!("\n## {name}\n")).nth(1).unwrap_or("");
    after.split("\n## ").next().unwrap_or("")
}

/// The code map's entries: (the path in the heading, the first paragraph, the rest).
fn entries(page: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for block in section(page, "Code map").split("\n### ").skip(1) {
        let (heading, body) = block.split_once('\n').unwrap_or((block, ""));
        let Some(path) = heading.trim().strip_prefix('`').and_then(|h| h.strip_suffix('`')) else { continue };
        let body = body.trim_start_matches('\n');
        let (first, rest) = body.split_once("\n\n").unwrap_or((body, ""));
        out.push((path.to_string(), first.split_whitespace().collect::<Vec<_>>().join(" "), rest.to_string()));
    }
    out
}

/// The words in backticks that name a file or folder: no spaces or patterns, and a `/` or a
/// known file ending.
fn named_paths(text: &str) -> Vec<String> {
    let endings = [".rs", ".md", ".ron", ".wnd", ".wgsl", ".toml", ".png"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            !w.contains(char::is_whitespace) && !w.contains(['<', '*', '…', '{', '(', '|']) && !w.contains("::")
        })
        .filter(|w| w.contains('/') || endings.iter().any(|e| w.ends_with(e)))
        .map(str::to_string)
        .collect()
}

/// Every problem of a page against the tree at `root`.
fn problems(root: &Path, page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let entries = entries(page);
    let named: BTreeSet<&str> = entries.iter().map(|(p, _, _)| p.as_str()).collect();
    // Every room under src/ has an entry.
    let mut rooms = Vec::new();
    rooms_under(&root.join("src"), root, &mut rooms);
    for room in &rooms {
        if !named.contains(room.as_str()) {
            let file = module_file(root, room);
            let sentence = std::fs::read_to_string(&file).map(|s| first_sentence(&s)).unwrap_or_default();
            out.push(format!("the code map has no entry for `{room}`; add:\n\n### `{room}`\n\n{sentence}\n"));
        }
    }
    for (path, first, rest) in &entries {
        if !path.starts_with("src/") {
            continue;
        }
        let file = module_file(root, path);
        let Ok(source) = std::fs::read_to_string(&file) else {
            out.push(format!("the code map's `{path}` does not exist (no {})", file.display()));
            continue;
        };
        let want = first_sentence(&source);
        if *first != want {
            out.push(format!(
                "the code map's `{path}` must begin with the first sentence of {}'s `//!`:\n\n{want}\n",
                file.strip_prefix(root).unwrap_or(&file).display()
            ));
        }
        let dir = if path.ends_with('/') { path.clone() } else { "src/".to_string() };
        for p in named_paths(rest) {
            if !root.join(&dir).join(&p).exists() && !root.join(&p).exists() {
                out.push(format!("the code map's `{path}` names `{p}`, which does not exist"));
            }
        }
    }
    // The rest of the page: paths from the root (or from src/).
    for name in ["Code map", "One frame", "Boundaries", "Invariants"] {
        let text = if name == "Code map" {
            section(page, name).split("\n### Outside").nth(1).unwrap_or("")
        } else {
            section(page, name)
        };
        for p in named_paths(text) {
            if !root.join(&p).exists() && !root.join("src").join(&p).exists() {
                out.push(format!("{name} names `{p}`, which does not exist"));
            }
        }
    }
    // Each Decision says where it lives, from the root.
    let decisions: Vec<&str> = section(page, "Decisions").split("\n- ").skip(1).collect();
    if decisions.is_empty() {
        out.push("the page has no Decisions".to_string());
    }
    for d in decisions {
        let title = d.split("**").nth(1).unwrap_or(d.lines().next().unwrap_or(""));
        let paths = named_paths(d);
        if paths.is_empty() {
            out.push(format!("the Decision \"{title}\" names no path where it lives"));
        }
        for p in paths.iter().filter(|p| !root.join(p).exists()) {
            out.push(format!("the Decision \"{title}\" names `{p}`, which does not exist (paths are from the root)"));
        }
    }
    out
}

/// Every folder under `dir` (as `src/a/b/`), and the `.rs` files directly in `src/`.
fn rooms_under(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if p.is_dir() {
            out.push(format!("{rel}/"));
            rooms_under(&p, root, out);
        } else if dir == root.join("src") && rel.ends_with(".rs") {
            out.push(rel);
        }
    }
}

#[test]
fn the_architecture_page_matches_the_tree() {
    let root = common::root();
    let page = common::read(&root.join("ARCHITECTURE.md"));
    assert!(entries(&page).len() >= 30, "the code map was not found");
    let problems = problems(&root, &page);
    assert!(problems.is_empty(), "ARCHITECTURE.md is stale:\n{}", problems.join("\n"));
}

#[test]
fn the_architecture_checker_catches_a_stale_page() {
    let root = common::root();
    let page = common::read(&root.join("ARCHITECTURE.md"));
    let sim = first_sentence(&common::read(&root.join("src/sim/mod.rs")));
    let cases = [
        (page.replacen(&sim, "The simulation, as it was.", 1), "must begin with the first sentence of src/sim/mod.rs"),
        (page.replacen("### `src/sim/vision/`", "### `src/sim/sight/`", 1), "no entry for `src/sim/vision/`"),
        (
            page.replacen("Lives in `src/sim/event.rs`.", "Lives in the simulation.", 1),
            "\"Events are noted where state changes\" names no path",
        ),
        (
            page.replacen("`src/sim/regions.rs`", "`src/sim/region.rs`", 1),
            "names `src/sim/region.rs`, which does not exist",
        ),
        (page.replacen("`join_code.rs`", "`join_codes.rs`", 1), "names `join_codes.rs`, which does not exist"),
    ];
    for (stale, wanted) in cases {
        assert_ne!(stale, page, "the case for {wanted:?} changed nothing");
        let found = problems(&root, &stale);
        assert!(found.iter().any(|p| p.contains(wanted)), "expected {wanted:?} in {found:#?}");
    }
}

#[test]
fn a_first_sentence_ends_at_a_full_stop_that_ends_it() {
    let src = "//!\n//! The parser: tokens → `WndFile`, e.g. a\n//! window. More `a.rs` here.\n//!\n//! Next.\nuse x;";
    assert_eq!(first_sentence(src), "The parser: tokens → `WndFile`, e.g. a window.");
    assert_eq!(first_sentence("//! No stop at all\n//! here"), "No stop at all here");
}
