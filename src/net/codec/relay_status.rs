//! A relay's health as its status answer carries it (`ridgeline relay --status`): named
//! counters, sent as a count and that many little-endian u64s so a newer relay may add some.
//!
//! Must not: carry anything about a room or an address.

/// What a relay has counted since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RelayStats {
    /// Rooms made.
    pub rooms_made: u64,
    /// Rooms forgotten (timed out).
    pub rooms_gone: u64,
    /// Datagrams forwarded between members.
    pub forwarded: u64,
    /// Bytes forwarded.
    pub forwarded_bytes: u64,
    /// Datagrams dropped: malformed, from strangers, or over a limit.
    pub dropped: u64,
    /// Requests refused for a limit.
    pub limited: u64,
    /// Challenges sent (requests without a valid cookie).
    pub challenges: u64,
}

/// A relay's health, as `ridgeline relay --status` prints it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RelayStatus {
    /// Rooms open now.
    pub rooms: u64,
    /// Members (hosts and joiners) seated now.
    pub members: u64,
    /// What it counted since it started.
    #[serde(flatten)]
    pub counted: RelayStats,
    /// Seconds since start.
    pub uptime_s: u64,
    /// The relay's resident memory in bytes (0 where unknown).
    pub rss_bytes: u64,
}

impl RelayStatus {
    /// The counters in wire order.
    pub(super) fn fields(&self) -> [u64; 11] {
        [
            self.rooms,
            self.members,
            self.counted.rooms_made,
            self.counted.rooms_gone,
            self.counted.forwarded,
            self.counted.forwarded_bytes,
            self.counted.dropped,
            self.counted.limited,
            self.counted.challenges,
            self.uptime_s,
            self.rss_bytes,
        ]
    }

    /// From counters in wire order (missing ones are 0; extra ones, from a newer relay, ignored).
    pub(super) fn from_fields(f: &[u64]) -> RelayStatus {
        let at = |i: usize| f.get(i).copied().unwrap_or(0);
        RelayStatus {
            rooms: at(0),
            members: at(1),
            counted: RelayStats {
                rooms_made: at(2),
                rooms_gone: at(3),
                forwarded: at(4),
                forwarded_bytes: at(5),
                dropped: at(6),
                limited: at(7),
                challenges: at(8),
            },
            uptime_s: at(9),
            rss_bytes: at(10),
        }
    }
}
