//! Benchmarks behind `ridgeline bench`: measured in the running binary (release), printed as
//! JSON, medians over repeated runs.
//!
//! Must not: be used as tests (timings are never asserted).

pub mod audio;
pub mod net;
pub mod rejoin;
pub mod relay;
pub mod render;
pub mod roads;
pub mod scale;
mod scenarios;
pub mod sim;
pub mod ui;

/// The median of some samples (0 for none).
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}
