//! The project's own art generators: images made procedurally from data, written to `data/`
//! by `ridgeline gen-art` and committed. Nothing here runs while playing.

pub mod road_atlas;
pub mod sounds;
pub mod ui_atlas;
mod ui_faction;
