//! Installs deepgemm like a system library and builds every consumer against the installed
//! prefix, as a user would (issue 6). scripts/install.sh installs the libraries cargo built
//! for this test run (`--from target/<profile>/deps`: no second cargo build) into
//! target/<profile>/install-test/prefix; then:
//!   - the layout, SONAME, symlinks, and one version everywhere (Cargo.toml = header = .pc =
//!     CMake package = library);
//!   - ffi-tests/c and ffi-tests/cpp through find_package(deepgemm CONFIG) + CTest, shared
//!     and static, with `NEEDED libdeepgemm.so.MAJOR` in the programs;
//!   - a find_package version mismatch fails;
//!   - ffi-tests/pkgconfig through pkg-config (shared and --static);
//!   - a copy of the prefix elsewhere (relocation) still works;
//!   - ffi-tests/go: `go test` over cgo + pkg-config;
//!   - ffi-tests/julia where `julia` is on PATH (said plainly when skipped).
//!
//! No GPU needed: without one the consumers check the host side and NOT_INITIALIZED.
//!
//! Needs cmake, make, pkg-config, go, readelf and a C/C++ compiler; a missing tool fails
//! the test with the package to install, unless DEEPGEMM_SKIP_INSTALL_TESTS=1.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const VERSION: &str = env!("CARGO_PKG_VERSION");
const MAJOR: &str = env!("CARGO_PKG_VERSION_MAJOR");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// target/<profile>/deps: the test binary's directory, where cargo put the fresh cdylib and
/// staticlib of this build (target/<profile> may hold stale copies).
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent().expect("target/<profile>/deps").to_path_buf()
}

/// target/<profile>/install-test: the prefix and every consumer's build directory.
fn work_dir() -> PathBuf {
    deps_dir()
        .parent()
        .expect("target/<profile>")
        .join("install-test")
}

fn soname() -> String {
    format!("libdeepgemm.so.{MAJOR}")
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let p = d.join(tool);
            p.is_file()
                && std::fs::metadata(&p)
                    .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0)
                    .unwrap_or(false)
        })
    })
}

/// True when the test should run. A missing tool fails it with what to install, unless
/// DEEPGEMM_SKIP_INSTALL_TESTS=1 (then every test here says it was skipped).
fn require(tools: &[(&str, &str)]) -> bool {
    if std::env::var_os("DEEPGEMM_SKIP_INSTALL_TESTS").is_some_and(|v| v == "1") {
        eprintln!("DEEPGEMM_SKIP_INSTALL_TESTS=1: install test skipped");
        return false;
    }
    let missing: Vec<String> = tools
        .iter()
        .filter(|(tool, _)| !on_path(tool))
        .map(|(tool, package)| format!("{tool} (Debian package {package})"))
        .collect();
    assert!(
        missing.is_empty(),
        "tests/install.rs needs {} on PATH: install them (scripts/test.sh does on CI), or set \
         DEEPGEMM_SKIP_INSTALL_TESTS=1 to skip the install tests",
        missing.join(", ")
    );
    true
}

const CMAKE: [(&str, &str); 4] = [
    ("cmake", "cmake"),
    ("ctest", "cmake"),
    ("make", "make"),
    ("readelf", "binutils"),
];

/// LD_LIBRARY_PATH without the target directory: cargo puts target/<profile>/deps there
/// (with a libdeepgemm.so.MAJOR link made by tests/ffi_programs.rs), and a consumer
/// linked with RUNPATH would load that copy instead of the installed library under test.
fn clean_ld_path(first: Option<&Path>) -> OsString {
    let target = deps_dir()
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut paths: Vec<PathBuf> = first.into_iter().map(Path::to_path_buf).collect();
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
        paths.extend(std::env::split_paths(&old).filter(|p| !p.starts_with(&target)));
    }
    std::env::join_paths(paths).expect("LD_LIBRARY_PATH")
}

/// What the consumers must expect of Create: no driver here means NOT_INITIALIZED.
fn gpu_env(cmd: &mut Command) -> &mut Command {
    // SAFETY: only probes whether libcuda can be dlopen'ed.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        cmd.env("DEEPGEMM_EXPECT_NO_GPU", "1");
    }
    cmd.env("DEEPGEMM_EXPECT_VERSION", VERSION)
}

fn run(cmd: &mut Command) -> Output {
    let what = format!("{cmd:?}");
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"))
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run_ok(cmd: &mut Command) -> String {
    let what = format!("{cmd:?}");
    let out = run(cmd);
    let t = text(&out);
    assert!(out.status.success(), "{what} failed ({}):\n{t}", out.status);
    t
}

/// `readelf -d` of an ELF file: (SONAME, NEEDED entries).
fn dynamic(file: &Path) -> (Option<String>, Vec<String>) {
    let out = run_ok(Command::new("readelf").arg("-d").arg(file));
    let value = |line: &str| {
        line.rsplit_once('[')
            .and_then(|(_, v)| v.strip_suffix(']'))
            .map(str::to_string)
    };
    let mut soname = None;
    let mut needed = Vec::new();
    for line in out.lines() {
        if line.contains("(SONAME)") {
            soname = value(line);
        } else if line.contains("(NEEDED)") {
            needed.extend(value(line));
        }
    }
    (soname, needed)
}

struct Install {
    prefix: PathBuf,
    log: String,
}

/// Installs once per test process (the tests share the prefix and only read it).
fn install() -> &'static Install {
    static INSTALL: OnceLock<Install> = OnceLock::new();
    INSTALL.get_or_init(|| {
        let work = work_dir();
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).expect("create the install-test directory");
        let prefix = work.join("prefix");
        let log = run_ok(
            Command::new("bash")
                .arg(root().join("scripts/install.sh"))
                .arg("--prefix")
                .arg(&prefix)
                .arg("--from")
                .arg(deps_dir()),
        );
        Install { prefix, log }
    })
}

#[test]
fn installed_layout_soname_and_versions() {
    if !require(&[("readelf", "binutils")]) {
        return;
    }
    let inst = install();
    let lib = inst.prefix.join("lib");
    let real = format!("libdeepgemm.so.{VERSION}");

    // The library and its two links: libdeepgemm.so -> .so.MAJOR -> .so.MAJOR.MINOR.PATCH.
    let meta = std::fs::symlink_metadata(lib.join(&real)).expect("installed library");
    assert!(meta.file_type().is_file(), "{real} must be a regular file");
    let link = |name: &str| {
        std::fs::read_link(lib.join(name))
            .unwrap_or_else(|e| panic!("{name} must be a symlink: {e}"))
    };
    assert_eq!(link(&soname()), PathBuf::from(&real));
    assert_eq!(link("libdeepgemm.so"), PathBuf::from(soname()));
    let (name, needed) = dynamic(&lib.join(&real));
    assert_eq!(name.as_deref(), Some(soname().as_str()), "SONAME of {real}");
    assert!(
        !needed
            .iter()
            .any(|n| n.contains("cuda") || n.contains("nvrtc")),
        "the driver and NVRTC are dlopen'ed, not linked: NEEDED {needed:?}"
    );
    for f in [
        "lib/libdeepgemm.a",
        "include/deepgemm.h",
        "lib/pkgconfig/deepgemm.pc",
        "lib/cmake/deepgemm/deepgemmConfig.cmake",
        "lib/cmake/deepgemm/deepgemmConfigVersion.cmake",
    ] {
        assert!(
            inst.prefix.join(f).is_file(),
            "{f} not installed:\n{}",
            inst.log
        );
    }

    // One version everywhere, Cargo.toml's.
    let read = |f: &str| std::fs::read_to_string(inst.prefix.join(f)).unwrap();
    let header = read("include/deepgemm.h");
    let mut parts = VERSION.split('.');
    for part in ["MAJOR", "MINOR", "PATCH"] {
        let want = parts.next().unwrap();
        assert!(
            header.contains(&format!("#define DEEPGEMM_VERSION_{part} {want}\n")),
            "installed header's DEEPGEMM_VERSION_{part} is not Cargo.toml's {want}"
        );
    }
    let pc = read("lib/pkgconfig/deepgemm.pc");
    assert!(
        pc.lines().any(|l| l == format!("Version: {VERSION}")),
        "deepgemm.pc:\n{pc}"
    );
    let cv = read("lib/cmake/deepgemm/deepgemmConfigVersion.cmake");
    assert!(
        cv.contains(&format!("set(PACKAGE_VERSION \"{VERSION}\")")),
        "deepgemmConfigVersion.cmake:\n{cv}"
    );
    let cfg = read("lib/cmake/deepgemm/deepgemmConfig.cmake");
    assert!(cfg.contains(&real) && cfg.contains(&soname()));
    for (name, body) in [
        ("deepgemm.pc", &pc),
        ("Config", &cfg),
        ("ConfigVersion", &cv),
    ] {
        assert!(
            !body.contains('@'),
            "{name} holds an unreplaced @PLACEHOLDER@"
        );
        // Relocatable: no absolute path of this machine in the generated files.
        assert!(
            !body.contains(inst.prefix.to_str().unwrap()),
            "{name} names the install prefix; it must find itself relative to its location"
        );
    }
}

/// Configures, builds and runs one CMake consumer project against `prefix`; returns the
/// build directory and ctest's output.
fn cmake_project(src: &str, prefix: &Path, build: &Path, expect_tests: usize) -> String {
    let _ = std::fs::remove_dir_all(build);
    let configure = run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(root().join(src))
            .arg("-B")
            .arg(build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
            .arg(format!("-DDEEPGEMM_EXPECT_VERSION={VERSION}"))
            .arg("-DCMAKE_BUILD_TYPE=Debug"),
    );
    assert!(
        configure.contains(&format!("deepgemm {VERSION}")),
        "configure output:\n{configure}"
    );
    run_ok(
        Command::new("cmake")
            .arg("--build")
            .arg(build)
            .arg("--parallel")
            .arg("2"),
    );
    let out = run_ok(
        gpu_env(
            Command::new("ctest")
                .arg("--output-on-failure")
                .current_dir(build),
        )
        .env("LD_LIBRARY_PATH", clean_ld_path(None)),
    );
    println!("{out}");
    assert!(
        out.contains(&format!(
            "100% tests passed, 0 tests failed out of {expect_tests}"
        )),
        "ctest in {}:\n{out}",
        build.display()
    );
    configure
}

fn assert_links_soname(exe: &Path) {
    let (_, needed) = dynamic(exe);
    assert!(
        needed.contains(&soname()),
        "{} must record NEEDED {}: {needed:?}",
        exe.display(),
        soname()
    );
}

fn assert_static(exe: &Path) {
    let (_, needed) = dynamic(exe);
    assert!(
        !needed.iter().any(|n| n.contains("deepgemm")),
        "{} is linked statically, yet NEEDED {needed:?}",
        exe.display()
    );
}

#[test]
fn cmake_c_consumers() {
    if !require(&[&CMAKE[..], &[("cc", "gcc")]].concat()) {
        return;
    }
    let prefix = &install().prefix;
    let build = work_dir().join("build-c");
    // host_api_c, host_api_c_static, version_check_c, gemm_c.
    cmake_project("ffi-tests/c", prefix, &build, 4);
    for exe in ["host_api_c", "version_check_c", "gemm_c"] {
        assert_links_soname(&build.join(exe));
    }
    assert_static(&build.join("host_api_c_static"));
}

#[test]
fn cmake_cpp_consumers() {
    if !require(&[&CMAKE[..], &[("c++", "g++")]].concat()) {
        return;
    }
    let prefix = &install().prefix;
    let build = work_dir().join("build-cpp");
    // host_api_cpp, host_api_cpp_static, gemm_cpp (+ preload_loads where it is installed).
    let preload = prefix.join("lib/libdeepgemm_preload.so").exists();
    cmake_project("ffi-tests/cpp", prefix, &build, 3 + preload as usize);
    for exe in ["host_api_cpp", "gemm_cpp"] {
        assert_links_soname(&build.join(exe));
    }
    assert_static(&build.join("host_api_cpp_static"));
}

#[test]
fn cmake_refuses_another_version() {
    if !require(&CMAKE) {
        return;
    }
    let prefix = &install().prefix;
    let mut parts = VERSION.split('.').map(|p| p.parse::<u32>().unwrap());
    let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
    // The next breaking version (0.x: the next minor) and a newer compatible one.
    let breaking = if major == 0 {
        format!("0.{}", minor + 1)
    } else {
        format!("{}.0", major + 1)
    };
    for wanted in [breaking, format!("{major}.{minor}.9999")] {
        let build = work_dir().join(format!("build-wrong-version-{wanted}"));
        let out = run(Command::new("cmake")
            .arg("-S")
            .arg(root().join("ffi-tests/c"))
            .arg("-B")
            .arg(&build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
            .arg(format!("-DDEEPGEMM_EXPECT_VERSION={wanted}")));
        let t = text(&out);
        assert!(
            !out.status.success() && t.contains(VERSION),
            "find_package(deepgemm {wanted} EXACT) must fail against {VERSION}:\n{t}"
        );
    }
}

fn pkg_config(pc_path: &Path, args: &[&str]) -> String {
    run_ok(
        Command::new("pkg-config")
            .args(args)
            .arg("deepgemm")
            .env("PKG_CONFIG_PATH", pc_path),
    )
    .trim()
    .to_string()
}

fn pkgconfig_check(prefix: &Path, build: &Path) {
    let pc_path = prefix.join("lib/pkgconfig");
    assert_eq!(pkg_config(&pc_path, &["--modversion"]), VERSION);
    // The libdir pkg-config reports is this prefix's, wherever the prefix now is.
    // (pkgconf escapes spaces in paths with a backslash, for the shell.)
    let libdir = PathBuf::from(pkg_config(&pc_path, &["--variable=libdir"]).replace("\\ ", " "));
    assert_eq!(
        libdir.canonicalize().unwrap(),
        prefix.join("lib").canonicalize().unwrap()
    );
    let _ = std::fs::remove_dir_all(build);
    let out = run_ok(
        gpu_env(
            Command::new("make")
                .arg("-C")
                .arg(root().join("ffi-tests/pkgconfig"))
                .arg(format!("BUILD={}", build.display()))
                .arg("check")
                .env("PKG_CONFIG_PATH", &pc_path),
        )
        .env("LD_LIBRARY_PATH", clean_ld_path(None)),
    );
    println!("{out}");
    assert!(
        out.contains(&format!(
            "pkg-config consumers: deepgemm {VERSION}, 3 programs passed"
        )),
        "{out}"
    );
    assert_links_soname(&build.join("host_api"));
    assert_links_soname(&build.join("version_check"));
    assert_static(&build.join("host_api_static"));
}

#[test]
fn pkgconfig_consumers() {
    if !require(&[
        ("pkg-config", "pkg-config"),
        ("make", "make"),
        ("cc", "gcc"),
        ("readelf", "binutils"),
    ]) {
        return;
    }
    let prefix = &install().prefix;
    pkgconfig_check(prefix, &work_dir().join("build-pkgconfig"));
}

/// The installed tree copied elsewhere (as the GPU check carries it to another machine)
/// still works through both pkg-config and CMake, and finds the copy, not the original.
#[test]
fn relocated_prefix() {
    if !require(&[&CMAKE[..], &[("pkg-config", "pkg-config"), ("cc", "gcc")]].concat()) {
        return;
    }
    let moved = work_dir().join("moved prefix"); // a space, as user paths have
    let _ = std::fs::remove_dir_all(&moved);
    run_ok(
        Command::new("cp")
            .arg("-a")
            .arg(&install().prefix)
            .arg(&moved),
    );
    pkgconfig_check(&moved, &work_dir().join("build-moved-pkgconfig"));
    let build = work_dir().join("build-moved-c");
    let configure = cmake_project("ffi-tests/c", &moved, &build, 4);
    assert!(
        configure.contains(&format!("{}/include", moved.display())),
        "CMake found another prefix than {}:\n{configure}",
        moved.display()
    );
}

#[test]
fn go_consumer() {
    if !require(&[
        ("go", "golang-go"),
        ("pkg-config", "pkg-config"),
        ("cc", "gcc"),
        ("readelf", "binutils"),
    ]) {
        return;
    }
    let prefix = &install().prefix;
    let lib = prefix.join("lib");
    let go = |args: &[&str]| {
        let mut cmd = Command::new("go");
        cmd.args(args)
            .current_dir(root().join("ffi-tests/go"))
            .env("PKG_CONFIG_PATH", lib.join("pkgconfig"))
            .env("LD_LIBRARY_PATH", clean_ld_path(Some(&lib)))
            .env("CGO_ENABLED", "1")
            // No module downloads, no toolchain switch: the module has no dependencies.
            .env("GOPROXY", "off")
            .env("GOTOOLCHAIN", "local")
            .env("GOFLAGS", "-mod=mod");
        if std::env::var_os("HOME").is_none() && std::env::var_os("GOCACHE").is_none() {
            cmd.env("GOCACHE", work_dir().join("go-cache"))
                .env("GOPATH", work_dir().join("go-path"));
        }
        gpu_env(&mut cmd);
        cmd
    };
    let out = run_ok(&mut go(&["test", "-count=1", "-v", "./..."]));
    println!("{out}");
    for t in [
        "TestVersions",
        "TestStatusStrings",
        "TestMatmulDescAttributes",
        "TestLayoutAndPreference",
        "TestHandles",
        "TestReferenceGemm",
    ] {
        assert!(
            out.contains(&format!("--- PASS: {t} ")),
            "{t} did not pass:\n{out}"
        );
    }
    let bin = work_dir().join("go-deepgemm.test");
    run_ok(&mut go(&["test", "-c", "-o", bin.to_str().unwrap(), "."]));
    assert_links_soname(&bin);
}

/// Ignored: neither CI nor the GPU machine has julia (PyPI has no Julia build, and CI reaches
/// nothing else), so run by hand where it is installed
/// (`cargo test --test install -- --ignored julia_consumer`). It passed without running
/// before (a review).
#[test]
#[ignore = "needs julia on PATH (not on CI or the GPU machine)"]
fn julia_consumer() {
    assert!(
        on_path("julia"),
        "julia is not on PATH: the Julia tests (ffi-tests/julia) cannot run"
    );
    if !require(&[]) {
        return;
    }
    let prefix = &install().prefix;
    let out = run_ok(
        gpu_env(
            Command::new("julia")
                .arg("--startup-file=no")
                .arg(root().join("ffi-tests/julia/runtests.jl"))
                .env("DEEPGEMM_PREFIX", prefix),
        )
        .env("LD_LIBRARY_PATH", clean_ld_path(Some(&prefix.join("lib")))),
    );
    println!("{out}");
}
