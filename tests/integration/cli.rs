//! The command-line contract of DESIGN.md, exercised through the real binary: `sim` with its
//! JSON line and hash log, `map-check`, and the exit codes (0 ok, 1 bad input, 2 usage).

use crate::common;

use std::path::Path;
use std::process::Output;

fn ridgeline(args: &[&str]) -> Output {
    common::ridgeline().args(args).output().expect("binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn sim_with_log(log: &Path) -> Output {
    ridgeline(&[
        "sim",
        "--map",
        "proving_grounds",
        "--players",
        "scripted,scripted",
        "--frames",
        "3000",
        "--seed",
        "7",
        "--commands",
        "tests/data/opening.commands.ron",
        "--json",
        "--hash-log",
        log.to_str().unwrap(),
    ])
}

#[test]
fn sim_prints_the_json_line_and_repeats_its_hash_log_byte_for_byte() {
    let dir = common::temp_dir("cli-sim");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    let out_a = sim_with_log(&a);
    let out_b = sim_with_log(&b);
    assert!(out_a.status.success(), "{:?}", text(&out_a));
    assert!(out_b.status.success());
    let log_a = std::fs::read(&a).unwrap();
    assert_eq!(log_a, std::fs::read(&b).unwrap(), "hash logs differ");
    let log_text = String::from_utf8(log_a).unwrap();
    let lines: Vec<&str> = log_text.lines().collect();
    assert_eq!(lines.len(), 3000);
    assert!(lines[0].starts_with("0 ") && lines[2999].starts_with("2999 "));
    let (stdout, _) = text(&out_a);
    let last = stdout.lines().last().unwrap();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    for key in ["frames", "hash", "winner", "ticks_per_sec", "objects_peak"] {
        assert!(v.get(key).is_some(), "missing {key} in {last}");
    }
    assert_eq!(v["frames"], 3000);
    let hash = v["hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert!(lines[2999].ends_with(hash), "the JSON hash is the last frame's hash");
    assert!(v["objects_peak"].as_u64().unwrap() >= 28);
}

#[test]
fn bad_input_exits_1_and_says_where() {
    let o = ridgeline(&["sim", "--map", "no_such_map", "--players", "idle,idle", "--frames", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("no_such_map"), "{}", text(&o).1);

    let o = ridgeline(&["sim", "--map", "proving_grounds", "--players", "idle,robot", "--frames", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("--players entry 2 \"robot\""), "{}", text(&o).1);

    let o = ridgeline(&["sim", "--map", "proving_grounds", "--players", "idle@Nobody,idle", "--frames", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("unknown faction \"Nobody\""), "{}", text(&o).1);

    let dir = common::temp_dir("cli-bad-script");
    let script = dir.join("bad.ron");
    let run_script = |body: &str| {
        std::fs::write(&script, body).unwrap();
        let s = script.to_str().unwrap();
        ridgeline(&["sim", "--map", "proving_grounds", "--players", "scripted,idle", "--frames", "5", "--commands", s])
    };
    let o = run_script("(\n  commands: [\n    (frame: 1, player: 0, command: Mvoe(to: (x: 1, y: 2))),\n  ],\n)\n");
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o).1;
    assert!(err.contains("bad.ron:3:"), "{err}");

    let o = run_script("(commands: [(frame: 1, player: 5, command: Stop)])");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("entry 0 (frame 1): player 5 is not in this 2-player game"), "{}", text(&o).1);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(ridgeline(&["sim", "--map", "proving_grounds"]).status.code(), Some(2));
    assert_eq!(ridgeline(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(ridgeline(&["sim", "--map", "x", "--players", "idle", "--frames", "lots"]).status.code(), Some(2));
    assert_eq!(ridgeline(&["bench", "ui", "--units", "5"]).status.code(), Some(2), "--units is for bench sim");
    assert_eq!(ridgeline(&["bench", "sim", "--units", "many"]).status.code(), Some(2));
    assert_eq!(ridgeline(&["screenshot", "--out", "x.png"]).status.code(), Some(2), "--map or --ui is needed");
    assert_eq!(ridgeline(&["screenshot", "--map", "m", "--camera", "1,2", "--out", "x.png"]).status.code(), Some(2));
    assert_eq!(
        ridgeline(&["sim", "--map", "m", "--players", "idle", "--frames", "5", "--timeline", "0"]).status.code(),
        Some(2)
    );
    let long = "x".repeat(33);
    for cmd in
        [&["host", "--map", "proving_grounds", "--players", "idle,remote"][..], &["join", "rl1@127.0.0.1:9/x"][..]]
    {
        let o = ridgeline(&[cmd, &["--name", &long]].concat());
        assert_eq!(o.status.code(), Some(2), "{cmd:?} --name of 33");
        assert!(text(&o).1.contains("a player's name has 1 to 32 characters on one line (33 given)"), "{}", text(&o).1);
    }
    for bad in ["fight,0", "fight,1,2", "fights", "fight,x"] {
        let o = ridgeline(&["screenshot", "--map", "m", "--camera", bad, "--out", "x.png"]);
        assert_eq!(o.status.code(), Some(2), "--camera {bad}");
        assert!(text(&o).1.contains("x,y,zoom or fight[,zoom]"), "--camera {bad}: {}", text(&o).1);
    }
}

#[test]
fn screenshot_renders_a_battlefield_to_a_png() {
    let dir = common::temp_dir("cli-world-shot");
    let out = dir.join("field.png");
    let o = ridgeline(&[
        "screenshot",
        "--map",
        "proving_grounds",
        "--frames",
        "5",
        "--camera",
        "40,92,1",
        "--size",
        "160x100",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let img = image::open(&out).unwrap().to_rgba8();
    assert_eq!((img.width(), img.height()), (160, 100));
    // The camera looks at Proving Grounds' lake (centred on cell 40, 92): water, blue-grey,
    // fills the middle of the picture.
    let [r, g, b, _] = img.get_pixel(80, 50).0;
    assert!(b > r && b >= g, "the middle of the picture is water: {:?}", (r, g, b));
}

#[test]
fn map_check_passes_on_shipped_maps() {
    let maps = std::fs::read_dir(common::root().join("maps")).unwrap();
    let mut n = 0;
    for m in maps {
        let dir = m.unwrap().path();
        if !dir.join("map.ron").exists() {
            continue;
        }
        n += 1;
        let o = ridgeline(&["map-check", dir.to_str().unwrap(), "--json"]);
        assert!(o.status.success(), "{}: {:?}", dir.display(), text(&o));
        let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
        assert!(v["players"].as_u64().unwrap() >= 2);
        for key in ["road_segments", "road_vertices", "road_triangles"] {
            assert!(v[key].as_u64().is_some(), "{key} missing in {v}");
        }
        for key in ["straight", "curve", "tee", "y", "h", "four_way", "alpha_join", "cap"] {
            assert!(v["road_pieces"][key].as_u64().is_some(), "road_pieces.{key} missing in {v}");
        }
        assert!(v["road_triangles"].as_u64().unwrap() > 0);
    }
    assert!(n >= 3);
    // The preview picture is written and is a PNG of the map at the asked scale.
    let dir = common::temp_dir("cli-preview");
    let png = dir.join("p.png");
    let o = ridgeline(&["map-check", "proving_grounds", "--preview", png.to_str().unwrap(), "--preview-scale", "2"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
}

#[test]
fn ui_check_passes_shipped_layouts_and_reports_broken_ones_by_place() {
    let o = ridgeline(&["ui-check"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let dir = common::temp_dir("cli-ui-check");
    let bad = dir.join("Bad.wnd");
    std::fs::write(
        &bad,
        "WINDOW\n  WINDOWTYPE = PUSHBUTTON;\n  SCREENRECT = UPPERLEFT: 0 0, BOTTOMRIGHT: 10 10, CREATIONRESOLUTION: 800 600;\n  NAME = \"Bad.wnd:B\";\n  SYSTEMCALLBACK = \"MainMenuSytem\";\n  ENABLEDDRAWDATA = IMAGE: ButtonNormall, COLOR: 1 2 3 4, BORDERCOLOR: 1 2 3 4;\nEND\n",
    )
    .unwrap();
    let o = ridgeline(&["ui-check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o).0;
    // Near misses of the game's names are refused with the name meant.
    assert!(
        out.contains("Bad.wnd:5:3: unknown system callback \"MainMenuSytem\" (did you mean MainMenuSystem?)"),
        "{out}"
    );
    assert!(
        out.contains("Bad.wnd:6:3: window \"Bad.wnd:B\": unknown image \"ButtonNormall\" (did you mean ButtonNormal?)"),
        "{out}"
    );
    // Syntax only: the names are not bound, so the file passes.
    let o = ridgeline(&["ui-check", bad.to_str().unwrap(), "--syntax-only"]);
    assert!(o.status.success(), "{:?}", text(&o));
    std::fs::write(&bad, "WINDOW\n  WINDOWTYPE = PUSHBUTTON\nEND\n").unwrap();
    let o = ridgeline(&["ui-check", bad.to_str().unwrap(), "--syntax-only", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
    assert!(v["problems"][0].as_str().unwrap().contains("Bad.wnd:3:1: missing ';' before END"), "{v}");
}

#[test]
fn sim_plays_skirmish_ais_to_a_winner() {
    let o = ridgeline(&[
        "sim",
        "--map",
        "proving_grounds",
        "--players",
        "ai:brutal@Coalition,idle@Coalition",
        "--frames",
        "18000",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let line = text(&o).0.lines().last().unwrap_or_default().to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["winner"], 0, "{line}");
    assert!(v["frames"].as_u64().unwrap() < 18000);
}

#[test]
fn a_match_setup_file_sets_teams_money_and_closed_slots() {
    // One frame: the setup's money and teams as the game starts.
    let o = ridgeline(&["sim", "--setup", "tests/data/match.ron", "--frames", "1", "--json"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
    let players = v["players"].as_array().unwrap();
    let field = |k: &str| players.iter().map(|p| p[k].clone()).collect::<Vec<_>>();
    assert_eq!(field("slot"), [0, 1, 2], "the closed fourth slot plays no part");
    assert_eq!(field("team"), [1, 1, 2]);
    assert_eq!(field("money"), [20_000, 10_000, 10_000], "money as set, else the faction's");
    assert_eq!(field("faction"), ["Coalition", "Coalition", "Coalition"]);
    assert_eq!(v["winner"], serde_json::Value::Null);
    // Played out: the brutal computer's team wins (its idle ally with it, standing or not).
    let o = ridgeline(&["sim", "--setup", "tests/data/match.ron", "--frames", "30000", "--json"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
    assert_eq!(v["winner_team"], 1, "{v}");
    assert_eq!(v["winner"], 0, "the lowest slot of the winning team");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[2]["objects"], 0, "{v}");
}

#[test]
fn sim_timeline_samples_money_and_armies_every_so_many_seconds() {
    let args = ["sim", "--setup", "tests/data/match.ron", "--frames", "1800", "--timeline", "20"];
    let o = ridgeline(&[&args[..], &["--json"]].concat());
    assert!(o.status.success(), "{:?}", text(&o));
    let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
    let timeline = v["timeline"].as_array().expect("a timeline");
    let frames: Vec<u64> = timeline.iter().map(|s| s["frame"].as_u64().unwrap()).collect();
    assert_eq!(frames, [0, 600, 1200, 1800], "the start, then every 20 s of game time");
    let at = |i: usize, slot: usize, k: &str| timeline[i]["players"][slot][k].as_i64().unwrap();
    let slots: Vec<i64> = (0..3).map(|p| at(0, p, "slot")).collect();
    assert_eq!(slots, [0, 1, 2]);
    let money: Vec<i64> = (0..3).map(|p| at(0, p, "money")).collect();
    assert_eq!(money, [20_000, 10_000, 10_000], "the setup's money at the start");
    // The brutal computer spends and trains in its first minute; the idle ally does neither.
    assert!(at(3, 0, "money") < 20_000 && at(3, 0, "army") > at(0, 0, "army"), "{v}");
    assert!(at(3, 0, "army_worth") > at(0, 0, "army_worth"), "{v}");
    assert_eq!(at(3, 1, "army"), at(0, 1, "army"));
    assert!(at(0, 1, "army") > 0 && at(0, 1, "gatherers") > 0, "a start has an army and a gatherer: {v}");
    // Without --json: one line a sample, in minutes and seconds, then the summary.
    let o = ridgeline(&args);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].starts_with("  0:00  slot 0: $20000 army "), "{out}");
    assert!(lines[3].starts_with("  1:00  slot 0: $"), "{out}");
    // Not asked for: no timeline in the JSON line.
    let o = ridgeline(&["sim", "--setup", "tests/data/match.ron", "--frames", "10", "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&o).0.lines().last().unwrap()).unwrap();
    assert!(v.get("timeline").is_none(), "{v}");
}

#[test]
fn bad_match_setups_are_refused_with_their_place() {
    let dir = common::temp_dir("cli-bad-setup");
    let path = dir.join("match.ron");
    let run = |body: &str| {
        std::fs::write(&path, body).unwrap();
        ridgeline(&["sim", "--setup", path.to_str().unwrap(), "--frames", "5"])
    };
    let o = run("(map: \"crossroads\",\n slots: [(kind: Idle), (kind: Idle, tema: 2)])");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("match.ron:2:"), "{}", text(&o).1);
    let o = run("(map: \"crossroads\", slots: [(kind: Idle, team: 0), (kind: Idle)])");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("match.ron: match setup: slot 0: teams count from 1"), "{}", text(&o).1);
    let o = run("(map: \"crossroads\", slots: [(kind: Idle, team: 2), (kind: Idle, team: 2)])");
    assert!(text(&o).1.contains("a match needs two sides"), "{}", text(&o).1);
    let o = run("(map: \"crossroads\", slots: [(kind: Idle), (kind: Remote)])");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("slot 1 is played on another machine"), "{}", text(&o).1);
    let o = run("(map: \"nosuchmap\", slots: [(kind: Idle), (kind: Idle)])");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("match.ron: the map it names: nosuchmap: map not found"), "{}", text(&o).1);
    let o = run("(map: \"crossroads\", slots: [(kind: Idle), (kind: Idle)], map_hash: \"0000000000000000\")");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("differs from the one this match was set up with"), "{}", text(&o).1);
    // --setup and --map together is a usage error.
    let o = ridgeline(&["sim", "--setup", "tests/data/match.ron", "--map", "crossroads", "--frames", "5"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn mod_new_makes_a_mod_in_the_players_mods_folder_that_checks_and_is_never_overwritten() {
    let config = common::temp_dir("mod-new-config");
    let run = |args: &[&str]| {
        common::ridgeline().args(args).env("RIDGELINE_CONFIG_DIR", &config).output().expect("binary runs")
    };
    // A bare name goes into the mods folder beside the settings, even where a folder of that
    // name stands in the current directory (`data` does, in the game's root).
    let o = run(&["mod", "new", "data", "InGame.wnd"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).1);
    let dir = config.join("mods/data");
    let info = std::fs::read_to_string(dir.join("mod.ron")).unwrap();
    assert!(info.contains("name: \"data\""), "{info}");
    assert_eq!(common::read(&dir.join("ui/InGame.wnd")), common::read(&common::root().join("ui/InGame.wnd")));
    assert!(!common::root().join("data/mod.ron").exists(), "nothing was written into the game's data/");
    // The new mod checks as the game would load it.
    let d = dir.display().to_string();
    let o = run(&["--mod", &d, "ui-check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o).0);
    // Again: refused, and the copy stays as it was.
    std::fs::write(dir.join("ui/InGame.wnd"), "edited").unwrap();
    let o = run(&["mod", "new", "data"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("already holds a mod"), "{}", text(&o).1);
    assert_eq!(common::read(&dir.join("ui/InGame.wnd")), "edited");
    // A layout that is not there is named.
    let o = run(&["mod", "new", "other", "NoSuch.wnd"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("NoSuch.wnd: no such layout"), "{}", text(&o).1);
    let _ = std::fs::remove_dir_all(&config);
}

#[test]
fn sim_lists_what_is_left_when_the_run_ends() {
    // A normal AI against an idle player for three minutes: the idle side (Dominion) still has
    // its starting worker; every object the AI owns is listed, and --json stays last.
    let o = ridgeline(&[
        "sim",
        "--map",
        "proving_grounds",
        "--players",
        "ai:normal,idle",
        "--frames",
        "5400",
        "--list-left",
        "--json",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let (out, err) = text(&o);
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).expect("json last");
    let ai_objects = last["players"][0]["objects"].as_u64().unwrap() as usize;
    let listed = err.lines().filter(|l| l.contains(" player 0 ")).count();
    assert_eq!(listed, ai_objects, "every object of the AI is listed: {err}");
    assert!(err.lines().any(|l| l.contains(" player 1 ") && l.contains("Worker")), "{err}");
}

#[test]
fn sim_lists_the_starting_objects_and_template_numbers_command_scripts_name() {
    let o = ridgeline(&[
        "sim",
        "--map",
        "proving_grounds",
        "--players",
        "scripted,idle",
        "--frames",
        "0",
        "--list-objects",
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let out = text(&o).0;
    // Player 0's command post is object 0, its dozer 1 (the documented numbering).
    assert!(out.lines().any(|l| l.starts_with("0 ") && l.contains("player 0") && l.contains("CommandPost")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("1 ") && l.contains("player 0") && l.contains("Dozer")), "{out}");
    assert!(out.lines().any(|l| l.contains("neutral") && l.contains("SupplyPile")), "{out}");
    // The template numbers follow data/objects.ron.
    let objects = common::read(&common::root().join("data/objects.ron"));
    let second =
        objects.lines().filter_map(|l| l.trim().strip_prefix("name: \"")).nth(1).unwrap().split('"').next().unwrap();
    assert!(out.contains(&format!(" 1 {second},")), "{second}: {out}");
}

/// `screenshot --quality` draws at a graphics quality and refuses an unknown one by name.
#[test]
fn screenshot_takes_a_graphics_quality() {
    let dir = common::temp_dir("cli-quality");
    let out = dir.join("low.png");
    let o = common::ridgeline()
        .args(["screenshot", "--map", "proving_grounds", "--quality", "low", "--size", "320x200", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(image::open(&out).unwrap().to_rgba8().dimensions(), (320, 200), "the whole picture, scaled up");
    let o =
        common::ridgeline().args(["screenshot", "--map", "proving_grounds", "--quality", "ultra"]).output().unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("low, medium or high"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
