//! How a peer's address is shown in logs and messages. A peer known only through the relay
//! has a stand-in name QUIC routes by (`paths.rs`: 192.0.2.N or 100::N, port 47700, ranges that
//! are never real destinations); shown as it is, it reads as an address nobody has.
//!
//! Must not: route anything (it only words an address).

use std::net::{IpAddr, SocketAddr};

/// A peer's address as logs show it. A peer known only through the relay has a stand-in name
/// that QUIC routes by (`nat/paths.rs`: 192.0.2.N or 100::N, port 47700, ranges that are never
/// real destinations): it is shown as the relay's peer N, not as an address nobody has.
pub fn shown(addr: SocketAddr) -> String {
    let relayed = match addr.ip() {
        IpAddr::V4(v4) if v4.octets()[..3] == [192, 0, 2] => Some(u16::from(v4.octets()[3])),
        IpAddr::V6(v6) if v6.segments()[..7] == [0x100, 0, 0, 0, 0, 0, 0] => Some(v6.segments()[7]),
        _ => None,
    };
    match relayed {
        Some(n) if addr.port() == 47700 => format!("peer {n} via the relay"),
        _ => addr.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relayed_peer_is_shown_as_the_relay_s_peer_not_as_its_stand_in_address() {
        assert_eq!(shown("192.0.2.1:47700".parse().unwrap()), "peer 1 via the relay");
        assert_eq!(shown("[100::7]:47700".parse().unwrap()), "peer 7 via the relay");
        assert_eq!(shown("203.0.113.9:47700".parse().unwrap()), "203.0.113.9:47700");
        assert_eq!(shown("192.0.2.1:5000".parse().unwrap()), "192.0.2.1:5000");
    }
}
