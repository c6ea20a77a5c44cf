//! The world pass's pipelines and bind group layouts: terrain (full and Low), the sky, the
//! ground's scatter, object models, roads, water and sprites, each a vertex and fragment entry of `shaders/world.wgsl`
//! with its vertex layout, blending, depth writing and culling; made once when a map's world
//! pass is created.
//!
//! Must not: upload geometry or textures, or draw (the world pass does).

use super::{DEPTH, ObjectInstance, SpriteInstance};
use crate::map::TerrainVertex;
use crate::map::roads::RoadVertex;
use crate::render::binding;

use super::models::ModelVertex;

/// Terrain vertices: position, normal, colour, detail pattern weights.
pub(super) const TERRAIN_ATTRS: [wgpu::VertexAttribute; 4] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x3, 3 => Float32x4];
/// Model vertices: position, normal, shade, team share, pivot, animation role and its number.
pub(super) const MODEL_ATTRS: [wgpu::VertexAttribute; 6] = wgpu::vertex_attr_array![
    0 => Float32x3, 1 => Float32x3, 2 => Float32, 7 => Float32, 9 => Float32x3, 10 => Float32x2
];
/// Low quality's model vertices: position, normal, shade, team share (the parts at rest).
pub(super) const MODEL_LOW_ATTRS: [wgpu::VertexAttribute; 4] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32, 7 => Float32];
/// Low quality's instances: all but the motion (its parts are not posed).
pub(super) const INSTANCE_LOW_ATTRS: [wgpu::VertexAttribute; 7] = {
    use std::mem::offset_of;
    use wgpu::VertexFormat::{Float32, Float32x3, Float32x4};
    [
        attr(3, offset_of!(ObjectInstance, offset), Float32x3),
        attr(4, offset_of!(ObjectInstance, yaw), Float32),
        attr(5, offset_of!(ObjectInstance, scale), Float32x3),
        attr(6, offset_of!(ObjectInstance, color), Float32x3),
        attr(8, offset_of!(ObjectInstance, team), Float32x3),
        attr(12, offset_of!(ObjectInstance, state), Float32x4),
        attr(13, offset_of!(ObjectInstance, tilt), Float32x4),
    ]
};

/// A vertex attribute at `location`, read from byte `offset` of its vertex.
const fn attr(location: u32, offset: usize, format: wgpu::VertexFormat) -> wgpu::VertexAttribute {
    wgpu::VertexAttribute { format, offset: offset as u64, shader_location: location }
}

/// Object instances (see [`ObjectInstance`]).
pub(super) const INSTANCE_ATTRS: [wgpu::VertexAttribute; 8] = wgpu::vertex_attr_array![
    3 => Float32x3, 4 => Float32, 5 => Float32x3, 6 => Float32x3, 8 => Float32x3,
    11 => Float32x4, 12 => Float32x4, 13 => Float32x4
];
/// Road vertices: position, normal, atlas coordinates.
const ROAD_ATTRS: [wgpu::VertexAttribute; 3] = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];
/// Water corners (`water.rs`): position, the depth over the ground.
const WATER_ATTRS: [wgpu::VertexAttribute; 2] = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32];
/// Sprite instances (see [`SpriteInstance`]).
const SPRITE_ATTRS: [wgpu::VertexAttribute; 4] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32, 2 => Float32x4, 3 => Float32x4];

/// A vertex buffer's layout: `stride` bytes a vertex (or instance) holding `attrs`.
pub(super) fn vertex_layout<'a>(
    stride: usize,
    step: wgpu::VertexStepMode,
    attrs: &'a [wgpu::VertexAttribute],
) -> wgpu::VertexBufferLayout<'a> {
    wgpu::VertexBufferLayout { array_stride: stride as u64, step_mode: step, attributes: attrs }
}

/// The bind group layouts: the globals (uniforms, shroud, shadow map, ground detail, Medium and
/// High's relief patterns) and the
/// road atlas.
pub(super) fn layouts(device: &wgpu::Device) -> (wgpu::BindGroupLayout, wgpu::BindGroupLayout) {
    let [shroud_tex, shroud_sampler] = binding::texture_and_sampler(1);
    let shadow_tex = wgpu::BindGroupLayoutEntry {
        binding: 3,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Depth,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    };
    let shadow_sampler = wgpu::BindGroupLayoutEntry {
        binding: 4,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
        count: None,
    };
    let [detail_tex, detail_sampler] = binding::texture_and_sampler(5);
    // Medium and High's relief patterns, read with the detail sampler.
    let relief_tex = wgpu::BindGroupLayoutEntry { binding: 7, ..detail_tex };
    let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("world globals"),
        entries: &[
            binding::uniform(0, wgpu::ShaderStages::VERTEX_FRAGMENT),
            shroud_tex,
            shroud_sampler,
            shadow_tex,
            shadow_sampler,
            detail_tex,
            detail_sampler,
            relief_tex,
        ],
    });
    let tex_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("road atlas"),
        entries: &binding::texture_and_sampler(0),
    });
    (globals_layout, tex_layout)
}

/// The world pass's pipelines.
pub(super) struct Pipelines {
    /// The ground.
    pub terrain: wgpu::RenderPipeline,
    /// The ground at Low quality: no relief, no rock on slopes.
    pub terrain_low: wgpu::RenderPipeline,
    /// The sky behind everything, above Low quality.
    pub sky: wgpu::RenderPipeline,
    /// The ground's scatter: model meshes at rest, instanced.
    pub scatter: wgpu::RenderPipeline,
    /// Instanced object models.
    pub object: wgpu::RenderPipeline,
    /// Instanced object models at Low quality: parts at rest, no shadow lookups.
    pub object_low: wgpu::RenderPipeline,
    /// Road meshes over the ground, textured from the atlas.
    pub road: wgpu::RenderPipeline,
    /// The water surface.
    pub water: wgpu::RenderPipeline,
    /// Camera-facing sprites (smoke, fire, flashes).
    pub sprite: wgpu::RenderPipeline,
}

impl Pipelines {
    /// Makes the pipelines for a `format` target from `shader`.
    pub(super) fn new(
        device: &wgpu::Device,
        shader: &wgpu::ShaderModule,
        format: wgpu::TextureFormat,
        globals_layout: &wgpu::BindGroupLayout,
        tex_layout: &wgpu::BindGroupLayout,
    ) -> Pipelines {
        let plain = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("world"),
            bind_group_layouts: &[Some(globals_layout)],
            immediate_size: 0,
        });
        let textured = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("world roads"),
            bind_group_layouts: &[Some(globals_layout), Some(tex_layout)],
            immediate_size: 0,
        });
        let vertex = wgpu::VertexStepMode::Vertex;
        // A model's corners, then one instance per object drawn (objects, Low objects, scatter).
        let model_buffers = |model: &'static [wgpu::VertexAttribute], instance: &'static [wgpu::VertexAttribute]| {
            [
                Some(vertex_layout(std::mem::size_of::<ModelVertex>(), vertex, model)),
                Some(vertex_layout(std::mem::size_of::<ObjectInstance>(), wgpu::VertexStepMode::Instance, instance)),
            ]
        };
        let pipeline = |label: &str,
                        layout: &wgpu::PipelineLayout,
                        vs: &str,
                        fs: &str,
                        buffers: &[Option<wgpu::VertexBufferLayout>],
                        blend: Option<wgpu::BlendState>,
                        depth_write: bool,
                        cull: Option<wgpu::Face>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: shader,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState { cull_mode: cull, ..Default::default() },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH,
                    depth_write_enabled: Some(depth_write),
                    depth_compare: Some(wgpu::CompareFunction::LessEqual),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: shader,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState { format, blend, write_mask: wgpu::ColorWrites::ALL })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let terrain_pipeline = pipeline(
            "terrain",
            &plain,
            "vs_terrain",
            "fs_terrain",
            &[Some(vertex_layout(std::mem::size_of::<TerrainVertex>(), vertex, &TERRAIN_ATTRS))],
            None,
            true,
            None,
        );
        let terrain_low = pipeline(
            "terrain (low)",
            &plain,
            "vs_terrain",
            "fs_terrain_low",
            &[Some(vertex_layout(std::mem::size_of::<TerrainVertex>(), vertex, &TERRAIN_ATTRS))],
            None,
            true,
            None,
        );
        let sky = pipeline("sky", &plain, "vs_sky", "fs_sky", &[], None, false, None);
        let scatter = pipeline(
            "scatter",
            &plain,
            "vs_scatter",
            "fs_lit",
            &model_buffers(&MODEL_LOW_ATTRS, &INSTANCE_LOW_ATTRS),
            None,
            true,
            Some(wgpu::Face::Back),
        );
        let object_pipeline = pipeline(
            "objects",
            &plain,
            "vs_object",
            "fs_lit",
            &model_buffers(&MODEL_ATTRS, &INSTANCE_ATTRS),
            None,
            true,
            Some(wgpu::Face::Back),
        );
        let object_low = pipeline(
            "objects (low)",
            &plain,
            "vs_object_low",
            "fs_lit_low",
            &model_buffers(&MODEL_LOW_ATTRS, &INSTANCE_LOW_ATTRS),
            None,
            true,
            Some(wgpu::Face::Back),
        );
        let road_pipeline = pipeline(
            "roads",
            &textured,
            "vs_road",
            "fs_road",
            &[Some(vertex_layout(std::mem::size_of::<RoadVertex>(), vertex, &ROAD_ATTRS))],
            Some(wgpu::BlendState::ALPHA_BLENDING),
            false,
            None,
        );
        let water_pipeline = pipeline(
            "water",
            &plain,
            "vs_water",
            "fs_water",
            &[Some(vertex_layout(std::mem::size_of::<super::water::WaterVertex>(), vertex, &WATER_ATTRS))],
            Some(wgpu::BlendState::ALPHA_BLENDING),
            false,
            None,
        );
        let sprite_pipeline = pipeline(
            "sprites",
            &plain,
            "vs_sprite",
            "fs_sprite",
            &[Some(vertex_layout(
                std::mem::size_of::<SpriteInstance>(),
                wgpu::VertexStepMode::Instance,
                &SPRITE_ATTRS,
            ))],
            Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
            false,
            None,
        );
        Pipelines {
            terrain: terrain_pipeline,
            terrain_low,
            sky,
            scatter,
            object: object_pipeline,
            object_low,
            road: road_pipeline,
            water: water_pipeline,
            sprite: sprite_pipeline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_instance_attributes_read_the_instance_fields_they_name() {
        let at = |location: u32| INSTANCE_LOW_ATTRS.iter().find(|a| a.shader_location == location).map(|a| a.offset);
        assert_eq!(at(3), Some(std::mem::offset_of!(ObjectInstance, offset) as u64));
        assert_eq!(at(4), Some(std::mem::offset_of!(ObjectInstance, yaw) as u64));
        assert_eq!(at(5), Some(std::mem::offset_of!(ObjectInstance, scale) as u64));
        assert_eq!(at(6), Some(std::mem::offset_of!(ObjectInstance, color) as u64));
        assert_eq!(at(8), Some(std::mem::offset_of!(ObjectInstance, team) as u64));
        assert_eq!(at(12), Some(std::mem::offset_of!(ObjectInstance, state) as u64));
        assert_eq!(at(13), Some(std::mem::offset_of!(ObjectInstance, tilt) as u64));
        assert_eq!(at(11), None, "Low does not pose parts");
    }
}
