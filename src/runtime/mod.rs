//! The CUDA driver side: contexts and streams, the per-device kernel registry, launches.
pub mod autotune;
pub mod driver;
pub mod registry;
pub mod tensor_map;
pub mod trace;
