//! The shell's screens, each the name of its layout file under `ui/`, and the screens mods
//! bring (`screens` in a `mod.ron`), by their place in the list the shell keeps of them.
//!
//! Must not: open or close anything (the shell does).

/// The shell's screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The main menu.
    MainMenu,
    /// Skirmish setup.
    Skirmish,
    /// Host or join.
    Online,
    /// The multiplayer lobby.
    Lobby,
    /// Options.
    Options,
    /// Replays.
    Replays,
    /// The score screen.
    Score,
    /// Mods: which are on, in what order.
    Mods,
    /// The battle's own windows (the top bar) over the battlefield.
    InGame,
    /// Saved games to continue.
    Load,
    /// The battle's menu: resume, save, options, leave.
    GameMenu,
    /// Options → Keys: every battle command's key.
    Keys,
    /// A screen a mod brings: its place in the shell's list of them (`Screens::file_of` gives
    /// its layout), opened by `open:<name>` and left by `back` for the screen it came from.
    Mod(u8),
}

impl Screen {
    /// Every screen of the game's own.
    pub const ALL: [Screen; 12] = [
        Screen::MainMenu,
        Screen::Skirmish,
        Screen::Online,
        Screen::Lobby,
        Screen::Options,
        Screen::Replays,
        Screen::Score,
        Screen::Mods,
        Screen::InGame,
        Screen::Load,
        Screen::GameMenu,
        Screen::Keys,
    ];

    /// The screen whose layout is this file, if any.
    pub fn for_layout(file: &str) -> Option<Screen> {
        Screen::ALL.into_iter().find(|s| s.layout() == file)
    }

    /// The layout file of one of the game's screens (a mod's screen: empty, see
    /// `Screens::file_of`).
    pub fn layout(self) -> &'static str {
        match self {
            Screen::MainMenu => "MainMenu.wnd",
            Screen::Skirmish => "SkirmishSetup.wnd",
            Screen::Online => "Online.wnd",
            Screen::Lobby => "Lobby.wnd",
            Screen::Options => "Options.wnd",
            Screen::Replays => "Replays.wnd",
            Screen::Score => "ScoreScreen.wnd",
            Screen::Mods => "Mods.wnd",
            Screen::InGame => "InGame.wnd",
            Screen::Load => "Load.wnd",
            Screen::GameMenu => "GameMenu.wnd",
            Screen::Keys => "Keys.wnd",
            Screen::Mod(_) => "",
        }
    }
}
