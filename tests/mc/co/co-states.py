#!/usr/bin/env python3
# The final states and execution counts of CO-N (scripts/gen-mc-family.sh co N) under RC11,
# derived from the model, not from weft: every access is a relaxed atomic to one location,
# so an execution is a coherence order of the 2N writes (each thread's first write before
# its second) and a source per read; it is consistent iff each thread's read reads a write
# coherence-at-or-after its own second write (Coherence: no po-earlier write of the thread
# may be coherence-after the source), and the final value of x0 is the coherence-last write.
# Equal to herd7 7.57's output for N = 2, 3 (CO-2/CO-3.rc11.herd7).
#   tests/mc/co/co-states.py N [STATES_FILE]  -> "N executions positive states", states file
# The executions per coherence order are the product over threads of the writes at or after
# its second write; positive: x0=2 and thread i reads 2i+2, i.e. P0's second write is last.
import sys, itertools
n=int(sys.argv[1])
keys=set()
def rec(seq, placed):
    if len(seq)==2*n:
        pos={w:k for k,w in enumerate(seq)}
        last=seq[-1]
        val=lambda w: 2*w[0]+w[1]
        S=tuple(frozenset(val(w) for w in seq[pos[(i,2)]:]) for i in range(n))
        keys.add((val(last),S)); return
    for i in range(n):
        c=placed[i]
        if c<2:
            placed[i]+=1; seq.append((i,c+1)); rec(seq,placed); seq.pop(); placed[i]-=1
rec([], [0]*n)
states=set()
for last,S in keys:
    for rs in itertools.product(*[sorted(s) for s in S]):
        states.add(rs+(last,))
execs = 0
pos = 0
def count(seq, placed):
    global execs, pos
    if len(seq) == 2 * n:
        at = {w: k for k, w in enumerate(seq)}
        p = 1
        for i in range(n):
            p *= 2 * n - at[(i, 2)]
        execs += p
        if seq[-1] == (0, 2):
            pos += 1
        return
    for i in range(n):
        if placed[i] < 2:
            placed[i] += 1; seq.append((i, placed[i])); count(seq, placed); seq.pop(); placed[i] -= 1
count([], [0] * n)
print(n, execs, pos, len(states))
if len(sys.argv)>2:
    with open(sys.argv[2],'w') as f:
        for s in sorted(states):
            f.write(''.join(f'{i}:r0={s[i]}; ' for i in range(n))+f'[x0]={s[n]};\n')
