//! The host's count of connections still opening (their handshake, then their first stream),
//! by the address they come from: past [`MAX_PENDING`] in all or [`MAX_PENDING_PER_ADDRESS`]
//! from one address a new one is refused at once, so a flood of half-open connections can
//! neither hold the host nor keep others out.
//!
//! Must not: look at what a connection carries; it only counts.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use thiserror::Error;

/// New connections the host lets finish their handshake and open their stream at once: more
/// are refused until one settles, so a flood of them cannot hold the host.
pub const MAX_PENDING: usize = 64;
/// The same, from one address: a flood from one machine leaves room for everyone else, and
/// a full lobby's joiners coming at once through one relay (one address) all get in.
pub const MAX_PENDING_PER_ADDRESS: usize = 16;

/// Why a connection attempt is turned away before its handshake.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub(super) enum TooMany {
    /// Too many connections are opening, from everywhere.
    #[error("{MAX_PENDING} connections are still opening")]
    Opening,
    /// Too many from this address.
    #[error("{MAX_PENDING_PER_ADDRESS} of its connections are still opening")]
    FromAddress,
    /// The count's lock was poisoned by a panic elsewhere.
    #[error("the host's state broke")]
    Broken,
}

/// The connections still opening (handshake, then stream), by address.
#[derive(Clone, Debug, Default)]
pub(super) struct Pending(Arc<Mutex<BTreeMap<IpAddr, usize>>>);

impl Pending {
    /// Counts one more from `from`, unless [`MAX_PENDING`] or [`MAX_PENDING_PER_ADDRESS`] are
    /// reached (the reason).
    pub(super) fn enter(&self, from: IpAddr) -> Result<(), TooMany> {
        let mut open = self.0.lock().map_err(|_| TooMany::Broken)?;
        if open.values().sum::<usize>() >= MAX_PENDING {
            return Err(TooMany::Opening);
        }
        let mine = open.entry(from).or_default();
        if *mine >= MAX_PENDING_PER_ADDRESS {
            return Err(TooMany::FromAddress);
        }
        *mine += 1;
        Ok(())
    }

    /// One from `from` has opened, failed or run out of time.
    pub(super) fn leave(&self, from: IpAddr) {
        if let Ok(mut open) = self.0.lock()
            && let Some(n) = open.get_mut(&from)
        {
            *n -= 1;
            if *n == 0 {
                open.remove(&from);
            }
        }
    }
}
