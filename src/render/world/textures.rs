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

/// The ground's detail patterns (`detail.rs`) as repeating textures — Low's plain patterns (one
/// level: Low reads it at level 0 and pays for nothing more) and Medium and High's relief
/// patterns with their whole chain of smaller levels — and their sampler ([`detail_sampler`]).
pub(super) fn detail(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
) -> (wgpu::TextureView, wgpu::TextureView, wgpu::Sampler) {
    let side = super::detail::DETAIL_PX;
    let view = |which| {
        let image = super::detail::texture(which);
        let levels = if which == super::detail::Patterns::Relief { mip_chain(image) } else { vec![image] };
        let bytes: Vec<u8> = levels.iter().flat_map(|l| l.as_raw().iter().copied()).collect();
        let texture = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("ground detail"),
                size: wgpu::Extent3d { width: side, height: side, depth_or_array_layers: 1 },
                mip_level_count: levels.len() as u32,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba8Unorm,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &bytes,
        );
        texture.create_view(&wgpu::TextureViewDescriptor::default())
    };
    let sampler = device.create_sampler(&detail_sampler());
    (view(super::detail::Patterns::Plain), view(super::detail::Patterns::Relief), sampler)
}

/// The detail patterns' sampler: repeating, filtered between texels and between levels (the
/// relief patterns' levels; Low's one-level texture reads as before). Not anisotropic: on the
/// software adapter a sampler with `anisotropy_clamp: 8` made even Low's explicit level-0 reads
/// of the ground some 13 times dearer (a frame of 500 objects 80 ms → 1,050 ms), so the relief
/// is kept sharp along the view by choosing a finer level instead (`fs_terrain`'s bias).
pub(super) fn detail_sampler() -> wgpu::SamplerDescriptor<'static> {
    wgpu::SamplerDescriptor {
        label: Some("ground detail"),
        address_mode_u: wgpu::AddressMode::Repeat,
        address_mode_v: wgpu::AddressMode::Repeat,
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        ..Default::default()
    }
}

/// `image` and each smaller level down to a texel, every texel of a level the mean of the four
/// it covers in the level above (a square, power-of-two pattern tiles at every level).
pub(super) fn mip_chain(image: RgbaImage) -> Vec<RgbaImage> {
    let mut levels = vec![image];
    while let Some(last) = levels.last() {
        let (w, h) = last.dimensions();
        if w <= 1 && h <= 1 {
            break;
        }
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let next = RgbaImage::from_fn(nw, nh, |x, y| {
            let mut sum = [0u32; 4];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let p = last.get_pixel((x * 2 + dx).min(w - 1), (y * 2 + dy).min(h - 1));
                for (total, &v) in sum.iter_mut().zip(&p.0) {
                    *total += u32::from(v);
                }
            }
            image::Rgba(sum.map(|s| ((s + 2) / 4) as u8))
        });
        levels.push(next);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_detail_sampler_filters_between_levels_and_is_not_anisotropic() {
        let s = detail_sampler();
        // Anisotropy costs the software adapter too much (see `detail_sampler`).
        assert_eq!(s.anisotropy_clamp, 1);
        assert_eq!((s.mag_filter, s.min_filter), (wgpu::FilterMode::Linear, wgpu::FilterMode::Linear));
        assert_eq!(s.mipmap_filter, wgpu::MipmapFilterMode::Linear);
        assert_eq!((s.address_mode_u, s.address_mode_v), (wgpu::AddressMode::Repeat, wgpu::AddressMode::Repeat));
    }

    #[test]
    fn the_shaders_grass_and_soil_tones_are_the_classes_colours() {
        // fs_terrain redraws the border between grass and soil with these two colours: they
        // must be data/terrain.ron's Grass and Dirt, made linear.
        let shader = include_str!("../../../shaders/world.wgsl");
        let tone = |name: &str| -> [f32; 3] {
            let line = shader.lines().find(|l| l.starts_with(&format!("const {name}"))).unwrap();
            let inner = line.rsplit_once("vec3<f32>(").unwrap().1.trim_end_matches(");");
            let v: Vec<f32> = inner.split(',').map(|x| x.trim().parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        };
        let classes = crate::map::TerrainClasses::load(std::path::Path::new("data/terrain.ron")).unwrap();
        for (name, class) in [("GRASS_TONE", "Grass"), ("SOIL_TONE", "Dirt")] {
            let c = classes.classes.iter().find(|c| c.name == class).unwrap().color;
            let linear = crate::map::terrain_mesh::srgb_to_linear(glam::Vec3::new(c.0, c.1, c.2));
            let t = tone(name);
            for (a, b) in t.iter().zip(linear.to_array()) {
                assert!((a - b).abs() < 0.002, "{name} {t:?} vs {class} {linear:?}");
            }
        }
    }

    #[test]
    fn the_mip_chain_halves_to_a_texel_and_keeps_the_mean() {
        let image = RgbaImage::from_fn(8, 8, |x, y| image::Rgba([if (x + y) % 2 == 0 { 200 } else { 0 }, 50, 0, 255]));
        let levels = mip_chain(image);
        let sizes: Vec<u32> = levels.iter().map(|l| l.width()).collect();
        assert_eq!(sizes, [8, 4, 2, 1]);
        // A checkerboard averages to its mean grey from the first smaller level on.
        assert!(levels[1..].iter().all(|l| l.pixels().all(|p| p.0 == [100, 50, 0, 255])));
        let full = mip_chain(super::super::detail::texture(super::super::detail::Patterns::Relief));
        assert_eq!(full.len(), 9);
    }
}
