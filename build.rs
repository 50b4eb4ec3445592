//! Gives the shared library the SONAME of a versioned system library,
//! `libdeepgemm.so.MAJOR`, so a program linked against `libdeepgemm.so` records
//! `NEEDED libdeepgemm.so.MAJOR` and keeps running across compatible (same MAJOR)
//! upgrades of the installed `libdeepgemm.so.MAJOR.MINOR.PATCH`. scripts/install.sh makes
//! the matching symlinks; the version is Cargo.toml's, read nowhere else.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // SONAME is an ELF notion; other targets (macOS install names, Windows) have their own.
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdeepgemm.so.{major}");
    }
}
