//! Offscreen rendering: a colour target with no window, copied back to the CPU as an image.
//! `ridgeline screenshot` and the render tests use it, through the same UI pass as the window.

use image::RgbaImage;
use thiserror::Error;

use super::gpu::Gpu;

/// Why reading the picture back failed.
#[derive(Debug, Error)]
pub enum ReadbackError {
    /// Mapping the buffer failed.
    #[error("could not read the rendered image back: {0}")]
    Map(String),
}

/// An offscreen colour target.
pub struct Offscreen {
    texture: wgpu::Texture,
    /// Its view, to render into.
    pub view: wgpu::TextureView,
    /// Size in pixels.
    pub size: (u32, u32),
}

/// The format offscreen targets use.
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

impl Offscreen {
    /// A target of `size` pixels.
    pub fn new(gpu: &Gpu, size: (u32, u32)) -> Offscreen {
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen"),
            size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Offscreen { texture, view, size }
    }

    /// Copies the target back into an image.
    pub fn read(&self, gpu: &Gpu) -> Result<RgbaImage, ReadbackError> {
        let (w, h) = self.size;
        let row = (4 * w).div_ceil(256) * 256;
        let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: (row * h) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder =
            gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback") });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: Some(h) },
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        gpu.queue.submit(Some(encoder.finish()));
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| ReadbackError::Map(e.to_string()))?;
        rx.recv().map_err(|e| ReadbackError::Map(e.to_string()))?.map_err(|e| ReadbackError::Map(e.to_string()))?;
        let data = buffer.get_mapped_range(..).map_err(|e| ReadbackError::Map(e.to_string()))?;
        let mut pixels = Vec::with_capacity((4 * w * h) as usize);
        for y in 0..h {
            let start = (y * row) as usize;
            pixels.extend_from_slice(&data[start..start + (4 * w) as usize]);
        }
        drop(data);
        buffer.unmap();
        RgbaImage::from_raw(w, h, pixels).ok_or_else(|| ReadbackError::Map("wrong image size".into()))
    }
}
