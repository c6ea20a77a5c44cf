//! Seats over real QUIC on loopback (127.0.0.1 only), the window's lobby hosting: a seat is
//! one connection — a second hello on it is refused "already seated", and the same player
//! from a second copy of the game takes the seat over while the first copy is told why; peer
//! numbers are reused, so hundreds of connections that come and go leave the host able to
//! seat a friend; a hello the host cannot read (a name too long or not UTF-8, too many file
//! digests) is answered with the reason, and `ridgeline join` prints it and fails.

use crate::common;

use std::time::{Duration, Instant};

use ridgeline::game::battle::{Battle, HostGone};
use ridgeline::game::online_lobby::{OnlineLobby, Outcome};
use ridgeline::game::shell::LobbyState;
use ridgeline::net::control::ControlTransport;
use ridgeline::net::fault::{FaultProxy, Impairment};
use ridgeline::net::nat::Reach;
use ridgeline::net::quic::{JoinCode, QuicTransport};
use ridgeline::net::wire::{ALREADY_SEATED, FileDigest, Seat, WireMessage};
use ridgeline::online::{Identity, hello};

/// Players seated in what a lobby shows.
fn seated(shown: &LobbyState) -> usize {
    shown.roster.slots.iter().filter(|s| matches!(s.seat, Seat::Player(_))).count()
}

/// Ava hosts a four-player game on Four Corners on loopback.
fn ava_hosts() -> OnlineLobby {
    OnlineLobby::host(&common::roots(), "127.0.0.1:0".parse().unwrap(), "Ava", "four_corners", 4, Reach::default())
        .unwrap()
}

/// Polls the host's lobby until `done` holds (at most ten seconds).
fn host_until(host: &mut OnlineLobby, shown: &mut LobbyState, done: impl Fn(&LobbyState) -> bool) {
    let roots = common::roots();
    let until = Instant::now() + Duration::from_secs(10);
    while !done(shown) {
        assert!(Instant::now() < until, "the host never got there: {:?}", shown.chat());
        assert!(matches!(host.poll(&roots, shown), Outcome::Waiting), "the host's lobby ended");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The first refusal `net` hears, polling `host` meanwhile (at most ten seconds).
fn refusal(net: &mut QuicTransport, host: &mut OnlineLobby, shown: &mut LobbyState) -> String {
    let roots = common::roots();
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        assert!(Instant::now() < until, "never answered; the host shows {:?}", shown.chat());
        host.poll(&roots, shown);
        net.wait(Duration::from_millis(5));
        while let Some((_, m)) = net.take_control() {
            if let WireMessage::Refused { reason } = m {
                return reason;
            }
        }
    }
}

#[test]
fn two_hellos_on_one_connection_take_one_seat() {
    let roots = common::roots();
    let mut host = ava_hosts();
    let mut shown = LobbyState::default();
    let code = host.code().unwrap();
    let greeting = hello(&roots, "Mallory", &Identity::fresh().unwrap(), &code).unwrap();
    let mut mallory = QuicTransport::join(&code, Reach::default(), &greeting).unwrap();
    host_until(&mut host, &mut shown, |s| seated(s) == 2);
    mallory.send_control(None, std::slice::from_ref(&greeting)).unwrap();
    assert_eq!(refusal(&mut mallory, &mut host, &mut shown), ALREADY_SEATED);
    // Another hello under another identity on the same connection is no new player either.
    let other = hello(&roots, "Mallory2", &Identity::fresh().unwrap(), &code).unwrap();
    mallory.send_control(None, &[other]).unwrap();
    assert_eq!(refusal(&mut mallory, &mut host, &mut shown), ALREADY_SEATED);
    for _ in 0..20 {
        host.poll(&roots, &mut shown);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(seated(&shown), 2, "one connection, one seat: {:?}", shown.roster);
}

#[test]
fn a_second_copy_with_the_same_identity_takes_the_seat_and_the_first_is_told_why() {
    let roots = common::roots();
    let mut host = ava_hosts();
    let mut shown = LobbyState::default();
    let code = host.code().unwrap().to_string();
    let ben = Identity::fresh().unwrap();
    let mut first = OnlineLobby::join(&roots, &code, "Ben", &ben).unwrap();
    let mut first_shown = LobbyState::default();
    host_until(&mut host, &mut shown, |s| seated(s) == 2);
    let mut second = OnlineLobby::join(&roots, &code, "Ben", &ben).unwrap();
    let mut second_shown = LobbyState::default();
    let until = Instant::now() + Duration::from_secs(10);
    let told = loop {
        assert!(Instant::now() < until, "the first copy was never told: {:?}", first_shown.chat());
        host.poll(&roots, &mut shown);
        second.poll(&roots, &mut second_shown);
        if let Outcome::Closed(said) = first.poll(&roots, &mut first_shown) {
            break said.detail;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(told.contains("Another copy of the game with your identity took your seat"), "{told}");
    host_until(&mut host, &mut shown, |s| s.chat().iter().any(|l| l.contains("came back from another copy")));
    for _ in 0..40 {
        host.poll(&roots, &mut shown);
        second.poll(&roots, &mut second_shown);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(seated(&shown), 2, "still one seat for Ben: {:?}", shown.roster);
    let me = second_shown.me.expect("the second copy is welcomed");
    assert!(shown.roster.slots.iter().any(|s| s.seat == Seat::Player(me) && s.name == "Ben"), "{:?}", shown.roster);
    assert!(
        !shown.chat().iter().any(|l| l == "Ben left."),
        "the seat was handed over, not emptied: {:?}",
        shown.chat()
    );
}

/// 254 connections that join and leave, a few at a time (every number the host has); then a
/// friend is seated. (The host used to count its numbers up once, and turned everyone away
/// after the 254th.)
#[test]
fn connections_that_join_and_leave_use_up_no_peer_numbers() {
    let roots = common::roots();
    let mut host = ava_hosts();
    let mut shown = LobbyState::default();
    let code = host.code().unwrap();
    let mut joined = 0;
    while joined < 254 {
        let batch: Vec<QuicTransport> = (0..8.min(254 - joined))
            .map(|_| {
                let greeting = hello(&roots, "Mallory", &Identity::fresh().unwrap(), &code).unwrap();
                QuicTransport::join(&code, Reach::default(), &greeting).expect("the host takes the connection")
            })
            .collect();
        joined += batch.len();
        // The host hears them all (seated or refused as the lobby fills), then they leave at once.
        let heard = |s: &LobbyState| {
            let said = |l: &&String| l.starts_with("Mallory joined") || l.starts_with("Mallory could not join");
            s.chat().iter().filter(said).count() >= joined
        };
        host_until(&mut host, &mut shown, heard);
        std::thread::scope(|s| {
            for net in batch {
                s.spawn(move || drop(net));
            }
        });
        host_until(&mut host, &mut shown, |s| seated(s) == 1);
    }
    let mut ben = OnlineLobby::join(&roots, &code.to_string(), "Ben", &Identity::fresh().unwrap()).unwrap();
    let mut ben_shown = LobbyState::default();
    let until = Instant::now() + Duration::from_secs(10);
    while ben_shown.me.is_none() {
        assert!(Instant::now() < until, "Ben was never seated: {:?}", ben_shown.chat());
        host.poll(&roots, &mut shown);
        if let Outcome::Closed(why) = ben.poll(&roots, &mut ben_shown) {
            panic!("Ben was turned away: {why:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    host_until(&mut host, &mut shown, |s| s.chat().last().is_some_and(|l| l == "Ben joined."));
}

/// A hello with `name` and `files` digests, as a modified client would send it.
fn odd_hello(code: &JoinCode, name: &str, files: usize) -> WireMessage {
    let roots = common::roots();
    let WireMessage::Hello(mut h) = hello(&roots, "x", &Identity::fresh().unwrap(), code).unwrap() else {
        panic!("a hello")
    };
    h.name = name.to_string();
    h.files = (0..files).map(|i| FileDigest { name: format!("data/{i}.ron"), digest: 0 }).collect();
    WireMessage::Hello(h)
}

#[test]
fn every_hello_the_host_cannot_read_is_answered_with_the_reason() {
    let mut host = ava_hosts();
    let mut shown = LobbyState::default();
    let code = host.code().unwrap();
    let long = "n".repeat(600);
    for (greeting, why) in [
        (odd_hello(&code, &long, 1), "name of 600 bytes is longer than 512"),
        (odd_hello(&code, "Ben", 65), "65 file digests, more than 64"),
    ] {
        let mut net = QuicTransport::join(&code, Reach::default(), &greeting).unwrap();
        let reason = refusal(&mut net, &mut host, &mut shown);
        assert!(reason.contains("could not read this machine's hello") && reason.ends_with(why), "{reason}");
    }
    // A name that is not UTF-8: the hello's bytes with one byte of the name made invalid,
    // sent as a joiner's first frame.
    let mut bytes = ridgeline::net::codec::encode(&[odd_hello(&code, "Zed", 1)]);
    let at = bytes.windows(3).position(|w| w == b"Zed").unwrap();
    bytes[at] = 0xFF;
    let reason = std::thread::scope(|s| {
        let answer = s.spawn(|| first_frame_answer(&code, &bytes));
        while !answer.is_finished() {
            host.poll(&common::roots(), &mut shown);
            std::thread::sleep(Duration::from_millis(5));
        }
        answer.join().unwrap()
    });
    assert!(reason.ends_with("name is not UTF-8"), "{reason}");
    assert_eq!(seated(&shown), 1, "nothing seated for an unreadable hello: {:?}", shown.roster);
}

/// Connects to the host in `code` as a bare QUIC client, sends `payload` as the first control
/// frame (`[length u32 LE][origin][kind][payload]`), and returns the reason of the refusal
/// the host answers with (at most ten seconds).
fn first_frame_answer(code: &JoinCode, payload: &[u8]) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut endpoint = quinn::Endpoint::client("127.0.0.1:0".parse().unwrap()).unwrap();
        endpoint.set_default_client_config(ridgeline::net::quic::tls::client_config(code.fingerprint).unwrap());
        let conn = endpoint.connect(code.addr(), "ridgeline").unwrap().await.unwrap();
        let (mut send, mut recv) = conn.open_bi().await.unwrap();
        let mut frame = ((payload.len() + 2) as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(&[0, ridgeline::net::quic::io::KIND_CONTROL]);
        frame.extend_from_slice(payload);
        send.write_all(&frame).await.unwrap();
        let answer = async {
            loop {
                let mut len = [0u8; 4];
                recv.read_exact(&mut len).await.unwrap();
                let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
                recv.read_exact(&mut buf).await.unwrap();
                for m in ridgeline::net::codec::decode(&buf[2..]).unwrap() {
                    if let WireMessage::Refused { reason } = m {
                        return reason;
                    }
                }
            }
        };
        let reason = tokio::time::timeout(Duration::from_secs(10), answer).await.expect("answered within ten seconds");
        conn.close(0u32.into(), b"bye");
        endpoint.wait_idle().await;
        reason
    })
}

/// `ridgeline join` whose hello the host refuses (its data differs from the host's) prints the
/// reason and fails at once (it used to wait for ever). A name too long for a hello is refused
/// before `join` connects (`--name` takes 1 to 32 characters); the host's answer to one sent
/// anyway is `every_hello_the_host_cannot_read_is_answered_with_the_reason`.
#[test]
fn a_joiner_whose_hello_is_refused_prints_the_reason_and_fails() {
    use crate::common::procs::{finish, host, join, read};
    let dir = common::temp_dir("online-refused-hello");
    let other = dir.join("other-armour");
    std::fs::create_dir_all(other.join("data")).unwrap();
    std::fs::write(other.join("mod.ron"), "(\n    name: \"other\",\n    version: \"1\",\n)\n").unwrap();
    let armour = common::read(&common::root().join("data/armor.ron"));
    let changed =
        armour.replace("(name: \"Tank\", percent: {\"Small\": 5,", "(name: \"Tank\", percent: {\"Small\": 6,");
    assert_ne!(armour, changed);
    std::fs::write(other.join("data/armor.ron"), changed).unwrap();
    let (_h, code) = host(&["--map", "proving_grounds", "--players", "ai:easy,remote", "--frames", "300"], &dir);
    let mut j = join(&code, &["--mod", other.to_str().unwrap()], &dir);
    assert_eq!(finish(&mut j, Duration::from_secs(20)), Some(1), "{}", read(dir.join("join.err")));
    let err = read(dir.join("join.err"));
    assert!(err.contains("these files differ from the host's: data/armor.ron"), "{err}");
    let long = "n".repeat(600);
    let out = common::ridgeline().args(["join", &code, "--name", &long]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "refused before connecting");
    assert!(String::from_utf8_lossy(&out.stderr).contains("a player's name has 1 to 32 characters"));
}

/// Ava hosts a two-player lobby; Ben (as `ben`) joins it, through a loopback proxy that passes
/// everything when `proxied`; both ready up and start and play a few frames. Returns both
/// battles, the code and the proxy.
fn battles(ben: &Identity, proxied: bool) -> (Battle, Battle, String, Option<FaultProxy>) {
    let roots = common::roots();
    let mut host =
        OnlineLobby::host(&roots, "127.0.0.1:0".parse().unwrap(), "Ava", "proving_grounds", 2, Reach::default())
            .unwrap();
    let code = host.code().unwrap();
    let clean = Impairment { loss: 0.0, delay_ms: 0.0, jitter_ms: 0.0, duplicate: 0.0 };
    let proxy = proxied.then(|| FaultProxy::start(code.addr(), clean, 1, Duration::from_secs(120)).unwrap());
    let ben_code = proxy.as_ref().map_or(code, |p| code.with_addr(p.addr)).to_string();
    let mut join = OnlineLobby::join(&roots, &ben_code, "Ben", ben).unwrap();
    let (mut shown, mut ben_shown) = (LobbyState::default(), LobbyState::default());
    let until = Instant::now() + Duration::from_secs(10);
    while !shown.roster.slots.get(1).is_some_and(|s| s.ready) {
        assert!(Instant::now() < until, "{:?}", shown.chat());
        host.poll(&roots, &mut shown);
        join.poll(&roots, &mut ben_shown);
        if ben_shown.me.is_some() && !ben_shown.ready {
            join.set_ready(true);
            ben_shown.ready = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let Ok(Outcome::Started(host_game, seats)) = host.start(&roots) else { panic!("the host starts") };
    let until = Instant::now() + Duration::from_secs(10);
    let ben_game = loop {
        assert!(Instant::now() < until, "Ben never started");
        if let Outcome::Started(game, _) = join.poll(&roots, &mut ben_shown) {
            break game;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let screen = glam::Vec2::new(640.0, 360.0);
    let mut host = Battle::from_match(&roots, *host_game, screen).unwrap();
    host.play_mut().set_online(seats);
    let mut ben = Battle::from_match(&roots, *ben_game, screen).unwrap();
    ben.play_mut().set_online(ridgeline::online::Seats::default());
    for _ in 0..40 {
        step(&mut host);
        step(&mut ben);
        std::thread::sleep(Duration::from_millis(2));
    }
    (host, ben, code.to_string(), proxy)
}

fn step(b: &mut Battle) {
    b.advance(1.0 / 30.0 + 1e-4).unwrap();
}

/// Ben's window is in a running battle when a second copy of the game with his identity joins
/// with the code: the seat goes to the second copy, and the first is told exactly that (it used
/// to end with "the network thread disconnected", then "The host left the game").
#[test]
fn a_second_copy_in_a_running_battle_takes_the_seat_and_the_first_is_told_so() {
    let roots = common::roots();
    let ben = Identity::fresh().unwrap();
    let (mut host, mut first, code, _) = battles(&ben, false);
    // The second copy joins with the same code and identity.
    let mut second = OnlineLobby::join(&roots, &code, "Ben", &ben).unwrap();
    let mut second_shown = LobbyState::default();
    let until = Instant::now() + Duration::from_secs(20);
    while !first.play().online().is_some_and(|o| o.host_left()) {
        assert!(Instant::now() < until, "the first copy was never told");
        step(&mut host);
        step(&mut first);
        let _ = second.poll(&roots, &mut second_shown);
        std::thread::sleep(Duration::from_millis(2));
    }
    let why = first.play().online().and_then(|o| o.host_gone()).cloned();
    assert_eq!(why, Some(HostGone::Refused(ridgeline::net::wire::TAKEN_OVER.to_string())));
    assert!(second_shown.chat().iter().any(|l| l.contains("taking your seat back")), "{:?}", second_shown.chat());
}

/// Ben's link to the host dies mid-battle (the proxy between them stops carrying anything):
/// after QUIC's idle timeout his window says his connection was lost, not that the host left.
#[test]
fn a_joiner_whose_own_link_died_is_told_so_not_that_the_host_left() {
    let (mut host, mut mine, _, proxy) = battles(&Identity::fresh().unwrap(), true);
    drop(proxy);
    let until = Instant::now() + Duration::from_secs(45);
    while !mine.play().online().is_some_and(|o| o.host_left()) {
        assert!(Instant::now() < until, "the lost link was never noticed");
        step(&mut host);
        step(&mut mine);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(mine.play().online().and_then(|o| o.host_gone()).cloned(), Some(HostGone::LinkLost));
}
