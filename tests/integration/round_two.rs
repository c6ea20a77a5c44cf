//! Round-two hostile inputs closed in issue 58: a setup naming a player with a megabyte name, a
//! screenshot asked to play ten hours first, and `render-audio` of a replay that does not play
//! back as recorded — each a clear refusal at once, never a run without bound or a silent render.

use crate::common;
use crate::common::procs::run_bounded;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = common::ridgeline().args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

fn setup() -> ridgeline::session::MatchSetup {
    let path = common::root().join("tests/data/match.ron");
    ridgeline::content::parse_ron(&path, &common::read(&path)).unwrap()
}

#[test]
fn a_setup_naming_a_player_with_a_megabyte_name_is_refused() {
    let dir = common::temp_dir("round-two-name");
    let mut s = setup();
    s.slots[0].name = Some("n".repeat(1 << 20));
    let path = dir.join("setup.ron");
    std::fs::write(&path, ron::to_string(&s).unwrap()).unwrap();
    let (code, out) = run(&["sim", "--setup", path.to_str().unwrap(), "--frames", "10"]);
    assert_eq!(code, Some(1), "{}", out.chars().take(300).collect::<String>());
    assert!(out.contains("slot 0: the name is over 256 characters"), "{}", out.chars().take(300).collect::<String>());
    assert!(out.len() < 2_000, "the name is not echoed back");
}

#[test]
fn a_screenshot_after_ten_hours_of_play_is_refused_at_once() {
    let (code, out) =
        run(&["screenshot", "--map", "proving_grounds", "--frames", "1080000", "--out", "/nonexistent/x.png"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("1080000 is not a frame count from 0 to 36000"), "{out}");
}

#[test]
fn render_audio_of_a_replay_that_plays_back_otherwise_is_refused_and_writes_nothing() {
    use ridgeline::session::Replay;
    let dir = common::temp_dir("round-two-render-audio");
    let replay = Replay {
        version: ridgeline::session::replay::REPLAY_VERSION,
        setup: setup(),
        local: 0,
        frames: 30,
        final_hash: "0123456789abcdef".into(),
        commands: Vec::new(),
        checkpoints: Vec::new(),
        pace: Vec::new(),
        origin: None,
        winner: None,
    };
    let path = dir.join("wrong.ron");
    replay.save(&path).unwrap();
    let wav = dir.join("out.wav");
    let (code, out) = run(&["render-audio", "--replay", path.to_str().unwrap(), "--out", wav.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("wrong.ron: the replay does not play back as recorded"), "{out}");
    assert!(!wav.exists(), "no WAV of another game");
}

#[test]
fn data_check_of_4097_object_types_refuses_the_table_within_the_bounds() {
    // Every entry names its sounds: their lines were once looked up by scanning the whole
    // 2 MB file per entry (65 s in a debug build).
    let dir = common::temp_dir("round-two-4097").join("m");
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let text = common::read(&common::root().join("data/objects.ron"));
    let at = text.find("    (\n        name: \"CommandPost\"").unwrap();
    let end = at + text[at..].find("\n    ),\n").unwrap() + "\n    ),\n".len();
    let entry = &text[at..end];
    assert!(entry.contains("sounds:"), "the entry names its sounds");
    let mut objects = String::from("[\n");
    for i in 0..4_097 {
        objects.push_str(&entry.replace("name: \"CommandPost\"", &format!("name: \"Post{i}\"")));
    }
    objects.push_str("]\n");
    std::fs::write(dir.join("data/objects.ron"), objects).unwrap();
    let (code, out) = run_bounded(&["--mod", dir.to_str().unwrap(), "data-check"]);
    assert_eq!(code, 1, "refused within 20 s and 3 GB, not {code}: {}", out.chars().take(400).collect::<String>());
    assert!(out.contains("object \"Post4096\", field `name`: 4097 objects; the limit is 4096"), "{out}");
}

/// A mod adding `count` scenery objects, each requiring the one before it (`T0` the last one,
/// so they go round in one circle when `closed`).
fn prerequisite_ring(name: &str, count: usize, closed: bool) -> std::path::PathBuf {
    let dir = common::temp_dir(name).join("m");
    std::fs::create_dir_all(dir.join("data/objects")).unwrap();
    let mut objects = String::from("[\n");
    for i in 0..count {
        let before = if i > 0 {
            format!("\"T{}\"", i - 1)
        } else if closed {
            format!("\"T{}\"", count - 1)
        } else {
            String::new()
        };
        objects.push_str(&format!(
            "(name: \"T{i}\", faction: \"Neutral\", kind: Prop, cost: 0, build_time: 0.0, max_health: 100, \
             armor: \"Structure\", vision: 0.0, radius: 4.0, prerequisites: [{before}], \
             model: (shape: Prop, color: (0.2, 0.4, 0.18), height: 26.0, kit: \"Tree\")),\n"
        ));
    }
    objects.push_str("]\n");
    std::fs::write(dir.join("data/objects/ring.ron"), objects).unwrap();
    dir
}

#[test]
fn a_prerequisite_circle_or_chain_through_four_thousand_objects_is_checked_within_the_bounds() {
    // Each object's walk once looked through the whole path at every step: a circle of 4,058
    // took 15–20 s in a release build (and a debug build far longer).
    let ring = prerequisite_ring("round-two-ring", 4_000, true);
    let (code, out) = run_bounded(&["--mod", ring.to_str().unwrap(), "data-check"]);
    assert_eq!(code, 1, "refused within 20 s and 3 GB, not {code}: {}", out.chars().take(400).collect::<String>());
    assert_eq!(out.matches("prerequisites go round in a circle").count(), 1, "one circle, told once: {out:.400}");
    assert!(
        out.contains("object \"T0\", field `prerequisites`: prerequisites go round in a circle: T0 → T3999 → T3998")
    );
    let chain = prerequisite_ring("round-two-chain", 4_000, false);
    let (code, out) = run_bounded(&["--mod", chain.to_str().unwrap(), "data-check"]);
    assert_eq!(
        code,
        0,
        "a long chain is fine, checked within 20 s and 3 GB: {}",
        out.chars().take(400).collect::<String>()
    );
}
