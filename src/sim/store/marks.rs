//! What the one write path notes for the store as objects change, beyond the hash: that some
//! health fell to zero (so the frame's search for the dead runs only when there can be some),
//! a count of changes to what a player's power balance reads (so the balance is kept between
//! frames and found again only when it may have changed), and how many objects have orders
//! queued (so the frame's look for units to start their next one runs only when some have).
//!
//! One small value handed to [`crate::sim::object_mut::ObjectMut`] as one reference, so the
//! handle grows by no pointer for the count. Must not: hold anything the game's state hash
//! needs (the count is a cache's key; a save keeps only the flag).

/// The store's marks, written through [`crate::sim::object_mut::ObjectMut`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "bool", into = "bool")]
pub struct Marks {
    /// Set when an object's health falls to zero or below; taken by the store.
    pub fallen: bool,
    /// Times a structure was finished or switched off or on (the power balance may change).
    pub power: u64,
    /// Live objects with orders queued; none when not counted since the store was loaded
    /// (the store counts them when first asked).
    pub queued: Option<u32>,
}

impl Marks {
    /// Notes that an object's queue went from `had` orders to `has` (empty or not).
    #[inline(always)]
    pub fn requeued(&mut self, had: bool, has: bool) {
        if let Some(n) = &mut self.queued {
            *n = match (had, has) {
                (false, true) => n.saturating_add(1),
                (true, false) => n.saturating_sub(1),
                _ => *n,
            };
        }
    }
}

impl From<bool> for Marks {
    /// A loaded flag; the count starts again (the caches keyed by it start empty too).
    fn from(fallen: bool) -> Marks {
        Marks { fallen, power: 0, queued: None }
    }
}

impl From<Marks> for bool {
    fn from(marks: Marks) -> bool {
        marks.fallen
    }
}

#[cfg(test)]
mod tests {
    use super::Marks;

    #[test]
    fn a_save_keeps_the_flag_alone_as_a_plain_bool() {
        let marks = Marks { fallen: true, power: 7, queued: Some(3) };
        let text = ron::ser::to_string(&marks).unwrap();
        assert_eq!(text, "true");
        assert_eq!(ron::from_str::<Marks>(&text).unwrap(), Marks { fallen: true, power: 0, queued: None });
    }

    #[test]
    fn the_queued_count_follows_queues_that_fill_and_empty_and_stays_unknown_when_unknown() {
        let mut marks = Marks { queued: Some(0), ..Marks::default() };
        marks.requeued(false, true);
        marks.requeued(true, true);
        marks.requeued(false, true);
        assert_eq!(marks.queued, Some(2));
        marks.requeued(true, false);
        marks.requeued(false, false);
        assert_eq!(marks.queued, Some(1));
        let mut unknown = Marks::default();
        unknown.requeued(false, true);
        assert_eq!(unknown.queued, None);
    }
}
