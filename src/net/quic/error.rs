//! Why online play could not start or go on, typed at the transport's seam: the TLS setup,
//! the network thread, the sockets, the relay and the connection to the host each say what
//! failed with their own error, not a string.
//!
//! Must not: decide what to do about a failure (the lobby and the headless run do).

use std::net::SocketAddr;

use thiserror::Error;

use crate::net::nat::RelayFailure;

/// Why online play could not start or go on.
#[derive(Debug, Error)]
pub enum QuicError {
    /// No self-signed certificate could be made for this hosting.
    #[error("encryption: cannot make a certificate: {0}")]
    Certificate(#[from] rcgen::Error),
    /// The TLS library refused the settings.
    #[error("encryption: {0}")]
    Tls(#[from] rustls::Error),
    /// QUIC cannot use the TLS settings (no cipher suite it can start a connection with).
    #[error("encryption: QUIC cannot use the TLS setup: {0}")]
    QuicTls(#[from] quinn::crypto::rustls::NoInitialCipherSuite),
    /// The network thread's async runtime could not be built.
    #[error("network: no async runtime: {0}")]
    Runtime(std::io::Error),
    /// The network thread could not be started.
    #[error("network: cannot start the network thread: {0}")]
    Thread(std::io::Error),
    /// The network thread ended before it said whether it is ready.
    #[error("network: the network thread stopped")]
    ThreadStopped,
    /// The network thread's shared state broke (a thread panicked holding it).
    #[error("network: the network state broke")]
    StateBroke,
    /// The host's socket could not be bound.
    #[error("network: cannot listen on {addr}: {source}")]
    Listen {
        /// Where it was to listen.
        addr: SocketAddr,
        /// Why not.
        source: std::io::Error,
    },
    /// A joiner's socket could not be opened, or a socket's address read.
    #[error("network: cannot open a socket: {0}")]
    Socket(std::io::Error),
    /// The relay cannot be used.
    #[error("network: {0}")]
    Relay(#[from] RelayFailure),
    /// The host could not be reached or greeted.
    #[error("network: {0}")]
    Connect(#[from] ConnectFailure),
    /// The host closed the connection before it seated this machine (it turned it away, or
    /// died); `why` is the transport's account of the close.
    #[error("network: the host closed the connection before seating this machine ({why})")]
    ClosedBeforeSeat {
        /// The close as the transport saw it.
        why: String,
    },
}

/// The host as a joiner names it in a failure: its address, or the relay it is reached through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostAt {
    /// Reached at this address.
    Direct(SocketAddr),
    /// Reached through the relay at this address.
    Relayed(SocketAddr),
}

impl std::fmt::Display for HostAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HostAt::Direct(a) => write!(f, "{a}"),
            HostAt::Relayed(relay) => write!(f, "the host through the relay at {relay}"),
        }
    }
}

/// Why a joiner could not reach or greet its host.
#[derive(Debug, Error)]
pub enum ConnectFailure {
    /// QUIC refused to start the connection.
    #[error("cannot connect to {to}: {source}")]
    Start {
        /// The host.
        to: HostAt,
        /// QUIC's reason.
        source: quinn::ConnectError,
    },
    /// The host turned the connection away because too many were opening at once.
    #[error("{to} refused the connection, busy with others opening at once; try again in a moment")]
    Busy {
        /// The host.
        to: HostAt,
    },
    /// The connection failed while it was made.
    #[error("cannot connect to {to}: {source}")]
    Lost {
        /// The host.
        to: HostAt,
        /// QUIC's reason.
        source: quinn::ConnectionError,
    },
    /// Nothing came back in the time allowed.
    #[error("no answer from {to}")]
    NoAnswer {
        /// The host.
        to: HostAt,
    },
    /// The host would not open the control stream.
    #[error("the host refused a stream: {0}")]
    Stream(quinn::ConnectionError),
    /// The greeting could not be written.
    #[error("cannot greet the host: {0}")]
    Greet(quinn::WriteError),
}

/// A failure to reach the host as the player reads it where it arrives as a departure (without
/// the "network:" the error's kind adds).
pub(super) fn connect_reason(e: &QuicError) -> String {
    match e {
        QuicError::Connect(c) => c.to_string(),
        QuicError::Relay(r) => r.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::codec::relay::RelayRefusal;

    #[test]
    fn each_failure_names_what_failed_and_where_in_the_players_words() {
        let relay: SocketAddr = "192.0.2.7:47700".parse().unwrap();
        let busy = QuicError::from(ConnectFailure::Busy { to: HostAt::Relayed(relay) });
        assert_eq!(
            busy.to_string(),
            "network: the host through the relay at 192.0.2.7:47700 refused the connection, busy with others opening at once; \
             try again in a moment"
        );
        // Told as a departure, the kind's prefix is left out.
        assert_eq!(
            connect_reason(&busy),
            "the host through the relay at 192.0.2.7:47700 refused the connection, busy with others opening at once; \
             try again in a moment"
        );
        let none = QuicError::from(ConnectFailure::NoAnswer { to: HostAt::Direct(relay) });
        assert_eq!(connect_reason(&none), "no answer from 192.0.2.7:47700");
        let refused = QuicError::from(RelayFailure::Refused { relay, why: RelayRefusal::Full });
        assert_eq!(refused.to_string(), "network: the relay at 192.0.2.7:47700 refused: the game at the relay is full");
        assert!(matches!(refused, QuicError::Relay(RelayFailure::Refused { why: RelayRefusal::Full, .. })));
    }
}
