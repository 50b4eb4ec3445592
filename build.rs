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
        // `rustc-link-arg`, not `rustc-link-arg-cdylib`: cargo also passes a package's cdylib
        // link arguments to the cdylibs of packages that depend on it, which gave the
        // preload library (preload/) this SONAME too. The plain form stays in this package;
        // ld applies -soname to its executables too, harmless there: they link deepgemm
        // statically and never load libdeepgemm.so.
        println!("cargo:rustc-link-arg=-Wl,-soname,libdeepgemm.so.{major}");
    }
}
