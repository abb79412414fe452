#!/usr/bin/env bash
# Times `weft verify` over tests/verify/ three ways (paper 002 §5's measurements): lock-step
# warps with the re-sync method, lock-step with the two-pass method, and no warp
# synchronisation. Writes target/bench-verify/{resync,twopass,nowarp}.tsv, prints the summary
# (median, p95, re-sync/no-warp ratio over kernels whose verdict does not change) and draws
# docs/verify-warp-times.svg (re-sync vs two-pass scatter, as paper 002 Fig. 4).
#   scripts/bench-verify.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-2}
cargo build -q --release -p weft-verify --example verify_file
bin=target/release/examples/verify_file
out=target/bench-verify
mkdir -p "$out"
run() { # mode flags...
  local mode=$1; shift
  ls tests/verify/*.cu tests/verify/*.cl | grep -v -F -f <(awk -F'\t' '$2=="slow"{print $1}' tests/verify/known.tsv) | xargs -P "$jobs" -I{} timeout 300 "$bin" {} "$@" > "$out/$mode.tsv" || true
}
run resync --lockstep
run twopass --lockstep --two-pass
run nowarp --no-lockstep
python3 - "$out" <<'PY'
import sys, statistics
d = sys.argv[1]
def load(m):
    r = {}
    for l in open(f"{d}/{m}.tsv"):
        c = l.rstrip("\n").split("\t")
        if len(c) >= 4:
            r[c[0]] = (c[1], c[2], float(c[3]))
    return r
rs, tp, nw = load("resync"), load("twopass"), load("nowarp")
def q(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]
for name, r in [("re-sync", rs), ("two-pass", tp), ("no warp", nw)]:
    t = [v[2] for v in r.values()]
    print(f"{name:9s} kernels {len(t):3d}  median {statistics.median(t):6.2f} s  p95 {q(t, .95):6.2f} s  max {max(t):6.2f} s  total {sum(t):7.1f} s")
same = [k for k in rs if k in nw and rs[k][:2] == nw[k][:2]]
ratio = sum(rs[k][2] for k in same) / max(1e-9, sum(nw[k][2] for k in same))
print(f"re-sync / no-warp time over {len(same)} kernels with the same verdict: {ratio:.3f} (paper 002: 1.043)")
only = [k for k in rs if k in tp and rs[k][:2] != tp[k][:2]]
print("kernels whose verdict differs between re-sync and two-pass:", ", ".join(only) or "none")
pts = [(rs[k][2], tp[k][2]) for k in rs if k in tp]
m = max([max(a, b) for a, b in pts] + [1.0])
W = 360
def sx(v): return 40 + v / m * W
def sy(v): return 20 + W - v / m * W
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W+60}" height="{W+60}" font-family="sans-serif" font-size="11">',
       f'<line x1="40" y1="{20+W}" x2="{40+W}" y2="{20+W}" stroke="black"/><line x1="40" y1="20" x2="40" y2="{20+W}" stroke="black"/>',
       f'<line x1="40" y1="{20+W}" x2="{40+W}" y2="20" stroke="#aaa" stroke-dasharray="4"/>',
       f'<text x="{40+W/2}" y="{W+52}" text-anchor="middle">re-sync (s)</text>',
       f'<text x="12" y="{20+W/2}" transform="rotate(-90 12 {20+W/2})" text-anchor="middle">two-pass (s)</text>',
       f'<text x="{40+W}" y="{W+34}" text-anchor="end">{m:.1f}</text><text x="36" y="24" text-anchor="end">{m:.1f}</text>']
svg += [f'<circle cx="{sx(a):.1f}" cy="{sy(b):.1f}" r="2.5" fill="#c33"/>' for a, b in pts]
svg.append("</svg>")
open("docs/verify-warp-times.svg", "w").write("\n".join(svg) + "\n")
PY
