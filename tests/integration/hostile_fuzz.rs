//! Hostile input at volume. Property tests build deep, wide and huge layouts and check the WND
//! parser accepts exactly what lies within the limits; mutated rule files and maps go through
//! their loaders. Then a short, seeded fuzz run: a few thousand mutated variants of the shipped
//! layouts, data files and a map through their checkers — and every layout a checker accepts
//! is laid out and drawn, since accepted input is what used to crash the game. A failure
//! prints the seed and the case (`RIDGELINE_FUZZ_SEED` reruns one seed).

use crate::common;

use proptest::prelude::*;
use ridgeline::content::limits::{FONT_SIZES, MAX_WINDOW_DEPTH, MAX_WINDOW_TEXT};
use ridgeline::defs::{Definitions, Source};
use ridgeline::ui::WindowManager;
use ridgeline::ui::draw::draw_list;
use ridgeline::ui::font::FixedMeasure;
use ridgeline::ui::wnd::model::ScalingMode;
use ridgeline::ui::wnd::parse;

/// A chain of `depth` windows whose innermost holds `width` more, each with `text` and a font
/// of `font` px.
fn layout(depth: usize, width: usize, text: &str, font: i64) -> String {
    let one = |children: &str| {
        format!(
            "WINDOW\n  WINDOWTYPE = STATICTEXT;\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 90 40, CREATIONRESOLUTION: 800 600;\n  FONT = NAME: \"Noto Sans\", SIZE: {font}, BOLD: 0;\n  TEXT = \"{text}\";\n{children}END\n"
        )
    };
    let leaves: String = (0..width).map(|_| format!("CHILD\n{}", one(""))).collect();
    let mut s = one(&leaves);
    for _ in 1..depth {
        s = one(&format!("CHILD\n{s}"));
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn layouts_load_exactly_when_within_the_limits(
        depth in 1usize..40,
        width in 0usize..30,
        text_len in prop_oneof![0usize..200, 4_000usize..4_200],
        font in prop_oneof![-5i64..120, Just(i64::MAX), Just(i64::MIN)],
    ) {
        let text = "x".repeat(text_len);
        let wnd = layout(depth, width, &text, font);
        let deepest = depth + usize::from(width > 0);
        let within = deepest <= MAX_WINDOW_DEPTH && text_len <= MAX_WINDOW_TEXT && FONT_SIZES.contains(&font);
        match parse("p.wnd", &wnd) {
            Ok(f) => {
                prop_assert!(within, "accepted beyond a limit: depth {deepest}, text {text_len}, font {font}");
                prop_assert_eq!(f.all_windows().len(), depth + width);
            }
            Err(e) => {
                prop_assert!(!within, "refused within the limits: {e}");
                prop_assert!(e.to_string().starts_with("p.wnd:") && e.message.contains("(the limit)"), "{e}");
            }
        }
    }

    #[test]
    fn mutated_rules_never_panic_and_errors_name_a_data_file(
        at in 0usize..20_000,
        cut in 0usize..40,
        junk in prop_oneof!["[ -~\n]{0,12}", "[0-9]{1,24}", Just("\"Barracks\"".to_string()), Just("-1".to_string())],
    ) {
        let mut s = common::shipped_rules();
        let text = &s.objects.text;
        let a = floor_char(text, at.min(text.len()));
        let b = floor_char(text, (a + cut).min(text.len()));
        s.objects = Source::from_text("data/objects.ron", format!("{}{}{}", &text[..a], junk, &text[b..]));
        if let Err(e) = Definitions::from_sources(&s) {
            prop_assert!(e.to_string().starts_with("data/"), "{e}");
        }
    }
}

/// The largest char boundary at or below `i`.
fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A small seeded generator (xorshift64*), so a failing case reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Text pieces that tend to reach limits and edge cases.
const JUNK: [&str; 12] = [
    "CHILD\nWINDOW\n",
    "END\n",
    "999999999999",
    "-2147483648",
    "SIZE: 0",
    "CREATIONRESOLUTION: 1 1",
    "\"",
    ";",
    "NaN",
    "1e308",
    "\u{feff}",
    "ENDALLCHILDREN\n",
];

/// One mutation of `text`: a byte range dropped, duplicated or replaced by junk, or a line
/// repeated many times.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let a = floor_char(text, rng.below(text.len() + 1));
    let b = floor_char(text, (a + rng.below(200)).min(text.len()));
    match rng.below(5) {
        0 => format!("{}{}", &text[..a], &text[b..]),
        1 => format!("{}{}{}", &text[..b], &text[a..b], &text[a..]),
        2 => format!("{}{}{}", &text[..a], JUNK[rng.below(JUNK.len())], &text[b..]),
        3 => {
            let line_end = text[a..].find('\n').map_or(text.len(), |i| a + i + 1);
            let line = &text[a..line_end];
            format!("{}{}{}", &text[..a], line.repeat(1 + rng.below(400)), &text[line_end..])
        }
        _ => {
            let n = rng.below(8) + 1;
            (0..n).fold(text.to_string(), |t, _| {
                let p = floor_char(&t, rng.below(t.len() + 1));
                format!("{}{}{}", &t[..p], JUNK[rng.below(JUNK.len())], &t[p..])
            })
        }
    }
}

/// Runs `case` and turns a panic into a message naming the seed and case.
fn guarded(seed: u64, what: &str, i: usize, case: impl FnOnce() + std::panic::UnwindSafe) {
    if std::panic::catch_unwind(case).is_err() {
        panic!("{what} case {i} panicked; rerun with RIDGELINE_FUZZ_SEED={seed}");
    }
}

#[test]
fn a_seeded_fuzz_run_over_shipped_content_never_panics() {
    let seed = std::env::var("RIDGELINE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_2026_u64);
    let mut rng = Rng(seed | 1);
    let roots = common::roots();
    let bindings = ridgeline::game::shell::load_bindings(&roots).unwrap();
    let mut layouts: Vec<(String, String)> = std::fs::read_dir(common::root().join("ui"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wnd"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), common::read(&p)))
        .collect();
    layouts.sort();
    // Layouts: checked, and when accepted, laid out at a few screen sizes and drawn.
    let mut accepted = 0;
    for i in 0..2_000 {
        let (name, text) = &layouts[rng.below(layouts.len())];
        let mutated = mutate(&mut rng, text);
        let screen = [(800.0, 600.0), (3840.0, 2160.0), (320.0, 240.0)][rng.below(3)];
        let b = &bindings;
        let ok = std::panic::catch_unwind(|| {
            let report = ridgeline::ui::check::check(name, &mutated, Some(b));
            if report.problems.is_empty() {
                let file = parse(name, &mutated).expect("checked layouts parse");
                let mut m = WindowManager::new(screen, ScalingMode::Aspect);
                m.set_text_measure(std::sync::Arc::new(FixedMeasure));
                m.create_layout(name, &file);
                let cmds = draw_list(&m, &FixedMeasure, &|_, _| {});
                assert!(cmds.len() < 1_000_000, "{} draw commands", cmds.len());
                return true;
            }
            false
        });
        match ok {
            Ok(true) => accepted += 1,
            Ok(false) => {}
            Err(_) => panic!("layout case {i} ({name}) panicked; rerun with RIDGELINE_FUZZ_SEED={seed}"),
        }
    }
    assert!(accepted > 100, "the run also exercises accepted layouts ({accepted})");
    // Rule files.
    let rules = common::shipped_rules();
    for i in 0..1_000 {
        let mut s = rules.clone();
        let target = match rng.below(4) {
            0 => &mut s.objects,
            1 => &mut s.weapons,
            2 => &mut s.armor,
            _ => &mut s.factions,
        };
        *target = Source::from_text(target.path.clone(), mutate(&mut rng, &target.text));
        guarded(seed, "rules", i, move || {
            if let Err(e) = Definitions::from_sources(&s) {
                assert!(e.to_string().starts_with("data/"), "{e}");
            }
        });
    }
    // A map.
    let dir = common::temp_dir("fuzz-map");
    let src = common::root().join("maps/proving_grounds");
    for f in ["heightmap.png", "terrain.png"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let map_text = common::read(&src.join("map.ron"));
    let content = ridgeline::map::MapContent::load(&roots).unwrap();
    let defs = common::defs();
    for i in 0..150 {
        std::fs::write(dir.join("map.ron"), mutate(&mut rng, &map_text)).unwrap();
        let (dir, content, rules) = (&dir, &content, &defs.rules);
        guarded(
            seed,
            "map",
            i,
            std::panic::AssertUnwindSafe(|| {
                if let Ok(map) = ridgeline::map::Map::load(dir)
                    && map.check(content, rules).is_empty()
                {
                    let ground = ridgeline::map::roads::HeightField::from_map(&map);
                    let mesh = ridgeline::map::roads::build(&map.road_segments(), &content.roads, &ground).unwrap();
                    ridgeline::map::preview::render(
                        &map,
                        &content.classes,
                        &mesh,
                        1,
                        ridgeline::map::preview::StartMarks::Plain,
                    );
                }
            }),
        );
    }
}

#[test]
fn a_seeded_fuzz_run_over_replays_mod_ron_and_generator_specs_never_panics() {
    let seed = std::env::var("RIDGELINE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_2027_u64);
    let mut rng = Rng(seed | 1);
    let dir = common::temp_dir("fuzz-round-two");
    // A real replay: a short scripted game recorded as the game records one.
    let path = common::root().join("tests/data/match.ron");
    let setup: ridgeline::session::MatchSetup = ridgeline::content::parse_ron(&path, &common::read(&path)).unwrap();
    let commands: Vec<_> = common::opening().commands.into_iter().filter(|c| c.player < 2).collect();
    let replay = ridgeline::session::Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup,
        local: 0,
        frames: commands.iter().map(|c| c.frame).max().unwrap_or(0).max(300) + 10,
        final_hash: "0123456789abcdef".into(),
        commands,
        checkpoints: vec![(0, "0123456789abcdef".into()), (300, "fedcba9876543210".into())],
        pace: Vec::new(),
        origin: None,
        winner: None,
    };
    let replay_path = dir.join("r.ron");
    replay.save(&replay_path).unwrap();
    let replay_text = common::read(&replay_path);
    if let Err(e) = ridgeline::session::Replay::load(&replay_path) {
        panic!("the unmutated replay loads: {e}");
    }
    for i in 0..400 {
        std::fs::write(&replay_path, mutate(&mut rng, &replay_text)).unwrap();
        let p = replay_path.clone();
        guarded(seed, "replay", i, move || {
            if let Err(e) = ridgeline::session::Replay::load(&p) {
                assert!(e.to_string().contains("r.ron"), "{e}");
            }
        });
    }
    // mod.ron.
    let mod_text = "(\n    name: \"Fuzzed\",\n    version: \"1.0\",\n    author: \"A\",\n    description: \"One line.\",\n    game_version: \"0.1\",\n)\n";
    for i in 0..400 {
        std::fs::write(dir.join("mod.ron"), mutate(&mut rng, mod_text)).unwrap();
        let d = dir.clone();
        guarded(seed, "mod.ron", i, move || {
            if let Err(e) = ridgeline::content::mod_info::ModInfo::load(&d) {
                assert!(e.to_string().contains("mod.ron"), "{e}");
            }
        });
    }
    // Generator specs: parsed and checked (the generator itself only runs on what passes, on
    // a small map so the run stays short).
    let spec_text = common::read(&common::root().join("maps/proving_grounds/terrain.ron"));
    for i in 0..300 {
        let text = mutate(&mut rng, &spec_text);
        let p = dir.join("terrain.ron");
        guarded(seed, "terrain", i, move || {
            if let Ok(spec) = ridgeline::content::parse_ron::<ridgeline::map::generate::TerrainSpec>(&p, &text)
                && spec.check(&p).is_ok()
                && spec.size.0 * spec.size.1 <= 128 * 128
            {
                ridgeline::map::generate::heightmap(&spec);
            }
        });
    }
}
