//! Kernel source, compilation and the on-disk cache.
pub mod cache;
pub mod nvrtc;
pub mod pack;
pub mod params;
pub mod skinny;
pub mod sm90;
pub mod source;
