//! Join codes: what a host gives a friend to join — the address to reach and the fingerprint
//! of the host's certificate, as one line of text: `rl1@<ip:port>/<64 hex digits>`.
//!
//! Must not: resolve names or touch the network (the address is taken as written).

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use thiserror::Error;

/// Where the host is and which certificate is theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinCode {
    /// The host's address.
    pub addr: SocketAddr,
    /// SHA-256 of the host's certificate.
    pub fingerprint: [u8; 32],
}

/// A join code that does not read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("join code \"{code}\": {what} (expected rl1@<ip:port>/<64 hex digits>)")]
pub struct JoinCodeError {
    code: String,
    what: &'static str,
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rl1@{}/", self.addr)?;
        for b in self.fingerprint {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl FromStr for JoinCode {
    type Err = JoinCodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |what| JoinCodeError { code: s.chars().take(120).collect(), what };
        let rest = s.trim().strip_prefix("rl1@").ok_or_else(|| err("it does not start with rl1@"))?;
        let (addr, hex) = rest.rsplit_once('/').ok_or_else(|| err("no /fingerprint"))?;
        let addr: SocketAddr = addr.parse().map_err(|_| err("the address is not ip:port"))?;
        if hex.len() != 64 || !hex.is_ascii() {
            return Err(err("the fingerprint is not 64 hex digits"));
        }
        let mut fingerprint = [0u8; 32];
        for (i, b) in fingerprint.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| err("the fingerprint is not hex"))?;
        }
        Ok(JoinCode { addr, fingerprint })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_bad_ones_say_why() {
        let code = JoinCode { addr: "[::1]:47600".parse().unwrap(), fingerprint: [0xab; 32] };
        let text = code.to_string();
        assert!(text.starts_with("rl1@[::1]:47600/abab"));
        assert_eq!(text.parse::<JoinCode>(), Ok(code));
        let v4 = JoinCode { addr: "127.0.0.1:9".parse().unwrap(), fingerprint: [7; 32] };
        assert_eq!(v4.to_string().parse::<JoinCode>(), Ok(v4));
        for bad in ["", "rl1@", "rl2@127.0.0.1:1/00", "rl1@nowhere:1/", "rl1@127.0.0.1:1/zz"] {
            assert!(bad.parse::<JoinCode>().is_err(), "{bad}");
        }
        let long = format!("rl1@127.0.0.1:1/{}", "é".repeat(32));
        assert!(long.parse::<JoinCode>().is_err(), "multi-byte text never panics");
    }
}
