//! What a machine refused of its peers' lockstep messages, kept in fixed space: a count per
//! kind of refusal, the first few refusals whole (for reports and tests), and a log that
//! speaks at the first refusal of a kind and then only as the count doubles, so a flood of
//! bad messages costs a few lines and no memory.
//!
//! Must not: keep refusals beyond [`KEPT`], or read the clock (the stream has none; doubling
//! counts bound the log without one).

use std::collections::BTreeMap;

use super::error::StreamError;

/// Refusals kept whole; later ones are only counted.
pub const KEPT: usize = 32;

/// The refusals a stream has seen.
#[derive(Clone, Debug, Default)]
pub struct Refusals {
    first: Vec<StreamError>,
    counts: BTreeMap<&'static str, u64>,
}

impl Refusals {
    /// Counts `error`, keeps it if fewer than [`KEPT`] are kept, and logs it when its kind's
    /// count is a power of two (1, 2, 4, …) with the count so far.
    pub fn note(&mut self, error: &StreamError) {
        let count = self.counts.entry(error.kind()).or_insert(0);
        *count += 1;
        if count.is_power_of_two() {
            if *count == 1 {
                log::warn!("lockstep: {error}");
            } else {
                log::warn!("lockstep: {error} ({count} refusals of this kind so far)");
            }
        }
        if self.first.len() < KEPT {
            self.first.push(error.clone());
        }
    }

    /// True when `error` is already among the refusals kept.
    pub fn contains(&self, error: &StreamError) -> bool {
        self.first.contains(error)
    }

    /// The first refusals, at most [`KEPT`].
    pub fn first(&self) -> &[StreamError] {
        &self.first
    }

    /// How many refusals of each kind (see [`StreamError::kind`]).
    pub fn counts(&self) -> &BTreeMap<&'static str, u64> {
        &self.counts
    }

    /// Refusals in all.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::{Frame, PlayerId};

    #[test]
    fn a_flood_is_counted_in_fixed_space() {
        let mut r = Refusals::default();
        for f in 0..10_000u32 {
            r.note(&StreamError::Late { player: PlayerId(1), frame: Frame(f) });
        }
        r.note(&StreamError::UnknownPlayer { player: PlayerId(9), frame: Frame(3) });
        assert_eq!(r.first().len(), KEPT);
        assert_eq!(r.first()[0], StreamError::Late { player: PlayerId(1), frame: Frame(0) });
        assert_eq!(r.counts().get("late"), Some(&10_000));
        assert_eq!(r.counts().get("unknown player"), Some(&1));
        assert_eq!(r.total(), 10_001);
    }
}
