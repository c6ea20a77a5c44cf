//! The sun's shadow map: the depth of everything seen from the sun, over the part of the map
//! the camera shows (and the casters just outside it), so the world pass can tell which points
//! the sun reaches (objects shade the ground and each other,
//! hills shade valleys). The ground and the objects (their Low meshes, at rest: a shadow
//! shows no rivets or swinging legs) are drawn into it every frame (copying a
//! depth texture is not something every backend does — the GL one, which software adapters
//! use, does not).
//!
//! Must not: know about the simulation; of the camera it sees only the matrix it is handed.

use glam::{Mat4, Vec3, camera};

use super::{DEPTH, Mesh, ObjectInstance};

/// Texels along each side of the shadow map (fitted to the view: a world unit or two each at
/// the default zoom).
pub const SHADOW_SIZE: u32 = 768;
/// How far the shadow map reaches along a corner's ray, in distances from the eye to where
/// the view's centre comes down to the ground's lowest point (an untilted view's corners all
/// lie well within it).
const SHADOW_REACH: f32 = 4.0;
/// Whether the ground casts shadows too (hills over valleys), not only the objects.
const HILL_SHADOWS: bool = false;

/// World to the shadow map's clip space: an orthographic view from the sun (`sun`, a unit
/// vector toward it) holding the whole map of `size` world units with ground between `low`
/// and `high`.
pub fn light_matrix(sun: Vec3, size: [f32; 2], low: f32, high: f32) -> Mat4 {
    light_matrix_over(sun, [0.0, 0.0, size[0], size[1]], low, high)
}

/// Tallest object the shadow map allows for above the ground's highest point (world units).
const CASTER_HEIGHT: f32 = 40.0;

/// World to the shadow map's clip space over the ground rectangle `area` (`[x0, y0, x1, y1]`)
/// with ground between `low` and `high`. The view's edges are snapped to whole texels of the
/// map, so while the rectangle keeps its size and only moves (the camera pans) the shadows'
/// edges stay put instead of crawling.
pub fn light_matrix_over(sun: Vec3, area: [f32; 4], low: f32, high: f32) -> Mat4 {
    let [x0, y0, x1, y1] = area;
    let centre = Vec3::new((x0 + x1) / 2.0, (y0 + y1) / 2.0, (low + high) / 2.0);
    let reach = Vec3::new(x1 - x0, y1 - y0, high - low).length().max(1.0);
    let view = camera::rh::view::look_at_mat4(centre + sun * reach, centre, Vec3::Z);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for x in [x0, x1] {
        for y in [y0, y1] {
            for z in [low - 2.0, high + CASTER_HEIGHT] {
                let p = view.transform_point3(Vec3::new(x, y, z));
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
    }
    // Whole texels: the extent is kept (a texel more) and the low edge rounded down.
    for axis in 0..2 {
        let texel = ((hi[axis] - lo[axis]) / SHADOW_SIZE as f32).max(1e-4);
        let extent = hi[axis] - lo[axis] + texel;
        lo[axis] = (lo[axis] / texel).floor() * texel;
        hi[axis] = lo[axis] + extent;
    }
    // Looking down -z: the near plane is the largest z. Depth 0..1, y up (wgpu's clip space).
    camera::rh::proj::directx::orthographic(lo.x, hi.x, lo.y, hi.y, -hi.z - 1.0, -lo.z + 1.0) * view
}

/// The ground rectangle the shadow map should cover for a camera (`view_proj`) over a map of
/// `size` with ground between `low` and `high`: what the view shows, widened toward the sun by
/// as far as the tallest thing's shadow reaches (so casters just outside the view still shade
/// it), rounded out to a size step (so panning keeps the size) and kept within the map. `None`
/// when the view does not reach the ground.
pub fn view_area(view_proj: Mat4, sun: Vec3, size: [f32; 2], low: f32, high: f32) -> Option<[f32; 4]> {
    let inverse = view_proj.inverse();
    let (mut lo, mut hi) = (glam::Vec2::splat(f32::MAX), glam::Vec2::splat(f32::MIN));
    // Where a corner's ray meets the height `z`: the far end of the view stands in for a ray
    // that never comes down to it (it looks over the horizon).
    let meet = |x: f32, y: f32, z: f32| {
        let near = inverse.project_point3(Vec3::new(x, y, 0.0));
        let dir = inverse.project_point3(Vec3::new(x, y, 1.0)) - near;
        let t = if dir.z.abs() > 1e-6 { (z - near.z) / dir.z } else { 1.0 };
        (near, dir * t.clamp(0.0, 1.0))
    };
    // A view tilted toward the horizon sees the ground far off at a grazing angle: the map
    // covers it out to SHADOW_REACH times the distance to where the view's centre comes down
    // to the ground's lowest point (past that the haze thickens and no shadow is cast), so it
    // stays sharp near by. (The lowest point: a close view's eye may be below the highest.)
    let reach = meet(0.0, 0.0, low).1.length().max(1.0) * SHADOW_REACH;
    for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        for z in [low, high] {
            let (near, along) = meet(x, y, z);
            let p = near + along.clamp_length_max(reach);
            lo = lo.min(p.truncate());
            hi = hi.max(p.truncate());
        }
    }
    if !(lo.x.is_finite() && hi.x.is_finite() && lo.y.is_finite() && hi.y.is_finite()) {
        return None;
    }
    // Shadows fall away from the sun: casters stand toward it.
    let along = sun.truncate() / sun.z.max(0.1) * (high - low + CASTER_HEIGHT);
    lo = lo.min(lo + along);
    hi = hi.max(hi + along);
    // A square of a size step of 128 units, centred on the view, within the map.
    let step = 128.0;
    let side = ((hi - lo).max_element() / step).ceil().max(1.0) * step;
    let side = side.min(size[0].max(size[1]));
    let centre = (lo + hi) / 2.0;
    let clampx = |c: f32, s: f32, w: f32| if s >= w { w / 2.0 } else { c.clamp(s / 2.0, w - s / 2.0) };
    let (cx, cy) = (clampx(centre.x, side, size[0]), clampx(centre.y, side, size[1]));
    let (w, h) = (side.min(size[0]), side.min(size[1]));
    Some([cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0])
}

/// The shadow map and the passes that fill it.
pub(super) struct ShadowMap {
    /// The depth the world pass samples.
    pub view: wgpu::TextureView,
    terrain_pipeline: wgpu::RenderPipeline,
    object_pipeline: wgpu::RenderPipeline,
    bind: wgpu::BindGroup,
}

fn depth_texture(device: &wgpu::Device, label: &str) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: SHADOW_SIZE, height: SHADOW_SIZE, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: DEPTH,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    })
}

impl ShadowMap {
    /// The textures and the depth-only pipelines, reading the world pass's `globals` (whose
    /// `light` matrix they draw with); vertex layouts as the world pass's own.
    pub fn new(
        device: &wgpu::Device,
        shader: &wgpu::ShaderModule,
        globals: &wgpu::Buffer,
        terrain: wgpu::VertexBufferLayout,
        model: wgpu::VertexBufferLayout,
        instance: wgpu::VertexBufferLayout,
    ) -> ShadowMap {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("shadow globals"),
            entries: &[super::binding::uniform(0, wgpu::ShaderStages::VERTEX)],
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shadow globals"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("shadow"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |label: &str, entry: &str, buffers: &[Option<wgpu::VertexBufferLayout>]| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: shader,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: wgpu::StencilState::default(),
                    // Pushed back a little, so surfaces do not shadow themselves.
                    bias: wgpu::DepthBiasState { constant: 2, slope_scale: 2.0, clamp: 0.0 },
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: None,
                multiview_mask: None,
                cache: None,
            })
        };
        let terrain_pipeline = pipeline("terrain shadow", "vs_terrain_shadow", &[Some(terrain)]);
        let object_pipeline = pipeline("object shadow", "vs_object_shadow", &[Some(model), Some(instance)]);
        let texture = depth_texture(device, "shadow map");
        ShadowMap {
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
            terrain_pipeline,
            object_pipeline,
            bind,
        }
    }

    /// A comparison sampler for the world pass (filtered: four taps blend at the edges).
    pub fn sampler(device: &wgpu::Device) -> wgpu::Sampler {
        device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        })
    }

    /// Records this frame's shadow map: the ground's depth, then the objects (`groups[i]` drawn with mesh range `ranges[i]`, from `instances`).
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        terrain: &Mesh,
        models: &Mesh,
        ranges: &[std::ops::Range<u32>],
        instances: &wgpu::Buffer,
        groups: &[Vec<ObjectInstance>],
    ) {
        let mut pass = begin(encoder, &self.view, wgpu::LoadOp::Clear(1.0));
        pass.set_bind_group(0, &self.bind, &[]);
        if HILL_SHADOWS {
            pass.set_pipeline(&self.terrain_pipeline);
            pass.set_vertex_buffer(0, terrain.vertices.slice(..));
            pass.set_index_buffer(terrain.indices.slice(..), wgpu::IndexFormat::Uint32);
            pass.draw_indexed(0..terrain.count, 0, 0..1);
        }
        pass.set_pipeline(&self.object_pipeline);
        pass.set_vertex_buffer(0, models.vertices.slice(..));
        pass.set_vertex_buffer(1, instances.slice(..));
        pass.set_index_buffer(models.indices.slice(..), wgpu::IndexFormat::Uint32);
        let mut first = 0u32;
        for (mesh, group) in groups.iter().enumerate() {
            let n = group.len() as u32;
            if let Some(range) = ranges.get(mesh).filter(|r| n > 0 && !r.is_empty()) {
                pass.draw_indexed(range.clone(), 0, first..first + n);
            }
            first += n;
        }
    }
}

fn begin<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<f32>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("shadow map"),
        color_attachments: &[],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations { load, store: wgpu::StoreOp::Store }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_light_matrix_holds_the_whole_map_and_nearer_the_sun_is_shallower() {
        let sun = Vec3::new(-0.45, -0.35, 0.82).normalize();
        let m = light_matrix(sun, [1280.0, 960.0], 0.0, 60.0);
        for x in [0.0, 1280.0] {
            for y in [0.0, 960.0] {
                for z in [0.0, 60.0] {
                    let p = m.project_point3(Vec3::new(x, y, z));
                    assert!(p.x.abs() <= 1.0 && p.y.abs() <= 1.0 && (0.0..=1.0).contains(&p.z), "{x},{y},{z} → {p}");
                }
            }
        }
        let low = m.project_point3(Vec3::new(640.0, 480.0, 0.0));
        let high = m.project_point3(Vec3::new(640.0, 480.0, 50.0));
        assert!(high.z < low.z, "a roof is nearer the sun than the ground under it");
    }

    #[test]
    fn the_shader_knows_the_shadow_maps_size_for_its_bias_and_softening() {
        // The lookup's normal offset, depth bias and the spacing of its four taps are in
        // texels of the map, so the shader's count must be the map's.
        let shader = include_str!("../../../shaders/world.wgsl");
        let want = format!("const SHADOW_TEXELS: f32 = {SHADOW_SIZE}.0;");
        assert!(shader.contains(&want), "shaders/world.wgsl lacks `{want}`");
        // Four taps, and faces turned from the sun look nothing up.
        assert_eq!(shader.matches("textureSampleCompareLevel(shadow_tex").count(), 4);
        assert!(shader.contains("if (facing > 0.0)"));
    }

    #[test]
    fn the_view_area_holds_what_the_camera_shows_within_the_map_and_panning_keeps_its_size() {
        let sun = Vec3::new(-0.45, -0.35, 0.82).normalize();
        let size = [2560.0, 2560.0];
        let camera = |x: f32, y: f32| {
            let eye = Vec3::new(x, y - 300.0, 420.0);
            let view = camera::rh::view::look_at_mat4(eye, Vec3::new(x, y, 0.0), Vec3::Z);
            camera::rh::proj::directx::perspective(0.8, 16.0 / 9.0, 5.0, 5000.0) * view
        };
        let a = view_area(camera(1280.0, 1280.0), sun, size, 0.0, 60.0).unwrap();
        // The ground point under the middle of the view is inside, and the area is far smaller
        // than the map (that is the point: sharper shadows).
        assert!(a[0] < 1280.0 && 1280.0 < a[2] && a[1] < 1280.0 && 1280.0 < a[3], "{a:?}");
        assert!(a[2] - a[0] < 1600.0, "{a:?}");
        // Panning a little keeps the size (so the texels keep theirs).
        let b = view_area(camera(1300.0, 1290.0), sun, size, 0.0, 60.0).unwrap();
        assert_eq!((a[2] - a[0], a[3] - a[1]), (b[2] - b[0], b[3] - b[1]));
        // At the map's corner the area stays on the map.
        let c = view_area(camera(0.0, 0.0), sun, size, 0.0, 60.0).unwrap();
        assert!(c[0] >= 0.0 && c[1] >= 0.0, "{c:?}");
        // The fitted matrix holds the area's corners.
        let m = light_matrix_over(sun, a, 0.0, 60.0);
        for (x, y) in [(a[0], a[1]), (a[2], a[3])] {
            let p = m.project_point3(Vec3::new(x, y, 0.0));
            assert!(p.x.abs() <= 1.0 && p.y.abs() <= 1.0, "{p}");
        }
    }

    #[test]
    fn a_view_looking_out_to_the_horizon_covers_the_near_ground_not_the_whole_map() {
        let sun = Vec3::new(-0.45, -0.35, 0.82).normalize();
        let size = [2560.0, 2560.0];
        // Low over the ground, looking north almost level: the top of the view is sky.
        let eye = Vec3::new(1280.0, 1000.0, 25.0);
        let view = camera::rh::view::look_at_mat4(eye, Vec3::new(1280.0, 1105.0, 0.0), Vec3::Z);
        let tilted = camera::rh::proj::directx::perspective(0.7, 16.0 / 9.0, 5.0, 9000.0) * view;
        let a = view_area(tilted, sun, size, 0.0, 60.0).unwrap();
        assert!(a[0] < 1280.0 && 1280.0 < a[2] && a[1] < 1105.0 && 1105.0 < a[3], "{a:?}");
        assert!(a[2] - a[0] <= 768.0 && a[3] - a[1] <= 768.0, "a tilted view keeps sharp shadows: {a:?}");
    }
}
