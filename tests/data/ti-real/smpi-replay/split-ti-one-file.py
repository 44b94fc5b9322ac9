#!/usr/bin/env python3
# split a one-file SimGrid TI trace (master listing one file with all ranks' lines) into one file per rank
import sys, os
master, outdir = sys.argv[1], sys.argv[2]
base = os.path.dirname(os.path.abspath(master))
files = [l.strip() for l in open(master) if l.strip()]
name = os.path.basename(master)
os.makedirs(outdir, exist_ok=True)
if len(files) != 1:
    # already per rank: copy as-is with absolute paths
    with open(os.path.join(outdir, name), 'w') as m:
        for f in files:
            m.write(os.path.join(base, f) + '\n')
    sys.exit(0)
per = {}
for line in open(os.path.join(base, files[0])):
    s = line.strip()
    if not s: continue
    r = int(s.split()[0])
    per.setdefault(r, []).append(line if line.endswith('\n') else line + '\n')
n = max(per) + 1
with open(os.path.join(outdir, name), 'w') as m:
    for r in range(n):
        p = os.path.abspath(os.path.join(outdir, f"{name}_rank{r}.txt"))
        open(p, 'w').writelines(per.get(r, []))
        m.write(p + '\n')
