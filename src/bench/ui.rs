//! `ridgeline bench ui`: the time to parse and build every shipped layout, and to route 10,000
//! mouse events through the main menu.

use std::time::Instant;

use serde_json::{Value, json};

use crate::content::ContentRoots;
use crate::ui::wnd::model::ScalingMode;
use crate::ui::wnd::parse;
use crate::ui::{Input, MouseButton, WindowManager};

/// Repetitions (the median is reported).
const RUNS: usize = 21;

/// Runs the benchmark; `Err` names a layout that could not be read.
pub fn run(roots: &ContentRoots) -> Result<Value, String> {
    let mut files = Vec::new();
    for r in roots.roots() {
        if let Ok(d) = std::fs::read_dir(r.join("ui")) {
            for e in d.filter_map(Result::ok) {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "wnd") {
                    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                    files.push((p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(), text));
                }
            }
        }
    }
    files.sort();
    let mut build = Vec::new();
    let mut windows = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let mut m = WindowManager::new((1920.0, 1080.0), ScalingMode::Aspect);
        for (name, text) in &files {
            let f = parse(name, text).map_err(|e| e.to_string())?;
            m.create_layout(name, &f);
        }
        build.push(t.elapsed().as_secs_f64() * 1000.0);
        windows = m.layouts().iter().map(|l| l.roots.len()).sum::<usize>();
    }
    let menu = files.iter().find(|(n, _)| n == "MainMenu.wnd").ok_or("MainMenu.wnd not found")?;
    let menu = parse(&menu.0, &menu.1).map_err(|e| e.to_string())?;
    let mut route = Vec::new();
    for _ in 0..RUNS {
        let mut m = WindowManager::new((1920.0, 1080.0), ScalingMode::Aspect);
        m.create_layout("MainMenu.wnd", &menu);
        let t = Instant::now();
        for i in 0..10_000u32 {
            let (x, y) = ((i * 37 % 1920) as f32, (i * 53 % 1080) as f32);
            let input = match i % 4 {
                0 | 1 => Input::MouseMove { x, y },
                2 => Input::MouseDown { x, y, button: MouseButton::Left },
                _ => Input::MouseUp { x, y, button: MouseButton::Left },
            };
            m.handle(input);
            if i % 64 == 0 {
                m.drain_events();
            }
        }
        route.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(json!({
        "bench": "ui",
        "runs": RUNS,
        "layouts": files.len(),
        "root_windows": windows,
        "parse_and_build_all_ms": (super::median(build) * 1000.0).round() / 1000.0,
        "route_10000_mouse_events_ms": (super::median(route) * 1000.0).round() / 1000.0,
    }))
}
