//! Derives the simulation's passability grid from the heightmap: water and cliffs block.

use super::heightmap::Heightmap;

/// Which cells are blocked, row-major: a cell is blocked when any corner is under water, or
/// when its corners differ by more than `cliff` (both in raw heightmap steps).
pub fn blocked_cells(hm: &Heightmap, cells: (u32, u32), water: u32, cliff: u32) -> Vec<bool> {
    let (w, h) = cells;
    let mut out = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h {
        for x in 0..w {
            let corners = [hm.at(x, y), hm.at(x + 1, y), hm.at(x, y + 1), hm.at(x + 1, y + 1)].map(u32::from);
            let lo = corners.iter().copied().min().unwrap_or(0);
            let hi = corners.iter().copied().max().unwrap_or(0);
            out.push(lo < water || hi - lo > cliff);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_and_steps_block() {
        let mut hm = Heightmap::flat(5, 5, 1000);
        hm.samples[2 * 5 + 2] = 5000; // a spike at corner (2,2)
        hm.samples[0] = 10; // a puddle at corner (0,0)
        let b = blocked_cells(&hm, (4, 4), 100, 2000);
        assert!(b[0], "under water");
        assert!(b[4 + 1] && b[4 + 2] && b[2 * 4 + 1] && b[2 * 4 + 2], "the spike's four cells are cliffs");
        assert!(!b[3 * 4 + 3]);
    }
}
