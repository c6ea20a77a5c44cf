//! Round-two hostile inputs closed in issue 58: a setup naming a player with a megabyte name, a
//! screenshot asked to play ten hours first, and `render-audio` of a replay that does not play
//! back as recorded — each a clear refusal at once, never a run without bound or a silent render.

use crate::common;

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
    };
    let path = dir.join("wrong.ron");
    replay.save(&path).unwrap();
    let wav = dir.join("out.wav");
    let (code, out) = run(&["render-audio", "--replay", path.to_str().unwrap(), "--out", wav.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("wrong.ron: the replay does not play back as recorded"), "{out}");
    assert!(!wav.exists(), "no WAV of another game");
}
