//! Placeholder (the kernels branch provides the real module).
pub struct Compiled {
    pub cubin: Vec<u8>,
    pub log: String,
}
pub fn is_available() -> bool {
    false
}
pub fn version() -> crate::Result<(i32, i32)> {
    Err(crate::Error::NotInitialized("nvrtc".into()))
}
pub fn compile(name: &str, source: &str, options: &[String]) -> crate::Result<Compiled> {
    let _ = (name, source, options);
    Err(crate::Error::NotInitialized("nvrtc".into()))
}
