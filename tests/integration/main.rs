//! Ridgeline's integration tests, in one test binary.
//!
//! Every file here was once a test binary of its own; each one linked the whole game with its
//! debug information (about 280 MB apiece), which made the test build slow to link and large
//! enough to fill a CI machine's disk. As modules of one crate they link once. Run a part of
//! them by module path: `cargo test --test integration battle::` or
//! `cargo test --test integration render_world::`.

mod common;

mod actions;
mod ai;
mod army_bar;
mod art;
mod audio;
mod battle;
mod battle_end;
mod boundaries;
mod cli;
mod commands_fuzz;
mod defs;
mod determinism;
mod determinism_lint;
mod docs;
mod docs_architecture;
mod economy;
mod editor_patches;
mod events;
mod fairness;
mod files;
mod fixed_point;
mod generals_layouts;
mod generals_menus;
mod hostile;
mod hostile_fuzz;
mod hud;
mod join_timeout;
mod keys;
mod layers;
mod list_names;
mod live_editing;
mod lobby_link;
mod lobby_screen;
mod lockstep;
mod lying_peer;
mod maps;
mod mod_fonts;
mod mod_patches;
mod mod_paths;
mod mod_screens;
mod mods;
mod movement;
mod net_codec;
mod observers;
mod online;
mod online_link;
mod online_lobby;
mod online_seats;
mod picking;
mod placement;
mod placing_refusals;
mod power;
mod production;
mod projectiles;
mod punch_spoof;
mod relay;
mod render_ground;
mod render_ui;
mod render_world;
mod road_caps;
mod roads;
mod round_two;
mod saves;
mod session;
mod shell;
mod skirmish_preview;
mod tidy;
mod tournament;
mod translation;
mod ui_fmt;
mod ui_harness;
mod ui_import;
mod ui_snapshots;
mod ui_wnd;
mod warnings;
mod wheel_zoom;
