//! Placeholder logger (replaced by the ffi branch's logger at merge).
pub fn warn(ctx: &str, msg: &str) {
    eprintln!("[deepgemm][Warning][{ctx}] {msg}");
}
pub fn info(ctx: &str, msg: &str) {
    let _ = (ctx, msg);
}
