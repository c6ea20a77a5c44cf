//! Spinning rotors' blurred discs: where each mesh's rotors are (found once from its parts'
//! animation roles), and each frame a faint disc sprite per spinning rotor of every object
//! drawn with such a mesh, turned with the object's facing and lean — so a helicopter's rotor
//! reads as one spinning (a translucent blur with soft blade streaks; above Low the shader
//! folds the blades themselves to a stub at the hub, `pose::ROTOR_STUB`), at no draw call more
//! (the discs join the sprites' one draw).
//!
//! Must not: know about the simulation or which objects are helicopters (a mesh with rotor
//! parts has discs, whatever object wears it).

use glam::Vec3;

use super::models::ModelLibrary;
use super::{ObjectInstance, SpriteInstance, pose};
use crate::defs::model_kits::Anim;

/// One rotor of a mesh, in its unit space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotorDisc {
    /// Its hub: the middle of its blades.
    pub centre: Vec3,
    /// How far its blades reach from the hub.
    pub radius: f32,
    /// The line it spins about (up for a main rotor, across for a tail rotor).
    pub axis: Vec3,
}

/// The blur's colour: a share of the model's own colour (its blades' shade, a little lit).
const BLUR: f32 = 0.5;
/// The blur's opacity (the shader shapes it: faint inside, denser where the tips run).
const OPACITY: f32 = 1.0;

/// The rotors of each mesh of `library` (its full meshes): parts of the `Rotor` or
/// `TailRotor` role sharing a pivot are one rotor.
pub fn rotors_of(library: &ModelLibrary) -> Vec<Vec<RotorDisc>> {
    let main = pose::role_code(Anim::Rotor);
    let tail = pose::role_code(Anim::TailRotor);
    library
        .ranges
        .iter()
        .map(|range| {
            // (role, pivot, least and most corners, reach from the pivot) of each rotor found.
            let mut found: Vec<(f32, Vec3, Vec3, Vec3, f32)> = Vec::new();
            let used = library.indices.get(range.start as usize..range.end as usize).unwrap_or_default();
            for v in used.iter().filter_map(|&i| library.vertices.get(i as usize)) {
                let role = v.role[0];
                if role != main && role != tail {
                    continue;
                }
                let (pivot, at) = (Vec3::from_array(v.pivot), Vec3::from_array(v.position));
                // A main rotor reaches across the level plane, a tail rotor across the upright one.
                let d = at - pivot;
                let reach = if role == main { d.truncate().length() } else { d.y.hypot(d.z) };
                match found.iter_mut().find(|f| f.0 == role && f.1.distance(pivot) < 1e-4) {
                    Some(f) => (f.2, f.3, f.4) = (f.2.min(at), f.3.max(at), f.4.max(reach)),
                    None => found.push((role, pivot, at, at, reach)),
                }
            }
            found
                .into_iter()
                .map(|(role, pivot, lo, hi, reach)| {
                    let mid = (lo + hi) / 2.0;
                    if role == main {
                        RotorDisc { centre: Vec3::new(pivot.x, pivot.y, mid.z), radius: reach, axis: Vec3::Z }
                    } else {
                        RotorDisc { centre: Vec3::new(mid.x, pivot.y, pivot.z), radius: reach, axis: Vec3::X }
                    }
                })
                .collect()
        })
        .collect()
}

/// A rotor's disc on an object drawn as `inst`: scaled, leaned (pitch, then roll, about the
/// model's foot, as the shader poses it), turned by its facing and placed.
pub fn disc(rotor: &RotorDisc, inst: &ObjectInstance) -> SpriteInstance {
    let scale = Vec3::from_array(inst.scale);
    let [cr, sr, cp, sp] = inst.tilt;
    let lean = |v: Vec3| {
        let v = Vec3::new(v.x, v.y * cp - v.z * sp, v.y * sp + v.z * cp);
        Vec3::new(v.x * cr - v.z * sr, v.y, v.x * sr + v.z * cr)
    };
    let (s, c) = inst.yaw.sin_cos();
    // Model forward (+y) faces (c, s); right (+x) faces (s, -c).
    let turn = |v: Vec3| Vec3::new(v.x * s + v.y * c, -v.x * c + v.y * s, v.z);
    let at = turn(lean(rotor.centre * scale)) + Vec3::from_array(inst.offset);
    let axis = turn(lean(rotor.axis / scale)).normalize_or(Vec3::Z);
    // The blades reach as far as the model is stretched across them.
    let across = if rotor.axis.z.abs() > 0.5 { scale.x.max(scale.y) } else { scale.y.max(scale.z) };
    SpriteInstance {
        pos: at.to_array(),
        size: rotor.radius * across,
        color: blur_colour(inst.color),
        shape: [axis.x, axis.y, axis.z, SpriteInstance::DISC],
    }
}

/// The blur's colour and opacity for a model of `colour` (linear): its blades' dark shade of
/// it, mostly grey (a blur of paint over the ground shows little of its hue).
fn blur_colour(colour: [f32; 3]) -> [f32; 4] {
    let grey = colour[0] * 0.3 + colour[1] * 0.59 + colour[2] * 0.11;
    let [r, g, b] = colour.map(|c| (grey + (c - grey) * 0.3) * BLUR);
    [r, g, b, OPACITY]
}

/// The discs of every spinning rotor of every object in `instances` (grouped by mesh, as the
/// world pass draws them), added to `out`; a wreck's stopped rotors have none.
pub fn discs(rotors: &[Vec<RotorDisc>], instances: &[Vec<ObjectInstance>], out: &mut Vec<SpriteInstance>) {
    for (of_mesh, group) in rotors.iter().zip(instances).filter(|(r, _)| !r.is_empty()) {
        for inst in group.iter().filter(|i| pose::rotor_spins(i.state)) {
            out.extend(of_mesh.iter().map(|r| disc(r, inst)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defs::model::Shape;
    use crate::render::world::models::shape_index;

    #[test]
    fn a_helicopter_has_a_main_and_a_tail_rotor_disc_and_nothing_else_has_any() {
        let lib = ModelLibrary::builtin();
        let rotors = rotors_of(&lib);
        let heli = &rotors[shape_index(Shape::Helicopter)];
        assert_eq!(heli.len(), 2, "{heli:?}");
        let main = heli.iter().find(|r| r.axis == Vec3::Z).unwrap();
        let tail = heli.iter().find(|r| r.axis == Vec3::X).unwrap();
        // Over the mast, as wide as the blades; the tail's beside the fin at the boom's end.
        assert!(main.centre.truncate().length() < 1e-4 && main.centre.z > 0.75, "{main:?}");
        assert!((main.radius - 1.1).abs() < 0.01, "{main:?}");
        assert!(tail.centre.y < -1.1 && tail.radius > 0.1 && tail.radius < main.radius / 3.0, "{tail:?}");
        for shape in [Shape::Soldier, Shape::Tank, Shape::Wheeled, Shape::Building] {
            assert!(rotors[shape_index(shape)].is_empty(), "{shape:?}");
        }
    }

    #[test]
    fn low_rotor_blades_keep_their_role_so_the_shadow_leaves_them_out() {
        // The shadow map is drawn from the Low meshes; the shader folds away the blades by
        // their role, so a helicopter's (built in, or a kit's own Low parts) must carry it.
        let kits = crate::defs::model_kits::ModelKits::shipped();
        let gunship = crate::defs::ModelDef {
            shape: Shape::Helicopter,
            color: (0.5, 0.5, 0.5),
            height: 8.0,
            kit: Some("Gunship".into()),
        };
        let lib = ModelLibrary::build(&[gunship], &kits);
        let blade = [pose::role_code(Anim::Rotor), pose::role_code(Anim::TailRotor)];
        for mesh in [shape_index(Shape::Helicopter), lib.of(0).body] {
            let r = &lib.low_ranges[mesh];
            let low = &lib.indices[r.start as usize..r.end as usize];
            let blades = low.iter().filter(|&&i| blade.contains(&lib.vertices[i as usize].role[0])).count();
            assert!(blades >= 40, "mesh {mesh}: {blades} corners of blades at Low");
        }
        let shader = include_str!("../../../shaders/world.wgsl");
        let shadow = &shader[shader.find("fn vs_object_shadow").unwrap()..];
        assert!(shadow[..shadow.find("var p").unwrap()].contains("r == 7u || r == 12u"));
    }

    #[test]
    fn a_disc_rides_with_the_helicopter_its_facing_and_its_lean() {
        let rotor = RotorDisc { centre: Vec3::new(0.0, 0.0, 0.8), radius: 1.1, axis: Vec3::Z };
        let mut inst = ObjectInstance::still([100.0, 50.0, 20.0], 0.0, [8.0, 8.0, 8.0], [0.5; 3], [0.5; 3]);
        let level = disc(&rotor, &inst);
        assert_eq!(level.pos, [100.0, 50.0, 26.4]);
        assert_eq!(level.size, 8.8);
        assert_eq!(level.shape, [0.0, 0.0, 1.0, SpriteInstance::DISC]);
        assert!(!level.on_ground());
        // Banked right side up (a left turn) while facing east: its disc tips toward its left
        // (north), its axis leaning the same way.
        inst.tilt = pose::tilt(0.4, 0.0);
        let banked = disc(&rotor, &inst);
        assert!(banked.shape[1] > 0.3 && banked.shape[2] < 0.95, "{banked:?}");
        assert!(banked.pos[1] > 50.0 + 2.0, "{banked:?}");
        let mut out = Vec::new();
        discs(&[vec![], vec![rotor]], &[vec![inst], vec![inst, inst]], &mut out);
        assert_eq!(out.len(), 2, "one disc per rotor of each object of a mesh with rotors");
        // A wreck's rotors stand still: no blur.
        let stopped = ObjectInstance { state: [2.0, 1.0, 1.0, pose::ROTOR_STOPPED], ..inst };
        out.clear();
        discs(&[vec![rotor]], &[vec![stopped, inst]], &mut out);
        assert_eq!(out.len(), 1, "a stopped rotor has no disc");
    }

    #[test]
    fn spinning_blades_fold_to_a_stub_so_the_disc_carries_the_sweep_and_stopped_ones_stand_full() {
        // The full meshes' shader folds the blades of a spinning rotor (phase not below 0) in
        // to pose::ROTOR_STUB of their reach, main and tail alike; a stopped one keeps them.
        let shader = include_str!("../../../shaders/world.wgsl");
        assert!(shader.contains(&format!("const ROTOR_STUB: f32 = {:?};", pose::ROTOR_STUB)));
        let pose_fn = &shader[shader.find("fn pose(").unwrap()..];
        let pose_fn = &pose_fn[..pose_fn.find("var n = v.normal").unwrap()];
        for role in ["case 7u", "case 12u"] {
            let case = &pose_fn[pose_fn.find(role).unwrap()..];
            let case = &case[..case.find("        }\n").unwrap()];
            assert!(case.contains("inst.state.w >= 0.0") && case.contains("ROTOR_STUB"), "{role}: {case}");
        }
        assert!(pose::rotor_spins(ObjectInstance::WHOLE) && !pose::rotor_spins([0.0, 0.0, 0.0, pose::ROTOR_STOPPED]));
        const { assert!(pose::ROTOR_STUB < 0.25, "a stub, not a blade") };
    }
}
