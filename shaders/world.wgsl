// The 3D world: terrain, objects (instanced procedural models), roads (textured from the road
// atlas, alpha-blended over the ground) and water, lit by the sun with a shadow map (depth
// seen from the sun over the whole map) and a sky/ground hemisphere. Linear colours; the
// target is sRGB.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: direction toward the sun (unit); w: ambient light.
    sun: vec4<f32>,
    // rgb: water colour; a: water opacity.
    water: vec4<f32>,
    // xy: the map's size in world units (for the shroud's coordinates); z: seconds (for the
    // water's motion).
    map: vec4<f32>,
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
};

// How much sun reaches a point: 1 in the open, 0 in full shadow (the comparison sampler's
// linear filter blends the four texels around it, softening the edge).
fn sunlit(world: vec3<f32>, n: vec3<f32>) -> f32 {
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


@vertex
fn vs_terrain(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) color: vec3<f32>) -> Lit {
    var out: Lit;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.normal = normal;
    out.color = color;
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
    return out;
}

@fragment
fn fs_lit(in: Lit) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color * light_at(in.normal, in.world) * shroud(in.world_xy), 1.0);
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
    return vec4<f32>(g.water.rgb * s, mix(1.0, g.water.a, s));
}
