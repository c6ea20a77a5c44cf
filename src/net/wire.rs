//! What machines say to each other online: the handshake (hello, welcome, refusal), the start
//! of a match, the lockstep stream's messages, and a peer's departure. `codec/` turns these
//! into bytes and back.
//!
//! Must not: carry world state (only commands and checks travel in lockstep).

use crate::lockstep::message::Message;
use crate::lockstep::transport::PeerId;
use crate::sim::ids::{Frame, PlayerId};

/// The wire protocol's version; a peer speaking another is refused at the handshake.
pub const PROTOCOL: u16 = 10;

/// Why the host closed a player's connection in the lobby (a `Refused` reason, and QUIC's
/// close reason).
pub const REMOVED: &str = "removed by the host";

/// Why a second hello on a connection that already holds a seat is refused (the seat stays).
pub const ALREADY_SEATED: &str = "already seated: this connection holds a seat already";

/// What a player's machine is told when another copy of the game with the same identity (the
/// same seat token) took its seat: the newer copy plays on, this one stops.
pub const TAKEN_OVER: &str = "another copy of the game with this player's identity took the seat";

/// The first bytes of a hello, so a stranger's traffic is refused at once.
pub const MAGIC: [u8; 4] = *b"RDGL";

/// A file's content digest, by the name both sides know it by (`data/objects.ron`,
/// `map/heightmap.png`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDigest {
    /// The file's name relative to its content root or map folder.
    pub name: String,
    /// Its digest.
    pub digest: u64,
}

/// A joiner introduces itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// [`PROTOCOL`] of the joiner.
    pub protocol: u16,
    /// The joiner's build (version of the game).
    pub build: String,
    /// The player's name.
    pub name: String,
    /// Digests of the data files the simulation reads.
    pub files: Vec<FileDigest>,
    /// The seat token: proof of the player's identity for this host (see
    /// `online::identity`), all zeros for none. A machine that drops out comes back
    /// with the same token and takes back its seat.
    pub seat: [u8; 32],
    /// Asks to watch: seated as an observer in the lobby, or let into a running match as one
    /// (it runs the history, then watches live; nobody waits for it).
    pub watch: bool,
}

/// The host starts the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The match setup as RON text (slots name their machines).
    pub setup: String,
    /// Digests of the map's files, so a joiner names the file that differs.
    pub map_files: Vec<FileDigest>,
    /// Run as fast as the slowest peer allows instead of 30 frames a second.
    pub unpaced: bool,
    /// How many frames the match runs at most (every machine stops at the same frame).
    pub frames: u32,
}

/// Who fills a lobby slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Free for the next joiner.
    Open,
    /// Nobody plays here.
    Closed,
    /// The computer, at a difficulty (0 easy … 3 brutal), run on the host.
    Ai(u8),
    /// A person at this machine (0 is the host).
    Player(PeerId),
    /// A person at this machine who watches: no side of their own, no orders, never waited
    /// for; their machine runs the whole game from the players' frames. The row's start
    /// position goes to nobody.
    Observer(PeerId),
}

impl Seat {
    /// The machine of the person in the seat, playing or watching.
    pub fn peer(self) -> Option<PeerId> {
        match self {
            Seat::Player(p) | Seat::Observer(p) => Some(p),
            Seat::Open | Seat::Closed | Seat::Ai(_) => None,
        }
    }
}

/// One slot of the lobby, as the host shows it to everyone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosterSlot {
    /// Who plays here.
    pub seat: Seat,
    /// The player's name (empty for open, closed and computer slots).
    pub name: String,
    /// Ready to start (players only).
    pub ready: bool,
    /// Round-trip time to the host, in milliseconds (players only).
    pub ping_ms: u16,
    /// How the player's machine reaches the host: on the LAN, direct (punched) or relayed.
    pub path: PathKind,
    /// Faction, an index among the playable factions.
    pub faction: u8,
    /// Colour, an index into the colour list.
    pub colour: u8,
    /// Team, counted from 1; 0 is no team.
    pub team: u8,
}

/// The lobby as the host keeps it: the map, starting money and every slot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roster {
    /// The map's folder name.
    pub map: String,
    /// Starting money, an index into the money choices.
    pub money: u8,
    /// One per start position of the map, in slot order.
    pub slots: Vec<RosterSlot>,
}

/// One message on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireMessage {
    /// Joiner → host: who I am and what I hold.
    Hello(Hello),
    /// Host → joiner: you are in, as this peer.
    Welcome {
        /// The joiner's peer id.
        peer: PeerId,
        /// The host player's name.
        host: String,
    },
    /// Either way: the handshake or the start is refused, and why.
    Refused {
        /// In the player's words, naming what differs.
        reason: String,
    },
    /// Host → everyone: the match begins.
    Start(Start),
    /// The lockstep stream's own messages.
    Lockstep(Message),
    /// Host → everyone: a peer's players are gone; from `from` on, nobody waits for them.
    Dropped {
        /// The player removed.
        player: PlayerId,
        /// The first frame that no longer needs their data.
        from: Frame,
    },
    /// Either way: I am leaving.
    Bye,
    /// After a desync: this machine's sub-hashes and a digest of every object at `frame`.
    DesyncDigests {
        /// The first frame found to differ.
        frame: Frame,
        /// Sub-hashes: objects, players, RNG, pathfinding, production.
        subs: Vec<u64>,
        /// (object id bits, digest of its fields), in id order.
        objects: Vec<(u64, u64)>,
    },
    /// Host → everyone: from frame `at` on, commands are scheduled `value` frames ahead.
    RunAhead {
        /// The frame the change takes effect on, on every machine.
        at: Frame,
        /// The new run-ahead.
        value: u8,
    },
    /// Lobby: a chat line (a joiner's goes to the host, which sends it on to everyone).
    Chat {
        /// Who wrote it.
        from: String,
        /// What they wrote.
        text: String,
    },
    /// Lobby, joiner → host: ready to start, or not.
    Ready(bool),
    /// Lobby, host → everyone: the map, the money and every slot.
    Roster(Roster),
    /// Lobby, joiner → host: watch the game as an observer (true) or play (false).
    Observe(bool),
    /// Host → an observer joining a running match: the match as it was started, who speaks
    /// for whom, and the frame it watches live from; the history up to that frame follows.
    Watch {
        /// The match as it was started.
        start: Start,
        /// Which peer speaks for each player now.
        owners: Vec<(PlayerId, PeerId)>,
        /// The first frame the observer runs live (every message for it is sent after the
        /// observer connected).
        live: Frame,
    },
    /// Lobby, joiner → host: the faction and colour this player wants.
    Choose {
        /// Faction index among the playable factions.
        faction: u8,
        /// Colour index.
        colour: u8,
    },
    /// Host → a player coming back: you are machine `machine` of this running match.
    Rejoin {
        /// The match as it was started.
        start: Start,
        /// The machine (as numbered at the start) whose slots are this player's.
        machine: u8,
        /// Which peer speaks for each player now (machines that came back have new peers).
        owners: Vec<(PlayerId, PeerId)>,
    },
    /// Host → a player coming back: the commands executed on the frames before `through`
    /// not sent yet, and the host's state hash after each frame in them that is a multiple
    /// of 300 (checkpoints).
    History {
        /// Every frame before this one is now covered.
        through: Frame,
        /// The commands, each stamped with the frame it executed on.
        commands: Vec<crate::sim::command::StampedCommand>,
        /// (frame, hash) checkpoints.
        checkpoints: Vec<(Frame, u64)>,
    },
    /// A player coming back → host: I have run every frame you sent, up to `frame`.
    CaughtUp {
        /// The next frame this machine would run.
        frame: Frame,
    },
    /// Host → everyone: `player` is back, spoken for by `peer`; its machine plays live from
    /// frame `live`, and everyone waits for its data again from frame `back`.
    Readmitted {
        /// The player.
        player: PlayerId,
        /// The peer that now speaks for it.
        peer: PeerId,
        /// The first frame its machine runs live.
        live: Frame,
        /// The first frame that needs its data again.
        back: Frame,
    },
    /// After the digests: the fields of the first object that differs, at `frame`.
    DesyncObject {
        /// The frame.
        frame: Frame,
        /// The object's id bits.
        object: u64,
        /// (field, value); empty when this machine has no such object.
        fields: Vec<(String, String)>,
    },
}

/// How a peer is reached, as `host` and `join` report it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathKind {
    /// Straight to the address in the code: no relay involved.
    #[default]
    Lan,
    /// Straight, through a hole both sides punched.
    Direct,
    /// Through the relay.
    Relayed,
}

impl PathKind {
    /// Every kind, in wire order.
    pub const ALL: [PathKind; 3] = [PathKind::Lan, PathKind::Direct, PathKind::Relayed];

    /// The word shown to players and written in JSON.
    pub fn name(self) -> &'static str {
        match self {
            PathKind::Lan => "lan",
            PathKind::Direct => "direct",
            PathKind::Relayed => "relayed",
        }
    }
}
