//! The module boundaries of ARCHITECTURE.md, enforced: its "Boundaries" table says which
//! crate modules each module may import and which external crates and `std` modules it must
//! not use; every file under `src/` is checked against it.
//!
//! The checker is tested with imports that must fail, in every form an import can take.

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::rust_source::{code_only, module_of, paths, resolve, rust_files};

/// One row of the table.
#[derive(Clone, Debug, Default)]
struct Rule {
    /// Crate modules it may import; None means anything.
    may: Option<Vec<String>>,
    /// External paths it must not use (`wgpu`, `std::fs`), as segments.
    must_not: Vec<Vec<String>>,
}

/// The names in backticks in a table cell.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The "Boundaries" table of ARCHITECTURE.md.
fn rules(architecture: &str) -> BTreeMap<String, Rule> {
    let section = architecture.split("## Boundaries").nth(1).unwrap_or("");
    let section = section.split("\n## ").next().unwrap_or("");
    let mut out = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
        let [module, may, must_not] = cells[..] else { continue };
        let Some(module) = ticked(module).into_iter().next() else { continue };
        let may = ticked(may);
        let may = if may.iter().any(|m| m == "*") { None } else { Some(may) };
        let must_not = ticked(must_not).iter().map(|p| p.split("::").map(str::to_string).collect()).collect();
        out.insert(module, Rule { may, must_not });
    }
    out
}

/// Problems in one file of module `module` (its path under src/, e.g. `ui/manager/mod.rs`).
fn violations(rules: &BTreeMap<String, Rule>, file: &str, source: &str) -> Vec<(usize, String)> {
    let module = module_of(file);
    let Some(top) = module.first() else { return Vec::new() };
    let Some(rule) = rules.get(top) else {
        return vec![(1, format!("module `{top}` has no row in ARCHITECTURE.md's Boundaries table"))];
    };
    let code = code_only(source);
    // An inline module (`mod tests { … }`, at the end of a file by the project's habit) is one
    // level deeper: `super::` inside it means the file's own module.
    let inline = code.lines().position(|l| {
        let l = l.trim_start().trim_start_matches("pub ");
        l.starts_with("mod ") && l.trim_end().ends_with('{')
    });
    let mut out = Vec::new();
    for p in paths(&code) {
        let mut module = module.clone();
        if let Some(at) = inline.filter(|at| p.line > *at) {
            let line = code.lines().nth(at).unwrap_or("");
            module.push(
                line.trim()
                    .trim_start_matches("pub ")
                    .trim_start_matches("mod ")
                    .trim_end_matches('{')
                    .trim()
                    .to_string(),
            );
        }
        let (abs, in_crate) = resolve(&p.segments, &module);
        if in_crate {
            let Some(target) = abs.first() else { continue };
            let allowed = target == top || rule.may.as_ref().is_none_or(|may| may.contains(target));
            if !allowed {
                out.push((p.line, format!("`{top}` imports `{target}`, which ARCHITECTURE.md does not allow it")));
            }
        } else if let Some(bad) = rule.must_not.iter().find(|bad| abs.len() >= bad.len() && abs[..bad.len()] == bad[..])
        {
            out.push((p.line, format!("`{top}` uses `{}`, which ARCHITECTURE.md forbids it", bad.join("::"))));
        }
    }
    out.sort();
    out.dedup();
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn table() -> BTreeMap<String, Rule> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    rules(&text)
}

#[test]
fn every_module_keeps_to_its_row() {
    let rules = table();
    assert!(rules.len() >= 12, "the table was not found: {rules:?}");
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut problems = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root().join("src")).unwrap().to_string_lossy().replace('\\', "/");
        if rel == "lib.rs" || rel == "main.rs" {
            continue;
        }
        for (line, msg) in violations(&rules, &rel, &std::fs::read_to_string(f).unwrap()) {
            problems.push(format!("src/{rel}:{line}: {msg}"));
        }
    }
    assert!(problems.is_empty(), "module boundaries broken:\n{}", problems.join("\n"));
}

#[test]
fn every_module_folder_has_a_row() {
    let rules = table();
    for entry in std::fs::read_dir(root().join("src")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "lib" || name == "main" {
            continue;
        }
        assert!(rules.contains_key(&name), "src/{name} has no row in ARCHITECTURE.md's Boundaries table");
    }
}

#[test]
fn the_checker_catches_each_forbidden_import() {
    let rules = table();
    let bad = [
        ("sim/world.rs", "use crate::render::Renderer;"),
        ("sim/world.rs", "use crate::{fixed::Fixed, ui::Rect};"),
        ("sim/world.rs", "use crate::{sim::Fixed, game::{self, Camera}};"),
        ("sim/world.rs", "let c = crate::game::camera::Camera::default();"),
        ("sim/world.rs", "use super::super::net::hub;"),
        ("sim/fixed.rs", "use wgpu as w;"),
        ("sim/fixed.rs", "let d = ::wgpu::Device::default();"),
        ("sim/fixed.rs", "extern crate winit;"),
        ("sim/fixed.rs", "use std::{fs, env};"),
        ("ai/skirmish.rs", "use crate::session::Controller;"),
        ("ai/skirmish.rs", "use crate::map::Map;"),
        ("lockstep/stream.rs", "use crate::net::MemoryEndpoint;"),
        ("lockstep/stream.rs", "use std::net::UdpSocket;"),
        ("lockstep/stream.rs", "let f = std::fs::read(\"x\");"),
        ("lockstep/stream.rs", "use quinn::Endpoint;"),
        ("ui/manager/routing.rs", "use wgpu::Device;"),
        ("ui/manager/routing.rs", "use winit::event::WindowEvent;"),
        ("ui/manager/routing.rs", "use crate::render::UiPass;"),
        ("ui/manager/routing.rs", "use super::super::super::render::UiPass;"),
        ("render/ui_pass.rs", "use crate::game::battle::Battle;"),
        ("render/world/mod.rs", "use super::super::game::scene::Scene;"),
        ("net/memory.rs", "use crate::game::app;"),
        ("net/memory.rs", "use crate::ui::Rect;"),
        ("sim/world.rs", "#[cfg(test)]\nmod tests {\n    use super::super::super::game::Camera;\n}"),
    ];
    for (file, line) in bad {
        let text = format!("fn f() {{\n    {line}\n}}\n");
        assert!(!violations(&rules, file, &text).is_empty(), "not caught in {file}: {line}");
    }
}

#[test]
fn the_checker_allows_what_the_table_allows() {
    let rules = table();
    let ok = [
        (
            "sim/world.rs",
            "use super::fixed::Fixed;\nuse crate::sim::Vec2;\n// use crate::render::X; in a comment\nlet s = \"crate::game\";",
        ),
        ("ai/skirmish.rs", "use crate::sim::{Command, World};\nuse crate::defs::AiPlans;"),
        ("ui/manager/routing.rs", "use super::super::event::Key;\nuse super::WindowManager;"),
        ("game/app/surface.rs", "use crate::render::Gpu;\nuse winit::event::WindowEvent;"),
        ("session/start.rs", "use crate::net::memory::hub;\nuse std::fs;"),
        ("content/mod.rs", "#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::content::digest;\n}"),
    ];
    for (file, text) in ok {
        assert_eq!(violations(&rules, file, text), Vec::<(usize, String)>::new(), "{file}");
    }
}

#[test]
fn the_client_converts_fixed_point_in_one_place() {
    // `game::display` knows how `Fixed` and `Angle` are laid out; nothing else in the client
    // divides by their scale by hand.
    let mut files = Vec::new();
    for dir in ["src/game", "src/render", "src/ui", "src/session", "src/bench"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut problems = Vec::new();
    for f in &files {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        for (i, line) in code.lines().enumerate() {
            if line.contains("65536") || line.contains("65_536") {
                problems.push(format!("{}:{}", f.display(), i + 1));
            }
        }
    }
    assert!(problems.is_empty(), "fixed-point scale written by hand (use game::display):\n{}", problems.join("\n"));
}
