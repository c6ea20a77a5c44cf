//! The armies the simulation benchmarks play (`bench sim`, `bench scale`, `bench audio`):
//! units laid out on an open field sized to them, and controllers that order them through the
//! message stream in groups, as players would.
//!
//! Every scenario keeps its density whatever the count: units start on a lattice
//! [`SPACING`] apart and the field grows with the lattice (with [`MARGIN`] of open ground
//! around), so every unit and every order stays on the field, and a larger count measures more
//! of the same work, not a more crowded field.
//!
//! Must not: time anything (the benchmarks do) or reach into the world except by commands.

use crate::defs::Definitions;
use crate::session::controller::Controller;
use crate::sim::command::{Command, MAX_SELECTION, Point};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId};
use crate::sim::terrain::Terrain;
use crate::sim::vector::Vec2;
use crate::sim::world::{GameSetup, InitialObject, PlayerSetup, SetupError, World};

/// Units ordered together (half the most a selection may hold).
const GROUP: usize = MAX_SELECTION / 2;
/// Distance between neighbours of the starting lattice, world units.
const SPACING: i64 = 30;
/// Open ground around the armies, world units: more than a shuttle's reach.
const MARGIN: i64 = 300;
/// How far north or south of home a shuttling group goes, world units.
const REACH: i32 = 150;
/// Frames between two orders to the same shuttling group.
const PERIOD: u64 = 240;
/// Side of a cell, world units.
const CELL: i64 = 10;
/// The smallest field, in cells (what the benchmarks used before they grew with the count).
const MIN_SIDE_CELLS: i64 = 256;

/// Some of a player's units, ordered together, and where they started (the mean of their
/// starting positions).
struct Group {
    units: Vec<ObjectId>,
    home: Point,
}

/// Splits `units` (with their starting positions) into groups of [`GROUP`].
fn groups(units: &[(ObjectId, Vec2)]) -> Vec<Group> {
    units
        .chunks(GROUP)
        .map(|chunk| {
            let n = chunk.len().max(1) as i64;
            let (sx, sy) = chunk.iter().fold((0i64, 0i64), |(x, y), (_, p)| (x + p.x.floor_int(), y + p.y.floor_int()));
            Group {
                units: chunk.iter().map(|(id, _)| *id).collect(),
                home: Point { x: (sx / n) as i32, y: (sy / n) as i32 },
            }
        })
        .collect()
}

/// One group's orders: select it, then `order`.
fn order(group: &Group, order: Command) -> Vec<Command> {
    vec![Command::Select { objects: group.units.clone(), add: false }, order]
}

/// Orders each group of a player's units back and forth, [`REACH`] north and south of home.
pub(crate) struct Shuttle {
    player: PlayerId,
    groups: Vec<Group>,
}

impl Controller for Shuttle {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        let f = world.frame().0 as u64;
        // A frame's selections all run before its orders, so each group is ordered on a frame
        // of its own: group g on the g-th frame of each period.
        let Some(group) = self.groups.get((f % PERIOD) as usize) else { return Vec::new() };
        let north = (f / PERIOD).is_multiple_of(2);
        let to = Point { x: group.home.x, y: group.home.y + if north { REACH } else { -REACH } };
        order(group, Command::Move { to })
    }
}

/// Sends each group of a player's units attack-moving to one x, keeping its own y, once.
pub(crate) struct Charge {
    player: PlayerId,
    groups: Vec<Group>,
    x: i32,
}

impl Controller for Charge {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        // One group a frame, as the shuttle does: group g on frame g.
        let Some(group) = self.groups.get(world.frame().0 as usize) else { return Vec::new() };
        order(group, Command::AttackMove { to: Point { x: self.x, y: group.home.y } })
    }
}

/// Sends every group of a player's units to one point, once.
pub(crate) struct Converge {
    player: PlayerId,
    groups: Vec<Group>,
    to: Point,
}

impl Controller for Converge {
    fn player(&self) -> PlayerId {
        self.player
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        let Some(group) = self.groups.get(world.frame().0 as usize) else { return Vec::new() };
        order(group, Command::Move { to: self.to })
    }
}

/// A controller of any of the scenarios.
pub(crate) enum Orders {
    /// Back and forth (the open field).
    Shuttle(Shuttle),
    /// Attack-moving across (the battles).
    Charge(Charge),
    /// All to one point (the crowd).
    Converge(Converge),
}

impl Controller for Orders {
    fn player(&self) -> PlayerId {
        match self {
            Orders::Shuttle(c) => c.player(),
            Orders::Charge(c) => c.player(),
            Orders::Converge(c) => c.player(),
        }
    }

    fn think(&mut self, world: &World) -> Vec<Command> {
        match self {
            Orders::Shuttle(c) => c.think(world),
            Orders::Charge(c) => c.think(world),
            Orders::Converge(c) => c.think(world),
        }
    }
}

/// A scenario ready to play: the world and one controller a player.
pub(crate) struct Scenario {
    /// The world at frame 0.
    pub world: World,
    /// Who orders what.
    pub controllers: Vec<Orders>,
    /// Units at the start.
    pub units: usize,
    /// The field's width and height, in cells.
    pub cells: (u32, u32),
}

/// `n` lattice points `columns` wide, `spacing` apart, the first at `origin`, row by row.
fn lattice(n: usize, columns: usize, origin: (i64, i64), spacing: (i64, i64)) -> impl Iterator<Item = Vec2> {
    let columns = columns.max(1);
    (0..n).map(move |k| {
        let (col, row) = ((k % columns) as i64, (k / columns) as i64);
        Vec2::from_int(origin.0 + col * spacing.0, origin.1 + row * spacing.1)
    })
}

/// Columns of a square-ish lattice of `n` points.
fn square_columns(n: usize) -> usize {
    (n as f64).sqrt().ceil().max(1.0) as usize
}

/// The shipped tank and rifleman templates, a third tanks.
fn army_template(defs: &Definitions, k: usize) -> crate::sim::ids::TemplateId {
    let rules = &defs.rules;
    let name = if k.is_multiple_of(3) { "Bulwark" } else { "Rifleman" };
    rules.template_id(name).unwrap_or_default()
}

/// A player's units with their starting positions, in id order.
type Army = Vec<(ObjectId, Vec2)>;

/// A world of two players on an open field of `cells` (width, height) holding `objects`, and
/// each player's mobile units of `objects` (not the factions' starting ones) in id order with
/// their starting positions. `allies` puts both on one
/// team.
fn field(
    defs: &Definitions,
    cells: (u32, u32),
    objects: Vec<InitialObject>,
    seed: u64,
    allies: bool,
) -> Result<(World, [Army; 2]), SetupError> {
    let rules = &defs.rules;
    let far = (cells.0 as i64 * CELL - 100, cells.1 as i64 * CELL - 100);
    let starts = vec![Vec2::from_int(100, 100), Vec2::from_int(far.0, far.1)];
    let team1 = if allies { 0 } else { 1 };
    let setup = GameSetup {
        rules: rules.clone(),
        terrain: Terrain::open(cells.0, cells.1, Fixed::from_int(CELL), starts),
        players: vec![
            PlayerSetup::with_faction_money(rules, 0, 0, 0),
            PlayerSetup::with_faction_money(rules, 1, team1, 1),
        ],
        seed,
        objects,
    };
    let placed = setup.objects.len();
    let world = World::new(setup)?;
    // The factions' starting objects come first; the scenario's are the last made.
    let first = world.object_count().saturating_sub(placed);
    let mine = |p: u8| -> Army {
        world
            .objects()
            .filter(|o| o.id.index as usize >= first)
            .filter(|o| o.owner.0 == p && rules.template(o.template).is_mobile())
            .map(|o| (o.id, o.pos))
            .collect()
    };
    let armies = [mine(0), mine(1)];
    Ok((world, armies))
}

/// The field's side in cells for `extent` world units: at least [`MIN_SIDE_CELLS`].
fn side_for(extent: i64) -> u32 {
    (extent.div_euclid(CELL) + 1).max(MIN_SIDE_CELLS) as u32
}

/// A shuttling group's tile: wide enough for its formation (15 slots of 39, the spacing of a
/// group with tanks) with a gap, and tall enough for that plus the shuttle's reach each way.
const TILE: (i64, i64) = (650, 650 + 2 * REACH as i64);

/// The open field: `units` units (a third tanks), half each player's, in groups of [`GROUP`],
/// each group on a square lattice in a tile of its own ([`TILE`]) and shuttling north and
/// south of home inside it. Each player's tiles fill a square block, the two blocks side by
/// side; so the work a unit makes is the same at any count.
pub(crate) fn open_field(defs: &Definitions, units: usize, seed: u64) -> Result<Scenario, SetupError> {
    let per = [units.div_ceil(2), units / 2];
    let tiles = per[0].div_ceil(GROUP);
    let tile_columns = square_columns(tiles);
    let tile_rows = tiles.div_ceil(tile_columns) as i64;
    let (block_w, block_h) = (tile_columns as i64 * TILE.0, tile_rows * TILE.1);
    let cells = (side_for(2 * block_w + 3 * MARGIN), side_for(block_h + 2 * MARGIN));
    let origins = [(MARGIN, MARGIN), (2 * MARGIN + block_w, MARGIN)];
    let lattice_columns = square_columns(GROUP);
    let mut objects = Vec::with_capacity(units);
    for (owner, (&n, &(ox, oy))) in per.iter().zip(&origins).enumerate() {
        for k in 0..n {
            let (tile, within) = (k / GROUP, k % GROUP);
            let (tx, ty) = ((tile % tile_columns) as i64, (tile / tile_columns) as i64);
            // The lattice starts a shuttle's reach up from the tile's floor.
            let tile_origin = (ox + tx * TILE.0, oy + ty * TILE.1 + REACH as i64);
            let (col, row) = ((within % lattice_columns) as i64, (within / lattice_columns) as i64);
            let pos = Vec2::from_int(tile_origin.0 + col * SPACING, tile_origin.1 + row * SPACING);
            objects.push(InitialObject {
                template: army_template(defs, k),
                owner: PlayerId(owner as u8),
                pos,
                supply: 0,
            });
        }
    }
    let (world, [a, b]) = field(defs, cells, objects, seed, false)?;
    let controllers = vec![
        Orders::Shuttle(Shuttle { player: PlayerId(0), groups: groups(&a) }),
        Orders::Shuttle(Shuttle { player: PlayerId(1), groups: groups(&b) }),
    ];
    Ok(Scenario { world, controllers, units, cells })
}

/// The crowd: `units` units of one player on a square lattice, every group sent to the same
/// point, the lattice's middle, where they jam (the other player, an ally, has none).
pub(crate) fn crowd(defs: &Definitions, units: usize, seed: u64) -> Result<Scenario, SetupError> {
    let columns = square_columns(units);
    let rows = units.div_ceil(columns) as i64;
    let (block_w, block_h) = (columns as i64 * SPACING, rows * SPACING);
    let side_cells = side_for(block_w.max(block_h) + 2 * MARGIN);
    let objects = lattice(units, columns, (MARGIN, MARGIN), (SPACING, SPACING))
        .enumerate()
        .map(|(k, pos)| InitialObject { template: army_template(defs, k), owner: PlayerId(0), pos, supply: 0 })
        .collect();
    let (world, [a, _]) = field(defs, (side_cells, side_cells), objects, seed, true)?;
    let to = Point { x: (MARGIN + block_w / 2) as i32, y: (MARGIN + block_h / 2) as i32 };
    let controllers = vec![Orders::Converge(Converge { player: PlayerId(0), groups: groups(&a), to })];
    Ok(Scenario { world, controllers, units, cells: (side_cells, side_cells) })
}

/// Rows of a battle army are this far apart, and columns [`BATTLE_COLUMN`]: closer than the
/// open field, as an army in formation.
const BATTLE_ROW: i64 = 18;
/// Column spacing of a battle army.
const BATTLE_COLUMN: i64 = 15;
/// The gap between the two battle armies' front columns, world units.
const BATTLE_GAP: i64 = 150;

/// A battle: two armies of `per_side` units (a third tanks, the rest riflemen) facing each
/// other [`BATTLE_GAP`] apart, each charging through the other. Armies of up to 800 stand 20
/// columns deep; larger ones are as deep as they are long halved, so the front grows too.
pub(crate) fn battle(defs: &Definitions, per_side: usize) -> Result<Scenario, SetupError> {
    let columns = square_columns(per_side / 2).max(20);
    let rows = per_side.div_ceil(columns) as i64;
    let width = columns as i64 * BATTLE_COLUMN;
    let top = 700;
    let side_cells = side_for((top * 2 + rows * BATTLE_ROW).max(2 * (width + BATTLE_GAP + 2 * MARGIN)));
    let side = side_cells as i64 * CELL;
    // The front lines meet a little west of the middle (as in the first 256-cell version).
    let middle = side / 2 - 30;
    let fronts = [middle - BATTLE_GAP / 2, middle + BATTLE_GAP / 2];
    let mut objects = Vec::with_capacity(per_side * 2);
    for (owner, front) in fronts.into_iter().enumerate() {
        // Player 0's columns run west from its front, player 1's east.
        let step = if owner == 0 { -BATTLE_COLUMN } else { BATTLE_COLUMN };
        for (k, pos) in lattice(per_side, columns, (front, top), (step, BATTLE_ROW)).enumerate() {
            objects.push(InitialObject {
                template: army_template(defs, k),
                owner: PlayerId(owner as u8),
                pos,
                supply: 0,
            });
        }
    }
    let (world, [a, b]) = field(defs, (side_cells, side_cells), objects, 7, false)?;
    let through = (width.max(300) + 150) as i32;
    let controllers = vec![
        Orders::Charge(Charge { player: PlayerId(0), groups: groups(&a), x: middle as i32 + through }),
        Orders::Charge(Charge { player: PlayerId(1), groups: groups(&b), x: middle as i32 - through }),
    ];
    Ok(Scenario { world, controllers, units: per_side * 2, cells: (side_cells, side_cells) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::ContentRoots;

    fn defs() -> Definitions {
        Definitions::load(&ContentRoots::new(vec![env!("CARGO_MANIFEST_DIR").into()])).expect("stock definitions")
    }

    /// Every unit of a scenario starts on the field, at least `MARGIN` from its edge.
    fn on_the_field(s: &Scenario) {
        let (w, h) = (s.cells.0 as i64 * CELL, s.cells.1 as i64 * CELL);
        let ordered: usize = s
            .controllers
            .iter()
            .map(|c| match c {
                Orders::Shuttle(c) => c.groups.iter().map(|g| g.units.len()).sum::<usize>(),
                Orders::Charge(c) => c.groups.iter().map(|g| g.units.len()).sum(),
                Orders::Converge(c) => c.groups.iter().map(|g| g.units.len()).sum(),
            })
            .sum();
        assert_eq!(ordered, s.units, "every unit of the scenario is in a group");
        for o in s.world.objects() {
            let (x, y) = (o.pos.x.floor_int(), o.pos.y.floor_int());
            assert!((0..w).contains(&x) && (0..h).contains(&y), "unit at ({x}, {y}) off a field of {w} × {h}");
        }
    }

    #[test]
    fn the_open_field_grows_with_the_count_and_keeps_its_density() {
        let defs = defs();
        let small = open_field(&defs, 2_000, 1).expect("2,000 units");
        let large = open_field(&defs, 20_000, 1).expect("20,000 units");
        on_the_field(&small);
        on_the_field(&large);
        // Ten times the units on about ten times the ground: 5 tiles a player, 3 × 2 of them:
        // 2 × 3 × 650 + 900 = 4,800 wide, 2 × 950 + 600 = 2,500 high; 50 tiles, 8 × 7:
        // 2 × 8 × 650 + 900 = 11,300 by 7 × 950 + 600 = 7,250 (6.8× the ground, the margins
        // weighing less).
        assert_eq!((small.cells, large.cells), ((481, 256), (1131, 726)));
        // Every shuttle order stays on the field, each group in a tile of its own: its homes are
        // at least a tile apart along one axis.
        for s in [&small, &large] {
            let (w, h) = (s.cells.0 as i32 * CELL as i32, s.cells.1 as i32 * CELL as i32);
            for c in &s.controllers {
                let Orders::Shuttle(shuttle) = c else { panic!("the open field shuttles") };
                for (i, g) in shuttle.groups.iter().enumerate() {
                    assert!(g.home.y - REACH > 0 && g.home.y + REACH < h && g.home.x < w);
                    assert_eq!(g.units.len(), GROUP);
                    for other in &shuttle.groups[i + 1..] {
                        let (dx, dy) = ((other.home.x - g.home.x).abs(), (other.home.y - g.home.y).abs());
                        assert!(dx >= TILE.0 as i32 || dy >= TILE.1 as i32, "{:?} and {:?}", g.home, other.home);
                    }
                }
            }
        }
    }

    #[test]
    fn the_crowd_sends_every_unit_of_one_player_to_one_point() {
        let s = crowd(&defs(), 2_000, 1).expect("crowd");
        on_the_field(&s);
        let [Orders::Converge(c)] = &s.controllers[..] else { panic!("one converging player") };
        assert_eq!(c.groups.iter().map(|g| g.units.len()).sum::<usize>(), 2_000);
        // 45 columns of 30 from 300: the middle at 300 + 675.
        assert_eq!(c.to, Point { x: 975, y: 975 });
    }

    #[test]
    fn a_large_battle_keeps_both_armies_on_the_field_and_facing() {
        let s = battle(&defs(), 5_000).expect("battle");
        on_the_field(&s);
        let west = s.world.objects().filter(|o| o.owner.0 == 0).map(|o| o.pos.x.floor_int()).max();
        let east = s.world.objects().filter(|o| o.owner.0 == 1).map(|o| o.pos.x.floor_int()).min();
        assert_eq!(east.zip(west).map(|(e, w)| e - w), Some(BATTLE_GAP));
    }
}
