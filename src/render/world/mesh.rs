//! The world pass's static meshes on the GPU: a vertex and an index buffer made once per map
//! (the ground with the land past its edge, the roads, the model library).
//! Must not: change geometry (it uploads what the map, the roads and the models made).

use bytemuck::Pod;
use wgpu::util::DeviceExt;

use super::{apron, ground_shade, sun};
use crate::map::{TerrainMesh, TerrainVertex};

/// A mesh's buffers and its index count.
pub(super) struct Mesh {
    /// The vertices.
    pub vertices: wgpu::Buffer,
    /// The triangles' indices.
    pub indices: wgpu::Buffer,
    /// How many indices are drawn.
    pub count: u32,
}

/// Uploads `vertices` and `indices` as one mesh.
pub(super) fn mesh<V: Pod>(device: &wgpu::Device, label: &str, vertices: &[V], indices: &[u32]) -> Mesh {
    // Empty buffers are not allowed; a zeroed word stands in and nothing is drawn from it.
    let v: &[u8] = if vertices.is_empty() { &[0; 64] } else { bytemuck::cast_slice(vertices) };
    let i: &[u8] = if indices.is_empty() { &[0; 4] } else { bytemuck::cast_slice(indices) };
    Mesh {
        vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: v,
            usage: wgpu::BufferUsages::VERTEX,
        }),
        indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: i,
            usage: wgpu::BufferUsages::INDEX,
        }),
        count: indices.len() as u32,
    }
}

/// The ground's mesh: the map's, and the skirt of land past its edge (`apron.rs`) in the same
/// buffers, so one draw call draws both.
pub(super) fn ground_mesh(device: &wgpu::Device, terrain: &TerrainMesh, water_level: f32) -> Mesh {
    // The ground's corners darkened in hollows and lifted on crests (`ground_shade.rs`); the
    // land past the edge joins those shaded corners.
    let shaded = ground_shade::shaded(terrain, sun());
    let (skirt, skirt_indices) = apron::skirt(&shaded, water_level);
    let vertices: Vec<TerrainVertex> = shaded.iter().chain(&skirt).copied().collect();
    let indices: Vec<u32> = terrain.indices.iter().chain(&skirt_indices).copied().collect();
    mesh(device, "terrain", &vertices, &indices)
}
