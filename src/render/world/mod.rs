//! The world pass: terrain, instanced object models, roads and water, drawn with a depth
//! buffer into the frame before the UI pass. Shader: `shaders/world.wgsl`.
//!
//! Static geometry (terrain, roads, the model library) is uploaded once per map; each frame
//! takes a view-projection matrix and the object instances the scene made from a snapshot.
//! Must not: read the simulation or decide what is visible to whom (the scene does).

mod apron;
mod detail;
mod ground_shade;
mod mesh;
pub mod models;
mod pipelines;
pub mod pose;
mod rotor;
pub mod scatter;
mod scatter_cull;
mod scatter_mesh;
mod shadow;
mod sprite;
mod textures;
mod upscale;
mod water;

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use image::RgbaImage;
use wgpu::util::DeviceExt;

use super::binding;
use crate::map::roads::RoadMesh;
use crate::map::{TerrainMesh, TerrainVertex};
use mesh::{Mesh, ground_mesh, mesh};
use models::{ModelLibrary, ModelVertex};
use pipelines::vertex_layout;
pub use shadow::{SHADOW_SIZE, light_matrix};
pub use sprite::SpriteInstance;
use textures::{road_atlas_bind, target_view};

/// One object to draw.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ObjectInstance {
    /// Where it stands (world units, z up).
    pub offset: [f32; 3],
    /// Facing, radians counter-clockwise from east.
    pub yaw: f32,
    /// Scale of the unit-space model along its right, forward and up axes.
    pub scale: [f32; 3],
    /// Linear RGB of the model's own parts.
    pub color: [f32; 3],
    /// Linear RGB of the parts that wear the owner's colour.
    pub team: [f32; 3],
    /// How its parts move (see `pose.rs`): the distance it has travelled (unit space), its
    /// stride (0 still .. 1 full speed), its gun's kick (1 at the shot .. 0) and aiming (0..1).
    pub motion: [f32; 4],
    /// Its state: damage stage (0 whole, 1 below half, 2 below a quarter), power (1 on, 0 off),
    /// the height it is built up to (unit space; 1 finished) and a phase for its spinning
    /// parts (seconds).
    pub state: [f32; 4],
    /// Its roll (right side up) and pitch (nose up) as their cosines and sines: cos roll,
    /// sin roll, cos pitch, sin pitch (a slope, a helicopter's lean; see [`pose::tilt`]).
    pub tilt: [f32; 4],
}

impl ObjectInstance {
    /// Parts at rest.
    pub const AT_REST: [f32; 4] = [0.0; 4];
    /// Whole, powered and finished.
    pub const WHOLE: [f32; 4] = [0.0, 1.0, 1.0, 0.0];

    /// An object standing still, whole, level: `offset`, `yaw`, `scale` and colours as the
    /// fields say.
    pub fn still(offset: [f32; 3], yaw: f32, scale: [f32; 3], color: [f32; 3], team: [f32; 3]) -> ObjectInstance {
        ObjectInstance {
            offset,
            yaw,
            scale,
            color,
            team,
            motion: ObjectInstance::AT_REST,
            state: ObjectInstance::WHOLE,
            tilt: pose::LEVEL,
        }
    }
}

/// Everything of a map that does not move.
pub struct StaticWorld<'a> {
    /// The ground.
    pub terrain: &'a TerrainMesh,
    /// The roads.
    pub roads: &'a RoadMesh,
    /// The road atlas (data/roads.png).
    pub road_atlas: &'a RgbaImage,
    /// The map's size in cells (the shroud has one texel per cell).
    pub cells: (u32, u32),
    /// The map's size in world units.
    pub size: [f32; 2],
    /// Every object's meshes.
    pub models: &'a ModelLibrary,
    /// The grass, stones and bushes on the ground.
    pub scatter: &'a scatter::Scatter,
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Globals {
    view_proj: [[f32; 4]; 4],
    sun: [f32; 4],
    water: [f32; 4],
    map: [f32; 4],
    eye: [f32; 4],
    light: [[f32; 4]; 4],
    haze: [f32; 4],
    inv_view_proj: [[f32; 4]; 4],
    ground: [f32; 4],
}

/// The direction toward the sun (unit): from the south-west, high.
pub fn sun() -> Vec3 {
    Vec3::new(-0.52, -0.42, 0.74).normalize()
}

/// The angle below the horizon the game's camera looks at its usual zooms
/// (`game::camera::PITCH`, which a test holds equal): views tilted nearer the horizon have
/// their haze pushed out.
pub const PLAN_PITCH: f32 = 0.95;

/// The depth format of the world pass.
pub const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// GPU state of the world pass for one map.
pub struct WorldPass {
    terrain_pipeline: wgpu::RenderPipeline,
    /// The ground at Low quality (no relief) and the sky above it.
    terrain_low_pipeline: wgpu::RenderPipeline,
    sky_pipeline: wgpu::RenderPipeline,
    scatter: scatter_mesh::ScatterDraw,
    object_pipeline: wgpu::RenderPipeline,
    /// Objects at Low quality: parts at rest, no shadow lookups.
    object_low_pipeline: wgpu::RenderPipeline,
    road_pipeline: wgpu::RenderPipeline,
    water_pipeline: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    globals_bind: wgpu::BindGroup,
    road_bind: wgpu::BindGroup,
    terrain: Mesh,
    roads: Mesh,
    road_batches: Vec<(u32, u32)>,
    models: Mesh,
    model_ranges: Vec<std::ops::Range<u32>>,
    /// The same meshes with Low quality's fewer parts.
    model_low_ranges: Vec<std::ops::Range<u32>>,
    /// The water's surface (`water.rs`) and its corner count.
    water: Option<(wgpu::Buffer, u32)>,
    depth: Option<(wgpu::TextureView, (u32, u32))>,
    shroud: wgpu::Texture,
    cells: (u32, u32),
    map_size: [f32; 2],
    shadow: shadow::ShadowMap,
    /// The ground's lowest and highest points.
    ground_range: (f32, f32),
    /// Draw calls the last frame made.
    draw_calls: u32,
    sprite_pipeline: wgpu::RenderPipeline,
    /// Sprites for the next frame.
    sprites: Vec<SpriteInstance>,
    /// Per mesh of the model library: its rotors, each drawn with a blurred disc.
    rotors: Vec<Vec<rotor::RotorDisc>>,
    /// The camera's eye, for highlights on the water.
    eye: Vec3,
    /// Seconds, for the water's motion.
    time: f32,
    /// The water level (0 without water).
    water_level: f32,
    /// What it may leave out or draw smaller.
    quality: crate::render::Quality,
    /// The scene's smaller picture below High quality.
    upscale: upscale::Upscale,
}

impl WorldPass {
    /// Creates the pipelines for `format` and uploads the map's static geometry.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        world: &StaticWorld,
    ) -> WorldPass {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("world.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../../shaders/world.wgsl").into()),
        });
        let (globals_layout, tex_layout) = pipelines::layouts(device);
        let pipes = pipelines::Pipelines::new(device, &shader, format, &globals_layout, &tex_layout);
        let vertex = wgpu::VertexStepMode::Vertex;
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("world globals"),
            size: std::mem::size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let cells = (world.cells.0.max(1), world.cells.1.max(1));
        // Everything in sight until the game says otherwise.
        let shroud = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("shroud"),
                size: wgpu::Extent3d { width: cells.0, height: cells.1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::R8Unorm,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &vec![255u8; (cells.0 * cells.1) as usize],
        );
        let shroud_view = shroud.create_view(&wgpu::TextureViewDescriptor::default());
        let shadow = shadow::ShadowMap::new(
            device,
            &shader,
            &globals,
            vertex_layout(std::mem::size_of::<TerrainVertex>(), vertex, &pipelines::TERRAIN_ATTRS),
            // All of a vertex: the shadow reads its role (rotor blades cast none).
            vertex_layout(std::mem::size_of::<ModelVertex>(), vertex, &pipelines::MODEL_ATTRS),
            vertex_layout(
                std::mem::size_of::<ObjectInstance>(),
                wgpu::VertexStepMode::Instance,
                &pipelines::INSTANCE_LOW_ATTRS,
            ),
        );
        let shadow_sampler = shadow::ShadowMap::sampler(device);
        let (detail_view, relief_view, detail_sampler) = textures::detail(device, queue);
        let (low, high) = world
            .terrain
            .vertices
            .iter()
            .fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v.position[2]), hi.max(v.position[2])));
        let (low, high) = if low > high { (0.0, 0.0) } else { (low, high) };
        let shroud_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shroud"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let globals_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("world globals"),
            layout: &globals_layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&shroud_view) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&shroud_sampler) },
                wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&shadow.view) },
                wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::Sampler(&shadow_sampler) },
                wgpu::BindGroupEntry { binding: 5, resource: wgpu::BindingResource::TextureView(&detail_view) },
                wgpu::BindGroupEntry { binding: 6, resource: wgpu::BindingResource::Sampler(&detail_sampler) },
                wgpu::BindGroupEntry { binding: 7, resource: wgpu::BindingResource::TextureView(&relief_view) },
            ],
        });
        let road_bind = road_atlas_bind(device, queue, &tex_layout, world.road_atlas);
        let lib = world.models;
        let water_level = world.terrain.water.first().map_or(0.0, |c| c[2]);
        let surface = if world.terrain.water.is_empty() {
            Vec::new()
        } else {
            water::surface(&world.terrain.vertices, water_level)
        };
        let water = (!surface.is_empty()).then(|| {
            let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water"),
                contents: bytemuck::cast_slice(&surface),
                usage: wgpu::BufferUsages::VERTEX,
            });
            (buffer, surface.len() as u32)
        });
        WorldPass {
            terrain_pipeline: pipes.terrain,
            terrain_low_pipeline: pipes.terrain_low,
            sky_pipeline: pipes.sky,
            scatter: scatter_mesh::ScatterDraw::new(device, world.scatter, pipes.scatter),
            object_pipeline: pipes.object,
            object_low_pipeline: pipes.object_low,
            road_pipeline: pipes.road,
            water_pipeline: pipes.water,
            globals,
            globals_bind,
            road_bind,
            terrain: ground_mesh(device, world.terrain, water_level),
            roads: mesh(device, "roads", &world.roads.vertices, &world.roads.indices),
            road_batches: world.roads.batches.iter().map(|b| (b.first_index, b.index_count)).collect(),
            models: mesh(device, "models", &lib.vertices, &lib.indices),
            model_ranges: lib.ranges.clone(),
            model_low_ranges: lib.low_ranges.clone(),
            water,
            depth: None,
            shroud,
            cells,
            map_size: world.size,
            shadow,
            ground_range: (low, high),
            draw_calls: 0,
            sprite_pipeline: pipes.sprite,
            sprites: Vec::new(),
            rotors: rotor::rotors_of(world.models),
            eye: Vec3::new(world.size[0] / 2.0, -world.size[1], world.size[1]),
            quality: crate::render::Quality::High,
            upscale: upscale::Upscale::new(device, format),
            time: 0.0,
            water_level,
        }
    }

    /// The sprites the next frame draws (after the water, depth-tested, not writing depth).
    pub fn set_sprites(&mut self, sprites: Vec<SpriteInstance>) {
        self.sprites = sprites;
    }

    /// Where the camera's eye is (the water's highlights face it) and the display time in
    /// seconds (the water and the shore's foam move with it); tools leave the time at 0.
    pub fn set_view(&mut self, eye: Vec3, seconds: f32) {
        self.eye = eye;
        self.time = seconds;
    }

    /// Where the haze is seen from and where it begins (see `finish` in the shader), from the
    /// view itself: its near plane's centre, and a little past where its centre line meets
    /// the middle of the ground's heights (the ground's far side when it never does).
    fn haze(&self, view_proj: Mat4) -> [f32; 4] {
        let inv = view_proj.inverse();
        let near = inv.project_point3(Vec3::new(0.0, 0.0, 0.0));
        let far = inv.project_point3(Vec3::new(0.0, 0.0, 1.0));
        let level = (self.ground_range.0 + self.ground_range.1) / 2.0;
        let dir = far - near;
        let along = if dir.z.abs() > 1e-6 { ((level - near.z) / dir.z).clamp(0.0, 1.0) } else { 1.0 };
        // A view tilted toward the horizon meets the ground near by, at a shallow angle: its
        // haze begins as far off as the ground's height under an untilted view of the same eye
        // distance would put it (so the land in front stays clear), by the ratio of the
        // angles' sines; a view at the game's usual pitch keeps the plain rule.
        let sine = (-dir.z / dir.length().max(1e-6)).max(0.05);
        // (A little further still, growing with the tilt from nothing: looking out across
        // the land, the middle distance stays readable and the haze gathers at the horizon.)
        let tilted = 1.0 + ((PLAN_PITCH.sin() / sine).max(1.0) - 1.0) * 1.3;
        let start = (dir * along).length().max(1.0) * 1.2 * tilted;
        [near.x, near.y, near.z, start]
    }

    /// Sets the graphics quality from the next frame on.
    pub fn set_quality(&mut self, quality: crate::render::Quality) {
        self.quality = quality;
    }

    /// Draw calls the last [`WorldPass::render`] made (the shadow map's included): one per
    /// mesh in use, however many objects share it.
    pub fn draw_calls(&self) -> u32 {
        self.draw_calls
    }

    /// Replaces the shroud: one byte per cell, row-major, row 0 south (255 in sight, lower
    /// dimmer, 0 never seen). Ignored if the size does not match the map.
    pub fn set_shroud(&self, queue: &wgpu::Queue, values: &[u8]) {
        let (w, h) = self.cells;
        if values.len() != (w * h) as usize {
            return;
        }
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &self.shroud,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            values,
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(w), rows_per_image: Some(h) },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
    }

    fn depth_view(&mut self, device: &wgpu::Device, size: (u32, u32)) -> wgpu::TextureView {
        if let Some((view, s)) = &self.depth
            && *s == size
        {
            return view.clone();
        }
        let view = target_view(device, "world depth", size, DEPTH, wgpu::TextureUsages::RENDER_ATTACHMENT);
        self.depth = Some((view.clone(), size));
        view
    }

    /// The ground, then the roads over it.
    fn draw_ground(&self, pass: &mut wgpu::RenderPass) {
        let low = self.quality == crate::render::Quality::Low;
        pass.set_pipeline(if low { &self.terrain_low_pipeline } else { &self.terrain_pipeline });
        pass.set_vertex_buffer(0, self.terrain.vertices.slice(..));
        pass.set_index_buffer(self.terrain.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.terrain.count, 0, 0..1);
        if self.roads.count > 0 {
            pass.set_pipeline(&self.road_pipeline);
            pass.set_bind_group(1, &self.road_bind, &[]);
            pass.set_vertex_buffer(0, self.roads.vertices.slice(..));
            pass.set_index_buffer(self.roads.indices.slice(..), wgpu::IndexFormat::Uint32);
            for &(first, count) in &self.road_batches {
                pass.draw_indexed(first..first + count, 0, 0..1);
            }
        }
    }

    /// Draws the world into `target` (cleared to the sky colour). `instances` are grouped by
    /// mesh: `instances[i]` are drawn with mesh `i` of the model library.
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
        size: (u32, u32),
        view_proj: Mat4,
        instances: &[Vec<ObjectInstance>],
    ) {
        let sun = sun();
        // The shadow map covers what this view shows (sharper than the whole map would be);
        // a view that does not reach the ground gets the whole map.
        let (low, high) = self.ground_range;
        let light = match shadow::view_area(view_proj, sun, self.map_size, low, high) {
            Some(area) => shadow::light_matrix_over(sun, area, low, high),
            None => light_matrix(sun, self.map_size, low, high),
        };
        let globals = Globals {
            view_proj: view_proj.to_cols_array_2d(),
            sun: [sun.x, sun.y, sun.z, 0.42],
            water: [0.015, 0.05, 0.09, 0.9],
            map: [self.map_size[0], self.map_size[1], self.time, self.water_level],
            eye: [self.eye.x, self.eye.y, self.eye.z, if self.quality.shadows() { 1.0 } else { 0.0 }],
            light: light.to_cols_array_2d(),
            haze: self.haze(view_proj),
            inv_view_proj: view_proj.inverse().to_cols_array_2d(),
            ground: [low, high, 0.0, 0.0],
        };
        queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
        let flat: Vec<ObjectInstance> = instances.iter().flatten().copied().collect();
        let instance_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("object instances"),
            contents: if flat.is_empty() {
                &[0; std::mem::size_of::<ObjectInstance>()]
            } else {
                bytemuck::cast_slice(&flat)
            },
            usage: wgpu::BufferUsages::VERTEX,
        });
        // Below High the scene is drawn smaller, then scaled up onto the target.
        let scene_size = self.quality.scene_size(size);
        let scaled = scene_size != size;
        let picture = scaled.then(|| self.upscale.picture(device, scene_size));
        let scene_target = picture.as_ref().unwrap_or(target);
        let depth = self.depth_view(device, scene_size);
        // The battle's sprites and, above Low (a budget: its rotors stand still), the spinning
        // rotors' discs.
        let mut sprites = self.sprites.clone();
        if self.quality != crate::render::Quality::Low {
            rotor::discs(&self.rotors, instances, &mut sprites);
        }
        // Far sprites first, so near smoke blends over far smoke.
        let eye = self.eye;
        // Marks on the ground go first (scorches under rings), under whatever is in the air.
        sprites.sort_by(|a, b| {
            let d = |s: &SpriteInstance| (Vec3::from_array(s.pos) - eye).length_squared();
            let ground = |s: &SpriteInstance| if s.on_ground() { s.shape[3] } else { f32::MAX };
            ground(a).total_cmp(&ground(b)).then(d(b).total_cmp(&d(a)))
        });
        let sprite_buf = (!sprites.is_empty()).then(|| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("sprites"),
                contents: bytemuck::cast_slice(&sprites),
                usage: wgpu::BufferUsages::VERTEX,
            })
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("world") });
        let shadows = self.quality.shadows();
        if shadows {
            // Shadows are cast by the Low meshes at rest.
            self.shadow.record(
                &mut encoder,
                &self.terrain,
                &self.models,
                &self.model_low_ranges,
                &instance_buf,
                instances,
            );
        }
        let in_use = |ranges: &[std::ops::Range<u32>]| {
            instances.iter().zip(ranges).filter(|(g, r)| !g.is_empty() && !r.is_empty()).count() as u32
        };
        let low = self.quality == crate::render::Quality::Low;
        let meshes_drawn = in_use(if low { &self.model_low_ranges } else { &self.model_ranges });
        let meshes_shadowed = if shadows { in_use(&self.model_low_ranges) } else { 0 };
        self.scatter.prepare(queue, view_proj, self.quality);
        // Terrain, road batches, water; each mesh in use in the picture (and in the shadow map
        // when shadows are on); the scatter's kinds and the sky; the scaling up of a smaller
        // picture.
        self.draw_calls = 1
            + self.scatter.draw_calls()
            + u32::from(!low)
            + self.road_batches.len() as u32 * u32::from(self.roads.count > 0)
            + u32::from(self.water.is_some())
            + meshes_drawn
            + meshes_shadowed
            + u32::from(scaled);
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("world"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: scene_target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.32, g: 0.42, b: 0.55, a: 1.0 }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &depth,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &self.globals_bind, &[]);
            // The ground first: the roads blend over it, and objects stand over the roads
            // (drawn after them, their feet below a road's surface still show).
            self.draw_ground(&mut pass);
            // Low draws the meshes' Low ranges at rest with the plainer pipeline.
            let (pipeline, ranges) = if low {
                (&self.object_low_pipeline, &self.model_low_ranges)
            } else {
                (&self.object_pipeline, &self.model_ranges)
            };
            pass.set_pipeline(pipeline);
            pass.set_vertex_buffer(0, self.models.vertices.slice(..));
            pass.set_vertex_buffer(1, instance_buf.slice(..));
            pass.set_index_buffer(self.models.indices.slice(..), wgpu::IndexFormat::Uint32);
            let mut first = 0u32;
            for (mesh, group) in instances.iter().enumerate() {
                let n = group.len() as u32;
                if let Some(range) = ranges.get(mesh).filter(|r| n > 0 && !r.is_empty()) {
                    pass.draw_indexed(range.clone(), 0, first..first + n);
                }
                first += n;
            }
            self.scatter.draw(&mut pass);
            // The sky fills what nothing covered (it lies on the far plane).
            if !low {
                pass.set_pipeline(&self.sky_pipeline);
                pass.draw(0..3, 0..1);
            }

            if let Some((water, corners)) = &self.water {
                pass.set_pipeline(&self.water_pipeline);
                pass.set_vertex_buffer(0, water.slice(..));
                pass.draw(0..*corners, 0..1);
            }
            if let Some(buffer) = &sprite_buf {
                pass.set_pipeline(&self.sprite_pipeline);
                pass.set_vertex_buffer(0, buffer.slice(..));
                pass.draw(0..6, 0..sprites.len() as u32);
            }
        }
        if scaled {
            self.upscale.draw(&mut encoder, target);
        }
        queue.submit(Some(encoder.finish()));
    }
}
