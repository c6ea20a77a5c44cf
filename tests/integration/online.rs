//! Online play between two real processes over QUIC on loopback (127.0.0.1 only): the hosted
//! and joined games keep identical hash logs for thousands of frames, scripted and AI alike;
//! different game data is refused naming the file; a joiner killed mid-game is reported and the
//! host plays on; a corrupted field stops both, whose reports name the same object and field;
//! eight machines play the 8-player map in step; bursts of junk datagrams (1 B to 64 KB) at a
//! waiting host change nothing and leave its memory where it was;
//! of twenty machines rushing one slot, one plays and the rest are refused.
//! Every process is bounded in time and killed when a test ends.

use crate::common;

use crate::common::procs::{
    Proc, finish, finish_in_sync, host, join, last_json, read, resident_kb, ridgeline, wait_for_frame,
};

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

const OPENING: &str = "tests/data/opening.commands.ron";

#[test]
fn a_scripted_game_on_two_machines_is_the_single_machine_game() {
    // The host plays the opening script's orders (they travel to the joiner); the joiner's
    // slot stands idle. Its base falls to the script's army at about frame 7,400, so the game
    // runs all of its 7,000 frames.
    const FRAMES: usize = 7_000;
    let dir = common::temp_dir("online-scripted");
    let (mut h, code) = host(
        &[
            "--map",
            "proving_grounds",
            "--players",
            "scripted,remote",
            "--frames",
            &FRAMES.to_string(),
            "--seed",
            "7",
            "--commands",
            OPENING,
            "--unpaced",
            "--run-ahead",
            "3",
        ],
        &dir,
    );
    let mut j = join(&code, &["--controller", "idle"], &dir);
    let hl = finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(120), FRAMES);
    // The very game one machine plays with the same script.
    let single = dir.join("single.log");
    let out = ridgeline()
        .args([
            "sim",
            "--map",
            "proving_grounds",
            "--players",
            "scripted,idle",
            "--frames",
            &FRAMES.to_string(),
            "--seed",
            "7",
        ])
        .args(["--commands", OPENING, "--hash-log"])
        .arg(&single)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(read(single) == hl, "the online game differs from the single-machine game");
    let v = last_json(&dir.join("host.out"));
    for key in ["rtt_ms", "run_ahead", "run_ahead_max", "stalls", "bytes_sent", "bytes_received", "desync", "left"] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["desync"], serde_json::Value::Null);
    assert!(v["bytes_sent"].as_u64().unwrap() > FRAMES as u64 * 10, "every frame sends its count and hash: {v}");
    // Both finished the same game: neither is a leaver, whoever closed first.
    assert_eq!(v["left"], serde_json::json!([]), "{v}");
    assert_eq!(last_json(&dir.join("join.out"))["left"], serde_json::json!([]));
}

#[test]
fn ai_against_ai_on_two_machines_stays_in_sync() {
    let dir = common::temp_dir("online-ai");
    let (mut h, code) = host(
        &["--map", "crossroads", "--players", "ai:normal,remote", "--frames", "10000", "--seed", "5", "--unpaced"],
        &dir,
    );
    let mut j = join(&code, &["--controller", "ai:hard"], &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(240), 10_000);
    let v = last_json(&dir.join("join.out"));
    assert!(v["objects_peak"].as_u64().unwrap() > 60, "the AIs built up: {v}");
}

/// `n` joiners started at once, each with its own folder under `dir` for its logs.
fn joiners(code: &str, n: usize, args: &[&str], dir: &std::path::Path) -> Vec<(Proc, PathBuf)> {
    (0..n)
        .map(|i| {
            let own = dir.join(format!("joiner{i}"));
            std::fs::create_dir_all(&own).unwrap();
            (join(code, args, &own), own)
        })
        .collect()
}

/// The host and seven joiners on loopback, an AI on every machine, play the 8-player map: every
/// machine keeps the same hash log, frame for frame.
#[test]
fn eight_machines_on_the_eight_player_map_stay_in_step() {
    const FRAMES: usize = 900;
    let dir = common::temp_dir("online-eight");
    let players = "ai:normal,remote,remote,remote,remote,remote,remote,remote";
    let frames = FRAMES.to_string();
    let (mut h, code) = host(&["--map", "compass_rose", "--players", players, "--frames", &frames, "--unpaced"], &dir);
    let mut joiners = joiners(&code, 7, &["--controller", "ai:normal"], &dir);
    for (j, own) in &mut joiners {
        assert_eq!(finish(j, Duration::from_secs(180)), Some(0), "{}", read(own.join("join.err")));
    }
    assert_eq!(finish(&mut h, Duration::from_secs(30)), Some(0), "{}", read(dir.join("host.err")));
    let hl = read(dir.join("host.log"));
    assert_eq!(hl.lines().count(), FRAMES);
    for (i, (_, own)) in joiners.iter().enumerate() {
        assert!(read(own.join("join.log")) == hl, "joiner {} kept another hash log", i + 1);
    }
    assert_eq!(last_json(&dir.join("host.out"))["players"].as_array().map(Vec::len), Some(8));
}

/// A flood of junk at a host waiting for its joiner (5,000 datagrams of every size from 1 to
/// 1,400 bytes, a third shaped like QUIC version-1 long headers, from one loopback socket) is
/// dropped: the real joiner then joins and both play in step.
#[test]
fn junk_datagrams_at_a_waiting_host_change_nothing() {
    let dir = common::temp_dir("online-junk");
    let (mut h, code) =
        host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", "600", "--unpaced"], &dir);
    let addr = code.strip_prefix("rl1@").and_then(|r| r.split('/').next()).expect("an address in the code");
    assert!(addr.starts_with("127.0.0.1:"), "loopback only: {addr}");
    let sock = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let before = resident_kb(h.0.id());
    assert!(before > 0, "the host's memory is read from /proc");
    // Two bursts of 10,000 datagrams from 1 byte to the largest a UDP datagram holds (sizes
    // spread evenly over the powers of two, so short and 64 KB ones alike), a third shaped like
    // QUIC v1 long headers.
    for burst in 0..2 {
        for i in 0..10_000 {
            let bits = next() % 17;
            let len = ((1usize << bits) + (next() as usize % (1usize << bits))).min(65_507);
            let mut datagram: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if i % 3 == 0 && len > 5 {
                datagram[0] = 0xC0 | (datagram[0] & 0x3F);
                datagram[1..5].copy_from_slice(&1u32.to_be_bytes());
            }
            let _ = sock.send_to(&datagram, addr);
        }
        if burst == 0 {
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = resident_kb(h.0.id());
    assert!(after < before + 32 * 1024, "the host's memory stays bounded: {before} kB before, {after} kB after");
    let mut j = join(&code, &["--controller", "ai:easy"], &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(120), 600);
    assert_eq!(last_json(&dir.join("host.out"))["desync"], serde_json::Value::Null);
}

/// Twenty machines rush a host with one free slot at once: one plays the game in step, the
/// other nineteen are refused with a reason and end, none left hanging.
#[test]
fn twenty_joiners_for_one_slot_one_plays_and_the_rest_are_refused() {
    let dir = common::temp_dir("online-rush");
    let (mut h, code) =
        host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", "600", "--unpaced"], &dir);
    let mut joiners = joiners(&code, 20, &["--controller", "ai:easy"], &dir);
    let mut played = Vec::new();
    for (j, own) in &mut joiners {
        match finish(j, Duration::from_secs(180)) {
            Some(0) => played.push(own.clone()),
            Some(1) => {
                let err = read(own.join("join.err"));
                assert!(err.contains("refused"), "a refusal names its reason: {err}");
            }
            other => panic!("a joiner ended with {other:?}: {}", read(own.join("join.err"))),
        }
    }
    assert_eq!(finish(&mut h, Duration::from_secs(30)), Some(0), "{}", read(dir.join("host.err")));
    assert_eq!(played.len(), 1, "exactly one joiner played");
    assert!(read(played[0].join("join.log")) == read(dir.join("host.log")), "the one who played is in step");
}

#[test]
fn different_game_data_is_refused_naming_the_file() {
    let dir = common::temp_dir("online-mismatch");
    // A mod that changes one unit's price: the simulation would differ.
    let m = dir.join("mod");
    std::fs::create_dir_all(m.join("data")).unwrap();
    let objects = read(common::root().join("data/objects.ron"));
    let changed = objects.replacen("cost: ", "cost: 1", 1);
    assert_ne!(changed, objects);
    std::fs::write(m.join("data/objects.ron"), changed).unwrap();
    let (mut h, code) =
        host(&["--map", "proving_grounds", "--players", "idle,remote", "--frames", "100", "--unpaced"], &dir);
    let mut j = ridgeline()
        .arg("--mod")
        .arg(&m)
        .args(["join", &code])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map(Proc)
        .unwrap();
    assert_eq!(finish(&mut j, Duration::from_secs(30)), Some(1));
    let mut err = String::new();
    std::io::Read::read_to_string(j.0.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(err.contains("data/objects.ron"), "the joiner names the file: {err}");
    // The host said so too, and still waits for a player with the right data.
    let until = Instant::now() + Duration::from_secs(10);
    while !read(dir.join("host.err")).contains("data/objects.ron") && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(read(dir.join("host.err")).contains("data/objects.ron"), "{}", read(dir.join("host.err")));
    assert_eq!(finish(&mut h, Duration::from_millis(100)), None, "the host waits on");
}

#[test]
fn a_joiner_killed_mid_game_is_reported_and_the_host_plays_on() {
    let dir = common::temp_dir("online-leave");
    // Paced at 30 frames a second: 240 frames take eight seconds.
    let (mut h, code) = host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", "240"], &dir);
    let mut j = join(&code, &[], &dir);
    // Killed once it has played two seconds of the game.
    wait_for_frame(&dir.join("join.err"), 60, Duration::from_secs(60));
    let _ = j.0.kill();
    assert_eq!(finish(&mut h, Duration::from_secs(60)), Some(0), "{}", read(dir.join("host.err")));
    let v = last_json(&dir.join("host.out"));
    assert_eq!(v["frames"], 240, "the host finished the game: {v}");
    assert_eq!(v["left"], serde_json::json!([1]), "{v}");
}

#[test]
fn a_late_joiner_is_refused_at_once_and_losing_the_host_is_an_error() {
    let dir = common::temp_dir("online-late");
    let (_h, code) = host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", "900"], &dir);
    let late_dir = dir.join("late");
    std::fs::create_dir_all(&late_dir).unwrap();
    let mut j = join(&code, &[], &dir);
    wait_for_frame(&dir.join("host.err"), 30, Duration::from_secs(60));
    // The game runs: a second joiner with the same code is told so, not left hanging.
    let mut late = join(&code, &[], &late_dir);
    assert_eq!(finish(&mut late, Duration::from_secs(10)), Some(1));
    let err = read(late_dir.join("join.err"));
    assert!(err.contains("refused: the game has already started"), "{err}");
    // The host goes away mid-game: after the idle timeout (20 s) the joiner takes it for a lost
    // link and tries to come back (30 s); then it cannot go on, and says so with a failing exit.
    drop(_h);
    assert_eq!(finish(&mut j, Duration::from_secs(90)), Some(1), "{}", read(dir.join("join.err")));
    let err = read(dir.join("join.err"));
    assert!(err.contains("the link to the host was lost at frame"), "{err}");
    assert!(err.contains("the host could not be reached again within 30 s"), "{err}");
    assert_eq!(last_json(&dir.join("join.out"))["left"], serde_json::json!([0]));
}

#[test]
fn a_corrupted_field_stops_both_and_both_reports_name_it() {
    let dir = common::temp_dir("online-desync");
    let reports = dir.join("reports");
    let r = reports.to_str().unwrap();
    let (mut h, code) = host(
        &[
            "--map",
            "proving_grounds",
            "--players",
            "scripted,remote",
            "--frames",
            "3000",
            "--seed",
            "7",
            "--commands",
            OPENING,
            "--unpaced",
            "--desync-dir",
            r,
        ],
        &dir,
    );
    let mut j = join(
        &code,
        &["--controller", "scripted", "--commands", OPENING, "--debug-corrupt-at", "500", "--desync-dir", r],
        &dir,
    );
    assert_eq!(finish(&mut j, Duration::from_secs(60)), Some(1));
    assert_eq!(finish(&mut h, Duration::from_secs(30)), Some(1));
    let (hv, jv) = (last_json(&dir.join("host.out")), last_json(&dir.join("join.out")));
    // Found on the next frame and stopped within the run-ahead and one more.
    for v in [&hv, &jv] {
        let frames = v["frames"].as_u64().unwrap();
        assert!((502..=505).contains(&frames), "{v}");
    }
    let text = |v: &serde_json::Value| read(PathBuf::from(v["desync"].as_str().expect("a report")));
    let (a, b) = (text(&hv), text(&jv));
    let pick = |t: &str, key: &str| t.lines().find_map(|l| l.strip_prefix(key).map(str::to_string));
    for t in [&a, &b] {
        assert!(t.contains("out of sync at frame 501"), "{t}");
        assert!(t.contains("sub-hashes that differ: objects"), "{t}");
    }
    let object = pick(&a, "first object that differs: ").expect("an object is named");
    assert_eq!(pick(&b, "first object that differs: ").as_deref(), Some(object.as_str()));
    let field = pick(&a, "field: ").expect("a field is named");
    assert_eq!(pick(&b, "field: ").as_deref(), Some(field.as_str()));
    // Each names the other's value as its own and the reverse.
    assert_eq!(pick(&a, "here: "), pick(&b, "there: "));
    assert_eq!(pick(&a, "there: "), pick(&b, "here: "));
}

#[test]
fn a_desync_whose_report_cannot_be_written_is_still_told_with_the_result() {
    // The joiner's report folder lies under a file: it cannot be made (as on a full disk).
    let dir = common::temp_dir("online-desync-unwritable");
    std::fs::write(dir.join("a-file"), "").unwrap();
    let (ok, bad) = (dir.join("reports"), dir.join("a-file/reports"));
    let host_args =
        ["--map", "proving_grounds", "--players", "scripted,remote", "--frames", "600", "--unpaced", "--desync-dir"];
    let (mut h, code) = host(&[&host_args[..], &[ok.to_str().unwrap()]].concat(), &dir);
    let mut j = join(&code, &["--debug-corrupt-at", "100", "--desync-dir", bad.to_str().unwrap()], &dir);
    assert_eq!(finish(&mut j, Duration::from_secs(60)), Some(1));
    assert_eq!(finish(&mut h, Duration::from_secs(30)), Some(1));
    let jv = last_json(&dir.join("join.out"));
    let told = jv["desync"].as_str().expect("the result line says the game went out of sync");
    assert!(told.starts_with("not written: ") && told.contains("a-file"), "{jv}");
    let err = read(dir.join("join.err"));
    assert!(err.contains("the game went out of sync (report: not written: "), "{err}");
}

#[test]
fn a_lossy_slow_jittery_link_keeps_the_machines_in_sync() {
    use ridgeline::net::fault::{FaultProxy, Impairment};
    let dir = common::temp_dir("online-lossy");
    let (mut h, code) = host(
        &["--map", "crossroads", "--players", "ai:normal,remote", "--frames", "1000", "--seed", "5", "--unpaced"],
        &dir,
    );
    // 5 % of datagrams lost each way, 200 ms round trip, 50 ms of jitter (so some reorder),
    // 1 % duplicated: the joiner reaches the host only through the proxy. A lockstep game over
    // this link runs at about real time, so it is kept to 1,000 frames (~3,000 datagrams pass).
    let host_addr: std::net::SocketAddr = code.trim_start_matches("rl1@").split('/').next().unwrap().parse().unwrap();
    let impair = Impairment { loss: 0.05, delay_ms: 100.0, jitter_ms: 50.0, duplicate: 0.01 };
    let proxy = FaultProxy::start(host_addr, impair, 7, Duration::from_secs(420)).unwrap();
    let mut j = join(&code, &["--controller", "ai:hard", "--connect", &proxy.addr.to_string()], &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(400), 1000);
    let stats = proxy.stats();
    assert!(stats.dropped > 20 && stats.passed > 1000, "the link really was bad: {stats:?}");
    let v = last_json(&dir.join("host.out"));
    assert!(v["run_ahead_max"].as_u64().unwrap() >= 5, "the run-ahead grew to cover the round trip: {v}");
}

#[test]
fn a_joiner_whose_machine_died_comes_back_with_its_identity_and_plays_on_in_sync() {
    let dir = common::temp_dir("online-rejoin");
    let id = dir.join("ben.key");
    let id = id.to_str().unwrap();
    // Paced: 450 frames are 15 s. Ben's machine dies after ~3 s; he is back at once.
    let (mut h, code) =
        host(&["--map", "crossroads", "--players", "ai:normal,remote", "--frames", "450", "--seed", "5"], &dir);
    let first = dir.join("first");
    std::fs::create_dir_all(&first).unwrap();
    let mut j = join(&code, &["--identity", id, "--controller", "ai:hard"], &first);
    wait_for_frame(&first.join("join.err"), 90, Duration::from_secs(60));
    let _ = j.0.kill();
    // Someone else with the code is still a late joiner.
    let late = dir.join("late");
    std::fs::create_dir_all(&late).unwrap();
    let mut l = join(&code, &[], &late);
    assert_eq!(finish(&mut l, Duration::from_secs(15)), Some(1));
    assert!(read(late.join("join.err")).contains("the game has already started"));
    // Ben again, same code and identity: his seat back, the whole game in his hash log.
    let mut back = join(&code, &["--identity", id, "--controller", "ai:hard"], &dir);
    let host_log = finish_in_sync(&mut h, &mut back, &dir, Duration::from_secs(60), 450);
    assert!(!host_log.is_empty());
    let joined = last_json(&dir.join("join.out"));
    assert_eq!(joined["rejoined"], true, "{joined}");
    assert_eq!(joined["frames"], 450, "{joined}");
    let hosted = last_json(&dir.join("host.out"));
    assert_eq!(hosted["left"], serde_json::json!([]), "he came back: nobody left in the end: {hosted}");
    assert_eq!(hosted["rejoined"], false);
}

#[test]
fn an_outage_longer_than_the_idle_timeout_ends_in_a_rejoin_not_a_lost_match() {
    use ridgeline::net::fault::{FaultProxy, Impairment};
    let dir = common::temp_dir("online-outage");
    // Paced: 1,200 frames are 40 s; the link is cut for 24 s from the third second, longer than
    // QUIC's 20 s idle timeout, so both sides lose the connection.
    let (mut h, code) =
        host(&["--map", "crossroads", "--players", "ai:normal,remote", "--frames", "1200", "--seed", "5"], &dir);
    let host_addr: std::net::SocketAddr = code.trim_start_matches("rl1@").split('/').next().unwrap().parse().unwrap();
    let clean = Impairment { loss: 0.0, delay_ms: 0.0, jitter_ms: 0.0, duplicate: 0.0 };
    let proxy = FaultProxy::start(host_addr, clean, 3, Duration::from_secs(120)).unwrap();
    let mut j = join(&code, &["--controller", "ai:hard", "--connect", &proxy.addr.to_string()], &dir);
    wait_for_frame(&dir.join("join.err"), 90, Duration::from_secs(60));
    proxy.cut(Duration::from_secs(24));
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(90), 1200);
    assert!(proxy.stats().cut > 20, "{:?}", proxy.stats());
    let err = read(dir.join("join.err"));
    assert!(err.contains("the link to the host was lost at frame"), "{err}");
    let joined = last_json(&dir.join("join.out"));
    assert_eq!(joined["rejoined"], true, "{joined}");
    assert_eq!(last_json(&dir.join("host.out"))["left"], serde_json::json!([]));
}
