"""Reads deepgemm-bench --sweep logs (sequential or --interleave): one dict a shape with its
shape, layout, candidates (rank, model us, measured us, kernel name) and cuBLASLt's interleaved
time (None in sequential sweeps). Used by moves-timed.py and hybrid-pairs.py."""
import re


def parse(path):
    out, cur = [], None
    for line in open(path):
        # "[i/n] MxNxK[ bB] LAYOUT TYPES ...": a strided batch's label carries " bB".
        m = re.match(r'\[\d+/\d+\] (\S+)(?: b(\d+))? (TN|NN|TT|NT) ', line)
        if m:
            cur = {'shape': m.group(1), 'batch': int(m.group(2) or 1), 'layout': m.group(3),
                   'rows': [], 'lt': None}
            out.append(cur)
            continue
        if cur is None:
            continue
        m = re.search(r'sweep #(\d+)\s+model\s+([\d.]+) us\s+measured\s+([\d.]+) us.*?(dg_\S+)', line)
        if m:
            cur['rows'].append((int(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4)))
        m = re.search(r'sweep cuBLASLt, interleaved with the candidates: ([\d.]+) us', line)
        if m:
            cur['lt'] = float(m.group(1))
    return out
