#!/usr/bin/env python3
"""Tabulates `scripts/gpu-session43c.sh`'s Nsight Compute log: for each shape, every kernel of
its bench run (deepgemm's plan, then cuBLASLt's), with grid, cluster, block, registers, dynamic
shared memory, duration, DRAM bytes read and L2 bytes.

    python3 scripts/ncu-kernels.py NCU_LOG
"""
import re
import sys


def parse(path):
    shapes, shape, kern = [], None, None
    for line in open(path, errors="replace"):
        m = re.match(r"^== (\d+x\d+x\d+)$", line.strip())
        if m:
            shape = {"shape": m.group(1), "kernels": []}
            shapes.append(shape)
            continue
        m = re.match(r"^\s+(.+?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Context", line)
        if m and shape is not None:
            name = m.group(1)
            if "splitKreduce" in name:
                name = "splitKreduce"
            kern = {"name": name.split("(")[0].split("<")[0], "grid": "x".join(m.group(2, 3, 4))}
            shape["kernels"].append(kern)
            continue
        if kern is None:
            continue
        m = re.match(r"^\s+(.+?)\s{2,}(\S+)?\s+([\d.,]+)\s*$", line)
        if m:
            key, unit, val = m.group(1).strip(), m.group(2) or "", m.group(3).replace(",", "")
            kern[key] = (float(val), unit)
    return shapes


def scaled(v, unit, to):
    f = {"B": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6,
         "ns": 1e-3, "us": 1, "usecond": 1, "nsecond": 1e-3, "msecond": 1e3, "ms": 1e3,
         "byte": 1, "": 1}
    return v * f.get(unit, 1) / f[to]


def main():
    for s in parse(sys.argv[1]):
        print(f"{s['shape']}")
        for k in s["kernels"]:
            def g(key, to=None):
                if key not in k:
                    return "-"
                v, u = k[key]
                return f"{scaled(v, u, to):.1f}" if to else f"{v:g}"
            name = k["name"].replace("dg_sm90_bf16_bf16_tn_", "dg:")[:60]
            print(f"  {name:60s} grid {k['grid']:>9s} cluster {g('Cluster Size'):>2s} "
                  f"regs {g('Registers Per Thread'):>4s} smem {g('Dynamic Shared Memory Per Block'):>7s} "
                  f"{g('gpu__time_duration.sum', 'us'):>6s} us  DRAM rd {g('dram__bytes_read.sum', 'MB'):>6s} MB  "
                  f"L2 {g('lts__t_bytes.sum', 'MB'):>7s} MB")


if __name__ == "__main__":
    main()
