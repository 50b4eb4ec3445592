//! Shared by the preload tests: where cargo put libdeepgemm_preload.so.

use std::path::{Path, PathBuf};

/// The libdeepgemm_preload.so built for this test run. Test binaries live in
/// target/<profile>/deps, next to the freshly linked cdylib; cargo copies it up to
/// target/<profile> too (that copy is only refreshed by the same build, so the deps one
/// is preferred).
pub fn preload_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps").to_path_buf();
    [
        deps.clone(),
        deps.parent().map(Path::to_path_buf).unwrap_or_default(),
    ]
    .into_iter()
    .map(|d| d.join("libdeepgemm_preload.so"))
    .find(|p| p.exists())
    .unwrap_or_else(|| panic!("no libdeepgemm_preload.so in or above {}", deps.display()))
}
