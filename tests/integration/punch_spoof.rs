//! Issue 57: a stranger who has seen the join code looks the room up at the relay (so it knows
//! the host's address) and floods the host with punches and acknowledgements claiming every
//! joiner's number, before and while the friend joins (loopback only). The friend still joins,
//! the direct path still opens to the friend, the two games keep identical hash logs, and the
//! host logs the refused messages at most about once a second.

use std::net::{SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ridgeline::net::codec::relay::{MAC_LEN, RelayMessage, decode, encode};
use ridgeline::net::quic::{JoinCode, Target};

use crate::common;
use crate::common::procs::{finish_in_sync, host, join, last_json, read, relay};

/// Looks the code's room up like a joiner would; the host's address as the relay gave it.
fn host_address(code: &str, stranger: &UdpSocket) -> SocketAddr {
    let code: JoinCode = code.parse().unwrap();
    let Target::Relay { relay, room } = code.target else { panic!("a relayed code: {code}") };
    stranger.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    stranger.send_to(&encode(&RelayMessage::Lookup { room, seat: 0, cookie: None }), relay).unwrap();
    let mut buf = [0u8; 256];
    loop {
        let (n, _) = stranger.recv_from(&mut buf).unwrap();
        match decode(&buf[..n]) {
            // The relay first asks it to prove it receives at its address, as anyone.
            Ok(RelayMessage::Challenge { cookie }) => {
                let again = RelayMessage::Lookup { room, seat: 0, cookie: Some(cookie) };
                stranger.send_to(&encode(&again), relay).unwrap();
            }
            Ok(RelayMessage::Found { host, .. }) => return host,
            _ => {}
        }
    }
}

#[test]
fn a_stranger_with_the_code_cannot_steer_the_friends_path_and_the_join_succeeds() {
    const FRAMES: usize = 600;
    let dir = common::temp_dir("punch-spoof");
    let (_relay, at) = relay();
    let args = ["--map", "four_corners", "--players", "ai:easy,remote", "--frames", "600", "--seed", "5", "--unpaced"];
    let (mut h, code) = host(&[&args[..], &["--relay", &at]].concat(), &dir);
    let stranger = UdpSocket::bind("127.0.0.1:0").unwrap();
    let target = host_address(&code, &stranger);
    let code_room = match code.parse::<JoinCode>().unwrap().target {
        Target::Relay { room, .. } => room,
        Target::Direct(_) => unreachable!(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (under_way, started) = std::sync::mpsc::channel();
    let flood = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut sent = 0u64;
            let mut nonce = 0u64;
            while !stop.load(Ordering::Relaxed) {
                nonce += 1;
                for peer in 1..=4 {
                    let mac = [nonce as u8; MAC_LEN];
                    for m in [
                        RelayMessage::Punch { room: code_room, peer, nonce, mac },
                        RelayMessage::PunchAck { room: code_room, peer, nonce, mac },
                    ] {
                        let _ = stranger.send_to(&encode(&m), target);
                        sent += 1;
                    }
                }
                if nonce == 10 {
                    let _ = under_way.send(());
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            sent
        })
    };
    // The flood is under way (ten rounds sent) before the friend looks the room up.
    started.recv_timeout(Duration::from_secs(10)).expect("the flood started");
    let mut j = join(&code, &["--controller", "ai:easy"], &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(120), FRAMES);
    stop.store(true, Ordering::Relaxed);
    let sent = flood.join().unwrap();
    let (hj, jj) = (last_json(&dir.join("host.out")), last_json(&dir.join("join.out")));
    assert_eq!(hj["path"], "direct", "{hj}");
    assert_eq!(jj["path"], "direct", "{jj}");
    let err = read(dir.join("host.err"));
    let lines = err.lines().filter(|l| l.contains("punch message(s) not from the peer")).count();
    assert!(lines >= 1, "the refusals are logged: {err}");
    assert!((lines as u64) < sent / 100, "{lines} log lines for {sent} spoofed messages: {err}");
}
