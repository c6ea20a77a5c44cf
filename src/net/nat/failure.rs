//! Why the relay cannot be used: the one way [`super::Paths`] gives up on it, typed so the
//! transport's error says it without strings.
//!
//! Must not: hold state; the paths decide when to give up.

use std::net::SocketAddr;

use thiserror::Error;

use crate::net::codec::relay::RelayRefusal;

/// Why the relay cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RelayFailure {
    /// Nothing came back from the relay in the time asked for.
    #[error("no answer from the relay at {0}")]
    NoAnswer(SocketAddr),
    /// The relay said no, and why.
    #[error("the relay at {relay} refused: {}", why.describe())]
    Refused {
        /// The relay that refused.
        relay: SocketAddr,
        /// Its reason.
        why: RelayRefusal,
    },
}
