// The 3D world: terrain, objects (instanced procedural models), roads (textured from the road
// atlas, alpha-blended over the ground) and water, lit by the sun with a shadow map (depth
// seen from the sun over the ground in view) and a sky/ground hemisphere. Linear colours; the
// target is sRGB.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: direction toward the sun (unit); w: ambient light.
    sun: vec4<f32>,
    // rgb: water colour; a: water opacity.
    water: vec4<f32>,
    // xy: the map's size in world units (for the shroud's coordinates); z: seconds (for the
    // water's motion); w: the water level.
    map: vec4<f32>,
    // xyz: the camera's eye (for highlights on the water and the haze); w: 1 when the sun
    // casts shadows (the shadow map was drawn this frame) and surfaces are hazed and tone
    // mapped, 0 when graphics quality (Low) leaves them out.
    eye: vec4<f32>,
    // World to the shadow map's clip space (orthographic, from the sun).
    light: mat4x4<f32>,
    // xyz: the point the view is seen from (its near plane's centre); w: the distance from
    // it where the haze begins (about where the view's centre meets the ground).
    haze: vec4<f32>,
    // Clip space back to the world (the sky works out each pixel's view ray from it).
    inv_view_proj: mat4x4<f32>,
    // x: the ground's lowest point (the cloud sea lies below it); yzw: unused.
    ground: vec4<f32>,
};

@group(0) @binding(0) var<uniform> g: Globals;
// The shroud: one texel per cell, 1 in sight, dimmer where only explored, 0 never seen.
@group(0) @binding(1) var shroud_tex: texture_2d<f32>;
@group(0) @binding(2) var shroud_sampler: sampler;
// The shadow map: depth from the sun, compared with a filtering comparison sampler.
@group(0) @binding(3) var shadow_tex: texture_depth_2d;
@group(0) @binding(4) var shadow_sampler: sampler_comparison;
// The ground's fine patterns, one per channel (grass, soil, rock, paved), tiling every 32
// units, stored at 0.8 of their value.
@group(0) @binding(5) var detail_tex: texture_2d<f32>;
@group(0) @binding(6) var detail_sampler: sampler;
// Medium and High's patterns: the same but for rock, broken into faceted plates.
@group(0) @binding(7) var relief_tex: texture_2d<f32>;

// Past the map's edge (the skirt of scenery land) the edge's shroud clears over a few cells,
// so a never-seen edge does not stretch a dark band out to the horizon.
fn shroud(world_xy: vec2<f32>) -> f32 {
    let size = max(g.map.xy, vec2<f32>(1.0, 1.0));
    let uv = world_xy / size;
    let inside = textureSampleLevel(shroud_tex, shroud_sampler, uv, 0.0).r;
    let out = length(world_xy - clamp(world_xy, vec2<f32>(0.0, 0.0), size));
    return mix(inside, 1.0, smoothstep(0.0, 60.0, out));
}

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) world_xy: vec2<f32>,
    @location(3) world: vec3<f32>,
    // The ground's fine patterns' shares: grass, soil, rock, paved.
    @location(4) detail: vec4<f32>,
};

// An object's corner, as the fragment shader reads it (objects have no ground detail).
struct LitObject {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) world_xy: vec2<f32>,
    @location(3) world: vec3<f32>,
    // x glow (1: drawn unlit in its own colour, a muzzle flash or a lamp), y tread coordinate
    // (a track's bands; below 0 elsewhere), z the scorch's brightness (1 unscorched).
    @location(5) fx: vec3<f32>,
};

// Low quality's object corner: no shadow map to look up, no posing, so no world point or
// effects to carry (fewer values to interpolate per pixel on a software renderer).
struct LitLow {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) world_xy: vec2<f32>,
};

// The shadow map's texels along a side (src/render/world/shadow.rs SHADOW_SIZE).
const SHADOW_TEXELS: f32 = 768.0;

// How much sun reaches a point whose (unit) normal `n` faces the sun by `facing` (its dot
// with the sun): 1 in the open, 0 in full shadow. The point looked up is moved off the
// surface along its normal by about a texel of the map, more the more the surface slants
// away from the sun (normal-offset bias: a slanting face does not shadow itself in stripes,
// and contact shadows stay at the feet), and compared a little nearer the sun; four taps
// around it, each filtered over its four texels, soften the edge over about two texels
// instead of stair-steps.
fn sunlit(world: vec3<f32>, n: vec3<f32>, facing: f32) -> f32 {
    if (g.eye.w < 0.5) {
        return 1.0;
    }
    // World units per texel across, and depth per world unit along the sun (the light
    // matrix is orthographic: its rows' lengths are those scales).
    let across = max(length(vec3<f32>(g.light[0].x, g.light[1].x, g.light[2].x)),
                     length(vec3<f32>(g.light[0].y, g.light[1].y, g.light[2].y)));
    let texel = 2.0 / (SHADOW_TEXELS * max(across, 1e-6));
    let deep = length(vec3<f32>(g.light[0].z, g.light[1].z, g.light[2].z));
    let slant = clamp(1.0 - facing, 0.0, 1.0);
    let p = g.light * vec4<f32>(world + n * texel * (0.8 + 1.6 * slant), 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (uv.x <= 0.0 || uv.y <= 0.0 || uv.x >= 1.0 || uv.y >= 1.0 || ndc.z >= 1.0) {
        return 1.0;
    }
    let depth = ndc.z - texel * (0.4 + 0.8 * slant) * deep;
    let d = 1.0 / SHADOW_TEXELS;
    // A rotated grid, so the four taps' filters do not line up with the texels.
    var sum = textureSampleCompareLevel(shadow_tex, shadow_sampler, uv + vec2<f32>(-0.4, -1.1) * d, depth);
    sum += textureSampleCompareLevel(shadow_tex, shadow_sampler, uv + vec2<f32>(1.1, -0.4) * d, depth);
    sum += textureSampleCompareLevel(shadow_tex, shadow_sampler, uv + vec2<f32>(0.4, 1.1) * d, depth);
    sum += textureSampleCompareLevel(shadow_tex, shadow_sampler, uv + vec2<f32>(-1.1, 0.4) * d, depth);
    return sum * 0.25;
}

// Sun and hemisphere without the shadow map, for Low's shaders: a software renderer runs a
// branch's shadow lookups even where the branch is not taken, so Low's never holds them.
fn light_flat(n: vec3<f32>) -> vec3<f32> {
    let nn = normalize(n);
    let sun = max(dot(nn, g.sun.xyz), 0.0);
    let sky = mix(vec3<f32>(0.30, 0.28, 0.24), vec3<f32>(0.52, 0.58, 0.68), nn.z * 0.5 + 0.5);
    return sky * g.sun.w * 1.6 + vec3<f32>(1.0, 0.96, 0.88) * (1.0 - g.sun.w) * sun;
}

// Sun (where it reaches) plus a hemisphere: the sky's light from above, the ground's from below.
fn light_at(n: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    let nn = normalize(n);
    let facing = dot(nn, g.sun.xyz);
    // A face turned from the sun gets none: no shadow to look up.
    var sun = 0.0;
    if (facing > 0.0) {
        sun = facing * sunlit(world, nn, facing);
    }
    let sky = mix(vec3<f32>(0.30, 0.28, 0.24), vec3<f32>(0.52, 0.58, 0.68), nn.z * 0.5 + 0.5);
    return sky * g.sun.w * 1.6 + vec3<f32>(1.0, 0.96, 0.88) * (1.0 - g.sun.w) * sun;
}


// The haze's colour: the far distance fades toward a warm dust, the colour of the sunlight.
const HAZE: vec3<f32> = vec3<f32>(0.60, 0.56, 0.44);

// What every lit surface goes through last, above Low quality (`g.eye.w`: Low draws without
// it): distance haze (none nearer than the view's centre, thickening toward the horizon), and tone mapping
// that keeps colours below 0.75 as they are and rolls brighter ones (a lit lamp, a glint, a
// sunlit pale roof) off smoothly toward 1 instead of clipping their hue.
fn finish(c: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    if (g.eye.w < 0.5) {
        return c;
    }
    let far = max(length(world - g.haze.xyz) - g.haze.w, 0.0);
    // A thin haze near the view's centre, thickening far off toward the sky's horizon colour
    // (the second term only tells far past the view's centre, where the sky meets the ground).
    let thick = (1.0 - exp(-far / (g.haze.w * 2.0))) * 0.5 + (1.0 - exp(-far / (g.haze.w * 8.0))) * 0.35;
    let hazed = mix(c, HAZE, thick);
    let over = max(hazed - vec3<f32>(0.75), vec3<f32>(0.0));
    return min(hazed, vec3<f32>(0.75)) + over / (vec3<f32>(1.0) + over * 4.0);
}

// Value noise in 0..1 from a hash of the lattice around `p` (display only).
fn hash2(p: vec2<f32>) -> f32 {
    let q = fract(p * vec2<f32>(0.1031, 0.1030));
    let r = q + dot(q, q.yx + 33.33);
    return fract((r.x + r.y) * r.x);
}

fn noise2(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = fract(p);
    let u = f * f * (3.0 - 2.0 * f);
    let a = hash2(i);
    let b = hash2(i + vec2<f32>(1.0, 0.0));
    let c = hash2(i + vec2<f32>(0.0, 1.0));
    let d = hash2(i + vec2<f32>(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

@vertex
fn vs_terrain(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec3<f32>,
    @location(3) detail: vec4<f32>,
) -> Lit {
    var out: Lit;
    out.detail = detail;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.normal = normal;
    // The broad part of the ground's detail varies slowly: worked out per corner (the grass's
    // dry and lush patches are baked into the corner colours, src/render/world/ground_shade.rs).
    out.color = color * broad_detail(pos, normalize(normal));
    out.world_xy = pos.xy;
    out.world = pos;
    return out;
}

struct Instance {
    @location(3) offset: vec3<f32>,
    @location(4) yaw: f32,
    @location(5) scale: vec3<f32>,
    @location(6) color: vec3<f32>,
    @location(8) team: vec3<f32>,
    // Distance travelled (unit space), stride (0..1), the gun's kick (1 at the shot), aiming.
    @location(11) motion: vec4<f32>,
    // Damage stage (0..2), power (1 on), built up to (unit height; 1 finished), spin phase.
    @location(12) state: vec4<f32>,
    // Roll (right side up) and pitch (nose up) as cos roll, sin roll, cos pitch, sin pitch.
    @location(13) tilt: vec4<f32>,
};

// A model vertex: where, its normal, and how its part moves (src/render/world/models.rs).
struct Part {
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
    @location(7) team: f32,
    // The point its part turns about.
    @location(9) pivot: vec3<f32>,
    // Its animation role (defs::model_kits::Anim as a number) and the role's number (a wheel's
    // radius).
    @location(10) role: vec2<f32>,
};

// Turning by an angle of cosine `c` and sine `s` about x (across): +y toward +z for a
// positive angle (a leg swings forward).
fn turn_x(v: vec3<f32>, c: f32, s: f32) -> vec3<f32> {
    return vec3<f32>(v.x, v.y * c - v.z * s, v.y * s + v.z * c);
}

// About y (forward): +x toward +z for a positive angle (the right side up).
fn turn_y(v: vec3<f32>, c: f32, s: f32) -> vec3<f32> {
    return vec3<f32>(v.x * c - v.z * s, v.y, v.x * s + v.z * c);
}

// About z (up), counter-clockwise.
fn turn_z(v: vec3<f32>, c: f32, s: f32) -> vec3<f32> {
    return vec3<f32>(v.x * c - v.y * s, v.x * s + v.y * c, v.z);
}

// A posed part: its point and normal in the object's unit space after its animation role,
// the construction cut and the tilt (the rules of src/render/world/pose.rs), then scaled.
struct Posed {
    pos: vec3<f32>,
    normal: vec3<f32>,
    // 1 for a glowing part (a muzzle flash, a lit lamp).
    glow: f32,
    // A track's band coordinate (below 0 for other parts).
    tread: f32,
};

// How far a spinning rotor's blades reach, as a share of their length (pose::ROTOR_STUB).
const ROTOR_STUB: f32 = 0.16;

fn pose(v: Part, inst: Instance) -> Posed {
    let role = u32(v.role.x + 0.5);
    let distance = inst.motion.x;
    let stride = inst.motion.y;
    let kick = inst.motion.z;
    let aiming = inst.motion.w;
    var angle = 0.0;
    var axis = 0u;
    var p = v.pos;
    var glow = 0.0;
    var tread = -1.0;
    // An arm's turn inward about the shoulder's vertical while aiming (pose::arm_turn_in).
    var inward = 0.0;
    switch role {
        // pose::leg_swing, pose::arm_angle and pose::arm_turn_in.
        case 1u, 2u, 3u, 4u: {
            var leg = sin(distance / 1.1 * 6.2831853) * 0.55 * stride;
            if (role == 2u || role == 4u) {
                leg = -leg;
            }
            angle = select(leg, mix(-leg * 0.7, 1.35, aiming), role >= 3u);
            if (role == 3u) {
                inward = -1.0 * aiming;
            } else if (role == 4u) {
                inward = 0.2 * aiming;
            }
        }
        // pose::wheel_angle.
        case 5u: { angle = -distance / max(v.role.y, 0.01); }
        case 6u: { tread = (v.pos.y + v.pos.z + distance) * 7.0; }
        // A main rotor: about its hub's vertical. Spinning (`state.w`, its phase, not below
        // 0; pose::rotor_spins), its blades fold in to a stub at the hub (pose::ROTOR_STUB):
        // their sweep is the blurred disc's (rotor.rs), not solid bars. Stopped (a wreck), they
        // stand still at full length.
        case 7u: {
            if (inst.state.w >= 0.0) {
                angle = g.map.z * 30.0 + inst.state.w;
                p = v.pivot + (p - v.pivot) * vec3<f32>(ROTOR_STUB, ROTOR_STUB, 1.0);
            } else {
                angle = inst.state.w;
            }
            axis = 2u;
        }
        case 8u: { p.y = p.y - kick * 0.22; }
        case 9u: {
            // Shown only while the kick is above pose::FLASH_FROM, flaring then shrinking.
            // Drawn out along the shot, narrow across it.
            let k = select(0.0, 0.4 + kick, kick > 0.45);
            p = v.pivot + (p - v.pivot) * vec3<f32>(0.6, 1.7, 0.6) * k;
            glow = 1.0;
        }
        case 10u: { angle = select(0.0, 1.1, inst.state.x > 1.5); axis = 1u; }
        case 11u: { glow = 0.75 * inst.state.y; }
        // A tail rotor: about the line across through its centre, faster than the main one.
        case 12u: {
            if (inst.state.w >= 0.0) {
                angle = g.map.z * 45.0 + inst.state.w;
                p = v.pivot + (p - v.pivot) * vec3<f32>(1.0, ROTOR_STUB, ROTOR_STUB);
            } else {
                angle = inst.state.w;
            }
        }
        default: {}
    }
    var n = v.normal;
    if (angle != 0.0) {
        let d = p - v.pivot;
        let c = cos(angle);
        let s = sin(angle);
        if (axis == 0u) {
            p = v.pivot + turn_x(d, c, s);
            n = turn_x(n, c, s);
        } else if (axis == 1u) {
            p = v.pivot + turn_y(d, c, s);
            n = turn_y(n, c, s);
        } else {
            p = v.pivot + turn_z(d, c, s);
            n = turn_z(n, c, s);
        }
    }
    if (inward != 0.0) {
        let c = cos(inward);
        let s = sin(inward);
        p = v.pivot + turn_z(p - v.pivot, c, s);
        n = turn_z(n, c, s);
    }
    // Under construction: the model shows up to the height built (pose::construction_cut).
    p.z = min(p.z, inst.state.z);
    var out: Posed;
    out.pos = p * inst.scale;
    out.normal = n / inst.scale;
    // Pitch, then roll, about the model's foot (level objects skip it).
    let t = inst.tilt;
    if (t.y != 0.0 || t.w != 0.0) {
        out.pos = turn_y(turn_x(out.pos, t.z, t.w), t.x, t.y);
        out.normal = turn_y(turn_x(out.normal, t.z, t.w), t.x, t.y);
    }
    out.glow = glow;
    out.tread = tread;
    return out;
}

// Unit space to the world: model y is forward; yaw 0 faces east (+x), counter-clockwise.
fn place(p: vec3<f32>, c: f32, s: f32, inst: Instance) -> vec3<f32> {
    // Forward (model +y) maps to (c, s); right (model +x) maps to (s, -c).
    return vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + inst.offset;
}

// Without power (`power` 0) a structure goes dull: greyer and darker all over, so an
// unpowered base reads from afar.
fn unpowered(c: vec3<f32>, power: f32) -> vec3<f32> {
    let grey = vec3<f32>(dot(c, vec3<f32>(0.3, 0.59, 0.11)));
    return mix(mix(grey, c, 0.3) * 0.55, c, clamp(power, 0.0, 1.0));
}

@vertex
fn vs_object(v: Part, inst: Instance) -> LitObject {
    let posed = pose(v, inst);
    let c = cos(inst.yaw);
    let s = sin(inst.yaw);
    let world = place(posed.pos, c, s, inst);
    let n = posed.normal;
    // Damage darkens (pose::DamageStage::shade); without power the lamps go dark and the rest
    // dims.
    let stage = inst.state.x;
    let dim = select(select(1.0, 0.72, stage > 0.5), 0.5, stage > 1.5);
    var out: LitObject;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.normal = vec3<f32>(n.x * s + n.y * c, -n.x * c + n.y * s, n.z);
    // Under construction it is bare: no owner's colour yet, greyed like fresh concrete.
    let bare = inst.state.z < 0.999;
    let own = select(inst.color, mix(inst.color, vec3<f32>(0.4, 0.38, 0.35), 0.55), bare);
    out.color = unpowered(mix(own, inst.team, select(v.team, 0.0, bare)) * v.shade * dim, inst.state.y);
    if (u32(v.role.x + 0.5) == 9u) {
        out.color = vec3<f32>(1.6, 1.15, 0.45);
    } else if (posed.glow > 0.0) {
        out.color = mix(inst.color, inst.team, v.team) * v.shade * vec3<f32>(1.25, 1.1, 0.75);
    }
    out.world_xy = world.xy;
    out.world = world;
    // Damage: scorch marks in patches (worked out per corner, blended across faces), wider
    // and blacker below a quarter.
    var scorch = 1.0;
    if (stage > 0.5) {
        let soot = noise2(world.xy * 0.11 + vec2<f32>(world.z * 0.23, world.z * 0.17));
        let wide = select(0.62, 0.45, stage > 1.5);
        scorch = mix(1.0, 0.18, smoothstep(wide, wide + 0.2, soot));
    }
    out.fx = vec3<f32>(posed.glow, posed.tread, scorch);
    return out;
}

// The slowly varying part of the ground's detail over its class colour: broad mottling, and
// rock strata on steep faces (seen from the side, so by height and the position across).
fn broad_detail(world: vec3<f32>, n: vec3<f32>) -> f32 {
    var k = 0.9 + 0.2 * noise2(world.xy * 0.045);
    let steep = clamp((0.8 - n.z) * 3.0, 0.0, 1.0);
    if (steep > 0.0) {
        let across = select(world.x, world.y, abs(n.x) > abs(n.y));
        k = mix(k, 0.72 + 0.45 * noise2(vec2<f32>(across * 0.08, world.z * 0.9)), steep);
    }
    return k;
}

// The fine part, per pixel, from the patterns read at this pixel (`stored`, as the texture
// keeps them): each class's pattern by its share (so patterns blend where classes meet) —
// grass speckle, clumps of soil, cracked rock, paving joints — and wet, foaming ground along
// the waterline.
fn fine_detail_of(stored: vec4<f32>, world: vec3<f32>, share: vec4<f32>) -> vec3<f32> {
    let patterns = stored * 1.25;
    let k = dot(patterns, share);
    var c = vec3<f32>(k, k, k);
    let above = world.z - g.map.w;
    if (g.map.w > 0.0 && above > -1.2 && above < 0.8) {
        // Foam comes and goes along the shore.
        let wave = 0.5 + 0.5 * sin(g.map.z * 1.7 + noise2(world.xy * 0.12) * 9.0);
        let band = 1.0 - abs(above + 0.2) / 1.0;
        c = mix(c * 0.85, vec3<f32>(2.2, 2.3, 2.4), clamp(band * wave, 0.0, 1.0) * 0.5);
    }
    return c;
}

// Low quality's objects: parts at rest (the Low meshes leave out flashes and the smallest
// details), the construction cut and the tilt kept, damage as a darker shade without scorch
// patches, lit by the hemisphere and the sun without shadows.
@vertex
fn vs_object_low(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
    @location(7) team: f32,
    @location(3) offset: vec3<f32>,
    @location(4) yaw: f32,
    @location(5) scale: vec3<f32>,
    @location(6) color: vec3<f32>,
    @location(8) team_color: vec3<f32>,
    @location(12) state: vec4<f32>,
    @location(13) t: vec4<f32>,
) -> LitLow {
    var p = vec3<f32>(pos.xy, min(pos.z, state.z)) * scale;
    var n = normal / scale;
    if (t.y != 0.0 || t.w != 0.0) {
        p = turn_y(turn_x(p, t.z, t.w), t.x, t.y);
        n = turn_y(turn_x(n, t.z, t.w), t.x, t.y);
    }
    let c = cos(yaw);
    let s = sin(yaw);
    let world = vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + offset;
    let stage = state.x;
    let dim = select(select(1.0, 0.72, stage > 0.5), 0.4, stage > 1.5);
    let bare = state.z < 0.999;
    let own = select(color, mix(color, vec3<f32>(0.4, 0.38, 0.35), 0.55), bare);
    var out: LitLow;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.normal = vec3<f32>(n.x * s + n.y * c, -n.x * c + n.y * s, n.z);
    out.color = unpowered(mix(own, team_color, select(team, 0.0, bare)) * shade * dim, state.y);
    out.world_xy = world.xy;
    return out;
}

@fragment
fn fs_lit_low(in: LitLow) -> @location(0) vec4<f32> {
    let nn = normalize(in.normal);
    let sun = max(dot(nn, g.sun.xyz), 0.0);
    let sky = mix(vec3<f32>(0.30, 0.28, 0.24), vec3<f32>(0.52, 0.58, 0.68), nn.z * 0.5 + 0.5);
    let light = sky * g.sun.w * 1.6 + vec3<f32>(1.0, 0.96, 0.88) * (1.0 - g.sun.w) * sun;
    return vec4<f32>(in.color * light * shroud(in.world_xy), 1.0);
}

@fragment
fn fs_lit(in: LitObject) -> @location(0) vec4<f32> {
    var c = in.color * light_at(in.normal, in.world);
    // A track's tread: dark bands that run with the distance travelled.
    if (in.fx.y >= 0.0) {
        c = c * (0.55 + 0.45 * step(0.5, fract(in.fx.y)));
    }
    c = c * in.fx.z;
    c = mix(c, in.color, in.fx.x);
    return vec4<f32>(finish(c, in.world) * shroud(in.world_xy), 1.0);
}

// Low quality's ground: the class colour and its fine pattern, flat-lit by the mesh normal.
@fragment
fn fs_terrain_low(in: Lit) -> @location(0) vec4<f32> {
    let stored = textureSampleLevel(detail_tex, detail_sampler, in.world.xy / 32.0, 0.0);
    let detail = fine_detail_of(stored, in.world, in.detail);
    // Grass into dirt: a firmer border than the corners' blend, frayed by the grass's speckle
    // (as Medium's is, without its noise: a few sums; sand keeps its soft edge).
    let s = in.detail;
    let wander = clamp(min(s.x, s.y) * 4.0, 0.0, 1.0);
    let firm = smoothstep(0.3, 0.7, s.y + (stored.x * 1.25 - 0.95) * 0.6 * wander);
    let soil_light = (dot(in.color, vec3<f32>(1.0)) - dot(GRASS_TONE, vec3<f32>(1.0)) * s.x) / max(s.y, 0.05);
    let moved = clamp(firm - s.y, -s.y, s.x) * smoothstep(0.8, 0.55, soil_light);
    let before = GRASS_TONE * s.x + SOIL_TONE * s.y + vec3<f32>(0.01);
    let c = in.color * (before + moved * (SOIL_TONE - GRASS_TONE)) / before * detail * light_flat(in.normal);
    return vec4<f32>(finish(c, in.world) * shroud(in.world_xy), 1.0);
}

// How much relief each fine pattern has (grass, soil, rock, paved): world units of bump
// height per unit of the pattern's value.
const RELIEF: vec4<f32> = vec4<f32>(0.5, 0.35, 0.6, 0.45);
// The relief patterns are read a level finer than the pixel's footprint asks (mip bias), so
// the ground stays sharp along the view at the game's low camera angle, where the footprint
// is long and narrow (anisotropic filtering costs the software adapter far too much).
const RELIEF_BIAS: f32 = -1.0;
// World units the mottle's pattern covers before it repeats (the detail's 32, seven times
// over less a little, so the two tilings never line up), and how much it lightens and
// darkens the ground (by its share of grass, soil and rock).
const MOTTLE_SPAN: f32 = 219.0;
const MOTTLE: f32 = 0.55;
// How far (world units) a dirt patch's worn earth lies below the grass around it.
const EDGE_RISE: f32 = 0.6;
// Bare rock's colour (linear), shown on steep slopes whatever the class.
const ROCK: vec3<f32> = vec3<f32>(0.19, 0.17, 0.145);
// Grass's and soil's class colours (linear, data/terrain.ron's Grass and Dirt): where the two
// meet, the border is redrawn ragged per pixel and the colour follows it by their ratio.
const GRASS_TONE: vec3<f32> = vec3<f32>(0.089, 0.171, 0.040);
const SOIL_TONE: vec3<f32> = vec3<f32>(0.187, 0.119, 0.051);

// Medium and High's ground: slopes turn to rock by their steepness (sooner in patches), cliffs
// darken in strata with lit ledges, the border between grass and soil is ragged with a
// raised, lit grass edge over a darker lip of earth, the patterns come back a seventh their
// size as a slow mottle (so neither their tiling nor a flat sheet of one colour shows at the
// game's camera), and each class's pattern lights as relief (a bump from the pattern's
// height, by its screen-space derivatives: one mipmapped read, biased sharp, whose relief
// fades with distance instead of shimmering).
@fragment
fn fs_terrain(in: Lit) -> @location(0) vec4<f32> {
    let n0 = normalize(in.normal);
    // The patterns are laid from the side the face looks toward most (from above on gentler
    // ground, from east or west, north or south on a face steeper than 45 degrees), so rock on
    // a cliff keeps its shape instead of being drawn out down the face.
    let a = abs(n0);
    var uv = in.world.xy;
    if (a.z < max(a.x, a.y)) {
        if (a.x > a.y) {
            uv = in.world.yz;
        } else {
            uv = in.world.xz;
        }
    }
    let p0 = textureSampleBias(relief_tex, detail_sampler, uv / 32.0, RELIEF_BIAS);
    // The mottle: the soil's clods again, turned and seven times larger (some 28 units across),
    // and the grass's tufts three times larger, turned the other way (some 12 units), read
    // blurred; about 0 on average, and no lattice of either shows through the other.
    let turned = vec2<f32>(uv.x * 0.8 + uv.y * 0.6, uv.y * 0.8 - uv.x * 0.6);
    let m_wide = textureSampleBias(relief_tex, detail_sampler, turned / MOTTLE_SPAN, 1.0).y;
    let m_near = textureSampleBias(relief_tex, detail_sampler, vec2<f32>(turned.y, -turned.x) / 97.0, 1.0).x;
    let mottle = (m_wide + m_near) * 0.625 - 0.96;
    // Past about 20 to 25 degrees (by the mottle) the class gives way to rock; past about 45
    // it is a cliff face.
    let rocky = smoothstep(0.93, 0.74, n0.z + mottle * 0.12);
    let cliff = smoothstep(0.74, 0.5, n0.z);
    var share = in.detail;
    // Grass into soil: the border wanders per pixel by a noise and the grass's own tufts.
    // Worked out everywhere, not only where both classes meet: the bump's derivatives are
    // taken across neighbouring pixels, and a value set in a branch only some of them took
    // would draw a line along the triangles' edges. Where either class is alone, nothing moves.
    var c = in.color;
    let q = noise2(in.world.xy * 0.11);
    // (The wander fades out where either class's share does, so the border never jumps where
    // a triangle's corners begin to hold soil.)
    let wander = clamp(min(share.x, share.y) * 4.0, 0.0, 1.0);
    let edge = share.y + ((q - 0.5) * 0.5 + (p0.x * 1.25 - 0.95) * 0.6) * wander;
    let ragged = smoothstep(0.4, 0.6, edge);
    // Only soil as dark as dirt: sand (the same pattern, far brighter) keeps its soft edge
    // (its brightness, the corner's less the grass's share, tells it apart).
    let soil_light = (dot(c, vec3<f32>(1.0)) - dot(GRASS_TONE, vec3<f32>(1.0)) * share.x) / max(share.y, 0.05);
    let dirt = smoothstep(0.8, 0.55, soil_light);
    let moved = clamp(ragged - share.y, -share.y, share.x) * dirt;
    // The colour follows as a ratio of the two classes' blends, so whatever shaded and
    // tinted the corner colours (baked relief, mottling, dry grass) stays on it.
    let before = GRASS_TONE * share.x + SOIL_TONE * share.y;
    let after = before + moved * (SOIL_TONE - GRASS_TONE);
    // (The small term keeps the ratio at 1 where neither class has much share: a floor on the
    // divisor alone would darken a paved corner with a trace of grass to near black.)
    c = c * (after + vec3<f32>(0.01)) / (before + vec3<f32>(0.01));
    share = share + vec4<f32>(-moved, moved, 0.0, 0.0);
    // The earth just inside the edge is darker (damp, shaded by the grass over it), and the
    // worn earth lies a little below the grass: the edge is lit or shaded by the bump.
    let lip = smoothstep(0.5, 0.6, edge) * (1.0 - smoothstep(0.62, 0.85, edge)) * dirt * wander;
    c = c * (1.0 - 0.25 * lip);
    let rim = -ragged * dirt * EDGE_RISE;
    share = mix(share, vec4<f32>(0.0, 0.0, 1.0, 0.0), rocky);
    // The bump: the pattern's height over the surface, its gradient from how it changes from
    // pixel to pixel (surface gradient bump mapping).
    let h = dot(p0, share * RELIEF) + rim;
    let dx = dpdx(in.world);
    let dy = dpdy(in.world);
    let r1 = cross(dy, n0);
    let r2 = cross(n0, dx);
    let det = dot(dx, r1);
    let grad = sign(det) * (dpdx(h) * r1 + dpdy(h) * r2);
    var n = abs(det) * n0 - grad;
    c = mix(c, ROCK * (c.r + c.g + c.b) / 0.35, rocky * 0.8);
    c = c * (1.0 + MOTTLE * (share.x + 0.6 * share.y + 0.4 * share.z) * mottle);
    if (cliff > 0.0) {
        // Strata: bands by height, wavering along the face; each band's top is a ledge that
        // catches the sky, its foot is in the shade of the ledge above.
        let across = select(in.world.x, in.world.y, abs(n0.x) > abs(n0.y));
        let band = fract(in.world.z / 5.5 + noise2(vec2<f32>(across * 0.03, in.world.z * 0.04)) * 0.5);
        let ledge = smoothstep(0.82, 1.0, band);
        let foot = 1.0 - smoothstep(0.0, 0.35, band);
        n = normalize(n) + vec3<f32>(0.0, 0.0, 0.7 * ledge * cliff);
        c = c * mix(1.0, (0.8 + 0.22 * ledge) * (1.0 - 0.2 * foot), cliff);
    }
    let detail = fine_detail_of(p0, in.world, share);
    let lit = c * detail * light_at(n, in.world);
    return vec4<f32>(finish(lit, in.world) * shroud(in.world_xy), 1.0);
}

// Scatter on the ground (grass tufts, stones, bushes): instanced like objects but never posed,
// so only turned by its yaw, scaled and placed; lit as objects are (`fs_lit`).
@vertex
fn vs_scatter(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
    @location(3) offset: vec3<f32>,
    @location(4) yaw: f32,
    @location(5) scale: vec3<f32>,
    @location(6) color: vec3<f32>,
) -> LitObject {
    let c = cos(yaw);
    let s = sin(yaw);
    let p = pos * scale;
    let world = vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + offset;
    let n = normal / scale;
    var out: LitObject;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.normal = vec3<f32>(n.x * s + n.y * c, -n.x * c + n.y * s, n.z);
    out.color = color * shade;
    out.world_xy = world.xy;
    out.world = world;
    out.fx = vec3<f32>(0.0, -1.0, 1.0);
    return out;
}

// The sky, drawn where nothing else was (at the far plane, behind everything) at Medium and
// High: past the map's edge the view looks down on a sea of cloud lit by the sun, fading into
// the haze far off; above the horizon a gradient from the haze's colour to a deep zenith with
// the sun's glow and soft clouds.
struct Sky {
    @builtin(position) clip: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

@vertex
fn vs_sky(@builtin(vertex_index) i: u32) -> Sky {
    // One triangle over the whole target.
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u)) * 2.0 - 1.0;
    var out: Sky;
    out.clip = vec4<f32>(p, 1.0, 1.0);
    out.ndc = p;
    return out;
}

// Cloud cover in 0..1 at a point of the cloud layer (three octaves of noise, drifting).
fn clouds(p: vec2<f32>) -> f32 {
    let t = vec2<f32>(g.map.z * 0.004, g.map.z * 0.002);
    let f = noise2(p + t) * 0.55 + noise2(p * 2.3 - t) * 0.3 + noise2(p * 5.1 + t * 2.0) * 0.15;
    return smoothstep(0.38, 0.72, f);
}

const ZENITH: vec3<f32> = vec3<f32>(0.16, 0.29, 0.55);

@fragment
fn fs_sky(in: Sky) -> @location(0) vec4<f32> {
    let near = g.inv_view_proj * vec4<f32>(in.ndc, 0.0, 1.0);
    let far = g.inv_view_proj * vec4<f32>(in.ndc, 1.0, 1.0);
    let origin = near.xyz / near.w;
    let dir = normalize(far.xyz / far.w - origin);
    let sun = max(dot(dir, g.sun.xyz), 0.0);
    let glow = vec3<f32>(1.0, 0.86, 0.62) * (pow(sun, 6.0) * 0.22 + pow(sun, 300.0) * 1.5);
    var c: vec3<f32>;
    if (dir.z >= 0.0) {
        c = mix(HAZE, ZENITH, pow(dir.z, 0.55)) + glow;
        let p = origin.xy + dir.xy * (900.0 / max(dir.z, 0.03));
        let cover = clouds(p * 0.0022) * smoothstep(0.0, 0.2, dir.z);
        c = mix(c, vec3<f32>(0.92, 0.9, 0.86) * (0.8 + 0.25 * sun), cover * 0.75);
    } else {
        // Down onto the cloud sea below the ground's lowest point.
        let depth = max(origin.z - (g.ground.x - 40.0), 1.0);
        let t = depth / max(-dir.z, 0.02);
        let p = origin.xy + dir.xy * t;
        let cover = clouds(p * 0.004);
        // Thicker cloud stands higher into the light; the gaps show a dim blue depth.
        let top = noise2(p * 0.013 + vec2<f32>(3.0, 7.0));
        let lit = vec3<f32>(0.86, 0.84, 0.8) * (0.75 + 0.3 * top) + glow * 0.5;
        let gap = vec3<f32>(0.2, 0.26, 0.36);
        c = mix(gap, lit, 0.35 + 0.65 * cover);
        let dist = length(dir * t);
        c = mix(c, HAZE, 1.0 - exp(-dist / max(g.haze.w * 4.0, 1.0)));
    }
    return vec4<f32>(c, 1.0);
}

// The shadow map's passes: depth from the sun only.
@vertex
fn vs_terrain_shadow(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) color: vec3<f32>) -> @builtin(position) vec4<f32> {
    return g.light * vec4<f32>(pos, 1.0);
}

// Objects cast their shadows from their Low meshes at rest (a shadow shows no rivets or
// swinging legs, and the map is drawn again every frame).
@vertex
fn vs_object_shadow(
    @location(0) pos: vec3<f32>,
    @location(10) role: vec2<f32>,
    @location(3) offset: vec3<f32>,
    @location(4) yaw: f32,
    @location(5) scale: vec3<f32>,
    @location(12) state: vec4<f32>,
    @location(13) t: vec4<f32>,
) -> @builtin(position) vec4<f32> {
    // A spinning rotor lets the sun through: its blades (roles 7 and 12) fold to one point
    // outside the map, so they cast nothing.
    let r = u32(role.x + 0.5);
    if (r == 7u || r == 12u) {
        return vec4<f32>(2.0, 2.0, 2.0, 1.0);
    }
    var p = vec3<f32>(pos.xy, min(pos.z, state.z)) * scale;
    if (t.y != 0.0 || t.w != 0.0) {
        p = turn_y(turn_x(p, t.z, t.w), t.x, t.y);
    }
    let c = cos(yaw);
    let s = sin(yaw);
    return g.light * vec4<f32>(vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + offset, 1.0);
}

struct Textured {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) world_xy: vec2<f32>,
    @location(3) world: vec3<f32>,
};

@group(1) @binding(0) var road_tex: texture_2d<f32>;
@group(1) @binding(1) var road_sampler: sampler;

@vertex
fn vs_road(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) uv: vec2<f32>) -> Textured {
    var out: Textured;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.normal = normal;
    out.uv = uv;
    out.world_xy = pos.xy;
    out.world = pos;
    return out;
}

@fragment
fn fs_road(in: Textured) -> @location(0) vec4<f32> {
    let texel = textureSample(road_tex, road_sampler, in.uv);
    let c = texel.rgb * light_at(in.normal, in.world);
    return vec4<f32>(finish(c, in.world) * shroud(in.world_xy), texel.a);
}

// The water (src/render/world/water.rs): only the cells that dip below the water level, each
// corner with the depth over the ground, so the shallows are tinted and clear and the shore
// line (depth 0) foams. The surface moves with summed travelling waves; it reflects the sky
// toward grazing angles (fresnel) and glints where the sun's reflection meets the eye.
struct Water {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_xy: vec2<f32>,
    // The depth over the ground (negative past the shore).
    @location(1) depth: f32,
};

@vertex
fn vs_water(@location(0) pos: vec3<f32>, @location(1) depth: f32) -> Water {
    var out: Water;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.world_xy = pos.xy;
    out.depth = depth;
    return out;
}

// The slope of one travelling wave at `p`: direction `d` (unit), wavenumber `k` (radians a
// unit), speed `w` (radians a second), height `a`. Its gradient is a k cos(phase) d.
fn wave_slope(p: vec2<f32>, d: vec2<f32>, k: f32, w: f32, a: f32) -> vec2<f32> {
    return d * (a * k * cos(dot(d, p) * k + g.map.z * w));
}

// The sky seen along a direction (its gradient and the sun's glow, without clouds): what the
// water reflects.
fn sky_seen(dir: vec3<f32>) -> vec3<f32> {
    let sun = max(dot(dir, g.sun.xyz), 0.0);
    return mix(HAZE, ZENITH, pow(max(dir.z, 0.0), 0.55)) + vec3<f32>(1.0, 0.86, 0.62) * pow(sun, 6.0) * 0.22;
}

// Deep water's colour, and the shallows' (clear, the ground showing through, tinted teal).
const SHALLOW: vec3<f32> = vec3<f32>(0.06, 0.2, 0.2);

@fragment
fn fs_water(in: Water) -> @location(0) vec4<f32> {
    let s = shroud(in.world_xy);
    let p = in.world_xy;
    let world = vec3<f32>(p, g.map.w);
    let to_eye = normalize(g.eye.xyz - world);
    let depth = max(in.depth, 0.0);
    let full = g.eye.w > 0.5;
    // Waves: three long swells crossing (Low keeps two), and on Medium and High a short chop
    // of noise; their slopes tilt the normal, calmer far off so the distance does not shimmer.
    var slope = wave_slope(p, vec2<f32>(0.8, 0.6), 0.11, 1.3, 0.9) + wave_slope(p, vec2<f32>(-0.5, 0.87), 0.23, 1.9, 0.35);
    if (full) {
        slope += wave_slope(p, vec2<f32>(0.96, -0.28), 0.47, 2.6, 0.14);
        let t = g.map.z;
        let chop = vec2<f32>(noise2(p * 0.5 + vec2<f32>(t * 0.6, t * 0.2)), noise2(p * 0.5 + vec2<f32>(5.2, t * 0.5))) - 0.5;
        slope += chop * 0.16;
    }
    let calm = 1.0 / (1.0 + length(g.eye.xyz - world) / 500.0);
    let n = normalize(vec3<f32>(-slope * calm, 1.0));
    // Fresnel (Schlick's, water's 0.02 at normal incidence): the sky toward grazing angles.
    let facing = clamp(dot(n, to_eye), 0.0, 1.0);
    let fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);
    // The body: teal and clear in the shallows, deep blue and dark further out.
    let deep = 1.0 - exp(-depth / 5.0);
    // Swells facing the sun are a little lighter, those turned away darker: the waves read
    // even where nothing bright is reflected.
    let body = mix(SHALLOW, g.water.rgb, deep) * clamp(1.0 + dot(n.xy, g.sun.xy) * 2.6, 0.65, 1.35);
    let body_alpha = mix(0.35, g.water.a, clamp(depth / 2.5, 0.0, 1.0));
    // What it reflects: the sky (at least a little of it, so from above the lakes still read
    // as water), and the sun's glint, a tight sparkle over a broad sheen.
    let seen = sky_seen(reflect(-to_eye, n));
    let k = max(fresnel, 0.07);
    let half_way = normalize(to_eye + g.sun.xyz);
    let nh = max(dot(n, half_way), 0.0);
    var glint = pow(nh, 60.0) * 0.35;
    if (full) {
        glint += pow(nh, 700.0) * 4.0;
    } else {
        glint += pow(nh, 300.0) * 2.0;
    }
    // Foam along the shore: lines rolling in toward it (depth falling), coming and going.
    let edge = 1.0 - smoothstep(0.0, 0.7, depth);
    let roll = 0.5 + 0.5 * sin(depth * 9.0 - g.map.z * 2.2 + noise2(p * 0.15) * 6.0);
    let foam = clamp(edge * roll * roll * 0.6 + edge * edge * edge * 0.3, 0.0, 1.0);
    // Mix the layers as opacities: the body under the reflection under the foam.
    let a_refl = body_alpha + (1.0 - body_alpha) * k;
    var c = (body * body_alpha * (1.0 - k) + seen * k) / max(a_refl, 0.001);
    c += vec3<f32>(1.0, 0.95, 0.85) * glint;
    c = mix(c, vec3<f32>(0.8, 0.84, 0.85), foam * 0.8);
    let alpha = clamp(max(a_refl, foam * 0.8) + glint, 0.0, 1.0);
    return vec4<f32>(finish(c, world) * s, mix(1.0, alpha, s));
}

// Sprites (src/render/world/mod.rs SpriteInstance): soft round puffs facing the camera
// (smoke, fire, debris, an explosion's light), streaks along a path (tracers), rayed stars
// (muzzle flashes), marks lying on the ground (ragged scorches, a shock ring of dust), and
// spinning rotors' blurred discs;
// depth-tested against the world, colours premultiplied by their soft edge.
struct Sprite {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
    // The shape, and a number of its own (from where it is) for its rays or ragged edge.
    @location(2) kind: vec2<f32>,
    // The shape's own numbers (a shock ring's band width and age).
    @location(3) extra: vec2<f32>,
};

@vertex
fn vs_sprite(
    @builtin(vertex_index) i: u32,
    @location(0) pos: vec3<f32>,
    @location(1) size: f32,
    @location(2) color: vec4<f32>,
    @location(3) shape: vec4<f32>,
) -> Sprite {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[i];
    let kind = u32(shape.w + 0.5);
    let forward = normalize(pos - g.eye.xyz);
    var world: vec3<f32>;
    if (kind == 1u) {
        // A streak: long along its path, `size` wide across it as the camera sees it.
        let along = shape.xyz;
        let side = normalize(cross(along, forward) + vec3<f32>(1e-5, 0.0, 0.0)) * size;
        world = pos - forward * size + along * c.x + side * c.y;
    } else if (kind == 5u) {
        // A rotor's disc: square to its axis (`shape.xyz`), through its hub.
        let axis = normalize(shape.xyz);
        let other = select(vec3<f32>(0.0, 0.0, 1.0), vec3<f32>(1.0, 0.0, 0.0), abs(axis.z) > 0.7);
        let u = normalize(cross(axis, other));
        let v = cross(axis, u);
        world = pos + (u * c.x + v * c.y) * size;
    } else if (kind == 3u || kind == 4u) {
        // On the ground: level, lifted a little and pulled toward the eye so the ground's
        // own triangles do not cut it.
        world = pos + vec3<f32>(c * size, 0.3) - forward * min(size * 0.2, 2.0);
    } else {
        let right = normalize(cross(forward, vec3<f32>(0.0, 0.0, 1.0)));
        let up = cross(right, forward);
        // Pulled a little toward the eye, so a puff on the ground is not cut in half by it.
        let centre = pos - forward * size * 0.5;
        world = centre + (right * c.x + up * c.y) * size;
    }
    var out: Sprite;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.uv = c;
    out.color = color;
    out.kind = vec2<f32>(f32(kind), hash2(floor(pos.xy * 7.0) + vec2<f32>(pos.z * 3.0, 0.0)));
    out.extra = shape.xy;
    return out;
}

@fragment
fn fs_sprite(in: Sprite) -> @location(0) vec4<f32> {
    let kind = u32(in.kind.x + 0.5);
    let own = in.kind.y;
    let uv = in.uv;
    let r = length(uv);
    var a: f32;
    // Brightness over its colour (a shock ring's lit crest).
    var shade = 1.0;
    if (kind == 1u) {
        // A tracer: a hot core across, bright at its head (+x), thinning to its tail.
        let across = clamp(1.0 - abs(uv.y), 0.0, 1.0);
        let head = smoothstep(1.0, 0.8, uv.x);
        a = across * across * mix(0.1, 1.0, (uv.x + 1.0) * 0.5) * head;
    } else if (kind == 2u) {
        // A flash: a white-hot heart and five to seven rays of uneven length.
        let rays = 5.0 + floor(own * 3.0);
        let angle = atan2(uv.y, uv.x) + own * 6.2831853;
        let ray = pow(abs(cos(angle * rays * 0.5)), 10.0) * (0.6 + 0.4 * noise2(vec2<f32>(angle * 3.0, own * 40.0)));
        let heart = clamp(1.0 - r * 2.2, 0.0, 1.0);
        a = clamp(heart * heart * 2.0 + ray * clamp(1.0 - r, 0.0, 1.0), 0.0, 1.0);
    } else if (kind == 3u) {
        // A scorch: ragged and soft at its edge, blotchy within.
        let ragged = r + (noise2(uv * 2.3 + own * 31.0) - 0.5) * 0.55;
        let blotch = 0.7 + 0.3 * noise2(uv * 6.0 + own * 17.0);
        a = smoothstep(1.0, 0.35, ragged) * blotch;
    } else if (kind == 4u) {
        // A shock ring of dust (src/game/battle/particles/sprites.rs): a crest at its ragged
        // outer edge, lit on its outer side, falling off softly inward over the band's width
        // (`extra.x`, a share of the radius: thin and dense at first, broad and thin as it
        // slows, `extra.y` its age), in billowing clumps that break up as it ages; so at
        // every moment it reads as dust thrown along the ground, not a flat stain.
        let width = clamp(in.extra.x, 0.05, 1.0);
        let age = clamp(in.extra.y, 0.0, 1.0);
        let angle = atan2(uv.y, uv.x);
        let edge = 1.0 - 0.08 * noise2(vec2<f32>(angle * 5.0, own * 19.0));
        // Low (`g.eye.w` 0, a budget on software renderers) keeps the ragged edge and the
        // crest but not the billowing clumps.
        let t = clamp((r - (edge - width)) / width, 0.0, 1.0);
        let crest = smoothstep(0.0, 0.8, t) * smoothstep(edge, edge - width * 0.25, r) * step(edge - width, r);
        var clumps = 0.8;
        if (g.eye.w > 0.5) {
            let billow = noise2(uv * 5.0 + own * 23.0) * 0.6 + noise2(uv * 13.0 - own * 7.0) * 0.4;
            clumps = mix(0.8, smoothstep(0.15 + 0.35 * age, 0.75, billow), 0.35 + 0.5 * age);
        }
        a = crest * crest * clumps;
        // Light dust, brighter on its outer side: never darker than its colour (a stain).
        shade = 0.95 + 0.3 * t;
    } else if (kind == 5u) {
        // A spinning rotor's blur (src/render/world/rotor.rs): a faint disc, denser toward
        // where the tips run, with soft streaks trailing each blade; clear at the hub.
        let angle = atan2(uv.y, uv.x) - g.map.z * 30.0 - own * 6.2831853;
        let behind = fract(angle * 4.0 / 6.2831853);
        let streak = pow(1.0 - behind, 5.0) + 0.35 * pow(1.0 - fract(behind + 0.5), 9.0);
        let rim = smoothstep(1.0, 0.9, r) * smoothstep(0.08, 0.3, r);
        let tips = smoothstep(0.72, 0.95, r);
        a = rim * (0.3 + 0.25 * tips + 0.5 * streak * (0.35 + 0.65 * r));
        // The tips' path catches a little light.
        shade = 1.0 + 0.7 * tips * smoothstep(1.0, 0.93, r);
    } else if (kind == 6u) {
        // A billow of dust (a shock ring's or a moving vehicle's,
        // src/game/battle/particles/sprites.rs): soft and round, lit from above so it stands
        // as a light cloud, its soft edge thinned into wisps more as it ages (`extra.y`) so it
        // breaks up instead of fading as a flat disc — never a dark stain.
        let age = clamp(in.extra.y, 0.0, 1.0);
        let soft = clamp(1.0 - r, 0.0, 1.0);
        let body = soft * soft * (3.0 - 2.0 * soft);
        a = body;
        // Low (a budget) keeps it round and lit, without the wisps.
        if (g.eye.w > 0.5) {
            let billow = noise2(uv * 2.6 + own * 13.0) * 0.6 + noise2(uv * 6.3 - own * 5.0) * 0.4;
            let wisps = smoothstep(0.1 + 0.3 * age, 0.7 + 0.3 * age, billow * (0.55 + body));
            a = body * mix(0.4, 1.0, wisps);
        }
        shade = 0.95 + 0.2 * uv.y;
    } else {
        let soft = clamp(1.0 - r, 0.0, 1.0);
        a = soft * soft * (3.0 - 2.0 * soft);
    }
    // A negative opacity is a light: it adds to what is behind it and covers nothing.
    let soft = a * abs(in.color.a);
    return vec4<f32>(in.color.rgb * shade * soft, select(soft, 0.0, in.color.a < 0.0));
}
