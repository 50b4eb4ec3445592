#!/usr/bin/env python3
"""Compile-checks a probe's device code with NVRTC (no GPU, no toolkit), as the library's
kernels are checked: `python3 scripts/probes/nvrtc-check.py scripts/probes/pitch-ingest.cuh`
from the repo root, after `. scripts/nvrtc-env.sh` (.deps/nvrtc). Prints NVRTC's log and the
ptxas report (-Xptxas -v: registers, spills) of each kernel; exits non-zero on an error."""
import ctypes
import os
import sys

lib = ctypes.CDLL(os.path.join(".deps/nvrtc/nvidia/cu13/lib", "libnvrtc.so.13"))
path = sys.argv[1]
src = open(path).read().encode()
prog = ctypes.c_void_p()
rc = lib.nvrtcCreateProgram(ctypes.byref(prog), src, os.path.basename(path).encode(), 0, None, None)
assert rc == 0, rc
opts = [b"--gpu-architecture=sm_90a", b"-std=c++17", b"-I", b"kernels", b"-I", b"scripts/probes",
        b"--ptxas-options=-v", b"-default-device"]
arr = (ctypes.c_char_p * len(opts))(*opts)
rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
size = ctypes.c_size_t()
lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
log = ctypes.create_string_buffer(size.value)
lib.nvrtcGetProgramLog(prog, log)
print(log.value.decode(errors="replace"))
print("nvrtc rc", rc)
sys.exit(0 if rc == 0 else 1)
