//! Layout snapshots: every shipped layout's window tree with its placed rectangles, at 800×600,
//! 1920×1080 and 2560×1080, stretched and aspect-preserving, compared with the committed text
//! in tests/snapshots/ui/. Run with `UPDATE_SNAPSHOTS=1` to rewrite them after an intended
//! change (and review the diff).

use crate::common;

use ridgeline::ui::wnd::model::ScalingMode;
use ridgeline::ui::wnd::parse;
use ridgeline::ui::{WindowId, WindowManager};

fn tree(m: &WindowManager, id: WindowId, depth: usize, out: &mut String) {
    let w = m.window(id).unwrap();
    let r = w.rect;
    out.push_str(&format!(
        "{}{} {} ({}, {}) {}×{} font {:.1}\n",
        "  ".repeat(depth),
        w.name.rsplit(':').next().unwrap_or(""),
        w.kind.keyword(),
        r.x,
        r.y,
        r.w,
        r.h,
        m.font_px(id)
    ));
    for c in &w.children {
        tree(m, *c, depth + 1, out);
    }
}

fn snapshot(file: &str, text: &str) -> String {
    let parsed = parse(file, text).unwrap();
    let mut out = String::new();
    for (w, h) in [(800.0, 600.0), (1920.0, 1080.0), (2560.0, 1080.0)] {
        for mode in [ScalingMode::Stretch, ScalingMode::Aspect] {
            let mut m = WindowManager::new((w, h), mode);
            m.create_layout(file, &parsed);
            out.push_str(&format!("== {w}×{h} {mode:?}\n"));
            for r in m.roots() {
                tree(&m, *r, 0, &mut out);
            }
        }
    }
    out
}

#[test]
fn layouts_match_their_snapshots() {
    let dir = common::root().join("tests/snapshots/ui");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut checked = 0;
    let mut entries: Vec<_> =
        std::fs::read_dir(common::root().join("ui")).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries.into_iter().filter(|p| p.extension().is_some_and(|x| x == "wnd")) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let got = snapshot(&name, &common::read(&p));
        let snap = dir.join(name.replace(".wnd", ".txt"));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&snap, &got).unwrap();
        } else {
            let want = std::fs::read_to_string(&snap)
                .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_SNAPSHOTS=1", snap.display()));
            assert!(got == want, "{name} differs from {}; rerun with UPDATE_SNAPSHOTS=1 and review", snap.display());
        }
        checked += 1;
    }
    assert!(checked >= 8);
}

#[test]
fn aspect_mode_keeps_proportions_and_anchors_hug_the_edges() {
    let text = common::read(&common::root().join("ui/MainMenu.wnd"));
    let parsed = parse("MainMenu.wnd", &text).unwrap();
    let mut m = WindowManager::new((2560.0, 1080.0), ScalingMode::Aspect);
    m.create_layout("MainMenu.wnd", &parsed);
    fn rect(m: &WindowManager, n: &str) -> ridgeline::ui::Rect {
        m.window(m.find(n).unwrap()).unwrap().rect
    }
    // The backdrop is anchored on all sides: it fills the whole wide screen.
    let bg = rect(&m, "MainMenu.wnd:MainMenuParent");
    assert_eq!((bg.x, bg.y, bg.w, bg.h), (0.0, 0.0, 2560.0, 1080.0));
    // A button keeps its 220×38 shape at the uniform scale (1080 / 600 = 1.8; pixels are whole).
    let b = rect(&m, "MainMenu.wnd:ButtonSkirmish");
    assert_eq!((b.w, b.h), (396.0, 68.0));
    // The version label is anchored right and bottom: it stays in the corner.
    let v = rect(&m, "MainMenu.wnd:Version");
    assert!((v.right() - (2560.0 - 10.0 * 1.8)).abs() <= 1.0, "{v:?}");
    assert!((v.bottom() - (1080.0 - 8.0 * 1.8)).abs() <= 1.0, "{v:?}");
    // Stretched, the same button is wider than tall by a different ratio.
    m.resize((2560.0, 1080.0), ScalingMode::Stretch);
    let s = rect(&m, "MainMenu.wnd:ButtonSkirmish");
    assert_eq!((s.w, s.h), (704.0, 68.0));
}
