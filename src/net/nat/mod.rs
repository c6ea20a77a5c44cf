//! Reaching a friend behind a home NAT: one UDP socket per machine ([`socket::NatSocket`])
//! carries QUIC straight, through a relay room, or through a hole both sides punched, as
//! [`paths::Paths`] decides; QUIC (and its pinned TLS) never notices a switch.
//!
//! Must not: read or alter QUIC's packets beyond wrapping them for the relay.

mod failure;
pub mod paths;
pub mod punch;
pub mod punch_key;
mod shown;
pub mod socket;

#[cfg(test)]
mod refresh_tests;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

pub use failure::RelayFailure;
pub use paths::{PathKind, Paths};
pub use shown::shown;

/// How a machine reaches the others: the relay to use (a host registers there; a joiner's code
/// names it) and whether to punch for a direct path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// A host's relay, or a joiner's replacement for the address in its code (`--connect`).
    pub relay: Option<SocketAddr>,
    /// Try a direct path through both NATs (off: every packet goes through the relay).
    pub punch: bool,
}

impl Default for Reach {
    fn default() -> Reach {
        Reach { relay: None, punch: true }
    }
}
pub use socket::{NatSocket, SharedPaths};

/// A QUIC endpoint on a [`NatSocket`] bound to `bind`, following `paths` (a server when
/// `server` is given), with the socket's driver running beside it; the socket is returned to
/// key punching once a connection is up ([`NatSocket::arm`]). Call inside a tokio runtime.
pub fn endpoint(
    bind: SocketAddr,
    paths: Paths,
    server: Option<quinn::ServerConfig>,
) -> std::io::Result<(quinn::Endpoint, SharedPaths, Arc<NatSocket>)> {
    let socket = std::net::UdpSocket::bind(bind)?;
    let shared: SharedPaths = Arc::new(Mutex::new(paths));
    let nat = NatSocket::new(socket, shared.clone())?;
    tokio::spawn(socket::drive(nat.clone()));
    let mut config = quinn::EndpointConfig::default();
    // QUIC packets then always have the fixed bit set, and relay datagrams never do.
    config.grease_quic_bit(false);
    let endpoint =
        quinn::Endpoint::new_with_abstract_socket(config, server, nat.clone(), Arc::new(quinn::TokioRuntime))?;
    Ok((endpoint, shared, nat))
}
