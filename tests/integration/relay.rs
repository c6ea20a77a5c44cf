//! Meeting through `ridgeline relay`, as two friends would: the host registers at a relay
//! (loopback only), the joiner needs nothing but the printed code, and the two games keep
//! identical hash logs whether their packets went through a punched hole or through the
//! relay; codes for a room the relay does not know, or for a relay that is not there, fail
//! at once with the reason. The NAT cases (endpoint-independent and symmetric routers) run in
//! network namespaces in `.ci/nat-lab`.

use std::time::Duration;

use crate::common;
use crate::common::procs::{finish, finish_in_sync, host, join, last_json, read, relay, relay_on, ridgeline};

fn relayed_game(name: &str, extra: &[&str]) -> (serde_json::Value, serde_json::Value, String) {
    const FRAMES: usize = 600;
    let dir = common::temp_dir(name);
    let (_relay, at) = relay();
    let mut args = vec!["--map", "four_corners", "--players", "ai:easy,remote", "--frames", "600", "--seed", "5"];
    args.extend_from_slice(&["--unpaced", "--relay", &at]);
    args.extend_from_slice(extra);
    let (mut h, code) = host(&args, &dir);
    assert!(code.starts_with(&format!("rl1@{at}/")), "the code names the relay: {code}");
    let mut j = join(&code, &[&["--controller", "ai:easy"], extra].concat(), &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(120), FRAMES);
    (last_json(&dir.join("host.out")), last_json(&dir.join("join.out")), code)
}

#[test]
fn friends_meet_with_just_the_code_and_punch_a_direct_path() {
    let (h, j, code) = relayed_game("relay-direct", &[]);
    // Loopback lets every punch through, so both sides end on the direct path.
    assert_eq!(h["path"], "direct", "{h}");
    assert_eq!(j["path"], "direct", "{j}");
    assert_eq!(h["frames"], 600);
    assert_eq!(code.matches('/').count(), 2, "relay/room/fingerprint: {code}");
}

#[test]
fn without_punching_the_whole_game_goes_through_the_relay_in_sync() {
    let (h, j, _) = relayed_game("relay-relayed", &["--no-punch"]);
    assert_eq!(h["path"], "relayed", "{h}");
    assert_eq!(j["path"], "relayed", "{j}");
    assert_eq!(h["hash"], j["hash"]);
}

#[test]
fn a_code_for_an_unknown_room_or_a_missing_relay_fails_with_the_reason() {
    let dir = common::temp_dir("relay-refused");
    let (_relay, at) = relay();
    let fingerprint = "ab".repeat(32);
    let unknown = format!("rl1@{at}/{}/{fingerprint}", "00".repeat(16));
    let mut j = join(&unknown, &[], &dir);
    assert_eq!(finish(&mut j, Duration::from_secs(10)), Some(1));
    let err = read(dir.join("join.err"));
    assert!(err.contains(&format!("the relay at {at} refused")) && err.contains("no such game"), "{err}");

    // A relay address nobody answers at (a port just freed on loopback).
    let free = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let nowhere = format!("rl1@{free}/{}/{fingerprint}", "11".repeat(16));
    let mut j = join(&nowhere, &[], &dir);
    assert_eq!(finish(&mut j, Duration::from_secs(20)), Some(1));
    let err = read(dir.join("join.err"));
    assert!(err.contains(&format!("no answer from the relay at {free}")), "{err}");
}

/// `ridgeline relay --status` asks the relay on this machine; its JSON.
fn status(at: &str) -> serde_json::Value {
    let out = ridgeline().args(["relay", "--status", "--bind", at]).output().expect("relay --status runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("--status prints JSON")
}

/// The relay is killed in the middle of a relayed match and started again 3 s later on the
/// same address, knowing nothing: the host makes its room again, the joiner takes its seat
/// back, and the match ends in sync, relayed to the end, nobody told anyone left.
#[test]
fn a_relay_killed_and_restarted_mid_match_ends_no_match() {
    const FRAMES: usize = 3000;
    let dir = common::temp_dir("relay-restart");
    let (relay_proc, at) = relay();
    let args = ["--map", "four_corners", "--players", "ai:easy,remote", "--frames", "3000", "--seed", "7"];
    let (mut h, code) = host(&[&args[..], &["--unpaced", "--no-punch", "--relay", &at]].concat(), &dir);
    let mut j = join(&code, &["--controller", "ai:easy", "--no-punch"], &dir);
    // Wait until the match is under way through the relay.
    let until = std::time::Instant::now() + Duration::from_secs(60);
    let before = loop {
        let s = status(&at);
        if s["forwarded"].as_u64().unwrap_or(0) > 300 {
            break s;
        }
        assert!(std::time::Instant::now() < until, "the match never got going: {s}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!((before["rooms"].as_u64(), before["members"].as_u64()), (Some(1), Some(2)), "{before}");
    drop(relay_proc);
    assert!(h.0.try_wait().unwrap().is_none(), "the match ended before the relay was killed");
    std::thread::sleep(Duration::from_secs(3));
    let (_relay, again) = relay_on(&at);
    assert_eq!(again, at);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(120), FRAMES);
    let (hj, jj) = (last_json(&dir.join("host.out")), last_json(&dir.join("join.out")));
    assert_eq!(hj["path"], "relayed", "{hj}");
    assert_eq!(jj["path"], "relayed", "{jj}");
    let after = status(&at);
    assert_eq!(after["rooms"], 1, "the host made its room again: {after}");
    assert_eq!(after["rooms_made"], 1, "{after}");
    let err = read(dir.join("join.err"));
    assert!(!err.contains("left"), "the joiner was told someone left: {err}");
}
