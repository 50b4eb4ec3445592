//! Placeholder (the kernels branch provides the real module).
use crate::plan::KernelVariant;
pub fn render(v: &KernelVariant) -> String {
    v.name()
}
pub fn options(arch: &str) -> Vec<String> {
    vec![format!("--gpu-architecture={arch}")]
}
