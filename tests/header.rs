//! include/deepgemm.h is generated from the Rust sources and committed; this test
//! regenerates it with the pinned cbindgen and fails when the committed file differs.
//! `DEEPGEMM_BLESS_HEADER=1 cargo test --test header` writes it instead.

use std::path::PathBuf;

fn generate() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    // Version macros come from Cargo.toml, so they can never disagree with the library.
    let version = format!(
        "\n#define DEEPGEMM_VERSION_MAJOR {}\n#define DEEPGEMM_VERSION_MINOR {}\n\
         #define DEEPGEMM_VERSION_PATCH {}\n\
         /* DEEPGEMM_VERSION_MAJOR * 10000 + MINOR * 100 + PATCH, as deepgemmLtGetVersion() */\n\
         #define DEEPGEMM_VERSION {}\n",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
        deepgemm::api::VERSION,
    );
    config.after_includes = Some(version + config.after_includes.as_deref().unwrap_or(""));
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/ffi/mod.rs"))
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn header_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include/deepgemm.h");
    let fresh = generate();
    if std::env::var_os("DEEPGEMM_BLESS_HEADER").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write include/deepgemm.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map(|i| i + 1)
            .unwrap_or(committed.lines().count().min(fresh.lines().count()) + 1);
        panic!(
            "include/deepgemm.h is out of date (first difference at line {line}); \
             regenerate it with DEEPGEMM_BLESS_HEADER=1 cargo test --test header"
        );
    }
}
