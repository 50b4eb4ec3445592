//! Link flags of the cdylib: only the symbols in exports.map are exported.
//!
//! rustc writes its own version script listing every `#[no_mangle]` function of every
//! crate linked in, including deepgemm's whole C API; a second version script cannot take
//! names away from it (GNU ld merges them). Rust dependencies reach the linker as archives
//! (.rlib), so `--exclude-libs,ALL` hides every symbol that comes from them, and exports.map
//! keeps the rest of this crate's own objects local except the listed entry points.
fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rerun-if-changed=exports.map");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/exports.map");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--exclude-libs,ALL");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdeepgemm_preload.so");
}
