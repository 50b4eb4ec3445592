//! The driver query behind algo decoding and `wavesCount` (gemm::device_spec), on a real GPU.
//! Ignored by default: run with `cargo test --test api_device -- --ignored` on a machine
//! with a driver and a device.

use deepgemm::gemm::device_spec as spec_for_stream;
use deepgemm::plan::DeviceSpec;

#[test]
#[ignore = "needs a CUDA driver and device"]
fn device_spec_of_current_context_and_stream() {
    use cudarc::driver::result;
    // No context current on this thread: device 0.
    let no_ctx = spec_for_stream(std::ptr::null_mut()).expect("device 0 without a context");
    result::init().unwrap();
    let dev = result::device::get(0).unwrap();
    let name = result::device::get_name(dev).unwrap();
    // SAFETY: `dev` came from cuDeviceGet; the context is released at the end.
    let ctx = unsafe { result::primary_ctx::retain(dev) }.unwrap();
    unsafe { result::ctx::set_current(ctx) }.unwrap();
    let current = spec_for_stream(std::ptr::null_mut()).unwrap();
    assert_eq!(current, no_ctx);
    let stream = result::stream::create(result::stream::StreamKind::NonBlocking).unwrap();
    let of_stream = spec_for_stream(stream.cast()).unwrap();
    assert_eq!(of_stream, current);
    println!("{name}: {current:?}");
    assert!(current.cc_major >= 7 && current.sm_count > 0 && current.smem_per_block >= 48 * 1024);
    if name.contains("H100") || name.contains("H200") {
        assert_eq!((current.cc_major, current.cc_minor), (9, 0));
        assert!(current.sm_count == DeviceSpec::H200.sm_count || current.sm_count == 114);
        assert_eq!(current.smem_per_block, DeviceSpec::H200.smem_per_block);
    }
    // SAFETY: the stream and context were made above and are not used after this.
    unsafe {
        result::stream::destroy(stream).unwrap();
        result::primary_ctx::release(dev).unwrap();
    }
}
