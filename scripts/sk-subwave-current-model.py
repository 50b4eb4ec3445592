#!/usr/bin/env python3
"""The two-a-tile Stream-K fixup knob of session 72 scored with the current model (the check
scripts/sk-subwave-regret.py makes with each sweep's own estimates): for every shape of LAYOUT
swept from session MIN_SESSION on, the plan ranked first among its measured candidates by
main's model (./target/release/deepgemm-bench --plans-all) and by the knob's build under
DEEPGEMM_SK_SUBWAVE_FIXUP_US=X, and the measured time of the second pick over the first's.
KNOB_BENCH: a release deepgemm-bench built at commit 01716b3 (the knob; withdrawn after this).
    python3 scripts/sk-subwave-current-model.py LAYOUT MIN_SESSION KNOB_BENCH X..."""
import glob,re,subprocess,os,math,sys,collections
layout=sys.argv[1]; minsess=int(sys.argv[2]); knob=sys.argv[3]
meas=collections.defaultdict(dict)  # shape -> name -> list of measured
for f in sorted(glob.glob('scripts/sweeps/**/*.txt',recursive=True)):
    m=re.search(r'sweeps/(\d+)',f)
    if not m or int(m.group(1))<minsess: continue
    shape=None
    for l in open(f,errors='replace'):
        h=re.match(r'\[\d+/\d+\] (\S+) (\S+) ',l)
        if h:
            shape=h.group(1) if h.group(2)==layout else None; continue
        c=re.search(r'sweep #\d+ +model +[0-9.]+ us +measured +([0-9.]+) us.*?(dg_sm90\S+)',l)
        if c and shape:
            meas[shape].setdefault(c.group(2),[]).append(float(c.group(1)))
shapes=sorted(meas)
open('/tmp/kr-shapes.txt','w').write('\n'.join(shapes)+'\n')
def plans(bench,env):
    e=dict(os.environ); e.update(env)
    out=subprocess.run([bench,'--plans-all','--layout',layout,'--shapes','/tmp/kr-shapes.txt'],capture_output=True,text=True,env=e).stdout
    est={}
    for line in out.splitlines():
        p=line.split()
        if len(p)==3 and p[2].startswith('dg_sm90'):
            est[(p[0],p[2])]=float(p[1])
    return est
base=plans('./target/release/deepgemm-bench',{})
res={}
for x in sys.argv[4:]:
    est=plans(knob,{'DEEPGEMM_SK_SUBWAVE_FIXUP_US':x})
    moved=[]
    for s in shapes:
        c=[n for n in meas[s] if (s,n) in base and (s,n) in est]
        if len(c)<2: continue
        t=lambda n: min(meas[s][n])
        o=min(c,key=lambda n: base[(s,n)]); nw=min(c,key=lambda n: est[(s,n)])
        if o!=nw: moved.append((s,t(nw)/t(o),o.split('_',4)[-1],nw.split('_',4)[-1]))
    g=math.exp(sum(math.log(r) for _,r,_,_ in moved)/len(moved)) if moved else 1
    print(f'{layout} X={x}: {len(shapes)} swept shapes, {len(moved)} picks moved, {sum(r<1 for _,r,_,_ in moved)} faster, geomean {g:.3f}')
    for m in sorted(moved,key=lambda m:m[1])[:3]+sorted(moved,key=lambda m:m[1])[-3:]: print('   ',m)
