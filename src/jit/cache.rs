//! The on-disk CUBIN cache.
//!
//! Location: `$DEEPGEMM_CACHE_DIR`, else `$XDG_CACHE_HOME/deepgemm`, else `~/.cache/deepgemm`.
//! Key: a 128-bit FNV-1a hash of everything that changes the binary (variant name, rendered
//! source, NVRTC options and version, architecture, library version). Entries are written to a
//! temporary file and renamed into place, so readers never see a partial file; each entry
//! carries its length and a checksum, so a truncated or corrupt one is detected, ignored and
//! rewritten. A directory that cannot be written costs one warning; the library then works
//! from memory only. Size: at its first write a process trims the directory's entries to
//! `DEEPGEMM_CACHE_MAX_MB` (default 2 GiB; content keys change with every library version, so
//! without a limit old versions' kernels would stay forever), least recently used first; a
//! read marks its entry used (its modification time, at most once a day an entry).

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
    /// Set once this process has swept the directory's stale temporary files and trimmed its
    /// entries to `max_bytes`.
    swept: AtomicBool,
    /// The entries' total size a process's first write trims the directory to (0: no limit).
    max_bytes: u64,
}

/// The default size limit of the cache directory's entries: ~13 builds' worth of every sm90
/// kernel (~150 MiB a library version and architecture).
const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// An entry read back is marked used (its modification time set to now) when its mark is older
/// than this: the eviction order, at a write's cost at most once a day an entry.
const TOUCH_AFTER: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// `DEEPGEMM_CACHE_MAX_MB` in bytes: a whole number of MiB, 0 for no limit; unset or unreadable
/// (warned once) the default.
fn max_bytes_from_env() -> u64 {
    match std::env::var("DEEPGEMM_CACHE_MAX_MB") {
        Err(_) => DEFAULT_MAX_BYTES,
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(mb) => mb.saturating_mul(1 << 20),
            Err(_) => {
                crate::log::error(
                    "jit",
                    format!(
                        "DEEPGEMM_CACHE_MAX_MB={v:?} is not a whole number of MiB; using {} MiB",
                        DEFAULT_MAX_BYTES >> 20
                    ),
                );
                DEFAULT_MAX_BYTES
            }
        },
    }
}

/// Temporary files older than this are a crashed writer's (a write takes milliseconds).
const STALE_TMP: std::time::Duration = std::time::Duration::from_secs(3600);

static GLOBAL: Lazy<DiskCache> =
    Lazy::new(|| DiskCache::with_limit(default_dir(), max_bytes_from_env()));

/// The process-wide cache at the default location.
pub fn global() -> &'static DiskCache {
    &GLOBAL
}

impl DiskCache {
    /// A cache at `dir` with the default size limit.
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self::with_limit(dir, DEFAULT_MAX_BYTES)
    }

    /// A cache at `dir` whose entries a process's first write trims to `max_bytes` in all (0:
    /// no limit).
    pub fn with_limit(dir: Option<PathBuf>, max_bytes: u64) -> Self {
        DiskCache {
            dir,
            write_failed: AtomicBool::new(false),
            write_warned: AtomicBool::new(false),
            swept: AtomicBool::new(false),
            max_bytes,
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
        touch_if_old(&path, &meta);
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
            if self.max_bytes > 0 {
                trim_entries(dir, self.max_bytes);
            }
        }
        let len = (data.len() as u64).to_le_bytes();
        let sum = checksum(data).to_le_bytes();
        write_atomically(path, &[MAGIC, &len, &sum, data])
    }
}

/// Writes `parts` into a new temporary file beside `path` and renames it over `path`, so a
/// reader sees the old file or the new one, never half. The temporary name is one no other
/// writer uses (processes in other containers share pids) and that only this call creates
/// (O_EXCL: never through a link planted at it); a crashed writer's is swept
/// (`sweep_stale_tmp`). Also the autotuning table's rewrite (runtime::autotune).
pub(crate) fn write_atomically(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().expect("a file path has a parent");
    let mut opened = None;
    for _ in 0..4 {
        let tmp = dir.join(format!(
            ".tmp-{}-{}-{:016x}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed),
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
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
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

/// Whether `name` is an entry's file name: `{variant}-{32 hex digits}.cubin` (`entry_path`).
/// Nothing else in the directory is ever trimmed.
fn is_entry_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".cubin") else {
        return false;
    };
    !name.starts_with('.')
        && stem.len() > 33
        && stem.as_bytes()[stem.len() - 33] == b'-'
        && stem[stem.len() - 32..]
            .bytes()
            .all(|b| b.is_ascii_hexdigit())
}

/// Marks an entry read back as used (its modification time now, the eviction order) when its
/// mark is over a day old. Best effort: another user's entry in a shared directory keeps its
/// time.
fn touch_if_old(path: &Path, meta: &fs::Metadata) {
    let old = meta
        .modified()
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > TOUCH_AFTER));
    if old {
        if let Ok(f) = fs::File::options().append(true).open(path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
    }
}

/// Trims this user's entries in `dir` (regular files named as entries) to 80% of `max_bytes`
/// once they exceed it, least recently used (oldest modification time) first, so that a
/// process at the limit does not trim again at once. An entry another process is about to read
/// and finds gone is compiled again: a cost, never a wrong kernel.
fn trim_entries(dir: &Path, max_bytes: u64) {
    let Ok(list) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = list
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(is_entry_name))
        .filter_map(|e| {
            // symlink_metadata: a link is not an entry and is never followed.
            let m = fs::symlink_metadata(e.path()).ok()?;
            (m.is_file() && owned(&m)).then(|| {
                (
                    m.modified().unwrap_or(std::time::UNIX_EPOCH),
                    m.len(),
                    e.path(),
                )
            })
        })
        .collect();
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    if total <= max_bytes {
        return;
    }
    let target = max_bytes / 5 * 4;
    entries.sort();
    let (mut removed, mut freed) = (0usize, 0u64);
    for (_, len, path) in entries {
        if total <= target {
            break;
        }
        match fs::remove_file(&path) {
            Ok(()) => {
                removed += 1;
                freed += len;
                total -= len;
            }
            // Another process trimming at the same time removed it: gone all the same (else
            // every process starting together would trim its own share past the target).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => total -= len,
            Err(_) => {}
        }
    }
    crate::log::info(
        "jit",
        format!(
            "kernel cache {}: removed {removed} least recently used entries ({} MiB) to stay \
             under DEEPGEMM_CACHE_MAX_MB={}",
            dir.display(),
            freed >> 20,
            max_bytes >> 20
        ),
    );
}

/// Whether this process's user owns an entry: a directory shared by several users is trimmed
/// by each to its own entries' size (another's it could not remove, and counting them would
/// make it remove all of its own).
fn owned(m: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions and cannot fail.
        m.uid() == unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        true
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

    /// Ages a file's modification time by `secs` seconds.
    fn age(path: &Path, secs: u64) {
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
        fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[test]
    fn entry_names_are_recognised() {
        let c = DiskCache::new(Some(PathBuf::from("/x")));
        let p = c
            .entry_path("dg_sm90_bf16_bf16_tn_m128n256k64_s4_c1x1", 0xab)
            .unwrap();
        assert!(is_entry_name(p.file_name().unwrap().to_str().unwrap()));
        for other in [
            "notes.txt",
            "x.cubin",
            ".tmp-1-0-dead-k-0000000000000000000000000000000a.cubin",
            "k-000000000000000000000000000000zz.cubin",
            "k0000000000000000000000000000000000a.cubin",
        ] {
            assert!(!is_entry_name(other), "{other}");
        }
    }

    /// Over the limit, a process's first write removes the least recently used entries until
    /// 80% of it is left; files that are not entries, and links, stay. Under the limit nothing
    /// goes.
    #[test]
    fn entries_over_the_limit_are_trimmed_oldest_first() {
        let dir = temp_dir("trim");
        let data = vec![7u8; 1000];
        // Ten entries of 1,024 bytes (24 of header) written oldest first.
        let seed = DiskCache::with_limit(Some(dir.clone()), 0);
        for i in 0..10u128 {
            assert!(seed.store("k", i, &data));
            age(&seed.entry_path("k", i).unwrap(), 10_000 - 100 * i as u64);
        }
        let other = dir.join("notes.txt");
        fs::write(&other, vec![0u8; 50_000]).unwrap();
        age(&other, 20_000);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&other, dir.join("l-0000000000000000000000000000000b.cubin"))
            .unwrap();
        // Under the limit (10,240 bytes of entries): nothing removed.
        let roomy = DiskCache::with_limit(Some(dir.clone()), 10_240);
        assert!(roomy.store("k", 100, &data));
        // 11 entries now (11,264 bytes) over 8,192: trimmed to 6,553, six entries left; the
        // new one survives (the newest), the five oldest go.
        let tight = DiskCache::with_limit(Some(dir.clone()), 8192);
        assert!(tight.store("k", 101, &data));
        let left: Vec<u128> = (0..10)
            .chain([100, 101])
            .filter(|&i| tight.entry_path("k", i).unwrap().exists())
            .collect();
        assert_eq!(left, vec![5, 6, 7, 8, 9, 100, 101]);
        assert!(other.exists(), "not an entry");
        // Only the first write of a process trims.
        for i in 200..210u128 {
            assert!(tight.store("k", i, &data));
        }
        assert!(tight.entry_path("k", 6).unwrap().exists());
        let _ = fs::remove_dir_all(&dir);
    }

    /// A read marks an entry used once its mark is over a day old, so that it outlives entries
    /// written after it but not read since.
    #[test]
    fn reads_mark_old_entries_used() {
        let dir = temp_dir("touch");
        let c = DiskCache::with_limit(Some(dir.clone()), 0);
        assert!(c.store("k", 1, b"cubin"));
        let path = c.entry_path("k", 1).unwrap();
        let mtime = || fs::metadata(&path).unwrap().modified().unwrap();
        age(&path, 3 * 24 * 3600);
        let before = mtime();
        assert_eq!(c.load("k", 1).as_deref(), Some(&b"cubin"[..]));
        assert!(mtime().elapsed().unwrap() < std::time::Duration::from_secs(3600));
        // A fresh mark is left alone (no write a read).
        age(&path, 3600);
        let fresh = mtime();
        c.load("k", 1).unwrap();
        assert_eq!(mtime(), fresh);
        assert!(fresh > before);
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
