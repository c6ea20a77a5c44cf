//! The GPU device: an instance, adapter, device and queue, made for a window's surface or for
//! offscreen rendering alone. Software adapters (llvmpipe, lavapipe) are accepted.

use thiserror::Error;

/// Why no GPU device could be had.
#[derive(Debug, Error)]
pub enum GpuError {
    /// No adapter at all.
    #[error("no graphics adapter found ({0}); install Mesa (llvmpipe/lavapipe) or a GPU driver")]
    NoAdapter(String),
    /// The adapter refused a device.
    #[error("the graphics adapter refused a device: {0}")]
    Device(String),
}

/// The device and what it came from.
pub struct Gpu {
    /// The instance.
    pub instance: wgpu::Instance,
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// The queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A device for `instance`, compatible with `surface` if given.
    pub fn new(instance: wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Result<Gpu, GpuError> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: surface,
            ..Default::default()
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        log::info!("graphics adapter: {} ({:?}, {:?})", info.name, info.device_type, info.backend);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("ridgeline"),
            required_limits: wgpu::Limits::downlevel_webgl2_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        Ok(Gpu { instance, adapter, device, queue })
    }

    /// A device for offscreen rendering (backends chosen by `WGPU_BACKEND` if set).
    pub fn headless() -> Result<Gpu, GpuError> {
        Gpu::new(wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env()), None)
    }
}
