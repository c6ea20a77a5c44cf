//! `ridgeline tournament` through the real binary: every entry plays every slot, the table
//! counts wins per entry and per slot and each computer entry's first attack, and the JSON
//! line follows DESIGN.md's contract.

use crate::common;

fn tournament(args: &[&str]) -> (std::process::ExitStatus, serde_json::Value, String) {
    let out = common::ridgeline().arg("tournament").args(args).output().expect("binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = stdout.lines().last().and_then(|l| serde_json::from_str(l).ok()).unwrap_or(serde_json::Value::Null);
    (out.status, json, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn an_ai_beats_an_idle_player_from_either_slot() {
    let (status, report, stderr) = tournament(&[
        "--map",
        "proving_grounds",
        "--players",
        "ai:brutal@Dominion,idle@Coalition",
        "--seeds",
        "1",
        "--frames",
        "30000",
        "--json",
    ]);
    assert!(status.success(), "{stderr}");
    assert_eq!(report["games"], 2, "one seed, two slot orders: {report}");
    assert_eq!(report["draws"], 0);
    assert_eq!(report["wins"]["ai:brutal@Dominion"], 2);
    assert_eq!(report["wins"]["idle@Coalition"], 0);
    // The AI won once from each slot: the orders really swapped the entries.
    assert_eq!(report["wins_by_slot"], serde_json::json!([1, 1]));
    let results = report["results"].as_array().expect("results");
    assert_eq!(results.iter().map(|r| r["order"].as_u64().unwrap()).collect::<Vec<_>>(), vec![0, 1]);
    for r in results {
        assert_eq!(r["army_value"][1], 0, "the idle side has nothing left: {r}");
        assert!(r["army_value"][0].as_i64().unwrap() > 0, "the winner has an army: {r}");
        assert!(r["frames"].as_u64().unwrap() < 30_000);
    }
    let median = report["median_frames"].as_u64().unwrap();
    let lengths: Vec<u64> = results.iter().map(|r| r["frames"].as_u64().unwrap()).collect();
    assert!(lengths.contains(&median), "the median is one of the games: {median} in {lengths:?}");
}

#[test]
fn a_game_that_runs_out_of_frames_is_a_draw() {
    let (status, report, stderr) =
        tournament(&["--map", "proving_grounds", "--players", "idle,idle", "--seeds", "2", "--frames", "60", "--json"]);
    assert!(status.success(), "{stderr}");
    assert_eq!(report["games"], 4);
    assert_eq!(report["draws"], 4);
    assert_eq!(report["median_frames"], 60);
}

#[test]
fn a_mirror_plays_each_seed_once_and_counts_wins_by_seat() {
    let (status, report, stderr) = tournament(&[
        "--map",
        "proving_grounds",
        "--players",
        "idle@Dominion,idle@Dominion",
        "--seeds",
        "3",
        "--frames",
        "60",
        "--json",
    ]);
    assert!(status.success(), "{stderr}");
    // Swapping two equal entries seats the same line-up: the same game, so it is played once.
    assert_eq!(report["games"], 3, "{report}");
    let results = report["results"].as_array().expect("results");
    assert!(results.iter().all(|r| r["order"] == 0), "{report}");
    assert_eq!(results.iter().map(|r| r["seed"].as_u64().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3]);
}

#[test]
fn entries_that_cannot_play_are_refused() {
    for players in ["ai:hard", "scripted,ai:hard", "remote,idle"] {
        let (status, _, stderr) =
            tournament(&["--map", "proving_grounds", "--players", players, "--seeds", "1", "--frames", "60"]);
        assert_eq!(status.code(), Some(1), "{players}: {stderr}");
        assert!(stderr.contains("--players"), "{players}: {stderr}");
    }
}

#[test]
fn the_learner_plays_as_a_player_entry_and_is_named_so() {
    let (status, json, stderr) = tournament(&[
        "--map",
        "proving_grounds",
        "--players",
        "learner,idle",
        "--seeds",
        "1",
        "--frames",
        "300",
        "--json",
    ]);
    assert!(status.success(), "{stderr}");
    let wins = json["wins"].as_object().expect("wins by entry");
    assert!(wins.keys().any(|k| k.starts_with("learner@")), "{wins:?}");
    assert_eq!(json["draws"], 2, "five seconds decide nothing: {json}");
}

/// The first wave, as each AI decided it, through the report: against an idle player on the
/// same map and seed, easy (which waits six to eight minutes, its army capped) sets out later
/// and with less than hard (five and a half minutes, up to 55 units); an entry that never attacks has none.
#[test]
fn each_computer_entrys_first_attack_is_reported_with_its_time_and_size() {
    let first_wave = |ai: &str| {
        let players = format!("{ai}@Coalition,idle@Coalition");
        let (status, report, stderr) = tournament(&[
            "--map",
            "proving_grounds",
            "--players",
            &players,
            "--seeds",
            "1",
            "--frames",
            "18000",
            "--json",
        ]);
        assert!(status.success(), "{stderr}");
        let entry = format!("{ai}@Coalition");
        assert_eq!(report["wins"][&entry], 2, "{report}");
        assert!(report["first_wave"].get("idle@Coalition").is_none(), "idle never attacks: {report}");
        for r in report["results"].as_array().expect("results") {
            assert!(r["first_wave"][1].is_null(), "{r}");
            let wave = &r["first_wave"][0];
            // Set out before the game ended, with at least the starting army (11 units, $4,150).
            assert!(wave["frame"].as_u64().unwrap() < r["frames"].as_u64().unwrap(), "{r}");
            assert!(wave["units"].as_u64().unwrap() >= 11 && wave["worth"].as_i64().unwrap() >= 4_150, "{r}");
        }
        let summary = report["first_wave"][&entry].clone();
        assert_eq!(summary["games"], 2, "{report}");
        summary
    };
    let (easy, hard) = (first_wave("ai:easy"), first_wave("ai:hard"));
    let at = |w: &serde_json::Value| w["median_frame"].as_u64().unwrap();
    // Easy's plan: not before six minutes; hard's: not before five and a half.
    assert!(at(&easy) >= 6 * 60 * 30 && at(&hard) >= 11 * 30 * 30, "easy {easy}, hard {hard}");
    assert!(at(&easy) > at(&hard), "easy {easy}, hard {hard}");
    assert!(
        easy["median_worth"].as_i64().unwrap() < hard["median_worth"].as_i64().unwrap(),
        "easy {easy}, hard {hard}"
    );
}
