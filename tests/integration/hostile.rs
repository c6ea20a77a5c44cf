//! The hostile corpus: one case per class of broken or absurd content a stranger's mod, map,
//! replay or settings file could hold, each naming the refusal it expects (or the bounded
//! result it allows). Loaders run in this process; command-line entries run as subprocesses
//! under a memory limit and a timeout, so a stack overflow or a huge allocation shows as a
//! failing case instead of killing the test binary.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use ridgeline::content::limits::{MAX_WINDOW_DEPTH, MAX_WINDOWS};
use ridgeline::defs::{Definitions, Source};
use ridgeline::ui::wnd::parse;

/// A minimal window with `body` lines and `children` (already whole CHILD blocks).
fn window(body: &str, children: &str) -> String {
    format!(
        "WINDOW\n  WINDOWTYPE = USER;\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 100 50, CREATIONRESOLUTION: 800 600;\n  NAME = \"Hostile.wnd:W\";\n{body}{children}END\n"
    )
}

/// Windows nested `depth` deep, built without recursion.
fn nested(depth: usize) -> String {
    let mut text = String::new();
    for _ in 0..depth - 1 {
        text.push_str(
            "WINDOW\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\nCHILD\n",
        );
    }
    text.push_str("WINDOW\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\n");
    text.push_str(&"END\n".repeat(depth));
    text
}

/// Each layout case: name, text, what the refusal says.
fn layout_cases() -> Vec<(&'static str, String, String)> {
    let text = |s: &str| window(&format!("  TEXT = \"{s}\";\n"), "");
    vec![
        ("deep", nested(5_000), format!("windows nested more than {MAX_WINDOW_DEPTH} deep")),
        ("deep-just-over", nested(MAX_WINDOW_DEPTH + 1), format!("nested more than {MAX_WINDOW_DEPTH} deep")),
        ("many", window("", "").repeat(MAX_WINDOWS + 1), format!("more than {MAX_WINDOWS} windows")),
        (
            "huge-font",
            window("  FONT = NAME: \"Noto Sans\", SIZE: 1000, BOLD: 0;\n", ""),
            "FONT SIZE 1000 is outside 1..=96".into(),
        ),
        ("zero-font", window("  FONT = NAME: \"Noto Sans\", SIZE: 0, BOLD: 0;\n", ""), "FONT SIZE 0 is outside".into()),
        (
            "negative-font",
            window("  FONT = NAME: \"Noto Sans\", SIZE: -12, BOLD: 0;\n", ""),
            "FONT SIZE -12 is outside".into(),
        ),
        (
            "tiny-resolution",
            window("", "").replace("CREATIONRESOLUTION: 800 600", "CREATIONRESOLUTION: 1 1"),
            "CREATIONRESOLUTION 1 1 is outside".into(),
        ),
        (
            "far-corner",
            window("", "").replace("BOTTOMRIGHT: 100 50", "BOTTOMRIGHT: 100 900000000"),
            "BOTTOMRIGHT lies more than 65536 pixels away".into(),
        ),
        ("megabyte-text", text(&"A".repeat(1 << 20)), "TEXT is longer than 4096 characters".into()),
    ]
}

#[test]
fn hostile_layouts_are_refused_at_their_line_naming_the_limit() {
    for (name, text, expected) in layout_cases() {
        let path = format!("hostile/{name}.wnd");
        let err = match parse(&path, &text) {
            Ok(_) => panic!("{name}: accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err.starts_with(&format!("{path}:")), "{name}: names the file and line: {err}");
        assert!(err.contains(&expected), "{name}: {err} (expected “{expected}”)");
        assert!(err.contains("(the limit)"), "{name}: says it is a limit: {err}");
    }
    // Just inside the limits is fine.
    parse("ok.wnd", &nested(MAX_WINDOW_DEPTH)).expect("the deepest allowed nesting loads");
    parse("ok.wnd", &window("  FONT = NAME: \"Noto Sans\", SIZE: 96, BOLD: 1;\n", "")).expect("96 px loads");
}

#[test]
fn deeply_bracketed_ron_is_refused_not_a_stack_overflow() {
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let e = rules_with("factions", |_| deep.clone());
    assert!(e.starts_with("data/factions.ron:1:"), "{e}");
    let path = std::path::Path::new("settings.ron");
    let e =
        ridgeline::content::parse_ron::<ridgeline::game::settings::Settings>(path, &"(".repeat(100_000)).unwrap_err();
    assert!(e.to_string().starts_with("settings.ron:1:"), "{e}");
}

#[test]
fn files_too_large_or_not_utf8_are_refused_where_they_go_wrong() {
    let dir = common::temp_dir("hostile-files");
    let big = dir.join("Big.wnd");
    std::fs::write(&big, vec![b' '; (ridgeline::content::limits::MAX_TEXT_FILE_BYTES + 1) as usize]).unwrap();
    let e = ridgeline::content::read_text(&big).unwrap_err().to_string();
    assert!(e.contains("is over the limit of 8388608 bytes"), "{e}");
    let latin1 = dir.join("Latin1.wnd");
    std::fs::write(&latin1, b"WINDOW\n  TEXT = \"caf\xe9\";\n").unwrap();
    let e = ridgeline::content::read_text(&latin1).unwrap_err().to_string();
    assert!(e.ends_with("Latin1.wnd:2:14: this byte is not UTF-8 text"), "{e}");
}

/// Loads the shipped rules with one file edited; the errors as text.
fn rules_with(file: &str, edit: impl Fn(String) -> String) -> String {
    let mut s = common::shipped_rules();
    let source = match file {
        "objects" => &mut s.objects,
        _ => &mut s.factions,
    };
    let edited = edit(source.text.clone());
    assert_ne!(edited, source.text, "the case edits {file}");
    *source = Source::from_text(source.path.clone(), edited);
    match Definitions::from_sources(&s) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn rules_a_game_could_not_play_are_refused_naming_the_object_and_field() {
    let barracks_needs = |what: &str| {
        let what = what.to_string();
        move |t: String| t.replacen("prerequisites: [\"CommandPost\"]", &format!("prerequisites: [{what}]"), 1)
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "self prerequisite",
            rules_with("objects", barracks_needs("\"Barracks\"")),
            "object \"Barracks\", field `prerequisites`: an object cannot require itself",
        ),
        (
            "circle",
            rules_with("objects", barracks_needs("\"WarFactory\"")),
            "prerequisites go round in a circle: Barracks → WarFactory → Barracks",
        ),
        (
            "another faction's product",
            rules_with("objects", |t| {
                t.replacen("builds: [\"Dozer\", \"Hauler\"]", "builds: [\"Dozer\", \"Hauler\", \"Conscript\"]", 1)
            }),
            "object \"CommandPost\", field `builds`: \"Conscript\" belongs to another faction",
        ),
        (
            "scenery produced",
            rules_with("objects", |t| {
                t.replacen("builds: [\"Dozer\", \"Hauler\"]", "builds: [\"Dozer\", \"Hauler\", \"Tree\"]", 1)
            }),
            "\"Tree\" is scenery and cannot be produced",
        ),
        (
            "never buildable",
            rules_with("objects", |t| {
                t.replacen(
                    "weapons: [\"Rifle\"], prerequisites: [\"Barracks\"]",
                    "weapons: [\"Rifle\"], prerequisites: [\"Camp\"]",
                    1,
                )
            }),
            "object \"Rifleman\", field `prerequisites`: can never be built: it needs Camp, which Coalition can never have",
        ),
        (
            "zero starting count",
            rules_with("factions", |t| t.replace("(\"CommandPost\", 1)", "(\"CommandPost\", 0)")),
            "faction \"Coalition\", field `starting_objects`: \"CommandPost\" has count 0",
        ),
        (
            "millions of starting units",
            rules_with("factions", |t| t.replace("(\"Rifleman\", 6)", "(\"Rifleman\", 4000000)")),
            "a faction starts with at most 200",
        ),
        (
            "another faction's starting object",
            rules_with("factions", |t| t.replace("(\"Rifleman\", 6)", "(\"Conscript\", 6)")),
            "field `starting_objects`: \"Conscript\" belongs to another faction",
        ),
        (
            "a playable faction starting with trees",
            rules_with("factions", |t| t.replace("(\"Rifleman\", 6)", "(\"Tree\", 6)")),
            "faction \"Coalition\", field `starting_objects`: \"Tree\" is scenery (a prop)",
        ),
    ];
    for (name, errors, expected) in cases {
        assert!(errors.contains(expected), "{name}: {errors}\n(expected “{expected}”)");
        assert!(errors.starts_with("data/"), "{name}: names the file: {errors}");
    }
}

/// A copy of Proving Grounds with `map.ron` edited.
fn map_with(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = common::temp_dir(&format!("hostile-map-{name}"));
    let src = common::root().join("maps/proving_grounds");
    for f in ["map.ron", "heightmap.png", "terrain.png"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let text = common::read(&dir.join("map.ron"));
    std::fs::write(dir.join("map.ron"), edit(text)).unwrap();
    dir
}

#[test]
fn a_road_running_to_the_map_edge_previews_within_the_picture() {
    use ridgeline::map::{Map, MapContent};
    let dir = map_with("edge-road", |t| {
        t.replacen("roads: [", "roads: [\n        (road: \"Asphalt\", from: (100.0, 100.0), to: (127.99, 127.99)),", 1)
    });
    let map = Map::load(&dir).unwrap();
    let content = MapContent::load(&common::roots()).unwrap();
    assert!(map.check(&content, &common::defs().rules).is_empty(), "the checker accepts it");
    let ground = ridgeline::map::roads::HeightField::from_map(&map);
    let mesh = ridgeline::map::roads::build(&map.road_segments(), &content.roads, &ground).unwrap();
    for scale in [1, 3, 16] {
        let img = ridgeline::map::preview::render(
            &map,
            &content.classes,
            &mesh,
            scale,
            ridgeline::map::preview::StartMarks::Plain,
        );
        assert_eq!(img.dimensions(), (128 * scale, 128 * scale));
    }
}

#[test]
fn maps_past_their_limits_are_refused_naming_the_field() {
    use ridgeline::map::Map;
    let many = map_with("many-objects", |t| {
        let trees: String = (0..20_001).map(|i| format!("(template: \"Tree\", at: ({}.5, 60.5)),", i % 100)).collect();
        t.replacen("objects: [", &format!("objects: [{trees}"), 1)
    });
    let e = Map::load(&many).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("objects") && e.contains("the limit is 20000"), "{e}");
    let long = map_with("long-name", |t| t.replacen("\"Proving Grounds\"", &format!("\"{}\"", "N".repeat(300)), 1));
    let e = Map::load(&long).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("name") && e.contains("over 256"), "{e}");
    let nan = common::temp_dir("hostile-terrain");
    std::fs::write(nan.join("terrain.ron"), "[(name: \"Grass\", color: (NaN, 0.4, 0.2), passable: true)]").unwrap();
    let e = ridgeline::map::classes::TerrainClasses::load(&nan.join("terrain.ron")).unwrap_err().to_string();
    assert!(e.contains(":1: terrain class \"Grass\", field `color`"), "{e}");
}

#[test]
fn an_image_outside_its_atlas_is_refused() {
    let dir = common::temp_dir("hostile-images");
    let text = common::read(&common::root().join("ui/images.ron")).replacen(
        "\"CheckBox\": (rect: (448, 576, 24, 24)",
        "\"CheckBox\": (rect: (1010, 576, 24, 24)",
        1,
    );
    std::fs::write(dir.join("images.ron"), text).unwrap();
    let e = ridgeline::ui::images::ImageSet::load(&dir.join("images.ron")).unwrap_err().to_string();
    assert!(e.contains("image \"CheckBox\", field `rect`: 24×24 at (1010, 576)"), "{e}");
    assert!(e.contains("lies outside the 1024×1024 atlas"), "{e}");
}

#[test]
fn a_replay_whose_player_does_not_exist_or_whose_names_are_huge_is_refused() {
    use ridgeline::session::Replay;
    let dir = common::temp_dir("hostile-replay");
    let path = common::root().join("tests/data/match.ron");
    let setup: ridgeline::session::MatchSetup = ridgeline::content::parse_ron(&path, &common::read(&path)).unwrap();
    let replay = Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup: setup.clone(),
        local: 7,
        frames: 0,
        final_hash: "0".into(),
        commands: Vec::new(),
        checkpoints: Vec::new(),
        pace: Vec::new(),
        origin: None,
        winner: None,
    };
    replay.save(&dir.join("ghost.ron")).unwrap();
    let e = Replay::load(&dir.join("ghost.ron")).unwrap_err().to_string();
    assert!(e.contains("local: player 7 does not exist"), "{e}");
    let mut long = replay.clone();
    long.local = 0;
    long.setup.map = "m".repeat(1 << 20);
    long.save(&dir.join("long.ron")).unwrap();
    let e = Replay::load(&dir.join("long.ron")).unwrap_err().to_string();
    assert!(e.contains("the map name is over 256 characters"), "{e}");
    // Round two: a wrong or huge final hash, a megabyte slot name, a command of a player the
    // setup does not have, a checkpoint past the end.
    let good = Replay { local: 0, final_hash: "0123456789abcdef".into(), frames: 10, ..replay.clone() };
    good.save(&dir.join("good.ron")).unwrap();
    assert!(Replay::load(&dir.join("good.ron")).is_ok());
    let mut cases: Vec<(&str, Replay, &str)> = Vec::new();
    cases.push((
        "wrong-hash",
        Replay { final_hash: "xyz".into(), ..good.clone() },
        "final_hash: \"xyz\" is not a state hash",
    ));
    cases.push(("huge-hash", Replay { final_hash: "a".repeat(10 << 20), ..good.clone() }, "is not a state hash"));
    let mut named = good.clone();
    named.setup.slots[0].name = Some("n".repeat(1 << 20));
    cases.push(("huge-name", named, "a slot's name is over 256 characters"));
    let mut ghost = good.clone();
    ghost.commands.push(ridgeline::session::script::ScriptEntry {
        frame: 1,
        player: 9,
        command: ridgeline::sim::command::Command::Stop,
    });
    cases.push(("ghost-player", ghost, "a command of player 9 on frame 1"));
    let late = Replay { checkpoints: vec![(300, "0123456789abcdef".into())], ..good.clone() };
    cases.push(("late-checkpoint", late, "checkpoints: frame 300"));
    for (name, r, expected) in cases {
        let path = dir.join(format!("{name}.ron"));
        r.save(&path).unwrap();
        let e = Replay::load(&path).unwrap_err().to_string();
        assert!(e.contains(expected), "{name}: {}", e.chars().take(300).collect::<String>());
    }
}

#[test]
fn settings_with_an_absurd_window_are_refused_and_the_defaults_used() {
    use ridgeline::game::settings::Settings;
    let dir = common::temp_dir("hostile-settings");
    let path = dir.join("settings.ron");
    std::fs::write(&path, "(\n  player_name: \"Ava\",\n  resolution: (4000000, 3),\n)\n").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(
        e.ends_with("settings.ron:3:1: resolution: 4000000×3 is outside 320..=16384 pixels each way (the limit)"),
        "{e}"
    );
}

#[test]
fn a_window_position_round_trips_and_one_off_any_desktop_is_refused_naming_its_line() {
    use ridgeline::game::settings::Settings;
    let dir = common::temp_dir("hostile-settings-position");
    let path = dir.join("settings.ron");
    let placed = Settings { window_position: Some((-1200, 48)), resolution: (1366, 741), ..Settings::default() };
    placed.save(&path).unwrap();
    assert_eq!(Settings::load(&path).unwrap(), placed);
    // A file from before the field knew it: no position, the window manager places the window.
    std::fs::write(&path, "(\n  player_name: \"Ava\",\n)\n").unwrap();
    assert_eq!(Settings::load(&path).unwrap().window_position, None);
    std::fs::write(&path, "(\n  player_name: \"Ava\",\n  window_position: Some((40, 9000000)),\n)\n").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(
        e.ends_with(
            "settings.ron:3:1: window_position: (40, 9000000) is outside -32768..=32767 pixels each way (the limit)"
        ),
        "{e}"
    );
}

#[test]
fn a_relay_setting_that_is_not_host_and_port_is_refused_naming_its_line() {
    use ridgeline::game::settings::Settings;
    let dir = common::temp_dir("hostile-settings-relay");
    let path = dir.join("settings.ron");
    for good in ["", "203.0.113.5:47700", "[2001:db8::1]:47700", "relay.example.org:47700"] {
        std::fs::write(&path, format!("(\n  relay: \"{good}\",\n)\n")).unwrap();
        assert_eq!(Settings::load(&path).unwrap().relay, good);
    }
    for bad in ["relay.example.org", "relay:0", "re lay:1", ":47700", "relay:port"] {
        std::fs::write(&path, format!("(\n  player_name: \"Ava\",\n  relay: \"{bad}\",\n)\n")).unwrap();
        let e = Settings::load(&path).unwrap_err().to_string();
        assert!(e.ends_with(&format!("settings.ron:3:1: relay: \"{bad}\" is not host:port")), "{e}");
    }
}

/// Runs the game's binary with `args` under a 3 GB address-space limit and a 120 s timeout;
/// returns its exit code and what it printed.
fn run_limited(args: &[&str]) -> (i32, String) {
    let exe = env!("CARGO_BIN_EXE_ridgeline");
    let script = "ulimit -v 3000000; exec timeout 120 \"$0\" \"$@\"";
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(exe)
        .args(args)
        .env("RIDGELINE_HOME", common::root())
        .output()
        .expect("runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn the_command_line_refuses_hostile_input_instead_of_crashing() {
    let dir = common::temp_dir("hostile-cli");
    let deep = write(&dir, "Deep.wnd", &nested(4_000));
    let (code, out) = run_limited(&["ui-check", &deep]);
    assert_eq!(code, 1, "refused, not crashed: {out}");
    assert!(out.contains("Deep.wnd:") && out.contains("nested more than"), "{out}");
    // A folder is checked layout by layout.
    let (code, out) = run_limited(&["ui-check", "--syntax-only", &dir.display().to_string()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Deep.wnd:"), "{out}");
    let (code, out) = run_limited(&["screenshot", "--ui", &deep, "--out", &dir.join("x.png").display().to_string()]);
    assert!(code != 0 && code < 100 && out.contains("nested more than"), "{code}: {out}");
    for (args, expected) in [
        (
            vec!["sim", "--map", "proving_grounds", "--players", "idle,idle", "--frames", "4294967295"],
            "is not a frame count",
        ),
        (vec!["--mod", "/nonexistent/mod", "ui-check"], "is not a folder"),
        (vec!["map-check", "proving_grounds", "--preview", "/tmp/x.png", "--preview-scale", "0"], "0 is not in 1..=16"),
    ] {
        let (code, out) = run_limited(&args);
        assert_eq!(code, 2, "{args:?}: a usage error: {out}");
        assert!(out.contains(expected), "{args:?}: {out}");
    }
}

#[test]
fn a_layout_at_the_limits_renders_within_memory_and_time() {
    // The largest font, megabytes of text would be refused; 4,000 characters at 96 px in every
    // one of 300 windows is accepted and must draw within the limit (the UI pass clips what
    // cannot show and splits its buffers).
    let dir = common::temp_dir("hostile-render");
    let body = format!("  FONT = NAME: \"Noto Sans\", SIZE: 96, BOLD: 1;\n  TEXT = \"{}\";\n", "W ".repeat(2_000));
    let text = "WINDOW\n  WINDOWTYPE = STATICTEXT;\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 800 600, CREATIONRESOLUTION: 200 160;\n  NAME = \"Huge.wnd:W\";\n"
        .to_string()
        + &body
        + "END\n";
    let layout = write(&dir, "Huge.wnd", &text.repeat(300));
    let out_png = dir.join("huge.png");
    let (code, out) =
        run_limited(&["screenshot", "--ui", &layout, "--size", "1920x1080", "--out", &out_png.display().to_string()]);
    assert_eq!(code, 0, "{out}");
    assert!(out_png.is_file());
}

#[test]
fn a_hostile_layout_saved_while_the_game_runs_is_refused_and_the_game_goes_on() {
    use ridgeline::game::shell::{Screen, Shell};
    let modded = common::temp_dir("hostile-reload");
    std::fs::create_dir_all(modded.join("ui")).unwrap();
    std::fs::copy(common::root().join("ui/MainMenu.wnd"), modded.join("ui/MainMenu.wnd")).unwrap();
    let roots = ridgeline::content::ContentRoots::new(vec![modded.clone(), common::root()]);
    let mut shell = Shell::new(&roots, (1280.0, 720.0), modded.join("settings.ron")).unwrap();
    assert_eq!(shell.screen(), Some(Screen::MainMenu));
    std::fs::write(modded.join("ui/MainMenu.wnd"), nested(3_000)).unwrap();
    let problems = shell.reload_layouts(&roots).unwrap_err();
    assert!(problems.contains("MainMenu.wnd:") && problems.contains("nested more than 24 deep"), "{problems}");
    assert_eq!(shell.screen(), Some(Screen::MainMenu), "the old layout stays");
    assert!(shell.find("MainMenu.wnd:ButtonSkirmish").is_some());
}

#[test]
fn a_mod_with_a_broken_map_starts_without_it_and_says_which_file() {
    use ridgeline::game::shell::Shell;
    let modded = common::temp_dir("hostile-mod-map");
    let map = modded.join("maps/broken");
    std::fs::create_dir_all(&map).unwrap();
    std::fs::write(map.join("map.ron"), "(\n  name: \"Broken\",\n  players: 9,\n").unwrap();
    let roots = ridgeline::content::ContentRoots::new(vec![modded.clone(), common::root()]);
    let shell = Shell::new(&roots, (1280.0, 720.0), modded.join("settings.ron")).unwrap();
    assert!(shell.content.maps.iter().all(|m| m.name != "Broken"), "left out of the list");
    let shipped =
        std::fs::read_dir(common::root().join("maps")).unwrap().filter(|e| e.as_ref().unwrap().path().is_dir()).count();
    assert_eq!(shell.content.maps.len(), shipped, "the game's own maps stay");
    assert!(shell.message_open(), "the player is told");
    let text = shell.ui.window(shell.find("MessageBox.wnd:MessageText").unwrap()).unwrap().text.clone();
    assert!(text.starts_with("A map was left out:") && text.contains("maps/broken/map.ron:"), "{text}");
}

/// A copy of Proving Grounds' folder (its generator spec edited by `edit`) in a fresh folder.
fn generator_case(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = common::temp_dir(&format!("hostile-gen-{name}"));
    for f in ["map.ron", "terrain.ron", "heightmap.png", "terrain.png"] {
        std::fs::copy(common::root().join("maps/proving_grounds").join(f), dir.join(f)).unwrap();
    }
    let spec = common::read(&dir.join("terrain.ron"));
    let edited = edit(spec.clone());
    assert_ne!(edited, spec, "{name}: the edit applies");
    std::fs::write(dir.join("terrain.ron"), edited).unwrap();
    dir
}

#[test]
fn round_two_crashes_are_refused_naming_the_limit() {
    let ramps: String =
        (0..5_000).map(|_| "        Ramp(from: (1.0, 1.0), to: (2.0, 2.0), half_width: 1.0),\n").collect();
    for (name, edit, expected) in [
        (
            "nan",
            Box::new(|s: String| s.replace("base: 20.0", "base: NaN")) as Box<dyn Fn(String) -> String>,
            "base NaN",
        ),
        ("inf", Box::new(|s: String| s.replace("height: 30.0", "height: inf")), "feature 0: height inf"),
        ("huge", Box::new(|s: String| s.replace("size: (128, 128)", "size: (100000, 100000)")), "size 100000×100000"),
        ("big", Box::new(|s: String| s.replace("size: (128, 128)", "size: (8192, 8192)")), "(the map limit)"),
        ("flat", Box::new(|s: String| s.replace("max_height: 120.0", "max_height: 0.0")), "max_height 0"),
        (
            "ramps",
            Box::new(move |s: String| s.replace("    features: [\n", &format!("    features: [\n{ramps}"))),
            "the limit is 256",
        ),
    ] {
        let dir = generator_case(name, edit);
        let (code, out) = run_limited(&["map-gen", &dir.display().to_string()]);
        assert_eq!(code, 1, "{name}: refused, not crashed: {out}");
        assert!(out.contains("terrain.ron") && out.contains(expected), "{name}: {out}");
    }
    let dir = common::temp_dir("hostile-round-two");
    // A bench of more units than the limit, a ten-hour sound: refused before allocating.
    let (code, out) = run_limited(&["bench", "sim", "--units", "18446744073709551615"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("is not a unit count from 1 to 50000"), "{out}");
    let wav = dir.join("x.wav").display().to_string();
    let (code, out) = run_limited(&[
        "render-audio",
        "--map",
        "proving_grounds",
        "--players",
        "idle,idle",
        "--frames",
        "1080000",
        "--out",
        &wav,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("render-audio renders at most 1200 s at once"), "{out}");
    // Seventeen remote seats on a two-start map: refused at once, not waited for.
    let seats = vec!["remote"; 17].join(",");
    let (code, out) = run_limited(&[
        "host",
        "--map",
        "proving_grounds",
        "--players",
        &format!("idle,{seats}"),
        "--frames",
        "10",
        "--bind",
        "127.0.0.1:0",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("start positions") || out.contains("starts"), "{out}");
    // Commands for a battle without one.
    let script = write(&dir, "s.ron", "(commands: [])");
    let png = dir.join("y.png").display().to_string();
    let (code, out) = run_limited(&[
        "screenshot",
        "--ui",
        "MainMenu.wnd",
        "--players",
        "scripted,idle",
        "--commands",
        &script,
        "--out",
        &png,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("give --map too"), "{out}");
}

#[test]
fn a_price_past_the_game_s_range_is_refused() {
    for price in ["4611686018427387904", "9223372036854775807"] {
        let err = rules_with("objects", |s| s.replacen("cost: 500,", &format!("cost: {price},"), 1));
        assert!(err.contains("cost") && err.contains(price) && err.contains("(the limit)"), "{price}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_content_file_is_refused_by_kind_without_blocking() {
    let dir = common::temp_dir("hostile-fifo");
    let fifo = dir.join("Menu.wnd");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let fifo_s = fifo.display().to_string();
    for args in [
        vec!["ui-check", fifo_s.as_str()],
        vec!["sim", "--setup", fifo_s.as_str(), "--frames", "1"],
        vec![
            "sim",
            "--map",
            "proving_grounds",
            "--players",
            "scripted,idle",
            "--frames",
            "1",
            "--commands",
            fifo_s.as_str(),
        ],
    ] {
        let (code, out) = run_limited(&args);
        assert!(code == 1, "{args:?}: refused at once (a blocked read would time out): {code} {out}");
        assert!(out.contains("not a regular file"), "{args:?}: {out}");
    }
    let e = ridgeline::content::read_text(&fifo).unwrap_err().to_string();
    assert!(e.contains("Menu.wnd") && e.contains("not a regular file"), "{e}");
    let e = ridgeline::content::open_image(&fifo).unwrap_err().to_string();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn an_image_set_declaring_a_giant_atlas_is_refused_before_allocating() {
    let dir = common::temp_dir("hostile-atlas");
    std::fs::create_dir_all(dir.join("ui")).unwrap();
    std::fs::write(
        dir.join("ui/images-big.ron"),
        "(\n    atlas: \"images-big.png\",\n    size: (60000, 60000),\n    images: {\n        \"Huge\": (rect: (0, 0, 60000, 60000)),\n    },\n)\n",
    )
    .unwrap();
    let m = dir.display().to_string();
    let png = dir.join("z.png").display().to_string();
    for args in [
        vec!["--mod", m.as_str(), "ui-check"],
        vec!["--mod", m.as_str(), "screenshot", "--ui", "MainMenu.wnd", "--out", png.as_str()],
    ] {
        let (code, out) = run_limited(&args);
        assert!(code == 1, "{args:?}: refused, not aborted: {code} {out}");
        assert!(
            out.contains("images-big.ron:3") && out.contains("60000×60000") && out.contains("(the limit)"),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn a_mod_ron_that_makes_no_sense_is_a_problem_in_data_check_and_ui_check() {
    let cases: [(&str, String, &str); 6] = [
        ("missing-version", "(name: \"M\")".into(), "missing field named `version`"),
        ("wrong-type", "(name: 5, version: \"1\")".into(), "mod.ron:1:"),
        (
            "dependencies",
            format!("(name: \"M\", version: \"1\", dependencies: [{}])", vec!["\"x\""; 10_000].join(",")),
            "dependencies",
        ),
        ("self-dependency", "(name: \"M\", version: \"1\", dependencies: [\"M\"])".into(), "dependencies"),
        ("traversal", "(name: \"M\", version: \"1\", icon: \"../../etc/passwd\")".into(), "icon"),
        ("huge-name", format!("(name: \"{}\", version: \"1\")", "n".repeat(1 << 20)), "name: 1 to 64 characters"),
    ];
    for (name, text, expected) in cases {
        let dir = common::temp_dir(&format!("hostile-modron-{name}"));
        std::fs::write(dir.join("mod.ron"), text).unwrap();
        let m = dir.display().to_string();
        for cmd in ["data-check", "ui-check"] {
            let (code, out) = run_limited(&["--mod", &m, cmd]);
            assert_eq!(code, 1, "{name}, {cmd}: a problem, not \"ok\": {out}");
            assert!(out.contains("mod.ron:") && out.contains(expected), "{name}, {cmd}: {out}");
        }
    }
}

#[test]
fn a_settings_file_the_game_cannot_read_is_kept_not_written_over() {
    use ridgeline::game::settings::Settings;
    let dir = common::temp_dir("hostile-settings-keep");
    let path = dir.join("settings.ron");
    let slip = "(\n  player_name: \"Ava\",\n  master_volume: 80\n  music_volume: 50,\n)\n";
    std::fs::write(&path, slip).unwrap();
    assert!(Settings::load(&path).is_err(), "the slip is refused");
    // The game runs on defaults and later saves (Options, a rejoin code): the hand-edited file
    // is kept beside, whole.
    Settings::default().save(&path).unwrap();
    assert_eq!(common::read(&dir.join("settings.ron.unreadable")), slip);
    assert_eq!(Settings::load(&path).unwrap(), Settings::default());
    // A second save over a good file keeps no copy and leaves the first one alone.
    let s = Settings { player_name: "Bo".into(), ..Settings::default() };
    s.save(&path).unwrap();
    assert_eq!(Settings::load(&path).unwrap().player_name, "Bo");
    assert_eq!(common::read(&dir.join("settings.ron.unreadable")), slip);
    // A 100 MB file is refused by its size, without reading it.
    let big = dir.join("big.ron");
    std::fs::File::create(&big).unwrap().set_len(100 << 20).unwrap();
    let e = Settings::load(&big).unwrap_err().to_string();
    assert!(e.contains("big.ron") && e.contains("limit"), "{e}");
}

#[cfg(unix)]
#[test]
fn links_in_a_mod_folder_that_loop_or_leave_it_are_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = common::temp_dir("hostile-links");
    for sub in ["ui", "data/objects", "maps"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    symlink(".", dir.join("ui/loop")).unwrap();
    symlink("/", dir.join("data/root")).unwrap();
    symlink("/etc/passwd", dir.join("data/objects/evil.ron")).unwrap();
    let m = dir.display().to_string();
    for cmd in ["ui-check", "data-check"] {
        let (code, out) = run_limited(&["--mod", &m, cmd]);
        assert!(code == 0 || code == 1, "{cmd}: finished by itself (no hang, no crash): {code} {out}");
        assert!(!out.contains("root:x:0"), "{cmd}: nothing outside the mod is read: {out}");
    }
    let files = ridgeline::content::mod_info::content_files(&dir);
    assert!(
        files.iter().all(|f| f.components().count() <= 3 && !f.to_string_lossy().contains("root/")),
        "links to folders are listed, not walked: {files:?}"
    );
    assert!(
        !ridgeline::content::ContentRoots::new(vec![dir.clone(), common::root()])
            .extras("objects.ron")
            .iter()
            .any(|p| p.starts_with(&dir))
    );
}

#[test]
fn a_music_score_past_its_limits_is_refused_quickly() {
    let path = common::root().join("data/music.ron");
    let score = common::read(&path);
    let chord: String = (0..200_000).map(|i| ["C3", "E3", "G3"][i % 3]).collect::<Vec<_>>().join("+");
    let line = "            (instrument: Bass, volume: 70, notes: \"D2:8*2 | Bb1:8*2 | F1:8*2 | C2:8*2 | D2:8*2 | Bb1:8*2 | C2:8*2 | A1:8*2\"),\n";
    for (name, edited, expected) in [
        (
            "chord",
            score.replacen("notes: \"D3+F3+A3:16", &format!("notes: \"{chord}:16"), 1),
            "a chord of more than 8 notes",
        ),
        ("parts", score.replacen(line, &line.repeat(3_000), 1), "parts; the limit is 16"),
    ] {
        assert_ne!(edited, score, "{name}: the edit applies");
        let src = Source::from_text(path.clone(), edited);
        let e = ridgeline::audio::music::Score::parse(&src).unwrap_err().to_string();
        assert!(e.contains("data/music.ron") && e.contains(expected), "{name}: {}", &e[..e.len().min(400)]);
    }
}
