// The 3D world: terrain, objects (instanced procedural models), roads (textured from the road
// atlas, alpha-blended over the ground) and water. Linear colours; the target is sRGB.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: direction toward the sun (unit); w: ambient light.
    sun: vec4<f32>,
    // rgb: water colour; a: water opacity.
    water: vec4<f32>,
    // xy: the map's size in world units (for the shroud's coordinates).
    map: vec4<f32>,
};

@group(0) @binding(0) var<uniform> g: Globals;
// The shroud: one texel per cell, 1 in sight, dimmer where only explored, 0 never seen.
@group(0) @binding(1) var shroud_tex: texture_2d<f32>;
@group(0) @binding(2) var shroud_sampler: sampler;

fn shroud(world_xy: vec2<f32>) -> f32 {
    let uv = world_xy / max(g.map.xy, vec2<f32>(1.0, 1.0));
    return textureSampleLevel(shroud_tex, shroud_sampler, uv, 0.0).r;
}

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
    @location(2) world_xy: vec2<f32>,
};

fn light(n: vec3<f32>) -> f32 {
    return g.sun.w + (1.0 - g.sun.w) * max(dot(normalize(n), g.sun.xyz), 0.0);
}

@vertex
fn vs_terrain(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) color: vec3<f32>) -> Lit {
    var out: Lit;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.normal = normal;
    out.color = color;
    out.world_xy = pos.xy;
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
    return out;
}

@fragment
fn fs_lit(in: Lit) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color * light(in.normal) * shroud(in.world_xy), 1.0);
}

struct Textured {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) world_xy: vec2<f32>,
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
    return out;
}

@fragment
fn fs_road(in: Textured) -> @location(0) vec4<f32> {
    let texel = textureSample(road_tex, road_sampler, in.uv);
    return vec4<f32>(texel.rgb * light(in.normal) * shroud(in.world_xy), texel.a);
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
    return vec4<f32>(g.water.rgb * s, mix(1.0, g.water.a, s));
}
