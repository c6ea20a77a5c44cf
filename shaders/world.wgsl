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
    // xyz: the camera's eye (for highlights on the water); w: 1 when the sun casts shadows
    // (the shadow map was drawn this frame), 0 when graphics quality leaves them out.
    eye: vec4<f32>,
    // World to the shadow map's clip space (orthographic, from the sun).
    light: mat4x4<f32>,
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

fn shroud(world_xy: vec2<f32>) -> f32 {
    let uv = world_xy / max(g.map.xy, vec2<f32>(1.0, 1.0));
    return textureSampleLevel(shroud_tex, shroud_sampler, uv, 0.0).r;
}

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) world_xy: vec2<f32>,
    @location(3) world: vec3<f32>,
    // The ground's fine patterns' shares: grass, soil, rock, paved (terrain only).
    @location(4) detail: vec4<f32>,
};

// How much sun reaches a point: 1 in the open, 0 in full shadow (the comparison sampler's
// linear filter blends the four texels around it, softening the edge).
fn sunlit(world: vec3<f32>, n: vec3<f32>) -> f32 {
    if (g.eye.w < 0.5) {
        return 1.0;
    }
    // A little off the surface toward its normal, so a face does not shadow itself.
    let p = g.light * vec4<f32>(world + n * 0.6, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    if (uv.x <= 0.0 || uv.y <= 0.0 || uv.x >= 1.0 || uv.y >= 1.0 || ndc.z >= 1.0) {
        return 1.0;
    }
    return textureSampleCompareLevel(shadow_tex, shadow_sampler, uv, ndc.z - 0.0015);
}

// Sun (where it reaches) plus a hemisphere: the sky's light from above, the ground's from below.
fn light_at(n: vec3<f32>, world: vec3<f32>) -> vec3<f32> {
    let nn = normalize(n);
    let sun = max(dot(nn, g.sun.xyz), 0.0) * sunlit(world, nn);
    let sky = mix(vec3<f32>(0.30, 0.28, 0.24), vec3<f32>(0.52, 0.58, 0.68), nn.z * 0.5 + 0.5);
    return sky * g.sun.w * 1.6 + vec3<f32>(1.0, 0.96, 0.88) * (1.0 - g.sun.w) * sun;
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
    // The broad part of the ground's detail varies slowly: worked out per corner.
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
};

@vertex
fn vs_object(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
    @location(7) team: f32,
    inst: Instance,
) -> Lit {
    // Model y is forward; yaw 0 faces east (+x), counter-clockwise.
    let c = cos(inst.yaw);
    let s = sin(inst.yaw);
    let p = pos * inst.scale;
    // Forward (model +y) maps to (c, s); right (model +x) maps to (s, -c).
    let world = vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + inst.offset;
    let n = normal / inst.scale;
    var out: Lit;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.normal = vec3<f32>(n.x * s + n.y * c, -n.x * c + n.y * s, n.z);
    out.color = mix(inst.color, inst.team, team) * shade;
    out.world_xy = world.xy;
    out.world = world;
    out.detail = vec4<f32>(0.0);
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

// The fine part, per pixel: each class's pattern by its share (so patterns blend where
// classes meet) — grass speckle, clumps of soil, cracked rock, paving joints — and wet,
// foaming ground along the waterline.
fn fine_detail(world: vec3<f32>, share: vec4<f32>) -> vec3<f32> {
    let patterns = textureSampleLevel(detail_tex, detail_sampler, world.xy / 32.0, 0.0) * 1.25;
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

@fragment
fn fs_lit(in: Lit) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color * light_at(in.normal, in.world) * shroud(in.world_xy), 1.0);
}

@fragment
fn fs_terrain(in: Lit) -> @location(0) vec4<f32> {
    let detail = fine_detail(in.world, in.detail);
    return vec4<f32>(in.color * detail * light_at(in.normal, in.world) * shroud(in.world_xy), 1.0);
}

// The shadow map's passes: depth from the sun only.
@vertex
fn vs_terrain_shadow(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) color: vec3<f32>) -> @builtin(position) vec4<f32> {
    return g.light * vec4<f32>(pos, 1.0);
}

@vertex
fn vs_object_shadow(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
    @location(7) team: f32,
    inst: Instance,
) -> @builtin(position) vec4<f32> {
    let c = cos(inst.yaw);
    let s = sin(inst.yaw);
    let p = pos * inst.scale;
    let world = vec3<f32>(p.x * s + p.y * c, -p.x * c + p.y * s, p.z) + inst.offset;
    return g.light * vec4<f32>(world, 1.0);
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
    return vec4<f32>(texel.rgb * light_at(in.normal, in.world) * shroud(in.world_xy), texel.a);
}

struct Water {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_xy: vec2<f32>,
};

@vertex
fn vs_water(@location(0) pos: vec3<f32>) -> Water {
    var out: Water;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.world_xy = pos.xy;
    return out;
}

@fragment
fn fs_water(in: Water) -> @location(0) vec4<f32> {
    let s = shroud(in.world_xy);
    // Ripples: two sets of moving waves tilt the surface's normal.
    let t = g.map.z;
    let p = in.world_xy;
    let w1 = noise2(p * 0.06 + vec2<f32>(t * 0.11, t * 0.07));
    let w2 = noise2(p * 0.17 - vec2<f32>(t * 0.05, t * 0.13));
    let tilt = vec2<f32>(w1 - 0.5, w2 - 0.5) * 0.5;
    let n = normalize(vec3<f32>(tilt.x, tilt.y, 1.0));
    let to_eye = normalize(g.eye.xyz - vec3<f32>(p, g.map.w));
    let half_way = normalize(to_eye + g.sun.xyz);
    let glint = pow(max(dot(n, half_way), 0.0), 90.0) * 1.6;
    let sky = mix(g.water.rgb, vec3<f32>(0.06, 0.11, 0.18), 0.1 + 0.3 * (1.0 - to_eye.z));
    let colour = sky * (0.85 + 0.3 * w1) + vec3<f32>(glint, glint, glint * 0.95);
    return vec4<f32>(colour * s, mix(1.0, g.water.a, s));
}

// Sprites: soft round puffs facing the camera (smoke, fire, flashes, debris), depth-tested
// against the world, colours premultiplied by their soft edge.
struct Sprite {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
};

@vertex
fn vs_sprite(
    @builtin(vertex_index) i: u32,
    @location(0) pos: vec3<f32>,
    @location(1) size: f32,
    @location(2) color: vec4<f32>,
) -> Sprite {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[i];
    let forward = normalize(pos - g.eye.xyz);
    let right = normalize(cross(forward, vec3<f32>(0.0, 0.0, 1.0)));
    let up = cross(right, forward);
    // Pulled a little toward the eye, so a puff on the ground is not cut in half by it.
    let centre = pos - forward * size * 0.5;
    let world = centre + (right * c.x + up * c.y) * size;
    var out: Sprite;
    out.clip = g.view_proj * vec4<f32>(world, 1.0);
    out.uv = c;
    out.color = color;
    return out;
}

@fragment
fn fs_sprite(in: Sprite) -> @location(0) vec4<f32> {
    let r = length(in.uv);
    let a = clamp(1.0 - r, 0.0, 1.0);
    let soft = a * a * (3.0 - 2.0 * a) * in.color.a;
    return vec4<f32>(in.color.rgb * soft, soft);
}
