//! Join codes: what a host gives a friend to join — where to reach the game and the
//! fingerprint of the host's certificate, as one line of text. On one network the code names
//! the host's address, `rl1@<ip:port>/<fingerprint>`; through a relay it names the relay and
//! the room, `rl1@<relay ip:port>/<room>/<fingerprint>`, and the joiner needs nothing else.
//! Room and fingerprint are written in URL-safe base64 (22 and 43 characters) so a whole code
//! fits on one line of the lobby; hex (32 and 64 digits, the older form) is read too.
//!
//! Must not: resolve names or touch the network (the address is taken as written).

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use thiserror::Error;

use crate::net::codec::relay::{ROOM_LEN, RoomId};

/// Where a join code leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Straight to the host's address.
    Direct(SocketAddr),
    /// To a room at a relay, which introduces host and joiner.
    Relay {
        /// The relay's address.
        relay: SocketAddr,
        /// The host's room there.
        room: RoomId,
    },
}

/// Where the game is and which certificate is the host's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinCode {
    /// Where to go.
    pub target: Target,
    /// SHA-256 of the host's certificate.
    pub fingerprint: [u8; 32],
}

impl JoinCode {
    /// The address the code names: the host's, or the relay's.
    pub fn addr(&self) -> SocketAddr {
        match self.target {
            Target::Direct(a) | Target::Relay { relay: a, .. } => a,
        }
    }

    /// The same code with its address replaced (`--connect`: port forwarding, another route
    /// to the same relay).
    pub fn with_addr(mut self, addr: SocketAddr) -> JoinCode {
        match &mut self.target {
            Target::Direct(a) | Target::Relay { relay: a, .. } => *a = addr,
        }
        self
    }
}

/// A join code that does not read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("join code \"{code}\": {what} (expected rl1@<ip:port>[/<room>]/<fingerprint>)")]
pub struct JoinCodeError {
    code: String,
    what: &'static str,
}

fn text(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// `N` bytes from URL-safe base64 or from hex.
fn bytes<const N: usize>(s: &str) -> Option<[u8; N]> {
    use base64::Engine;
    if !s.is_ascii() {
        return None;
    }
    if s.len() == 2 * N {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        return Some(out);
    }
    let mut out = [0u8; N];
    match base64::engine::general_purpose::URL_SAFE_NO_PAD.decode_slice(s, &mut out) {
        Ok(n) if n == N && s.len() == (4 * N).div_ceil(3) => Some(out),
        _ => None,
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rl1@{}/", self.addr())?;
        if let Target::Relay { room, .. } = self.target {
            write!(f, "{}/", text(&room.0))?;
        }
        f.write_str(&text(&self.fingerprint))
    }
}

impl FromStr for JoinCode {
    type Err = JoinCodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |what| JoinCodeError { code: s.chars().take(160).collect(), what };
        let rest = s.trim().strip_prefix("rl1@").ok_or_else(|| err("it does not start with rl1@"))?;
        let (head, hex) = rest.rsplit_once('/').ok_or_else(|| err("no /fingerprint"))?;
        let fingerprint = bytes::<32>(hex).ok_or_else(|| err("the fingerprint is not 43 base64 characters"))?;
        let (addr, room) = match head.split_once('/') {
            Some((addr, room)) => {
                (addr, Some(bytes::<ROOM_LEN>(room).ok_or_else(|| err("the room is not 22 base64 characters"))?))
            }
            None => (head, None),
        };
        let addr: SocketAddr = addr.parse().map_err(|_| err("the address is not ip:port"))?;
        let target = match room {
            Some(room) => Target::Relay { relay: addr, room: RoomId(room) },
            None => Target::Direct(addr),
        };
        Ok(JoinCode { target, fingerprint })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_ones_say_why() {
        let code = JoinCode { target: Target::Direct("[::1]:47600".parse().unwrap()), fingerprint: [0xab; 32] };
        let text = code.to_string();
        assert_eq!(text, format!("rl1@[::1]:47600/{}q6s", "q6ur".repeat(10)));
        assert_eq!(text.parse::<JoinCode>(), Ok(code));
        // The older hex form still reads.
        assert_eq!(format!("rl1@[::1]:47600/{}", "ab".repeat(32)).parse::<JoinCode>(), Ok(code));
        let v4 = JoinCode { target: Target::Direct("127.0.0.1:9".parse().unwrap()), fingerprint: [7; 32] };
        assert_eq!(v4.to_string().parse::<JoinCode>(), Ok(v4));
        for bad in ["", "rl1@", "rl2@127.0.0.1:1/00", "rl1@nowhere:1/", "rl1@127.0.0.1:1/zz"] {
            assert!(bad.parse::<JoinCode>().is_err(), "{bad}");
        }
        let long = format!("rl1@127.0.0.1:1/{}", "é".repeat(32));
        assert!(long.parse::<JoinCode>().is_err(), "multi-byte text never panics");
    }

    #[test]
    fn a_relay_code_names_the_relay_the_room_and_the_fingerprint() {
        let code = JoinCode {
            target: Target::Relay { relay: "203.0.113.5:47700".parse().unwrap(), room: RoomId([0x1f; 16]) },
            fingerprint: [0xab; 32],
        };
        let text = code.to_string();
        assert_eq!(text.len(), "rl1@203.0.113.5:47700/".len() + 22 + 1 + 43, "{text}");
        assert_eq!(text.parse::<JoinCode>(), Ok(code));
        let hex = format!("rl1@203.0.113.5:47700/{}/{}", "1f".repeat(16), "ab".repeat(32));
        assert_eq!(hex.parse::<JoinCode>(), Ok(code));
        let moved = code.with_addr("192.0.2.1:1".parse().unwrap());
        assert_eq!(moved.addr().to_string(), "192.0.2.1:1");
        assert!(matches!(moved.target, Target::Relay { room, .. } if room == RoomId([0x1f; 16])));
        let short_room = format!("rl1@203.0.113.5:47700/1f1f/{}", "ab".repeat(32));
        let e = short_room.parse::<JoinCode>().unwrap_err().to_string();
        assert!(e.contains("the room is not 22 base64 characters"), "{e}");
        // A base64 string one character short, or with a character outside the alphabet.
        let fp = text.rsplit_once('/').unwrap().1;
        assert!(format!("rl1@203.0.113.5:47700/{}", &fp[1..]).parse::<JoinCode>().is_err());
        assert!(format!("rl1@203.0.113.5:47700/{}+", &fp[1..]).parse::<JoinCode>().is_err());
    }
}
