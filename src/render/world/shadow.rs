//! The sun's shadow map: the depth of everything seen from the sun, over the whole map, so the
//! world pass can tell which points the sun reaches (objects shade the ground and each other,
//! hills shade valleys). The ground and the objects are drawn into it every frame (copying a
//! depth texture is not something every backend does — the GL one, which software adapters
//! use, does not).
//!
//! Must not: know about the simulation or the camera; it sees what the world pass hands it.

use glam::{Mat4, Vec3, camera};

use super::{DEPTH, Mesh, ObjectInstance};

/// Texels along each side of the shadow map.
pub const SHADOW_SIZE: u32 = 1024;
/// Whether the ground casts shadows too (hills over valleys), not only the objects.
const HILL_SHADOWS: bool = false;

/// World to the shadow map's clip space: an orthographic view from the sun (`sun`, a unit
/// vector toward it) holding the whole map of `size` world units with ground between `low`
/// and `high`.
pub fn light_matrix(sun: Vec3, size: [f32; 2], low: f32, high: f32) -> Mat4 {
    let centre = Vec3::new(size[0] / 2.0, size[1] / 2.0, (low + high) / 2.0);
    let reach = Vec3::new(size[0], size[1], high - low).length().max(1.0);
    let view = camera::rh::view::look_at_mat4(centre + sun * reach, centre, Vec3::Z);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for x in [0.0, size[0]] {
        for y in [0.0, size[1]] {
            for z in [low - 2.0, high + 40.0] {
                let p = view.transform_point3(Vec3::new(x, y, z));
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
    }
    // Looking down -z: the near plane is the largest z. Depth 0..1, y up (wgpu's clip space).
    camera::rh::proj::directx::orthographic(lo.x, hi.x, lo.y, hi.y, -hi.z - 1.0, -lo.z + 1.0) * view
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
            if let Some(range) = ranges.get(mesh).filter(|_| n > 0) {
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
}
