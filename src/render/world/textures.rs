//! The world pass's textures made from data: the road atlas with its sampler and bind group,
//! the ground's detail patterns, and render targets of a given size.
//!
//! Must not: draw.

use image::RgbaImage;
use wgpu::util::DeviceExt;

/// A view of a new 2D texture of `size` (at least a pixel each way) to draw into.
pub(super) fn target_view(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    let texture = device.create_texture(&crate::render::binding::texture_2d(label, size, format, usage));
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

/// The road atlas as a texture, its repeating sampler and their bind group for `layout`.
pub(super) fn road_atlas_bind(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    atlas: &RgbaImage,
) -> wgpu::BindGroup {
    let (w, h) = atlas.dimensions();
    let texture = device.create_texture_with_data(
        queue,
        &wgpu::TextureDescriptor {
            label: Some("road atlas"),
            size: wgpu::Extent3d { width: w.max(1), height: h.max(1), depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8UnormSrgb,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        if atlas.is_empty() { &[255; 4] } else { atlas.as_raw() },
    );
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("road atlas"),
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::ClampToEdge,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("road atlas"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&sampler) },
        ],
    })
}

/// The ground's detail patterns (`detail.rs`) as repeating textures — Low's plain patterns and
/// Medium and High's relief patterns — and their sampler.
pub(super) fn detail(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
) -> (wgpu::TextureView, wgpu::TextureView, wgpu::Sampler) {
    let side = super::detail::DETAIL_PX;
    let view = |which| {
        let image = super::detail::texture(which);
        let texture = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("ground detail"),
                size: wgpu::Extent3d { width: side, height: side, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8Unorm,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            image.as_raw(),
        );
        texture.create_view(&wgpu::TextureViewDescriptor::default())
    };
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("ground detail"),
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::Repeat,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        ..Default::default()
    });
    (view(super::detail::Patterns::Plain), view(super::detail::Patterns::Relief), sampler)
}
