//! Every limit on content in one place, with its value: what the game accepts from a file, a
//! mod or the command line before refusing it with the file, the line and the limit. Each is
//! generous for real content (a Generals menu has about 100 windows, four levels deep; a big
//! map is 512 × 512 cells) and small enough that the worst accepted input stays within a few
//! hundred megabytes and a few seconds. Packet limits live with the codec
//! (`net/codec/`), since they are part of the wire format.
//!
//! Must not: hold anything but numbers and the words that name them.

/// Bytes of one text content file (a layout, a RON table, a map file, a command script).
pub const MAX_TEXT_FILE_BYTES: u64 = 8 << 20;
/// Bytes of a replay file.
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;
/// Bytes of a saved game's file (its state compressed).
pub const MAX_SAVE_BYTES: u64 = 64 << 20;
/// Bytes of a saved game's header (what the Load screen lists: setup, digests, thumbnail).
pub const MAX_SAVE_HEADER_BYTES: u64 = 1 << 20;
/// Bytes a saved game's state may take once uncompressed.
pub const MAX_SAVE_STATE_BYTES: u64 = 512 << 20;
/// Pixels along a saved game's thumbnail's longer side.
pub const MAX_THUMBNAIL_SIDE: u32 = 256;

/// Windows nested inside each other in a layout (a Generals menu uses four).
pub const MAX_WINDOW_DEPTH: usize = 24;
/// Windows in one layout file.
pub const MAX_WINDOWS: usize = 2_000;
/// Characters in one window's TEXT or TOOLTIPTEXT, or in a name or callback.
pub const MAX_WINDOW_TEXT: usize = 4_096;
/// Font sizes a layout may ask for, in pixels at its creation resolution.
pub const FONT_SIZES: std::ops::RangeInclusive<i64> = 1..=96;
/// Creation resolutions a layout may be drawn for (width and height, pixels).
pub const CREATION_RESOLUTION: std::ops::RangeInclusive<i64> = 160..=8_192;
/// How far a window's corners may lie from the origin, in creation pixels (off-screen
/// windows are allowed, but not at absurd distances).
pub const MAX_RECT_COORDINATE: i64 = 65_536;
/// Bytes of one font file a mod brings (`ui/fonts/*.ttf|otf`).
pub const MAX_FONT_BYTES: u64 = 16 << 20;
/// Font files the mods bring, all together.
pub const MAX_FONT_FILES: usize = 64;
/// Pixel size text is rasterised at, at most, after scaling (larger text is drawn at this
/// size).
pub const MAX_GLYPH_PX: f32 = 256.0;

/// Nesting of brackets in a RON file (the RON parser recurses; this bounds it).
pub const MAX_RON_DEPTH: usize = 64;

/// Frames a headless game may run (ten hours at 30 frames a second).
pub const MAX_FRAMES: u32 = 30 * 60 * 60 * 10;
/// Frames `screenshot` plays before its picture (twenty minutes at 30 frames a second): a
/// picture is of a moment, not a whole evening's run.
pub const MAX_SCREENSHOT_FRAMES: u32 = 30 * 60 * 20;
/// Objects one faction starts with, all entries together.
pub const MAX_STARTING_OBJECTS: u32 = 200;
/// Object templates, weapons or armour classes in the rules.
pub const MAX_DEFINITIONS: usize = 4_096;

/// Map size in cells, each side.
pub const MAP_CELLS: std::ops::RangeInclusive<u32> = 8..=512;
/// Features (hills, lakes, plateaus, ramps) and paints in one generator spec.
pub const MAX_TERRAIN_FEATURES: usize = 256;
/// Heights (world units) a generator spec may name, either way from zero.
pub const MAX_TERRAIN_HEIGHT: f64 = 10_000.0;
/// The most a price (an object, an upgrade) or a starting sum may be: far past any game, far
/// below where sums of them could overflow.
pub const MAX_PRICE: i64 = 1_000_000_000;
/// Bytes of one sound file (a WAV), checked before it is read.
pub const MAX_SOUND_BYTES: u64 = 64 << 20;
/// Bytes of one file in a map's folder (each is read whole for the map's digest).
pub const MAX_MAP_FILE_BYTES: u64 = 256 << 20;
/// Units one `bench sim` round may place.
pub const MAX_BENCH_UNITS: usize = 50_000;
/// Seconds of sound `render-audio` renders at once (its samples are held in memory).
pub const MAX_RENDERED_SECONDS: u32 = 20 * 60;
/// Road segments in one map.
pub const MAX_ROAD_SEGMENTS: usize = 20_000;
/// Length of all a map's road segments together, in cells (a 512 × 512 map gridded with roads
/// every eight cells both ways has 65,536).
pub const MAX_ROAD_LENGTH: f64 = 100_000.0;
/// Width of a road type's mesh (its surface and shoulders: `width / width_in_texture`), in
/// world units (a map cell is usually 10; the shipped asphalt is 30).
pub const MAX_ROAD_MESH_WIDTH: f32 = 400.0;
/// Vertices the road builder may make for one map (32 bytes each), counted before any is made.
pub const MAX_ROAD_VERTICES: usize = 2_000_000;
/// Triangles the road builder may make for one map (12 bytes each), counted before any is made.
pub const MAX_ROAD_TRIANGLES: usize = 4_000_000;
/// Pixels each side of a map preview (`map-check --preview` refuses a scale past it).
pub const MAX_PREVIEW_SIDE: u32 = 4_096;
/// Objects placed by a map.
pub const MAX_MAP_OBJECTS: usize = 20_000;

/// Window sizes the settings may ask for (width and height, pixels).
pub const WINDOW_SIZE: std::ops::RangeInclusive<u32> = 320..=16_384;
/// The window positions the settings accept, each way, in pixels (a virtual desktop of many
/// monitors stays well inside).
pub const WINDOW_POSITION: std::ops::RangeInclusive<i32> = -32_768..=32_767;

/// Characters of a map or player name shown in lists (longer ones are refused).
pub const MAX_NAME: usize = 256;
/// Characters of the name a player gives themself (Options, `host`/`join --name`).
pub const MAX_PLAYER_NAME: usize = 32;

/// Pixels of a content image (a heightmap, a terrain map, an atlas), each side.
pub const MAX_IMAGE_SIDE: u32 = 8_192;
/// Bytes a content image may take once decoded.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;
