//! A lying peer, scripted over the in-memory hub with simulated time: data for frames a
//! million ahead, commands for a player it does not own, more commands than any player sends,
//! a wrong hash every frame. For 60 seconds of game (1,800 frames) the honest machines hold no
//! more than the stream's window, cut the liar off with a reason, and play on together; a
//! lying host is left by its joiner with the reason. The same over real QUIC on loopback
//! (127.0.0.1 only), with the `--debug-lie` test switch: the honest process's memory stays
//! within a stated bound and its log holds a few lines.

use std::time::{Duration, Instant};

use ridgeline::lockstep::stream::{MAX_PENDING_BYTES, WINDOW};
use ridgeline::lockstep::{Held, PeerId, Transport};
use ridgeline::online::{Liar, Lie, LinkEvent, OnlineError};
use ridgeline::session::Step;

use crate::common;
use crate::common::procs::{Proc, finish, host, join, last_json, read, resident_kb, wait_for};
use crate::online_link::{Machine, agree, machines};

/// Sixty seconds of game.
const FRAMES: u32 = 1_800;

/// The most an honest stream may hold whatever a liar sends: the window's frames, every
/// player's commands within the per-player byte budget (four times it on a joiner, for a liar
/// the host judges), the hash history and the window.
fn within_bound(held: Held) -> bool {
    held.frames <= WINDOW as usize + 1
        && held.pending_bytes <= 6 * MAX_PENDING_BYTES
        && held.hashes <= 600 + WINDOW as usize + 1
}

/// Steps the liar: plays honestly, and after every frame it runs sends `lie`.
fn step_liar(m: &mut Machine, liar: &Liar, now: Instant) {
    if let Ok(Step::Ticked { frame, hash, .. }) = m.game.session.step() {
        let run_ahead = m.game.session.stream().run_ahead();
        liar.after(m.game.session.transport_mut(), frame, hash.total, run_ahead);
    }
    let _ = m.link.update(now, &mut m.game.session);
}

/// Three machines (Ava hosts, Ben and Cid join); Cid lies with `lie` from the start. Runs
/// Ava and Ben to [`FRAMES`], checking what they hold at every step; returns them.
fn liar_among_three(lie: Lie) -> Vec<Machine> {
    let (mut ms, _) = machines(3);
    let mut cid = ms.pop().unwrap();
    let liar = Liar { lie, own: cid.game.slots[2].player, foreign: cid.game.slots[0].player };
    let mut clock = Instant::now();
    let mut guard = 0;
    while ms.iter().any(|m| m.frame() < FRAMES) {
        guard += 1;
        assert!(guard < 50_000, "stuck at frames {:?}", ms.iter().map(Machine::frame).collect::<Vec<_>>());
        clock += Duration::from_millis(33);
        step_liar(&mut cid, &liar, clock);
        for m in ms.iter_mut().filter(|m| m.frame() < FRAMES) {
            m.step(clock);
            let held = m.game.session.stream().held();
            assert!(within_bound(held), "{lie:?}: {} holds {held:?}", m.game.session.transport().me());
        }
    }
    ms
}

/// The liar was cut off by the host, told to everyone, its slot dropped at one frame, and the
/// honest two played the whole minute alike.
fn assert_cut_and_played_on(ms: &[Machine], lie: Lie) {
    let removed = "Cid was removed: their game broke the protocol".to_string();
    assert!(ms[0].events.contains(&LinkEvent::Chat(removed.clone())), "{lie:?}: {:?}", ms[0].events);
    assert!(ms[1].events.contains(&LinkEvent::Chat(removed)), "{lie:?}: {:?}", ms[1].events);
    let cid = ms[0].game.slots[2].player;
    let at = ms[0].game.session.stream().dropped_from(cid).expect("the host dropped the liar");
    assert!(at.0 < 100, "{lie:?}: cut at once, not at frame {}", at.0);
    assert_eq!(ms[1].game.session.stream().dropped_from(cid), Some(at), "one frame on every machine");
    assert!(ms[0].game.session.violations().is_cut(PeerId(2)));
    assert_eq!(agree(&ms[0].log, &ms[1].log), FRAMES as usize);
    assert!(ms[0].game.session.stream().desync().is_none());
}

#[test]
fn a_peer_sending_frames_a_million_ahead_is_cut_and_nothing_of_it_is_kept() {
    let ms = liar_among_three(Lie::FarFuture);
    assert_cut_and_played_on(&ms, Lie::FarFuture);
    let counts = ms[0].game.session.stream().refusals().counts();
    assert!(counts.get("too far ahead").is_some_and(|&n| n >= 1), "{counts:?}");
}

#[test]
fn a_peer_speaking_for_another_players_commands_is_cut() {
    let ms = liar_among_three(Lie::Foreign);
    assert_cut_and_played_on(&ms, Lie::Foreign);
    // Nothing the liar sent for Ava's player ran anywhere: Ava's own stream refused none of
    // Ava's commands, and the hash logs agree (checked above).
    assert!(ms[0].game.session.violations().refused(PeerId(2)) >= 64);
}

#[test]
fn a_peer_flooding_its_own_commands_is_cut_at_the_byte_budget() {
    let ms = liar_among_three(Lie::Flood);
    assert_cut_and_played_on(&ms, Lie::Flood);
    let counts = ms[0].game.session.stream().refusals().counts();
    assert!(counts.get("too many commands").is_some_and(|&n| n >= 1), "{counts:?}");
}

#[test]
fn a_wrong_hash_every_frame_is_a_desync_named_at_its_first_frame_and_holds_nothing() {
    let (mut ms, _) = machines(2);
    let mut ben = ms.pop().unwrap();
    let liar = Liar { lie: Lie::Hash, own: ben.game.slots[1].player, foreign: ben.game.slots[0].player };
    let mut clock = Instant::now();
    for _ in 0..FRAMES {
        clock += Duration::from_millis(33);
        step_liar(&mut ben, &liar, clock);
        ms[0].step(clock);
        assert!(within_bound(ms[0].game.session.stream().held()));
    }
    let d = ms[0].game.session.stream().desync().expect("the host sees the lie as a desync");
    assert_eq!(d.peer, ben.game.slots[1].player);
    assert_eq!(d.remote, !d.local, "the liar's hash for that frame");
    assert!(d.frame.0 < 10, "named at the first frame lied about, not {}", d.frame.0);
}

#[test]
fn a_joiner_leaves_a_host_that_sends_frames_a_million_ahead_naming_why() {
    let (mut ms, _) = machines(2);
    let mut ava = ms.remove(0);
    let liar = Liar { lie: Lie::FarFuture, own: ava.game.slots[0].player, foreign: ava.game.slots[1].player };
    let ben = &mut ms[0];
    let mut clock = Instant::now();
    let mut left = None;
    for _ in 0..FRAMES {
        clock += Duration::from_millis(33);
        step_liar(&mut ava, &liar, clock);
        if let Step::Ticked { frame, hash, .. } = ben.game.session.step().unwrap() {
            ben.link.ran(clock, &mut ben.game.session, frame, hash);
        }
        assert!(within_bound(ben.game.session.stream().held()));
        if let Err(e) = ben.link.update(clock, &mut ben.game.session) {
            left = Some(e);
            break;
        }
    }
    match left {
        Some(OnlineError::HostBrokeProtocol(reason)) => {
            assert!(reason.contains("frame 1000000"), "{reason}");
        }
        other => panic!("expected the joiner to leave the lying host, got {other:?}"),
    }
    assert!(ben.frame() < 100, "it left at once, at frame {}", ben.frame());
}

/// Runs `p` to its end (at most `limit`), sampling its resident memory; the most it held, in kB.
fn peak_while_running(p: &mut Proc, limit: Duration) -> (Option<i32>, u64) {
    let until = Instant::now() + limit;
    let mut peak = 0;
    while Instant::now() < until {
        peak = peak.max(resident_kb(p.0.id()));
        if let Ok(Some(status)) = p.0.try_wait() {
            return (status.code(), peak);
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    (None, peak)
}

/// Growth allowed to an honest machine over a one-minute game with a liar, in kB: the game's
/// own (its world, logs and snapshots) with room to spare, far below what kept lies cost
/// (hundreds of MB a minute before the stream had a window).
const GROWTH_KB: u64 = 48 * 1024;

#[test]
fn over_quic_a_host_cuts_a_lying_joiner_and_plays_on() {
    for lie in ["far-future", "foreign", "flood"] {
        let dir = common::temp_dir(&format!("lying-joiner-{lie}"));
        let frames = FRAMES.to_string();
        let (mut h, code) =
            host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", &frames, "--unpaced"], &dir);
        let before = resident_kb(h.0.id());
        let mut j = join(&code, &["--controller", "idle", "--debug-lie", lie], &dir);
        let (code, peak) = peak_while_running(&mut h, Duration::from_secs(180));
        let err = read(dir.join("host.err"));
        assert_eq!(code, Some(0), "{lie}: {err}");
        assert!(peak < before + GROWTH_KB, "{lie}: the host held {before} kB at the start and {peak} kB at most");
        let summary = last_json(&dir.join("host.out"));
        assert_eq!(summary["left"], serde_json::json!([1]), "{lie}: the liar's slot was removed: {summary}");
        assert_eq!(summary["frames"], serde_json::json!(FRAMES), "{lie}: the host played the whole minute");
        assert!(err.contains("broke the lockstep protocol"), "{lie}: the reason is logged: {err}");
        assert!(err.len() < 64 * 1024, "{lie}: a flood costs a few log lines, not {} bytes", err.len());
        assert_eq!(finish(&mut j, Duration::from_secs(30)), Some(1), "{lie}: the liar's process ended");
        let told = read(dir.join("join.err"));
        assert!(told.contains("the host removed this machine: it broke the lockstep protocol"), "{lie}: {told}");
    }
}

#[test]
fn over_quic_a_wrong_hash_every_frame_stops_both_with_a_report_and_holds_nothing() {
    let dir = common::temp_dir("lying-hash");
    let reports = dir.to_str().expect("a UTF-8 temp path");
    let frames = FRAMES.to_string();
    let (mut h, code) = host(
        &[
            "--map",
            "proving_grounds",
            "--players",
            "ai:easy,remote",
            "--frames",
            &frames,
            "--unpaced",
            "--desync-dir",
            reports,
        ],
        &dir,
    );
    let before = resident_kb(h.0.id());
    let mut j = join(&code, &["--controller", "idle", "--debug-lie", "hash", "--desync-dir", reports], &dir);
    let (code, peak) = peak_while_running(&mut h, Duration::from_secs(120));
    let err = read(dir.join("host.err"));
    assert_eq!(code, Some(1), "a desync is an error: {err}");
    assert!(peak < before + GROWTH_KB, "the host held {before} kB at the start and {peak} kB at most");
    assert!(err.len() < 64 * 1024, "{} bytes of log", err.len());
    let summary = last_json(&dir.join("host.out"));
    let report = read(std::path::PathBuf::from(summary["desync"].as_str().expect("a report")));
    let frames_run = summary["frames"].as_u64().expect("frames");
    assert!(frames_run < 10, "stopped at the first lie, not after {frames_run} frames");
    assert!(report.contains("out of sync at frame"), "{report}");
    let _ = finish(&mut j, Duration::from_secs(30));
}

#[test]
fn over_quic_a_joiner_leaves_a_host_that_sends_frames_a_million_ahead_naming_why() {
    let dir = common::temp_dir("lying-host");
    let frames = FRAMES.to_string();
    let (mut h, code) = host(
        &[
            "--map",
            "proving_grounds",
            "--players",
            "ai:easy,remote",
            "--frames",
            &frames,
            "--unpaced",
            "--debug-lie",
            "far-future",
        ],
        &dir,
    );
    let mut j = join(&code, &["--controller", "idle"], &dir);
    let before = resident_kb(j.0.id());
    let (code, peak) = peak_while_running(&mut j, Duration::from_secs(120));
    let err = read(dir.join("join.err"));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the host broke the protocol"), "{err}");
    assert!(before == 0 || peak < before + GROWTH_KB, "the joiner held {before} kB at the start and {peak} kB at most");
    assert!(err.len() < 64 * 1024, "a flood costs a few log lines, not {} bytes", err.len());
    drop(h.0.kill());
}

#[test]
fn over_quic_a_flooding_joiner_among_three_is_cut_and_the_honest_two_finish_in_sync() {
    // The liar's batches are too big for a datagram, so they ride the control stream and the
    // host relays them whole; the honest joiner once lost the stream's framing here (its
    // reader was cancelled half-way through a large frame) and both honest machines stalled.
    let dir = common::temp_dir("lying-three");
    let (ben, cid) = (dir.join("ben"), dir.join("cid"));
    std::fs::create_dir_all(&ben).unwrap();
    std::fs::create_dir_all(&cid).unwrap();
    let (mut h, code) =
        host(&["--map", "four_corners", "--players", "ai:easy,remote,remote", "--frames", "900", "--unpaced"], &dir);
    let mut honest = join(&code, &["--controller", "ai:easy"], &ben);
    // The liar comes once the honest joiner has its seat.
    wait_for(&dir.join("host.err"), "takes slot", Duration::from_secs(30));
    let mut liar = join(&code, &["--controller", "idle", "--debug-lie", "flood"], &cid);
    assert_eq!(finish(&mut honest, Duration::from_secs(120)), Some(0), "{}", read(ben.join("join.err")));
    assert_eq!(finish(&mut h, Duration::from_secs(30)), Some(0), "{}", read(dir.join("host.err")));
    let (hl, bl) = (read(dir.join("host.log")), read(ben.join("join.log")));
    assert_eq!(hl.lines().count(), 900);
    assert!(hl == bl, "the honest two kept one game");
    let (hj, bj) = (last_json(&dir.join("host.out")), last_json(&ben.join("join.out")));
    assert_eq!(hj["left"], serde_json::json!([2]), "the liar's slot alone was removed: {hj}");
    assert_eq!(bj["left"], hj["left"], "the honest joiner saw the same removal: {bj}");
    let _ = finish(&mut liar, Duration::from_secs(10));
}
