//! The on-disk CUBIN cache.
//!
//! Location: `$DEEPGEMM_CACHE_DIR`, else `$XDG_CACHE_HOME/deepgemm`, else `~/.cache/deepgemm`.
//! Key: a 128-bit FNV-1a hash of everything that changes the binary (variant name, rendered
//! source, NVRTC options and version, architecture, library version). Entries are written to a
//! temporary file and renamed into place, so readers never see a partial file; each entry
//! carries its length and a checksum, so a truncated or corrupt one is detected, ignored and
//! rewritten. A directory that cannot be written costs one warning; the library then works
//! from memory only.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use once_cell::sync::Lazy;

const MAGIC: &[u8; 8] = b"DGCUBIN1";
const HEADER: usize = 8 + 8 + 8;

/// FNV-1a over 128 bits: stable across processes, platforms and Rust versions (unlike std's
/// hasher), which is what an on-disk key needs. Not cryptographic; collisions are not a threat
/// model here (the checksum guards integrity, the key only identity).
pub fn fnv1a128(parts: &[&[u8]]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut h = OFFSET;
    for part in parts {
        // Length-prefix each part so ("ab","c") and ("a","bc") differ.
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= *b as u128;
            h = h.wrapping_mul(PRIME);
        }
    }
    h
}

fn checksum(data: &[u8]) -> u64 {
    let h = fnv1a128(&[data]);
    (h as u64) ^ ((h >> 64) as u64)
}

/// Where the cache lives by default, from the environment (None: no usable location).
pub fn default_dir() -> Option<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = env("DEEPGEMM_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Some(x) = env("XDG_CACHE_HOME") {
        return Some(PathBuf::from(x).join("deepgemm"));
    }
    env("HOME").map(|h| PathBuf::from(h).join(".cache").join("deepgemm"))
}

/// The largest entry read back: a CUBIN is a few MB at most, so a larger file is not one.
const MAX_ENTRY_BYTES: u64 = 256 << 20;

pub struct DiskCache {
    dir: Option<PathBuf>,
    /// Set when the location cannot take files (no directory, no permission, a read-only
    /// file system): warn once, then stay in memory.
    write_failed: AtomicBool,
    /// Set after the first other write failure (a full disk, ...), which is warned about once
    /// and does not stop later writes.
    write_warned: AtomicBool,
    tmp_counter: AtomicU64,
    /// Set once this process has swept the directory's stale temporary files.
    swept: AtomicBool,
}

/// Temporary files older than this are a crashed writer's (a write takes milliseconds).
const STALE_TMP: std::time::Duration = std::time::Duration::from_secs(3600);

static GLOBAL: Lazy<DiskCache> = Lazy::new(|| DiskCache::new(default_dir()));

/// The process-wide cache at the default location.
pub fn global() -> &'static DiskCache {
    &GLOBAL
}

impl DiskCache {
    pub fn new(dir: Option<PathBuf>) -> Self {
        DiskCache {
            dir,
            write_failed: AtomicBool::new(false),
            write_warned: AtomicBool::new(false),
            tmp_counter: AtomicU64::new(0),
            swept: AtomicBool::new(false),
        }
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The file of entry (`name`, `key`): `{name}-{key}.cubin` in the cache directory.
    pub fn entry_path(&self, name: &str, key: u128) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{name}-{key:032x}.cubin")))
    }

    /// The cached binary, or None when absent, unreadable, truncated or corrupt, or not a
    /// regular file of a CUBIN's size (a FIFO or a device planted at its name would block a
    /// read or never end it).
    pub fn load(&self, name: &str, key: u128) -> Option<Vec<u8>> {
        let path = self.entry_path(name, key)?;
        let meta = fs::metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > MAX_ENTRY_BYTES {
            return None;
        }
        let bytes = fs::read(&path).ok()?;
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return None;
        }
        let len = u64::from_le_bytes(bytes[8..16].try_into().ok()?) as usize;
        let sum = u64::from_le_bytes(bytes[16..24].try_into().ok()?);
        let payload = &bytes[HEADER..];
        if payload.len() != len || checksum(payload) != sum {
            crate::log::error(
                "jit",
                format!("cache entry for {name} is corrupt or truncated; recompiling"),
            );
            return None;
        }
        Some(payload.to_vec())
    }

    /// Writes an entry atomically (temp file in the same directory, then rename). Failures
    /// are reported once and otherwise ignored: the cache is an optimisation. Whether the
    /// entry was written (`--precompile` checks it).
    pub fn store(&self, name: &str, key: u128, data: &[u8]) -> bool {
        let Some(path) = self.entry_path(name, key) else {
            return false;
        };
        if self.write_failed.load(Ordering::Relaxed) {
            return false;
        }
        let Err(e) = self.try_store(&path, data) else {
            return true;
        };
        let dir = path.parent().unwrap_or(Path::new("?")).display();
        // The location itself refuses files: stop trying. Anything else (a full disk) may
        // pass: keep writing, warn once.
        let location = e.kind() == std::io::ErrorKind::PermissionDenied
            || e.kind() == std::io::ErrorKind::ReadOnlyFilesystem
            || e.kind() == std::io::ErrorKind::NotADirectory
            || !path.parent().is_some_and(Path::is_dir);
        if location {
            if !self.write_failed.swap(true, Ordering::Relaxed) {
                crate::log::error(
                    "jit",
                    format!(
                        "kernel cache {dir} is not writable ({e}); compiled kernels stay in memory only"
                    ),
                );
            }
        } else if !self.write_warned.swap(true, Ordering::Relaxed) {
            crate::log::error(
                "jit",
                format!("kernel cache {dir}: an entry could not be written ({e})"),
            );
        }
        false
    }

    fn try_store(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().expect("cache path has a parent");
        create_dir(dir)?;
        if !self.swept.swap(true, Ordering::Relaxed) {
            sweep_stale_tmp(dir);
        }
        // A name no other writer uses (processes in other containers share pids) and that
        // only this call creates (O_EXCL: never through a link planted at it).
        let mut opened = None;
        for _ in 0..4 {
            let tmp = dir.join(format!(
                ".tmp-{}-{}-{:016x}-{}",
                std::process::id(),
                self.tmp_counter.fetch_add(1, Ordering::Relaxed),
                random_u64(),
                path.file_name().and_then(|f| f.to_str()).unwrap_or("entry")
            ));
            match create_new(&tmp) {
                Ok(f) => {
                    opened = Some((f, tmp));
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        let Some((mut f, tmp)) = opened else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "no free temporary name",
            ));
        };
        let result = (|| {
            f.write_all(MAGIC)?;
            f.write_all(&(data.len() as u64).to_le_bytes())?;
            f.write_all(&checksum(data).to_le_bytes())?;
            f.write_all(data)?;
            f.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }
}

/// Removes temporary files that writers which crashed mid-write left in `dir` (once a
/// process, at its first write): without it they stay forever.
fn sweep_stale_tmp(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let stale = e.file_name().to_string_lossy().starts_with(".tmp-")
            && e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE_TMP));
        if stale {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The cache directory and its parents, as the user's own (0755 before the umask).
fn create_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o755);
    b.create(dir)
}

/// A new file that must not exist yet (never opened through a symbolic link), 0644 before the
/// umask: no other user may write an entry this process wrote.
fn create_new(path: &Path) -> std::io::Result<fs::File> {
    let mut o = fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o644);
    o.open(path)
}

/// 64 random bits (std's per-process random hash keys, advanced each call).
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::process::id() as u64);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "deepgemm-cache-test-{tag}-{}-{}",
            std::process::id(),
            fnv1a128(&[format!("{:?}", std::time::Instant::now()).as_bytes()]) as u32
        ));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn key_depends_on_every_part_and_on_boundaries() {
        let k = fnv1a128(&[b"ab", b"c"]);
        assert_ne!(k, fnv1a128(&[b"a", b"bc"]));
        assert_ne!(k, fnv1a128(&[b"ab", b"d"]));
        assert_eq!(k, fnv1a128(&[b"ab", b"c"]));
    }

    #[test]
    fn round_trip_then_corruption_and_truncation_are_detected() {
        let dir = temp_dir("rt");
        let c = DiskCache::new(Some(dir.clone()));
        assert_eq!(c.load("k", 7), None);
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        c.store("k", 7, &data);
        assert_eq!(c.load("k", 7).as_deref(), Some(&data[..]));
        assert_eq!(c.load("k", 8), None, "other key");
        let path = c.entry_path("k", 7).unwrap();

        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER + 10] ^= 0xff;
        fs::write(&path, &bytes).unwrap();
        assert_eq!(c.load("k", 7), None, "flipped byte must be detected");

        c.store("k", 7, &data);
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..bytes.len() - 5]).unwrap();
        assert_eq!(c.load("k", 7), None, "truncation must be detected");
        fs::write(&path, b"DGCU").unwrap();
        assert_eq!(c.load("k", 7), None, "short file");

        c.store("k", 7, &data);
        assert_eq!(c.load("k", 7).as_deref(), Some(&data[..]), "rewritten");
        // No temp files are left behind.
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn unwritable_location_degrades_to_memory_only() {
        let dir = temp_dir("ro");
        fs::create_dir_all(dir.parent().unwrap()).unwrap();
        // A regular file where the directory should be: create_dir_all fails (also as root).
        fs::write(&dir, b"not a directory").unwrap();
        let c = DiskCache::new(Some(dir.join("sub")));
        c.store("k", 1, b"data");
        assert!(c.write_failed.load(Ordering::Relaxed));
        assert_eq!(c.load("k", 1), None);
        c.store("k", 1, b"data"); // second failure is silent
        let _ = fs::remove_file(&dir);
    }

    /// What another user of a shared directory could plant at an entry's name: a FIFO is
    /// not read (a read would block), a symbolic link is replaced by the entry, never written
    /// through.
    #[cfg(unix)]
    #[test]
    fn planted_files_are_neither_read_nor_written_through() {
        let dir = temp_dir("planted");
        let c = DiskCache::new(Some(dir.clone()));
        fs::create_dir_all(&dir).unwrap();
        let fifo = c.entry_path("k", 5).unwrap();
        let cpath = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(cpath.as_ptr(), 0o600) }, 0);
        assert_eq!(c.load("k", 5), None, "a FIFO is not an entry");
        let victim = dir.join("victim");
        fs::write(&victim, b"keep me").unwrap();
        let link = c.entry_path("k", 6).unwrap();
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert_eq!(c.load("k", 6), None, "not a cache entry");
        assert!(c.store("k", 6, b"cubin"));
        assert_eq!(fs::read(&victim).unwrap(), b"keep me");
        assert!(
            !fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(c.load("k", 6).as_deref(), Some(&b"cubin"[..]));
        let _ = fs::remove_dir_all(&dir);
    }

    /// A crashed writer's temporary file (over an hour old) is removed at the process's
    /// first write; one being written now is not.
    #[test]
    fn stale_temporary_files_are_swept() {
        let dir = temp_dir("sweep");
        fs::create_dir_all(&dir).unwrap();
        let (old, fresh) = (
            dir.join(".tmp-1-0-dead-x.cubin"),
            dir.join(".tmp-2-0-live-y.cubin"),
        );
        fs::write(&old, b"partial").unwrap();
        fs::write(&fresh, b"partial").unwrap();
        let two_hours = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        fs::File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(two_hours)
            .unwrap();
        let c = DiskCache::new(Some(dir.clone()));
        assert!(c.store("k", 9, b"cubin"));
        assert!(!old.exists(), "stale temporary file kept");
        assert!(fresh.exists(), "a live writer's file removed");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn concurrent_writers_leave_a_valid_entry() {
        let dir = temp_dir("conc");
        let c = DiskCache::new(Some(dir.clone()));
        let data: Vec<u8> = (0..50_000u32).map(|i| i as u8).collect();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..5 {
                        c.store("k", 3, &data);
                        if let Some(d) = c.load("k", 3) {
                            assert_eq!(d, data);
                        }
                    }
                });
            }
        });
        assert_eq!(c.load("k", 3).unwrap(), data);
        let _ = fs::remove_dir_all(&dir);
    }
}
