// The 3D world: terrain, objects (instanced procedural models), roads (textured from the road
// atlas, alpha-blended over the ground) and water. Linear colours; the target is sRGB.

struct Globals {
    view_proj: mat4x4<f32>,
    // xyz: direction toward the sun (unit); w: ambient light.
    sun: vec4<f32>,
    // rgb: water colour; a: water opacity.
    water: vec4<f32>,
};

@group(0) @binding(0) var<uniform> g: Globals;

struct Lit {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) color: vec3<f32>,
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
    return out;
}

struct Instance {
    @location(3) offset: vec3<f32>,
    @location(4) yaw: f32,
    @location(5) scale: vec3<f32>,
    @location(6) color: vec3<f32>,
};

@vertex
fn vs_object(
    @location(0) pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) shade: f32,
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
    out.color = inst.color * shade;
    return out;
}

@fragment
fn fs_lit(in: Lit) -> @location(0) vec4<f32> {
    return vec4<f32>(in.color * light(in.normal), 1.0);
}

struct Textured {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
};

@group(1) @binding(0) var road_tex: texture_2d<f32>;
@group(1) @binding(1) var road_sampler: sampler;

@vertex
fn vs_road(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @location(2) uv: vec2<f32>) -> Textured {
    var out: Textured;
    out.clip = g.view_proj * vec4<f32>(pos, 1.0);
    out.normal = normal;
    out.uv = uv;
    return out;
}

@fragment
fn fs_road(in: Textured) -> @location(0) vec4<f32> {
    let texel = textureSample(road_tex, road_sampler, in.uv);
    return vec4<f32>(texel.rgb * light(in.normal), texel.a);
}

@vertex
fn vs_water(@location(0) pos: vec3<f32>) -> @builtin(position) vec4<f32> {
    return g.view_proj * vec4<f32>(pos, 1.0);
}

@fragment
fn fs_water() -> @location(0) vec4<f32> {
    return g.water;
}
