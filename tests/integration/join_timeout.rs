//! How long a joiner waits for a host (issue 58, round two): a join to a loopback port where
//! nothing listens says "no answer" after the handshake's own timeout (8 s), not QUIC's idle
//! timeout (20 s), while a slow lossy link (a 400 ms round trip, 15 % of datagrams lost each
//! way) still connects and plays. Every process is bounded in time and killed when a test ends.

use std::time::Duration;

use crate::common;
use crate::common::procs::{finish, finish_in_sync, host, join, read};

#[test]
fn a_join_to_a_port_where_nothing_listens_says_no_answer() {
    let dir = common::temp_dir("join-nowhere");
    // A port just freed on loopback: nothing answers there.
    let free = std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let code = format!("rl1@{free}/{}", "ab".repeat(32));
    let mut j = join(&code, &[], &dir);
    // The bound is the 20 s, which the idle timeout alone would have reached.
    assert_eq!(finish(&mut j, Duration::from_secs(19)), Some(1), "{}", read(dir.join("join.err")));
    let err = read(dir.join("join.err"));
    assert!(err.contains(&format!("no answer from {free}")), "{err}");
}

#[test]
fn a_slow_lossy_link_still_connects_within_the_handshake_timeout() {
    use ridgeline::net::fault::{FaultProxy, Impairment};
    let dir = common::temp_dir("join-lossy");
    let (mut h, code) = host(&["--map", "proving_grounds", "--players", "idle,remote", "--frames", "60"], &dir);
    let host_addr: std::net::SocketAddr = code.trim_start_matches("rl1@").split('/').next().unwrap().parse().unwrap();
    let impair = Impairment { loss: 0.15, delay_ms: 200.0, jitter_ms: 0.0, duplicate: 0.0 };
    let proxy = FaultProxy::start(host_addr, impair, 11, Duration::from_secs(180)).unwrap();
    let mut j = join(&code, &["--connect", &proxy.addr.to_string()], &dir);
    finish_in_sync(&mut h, &mut j, &dir, Duration::from_secs(150), 60);
    assert!(proxy.stats().dropped > 0, "the link really lost datagrams: {:?}", proxy.stats());
}
