//! What the one write path notes for the store as objects change, beyond the hash: that some
//! health fell to zero (so the frame's search for the dead runs only when there can be some),
//! and a count of changes to what a player's power balance reads (so the balance is kept
//! between frames and found again only when it may have changed).
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
}

impl From<bool> for Marks {
    /// A loaded flag; the count starts again (the caches keyed by it start empty too).
    fn from(fallen: bool) -> Marks {
        Marks { fallen, power: 0 }
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
        let marks = Marks { fallen: true, power: 7 };
        let text = ron::ser::to_string(&marks).unwrap();
        assert_eq!(text, "true");
        assert_eq!(ron::from_str::<Marks>(&text).unwrap(), Marks { fallen: true, power: 0 });
    }
}
