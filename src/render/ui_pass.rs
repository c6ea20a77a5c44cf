//! The UI pass: draws the UI's draw list as batched quads from the UI atlas, the glyph atlas
//! and run-time images (map previews), with clip rectangles as scissors and premultiplied
//! alpha. Shader: `shaders/ui.wgsl`.

use std::collections::BTreeMap;
use std::sync::Arc;

use bytemuck::{Pod, Zeroable};
use image::RgbaImage;
use wgpu::util::DeviceExt;

use super::binding;
use super::glyphs::{ATLAS, GlyphCache};
use crate::content::limits::MAX_GLYPH_PX;
use crate::ui::Rect;
use crate::ui::draw::DrawCmd;
use crate::ui::font::Fonts;
use crate::ui::images::ImageSet;

/// One UI vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct UiVertex {
    /// Screen pixels.
    pub pos: [f32; 2],
    /// Texture coordinates.
    pub uv: [f32; 2],
    /// Linear, premultiplied colour.
    pub color: [f32; 4],
}

/// Which texture a batch samples.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TexRef {
    /// The UI atlas.
    Atlas,
    /// The glyph atlas (also solid fills, through its white texel).
    Glyphs,
    /// A run-time image by name.
    Dynamic(String),
}

/// A run of vertices drawn with one texture and one scissor.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// Texture.
    pub tex: TexRef,
    /// Scissor (x, y, w, h) in pixels.
    pub scissor: [u32; 4],
    /// First vertex.
    pub start: u32,
    /// Vertex count.
    pub count: u32,
}

struct Tex {
    texture: wgpu::Texture,
    bind: wgpu::BindGroup,
    size: (u32, u32),
}

/// GPU state of the UI pass.
pub struct UiPass {
    pipeline: wgpu::RenderPipeline,
    screen_buf: wgpu::Buffer,
    screen_bind: wgpu::BindGroup,
    tex_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    atlas: Tex,
    glyph_tex: Tex,
    dynamic: BTreeMap<String, Tex>,
    images: ImageSet,
    glyphs: GlyphCache,
    fonts: Arc<Fonts>,
    /// Draw calls the last render made.
    draw_calls: u32,
}

fn srgb_to_linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// A draw-list colour as linear premultiplied floats.
pub fn color(c: [u8; 4]) -> [f32; 4] {
    let a = c[3] as f32 / 255.0;
    [srgb_to_linear(c[0]) * a, srgb_to_linear(c[1]) * a, srgb_to_linear(c[2]) * a, a]
}

fn make_tex(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    sampler: &wgpu::Sampler,
    size: (u32, u32),
    pixels: &[u8],
    label: &str,
) -> Tex {
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    let texture = device.create_texture(&binding::texture_2d(label, size, wgpu::TextureFormat::Rgba8UnormSrgb, usage));
    upload(queue, &texture, size, pixels);
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
        ],
    });
    Tex { texture, bind, size }
}

fn upload(queue: &wgpu::Queue, texture: &wgpu::Texture, size: (u32, u32), pixels: &[u8]) {
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        pixels,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * size.0), rows_per_image: Some(size.1) },
        wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
    );
}

impl UiPass {
    /// Creates the pipeline for a target format and uploads the UI atlas.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        atlas: &RgbaImage,
        images: ImageSet,
        fonts: Arc<Fonts>,
    ) -> UiPass {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/ui.wgsl").into()),
        });
        let screen_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui screen"),
            entries: &[binding::uniform(0, wgpu::ShaderStages::VERTEX)],
        });
        let tex_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui texture"),
            entries: &binding::texture_and_sampler(0),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui"),
            bind_group_layouts: &[Some(&screen_layout), Some(&tex_layout)],
            immediate_size: 0,
        });
        let attrs = wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Float32x4];
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<UiVertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &attrs,
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let screen_buf = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ui screen"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let screen_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ui screen"),
            layout: &screen_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: screen_buf.as_entire_binding() }],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("ui"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let atlas_tex = make_tex(device, queue, &tex_layout, &sampler, atlas.dimensions(), atlas.as_raw(), "ui atlas");
        let glyphs = GlyphCache::default();
        let glyph_tex = make_tex(device, queue, &tex_layout, &sampler, (ATLAS, ATLAS), &glyphs.pixels, "glyphs");
        UiPass {
            pipeline,
            screen_buf,
            screen_bind,
            tex_layout,
            sampler,
            atlas: atlas_tex,
            glyph_tex,
            dynamic: BTreeMap::new(),
            images,
            glyphs,
            fonts,
            draw_calls: 0,
        }
    }

    /// Adds or replaces a run-time image (drawn by `@name` images in the draw list).
    pub fn set_image(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, name: &str, img: &RgbaImage) {
        let tex = make_tex(device, queue, &self.tex_layout, &self.sampler, img.dimensions(), img.as_raw(), name);
        self.dynamic.insert(name.to_string(), tex);
    }

    /// True if a run-time image is loaded.
    pub fn has_image(&self, name: &str) -> bool {
        self.dynamic.contains_key(name)
    }

    /// Turns a draw list into vertices and batches (CPU only).
    pub fn build(&mut self, cmds: &[DrawCmd], screen: (u32, u32)) -> (Vec<UiVertex>, Vec<Batch>) {
        let full = [0, 0, screen.0, screen.1];
        let mut b = Builder { verts: Vec::new(), batches: Vec::new(), scissor: full };
        // The face text draws in (a mod's font, set by the list).
        let mut face = 0u16;
        for cmd in cmds {
            match cmd {
                DrawCmd::Font(f) => face = *f,
                DrawCmd::Clip(r) => {
                    b.scissor = match r {
                        None => full,
                        Some(r) => {
                            let x0 = r.x.max(0.0).min(screen.0 as f32) as u32;
                            let y0 = r.y.max(0.0).min(screen.1 as f32) as u32;
                            let x1 = r.right().max(0.0).min(screen.0 as f32) as u32;
                            let y1 = r.bottom().max(0.0).min(screen.1 as f32) as u32;
                            [x0, y0, x1.saturating_sub(x0), y1.saturating_sub(y0)]
                        }
                    }
                }
                DrawCmd::Fill { rect, color: c } => b.quad(TexRef::Glyphs, *rect, [0.5 / ATLAS as f32; 4], color(*c)),
                DrawCmd::Frame { rect, color: c, width } => {
                    let w = *width;
                    let k = color(*c);
                    let white = [0.5 / ATLAS as f32; 4];
                    for r in [
                        Rect::new(rect.x, rect.y, rect.w, w),
                        Rect::new(rect.x, rect.bottom() - w, rect.w, w),
                        Rect::new(rect.x, rect.y + w, w, rect.h - 2.0 * w),
                        Rect::new(rect.right() - w, rect.y + w, w, rect.h - 2.0 * w),
                    ] {
                        b.quad(TexRef::Glyphs, r, white, k);
                    }
                }
                DrawCmd::Line { from, to, color: c, width } => b.line(*from, *to, *width, color(*c)),
                DrawCmd::Image { rect, name, tint } => {
                    if self.dynamic.contains_key(name) {
                        b.quad(TexRef::Dynamic(name.clone()), *rect, [0.0, 0.0, 1.0, 1.0], color(*tint));
                    } else if let Some(region) = self.images.images.get(name) {
                        let (aw, ah) = (self.atlas.size.0 as f32, self.atlas.size.1 as f32);
                        let (x, y, w, h) =
                            (region.rect.0 as f32, region.rect.1 as f32, region.rect.2 as f32, region.rect.3 as f32);
                        let border =
                            (region.border as f32).min(rect.w / 2.0).min(rect.h / 2.0).min(w / 2.0).min(h / 2.0);
                        let k = color(*tint);
                        if border <= 0.0 {
                            b.quad(TexRef::Atlas, *rect, [x / aw, y / ah, (x + w) / aw, (y + h) / ah], k);
                        } else {
                            // Nine slices: corners kept, edges stretched one way, centre both.
                            let src_x = [x, x + border, x + w - border, x + w];
                            let src_y = [y, y + border, y + h - border, y + h];
                            let dst_x = [rect.x, rect.x + border, rect.right() - border, rect.right()];
                            let dst_y = [rect.y, rect.y + border, rect.bottom() - border, rect.bottom()];
                            for j in 0..3 {
                                for i in 0..3 {
                                    let r =
                                        Rect::new(dst_x[i], dst_y[j], dst_x[i + 1] - dst_x[i], dst_y[j + 1] - dst_y[j]);
                                    let uv = [src_x[i] / aw, src_y[j] / ah, src_x[i + 1] / aw, src_y[j + 1] / ah];
                                    b.quad(TexRef::Atlas, r, uv, k);
                                }
                            }
                        }
                    }
                }
                DrawCmd::Text { .. } => self.text(&mut b, face, cmd),
            }
        }
        (b.verts, b.batches)
    }

    /// One line of text (a [`DrawCmd::Text`]) in face `face`, as glyph quads.
    fn text(&mut self, b: &mut Builder, face: u16, cmd: &DrawCmd) {
        let DrawCmd::Text { x, y, text, px, bold, color: c, shadow } = cmd else { return };
        let ascent = self.fonts.ascent_in(face, *px, *bold);
        let passes: Vec<([u8; 4], f32)> =
            shadow.map(|s| (s, 1.0)).into_iter().chain(std::iter::once((*c, 0.0))).collect();
        // A line wholly above or below the clip shows nothing; a line stops where it
        // leaves the clip on the right.
        let [sx, sy, sw, sh] = b.scissor.map(|v| v as f32);
        let tall = px.clamp(0.0, MAX_GLYPH_PX) * 2.0;
        if !y.is_finite() || *y + tall < sy || *y - tall > sy + sh {
            return;
        }
        for (col, off) in passes {
            let mut pen = *x;
            let baseline = (*y + ascent).round();
            for ch in text.chars() {
                if pen > sx + sw {
                    break;
                }
                let g = self.glyphs.glyph(&self.fonts, face, ch, *px, *bold);
                let (gx, gy, gw, gh) = g.rect;
                if gw > 0 && gh > 0 {
                    let left = (pen + g.xmin).round() + off;
                    let top = baseline - g.ymin - gh as f32 + off;
                    let a = ATLAS as f32;
                    b.quad(
                        TexRef::Glyphs,
                        Rect::new(left, top, gw as f32, gh as f32),
                        [gx as f32 / a, gy as f32 / a, (gx + gw) as f32 / a, (gy + gh) as f32 / a],
                        color(col),
                    );
                }
                pen += g.advance;
            }
        }
    }

    /// Draw calls the last [`UiPass::render`] made: one per run of quads that share a texture
    /// and a clip.
    pub fn draw_calls(&self) -> u32 {
        self.draw_calls
    }

    /// Draws a draw list into `target` (cleared to `clear` first if given).
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &wgpu::TextureView,
        screen: (u32, u32),
        cmds: &[DrawCmd],
        clear: Option<wgpu::Color>,
    ) {
        let (verts, batches) = self.build(cmds, screen);
        if self.glyphs.dirty {
            upload(queue, &self.glyph_tex.texture, (ATLAS, ATLAS), &self.glyphs.pixels);
            self.glyphs.dirty = false;
        }
        queue.write_buffer(&self.screen_buf, 0, bytemuck::cast_slice(&[screen.0 as f32, screen.1 as f32, 0.0, 0.0]));
        // Vertices go in buffers no larger than the adapter allows (and 64 MB), whole quads each.
        let chunk = chunk_vertices(device.limits().max_buffer_size);
        let buffers: Vec<wgpu::Buffer> = verts
            .chunks(chunk as usize)
            .map(|part| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("ui vertices"),
                    contents: bytemuck::cast_slice(part),
                    usage: wgpu::BufferUsages::VERTEX,
                })
            })
            .collect();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ui") });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.screen_bind, &[]);
            let mut bound = None;
            self.draw_calls = 0;
            for batch in &batches {
                let [x, y, w, h] = batch.scissor;
                if w == 0 || h == 0 {
                    continue;
                }
                let bind = match &batch.tex {
                    TexRef::Atlas => &self.atlas.bind,
                    TexRef::Glyphs => &self.glyph_tex.bind,
                    TexRef::Dynamic(n) => match self.dynamic.get(n) {
                        Some(t) => &t.bind,
                        None => continue,
                    },
                };
                pass.set_bind_group(1, bind, &[]);
                pass.set_scissor_rect(x, y, w, h);
                for (buffer, range) in split_range(batch.start, batch.count, chunk) {
                    if bound != Some(buffer) {
                        let Some(b) = buffers.get(buffer) else { break };
                        pass.set_vertex_buffer(0, b.slice(..));
                        bound = Some(buffer);
                    }
                    pass.draw(range, 0..1);
                    self.draw_calls += 1;
                }
            }
        }
        queue.submit(Some(encoder.finish()));
    }
}

/// Most UI vertices in one buffer: within `max_buffer_size` and 64 MB, whole quads.
fn chunk_vertices(max_buffer_size: u64) -> u32 {
    let bytes = max_buffer_size.min(64 << 20);
    let n = bytes / std::mem::size_of::<UiVertex>() as u64;
    ((n / 6) * 6).clamp(6, u32::MAX as u64 / 2) as u32
}

/// A batch's vertices `start..start + count` split at buffer boundaries of `chunk` vertices:
/// (buffer index, range inside that buffer).
fn split_range(start: u32, count: u32, chunk: u32) -> Vec<(usize, std::ops::Range<u32>)> {
    let mut out = Vec::new();
    let (mut at, end) = (start, start.saturating_add(count));
    while at < end {
        let buffer = at / chunk;
        let local = at % chunk;
        let take = (chunk - local).min(end - at);
        out.push((buffer as usize, local..local + take));
        at += take;
    }
    out
}

struct Builder {
    verts: Vec<UiVertex>,
    batches: Vec<Batch>,
    scissor: [u32; 4],
}

impl Builder {
    /// A line as a quad `width` wide, in the solid-fill texel of the glyph atlas.
    fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: [f32; 4]) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len <= 0.0 || !len.is_finite() || width <= 0.0 || color[3] <= 0.0 {
            return;
        }
        let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
        let (ex, ey) = (nx.abs(), ny.abs());
        if !self.visible(from.0.min(to.0) - ex, from.1.min(to.1) - ey, from.0.max(to.0) + ex, from.1.max(to.1) + ey) {
            return;
        }
        let w = 0.5 / ATLAS as f32;
        let v = |x: f32, y: f32| UiVertex { pos: [x, y], uv: [w, w], color };
        let (a, b, c, d) = (
            v(from.0 + nx, from.1 + ny),
            v(to.0 + nx, to.1 + ny),
            v(to.0 - nx, to.1 - ny),
            v(from.0 - nx, from.1 - ny),
        );
        let start = self.verts.len() as u32;
        self.verts.extend_from_slice(&[a, b, c, a, c, d]);
        let tex = TexRef::Glyphs;
        match self.batches.last_mut() {
            Some(bt) if bt.tex == tex && bt.scissor == self.scissor && bt.start + bt.count == start => bt.count += 6,
            _ => self.batches.push(Batch { tex, scissor: self.scissor, start, count: 6 }),
        }
    }

    /// True when the box (x0, y0)–(x1, y1) can show inside the scissor (and is finite):
    /// what could never be on screen makes no vertices.
    fn visible(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> bool {
        let [sx, sy, sw, sh] = self.scissor.map(|v| v as f32);
        [x0, y0, x1, y1].iter().all(|v| v.is_finite()) && x1 > sx && y1 > sy && x0 < sx + sw && y0 < sy + sh
    }

    fn quad(&mut self, tex: TexRef, r: Rect, uv: [f32; 4], color: [f32; 4]) {
        if r.w <= 0.0 || r.h <= 0.0 || color[3] <= 0.0 || !self.visible(r.x, r.y, r.right(), r.bottom()) {
            return;
        }
        let start = self.verts.len() as u32;
        let v = |x: f32, y: f32, u: f32, w: f32| UiVertex { pos: [x, y], uv: [u, w], color };
        let (x0, y0, x1, y1) = (r.x, r.y, r.right(), r.bottom());
        self.verts.extend_from_slice(&[
            v(x0, y0, uv[0], uv[1]),
            v(x1, y0, uv[2], uv[1]),
            v(x0, y1, uv[0], uv[3]),
            v(x1, y0, uv[2], uv[1]),
            v(x1, y1, uv[2], uv[3]),
            v(x0, y1, uv[0], uv[3]),
        ]);
        match self.batches.last_mut() {
            Some(b) if b.tex == tex && b.scissor == self.scissor && b.start + b.count == start => b.count += 6,
            _ => self.batches.push(Batch { tex, scissor: self.scissor, start, count: 6 }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_split_at_buffer_boundaries_cover_every_vertex_once() {
        assert_eq!(split_range(0, 12, 6), [(0, 0..6), (1, 0..6)]);
        assert_eq!(split_range(4, 10, 6), [(0, 4..6), (1, 0..6), (2, 0..2)]);
        assert_eq!(split_range(7, 0, 6), []);
        // A small adapter limit still gives whole quads; a large one is capped at 64 MB.
        assert_eq!(chunk_vertices(100) % 6, 0);
        assert_eq!(chunk_vertices(u64::MAX) as u64 * 32, (64u64 << 20) / 32 / 6 * 6 * 32);
    }
}
