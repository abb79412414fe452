#!/usr/bin/env python3
"""Runs one weft binary over the project's corpora and suites and writes every output to a
folder, one file per run, so two binaries can be compared with `diff -r` (issue 25: the
engines' consolidation must leave outputs byte-identical).

What it runs (each with a per-run time limit; a run that hits it is written as `TIMEOUT`):
  sim    `weft sim -m M` over our corpus and Dat3M's litmus folders, several models;
  show   `weft show` and `weft show --to json` of every litmus test of tests/corpus;
  parse  `weft parse` over the corpora and tests/malformed (error text is part of it);
  mc     `weft mc -m rc11` on every herd C test of tests/corpus/c, and `weft mc --json` on
         every labelled kernel of tests/mc (with its `.expect` args; `skip.tsv` ones left out);
  race   `weft race --json` on every kernel of tests/race under both definitions;
  verify `weft verify --json` on every kernel of tests/verify (those `slow` in known.tsv left out).

Lines that carry wall-clock times (herd's `Time NAME S`, "checked in", JSON `time`/`elapsed`
fields), peak memory and the race detector's `clock_bytes` are dropped before writing. Usage: scripts/snapshot-outputs.py WEFT OUTDIR [--jobs N] [--only S,...]
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

TIME_LINE = re.compile(r"^(Time |Elapsed|Wall|.*\b(took|seconds|checked in)\b)")
# Fields that change from run to run of one binary: wall-clock times, resident memory, and
# the race detector's clock storage (its compression depends on thread timing).
TIME_KEYS = {
    "time", "time_s", "elapsed", "elapsed_s", "wall_s", "seconds", "time_ms", "ms",
    "run_seconds", "peak_rss_bytes", "clock_bytes",
}


def scrub_json(v):
    if isinstance(v, dict):
        return {k: scrub_json(x) for k, x in v.items() if k not in TIME_KEYS}
    if isinstance(v, list):
        return [scrub_json(x) for x in v]
    return v


def scrub(text: str) -> str:
    s = text.strip()
    if s.startswith("{") or s.startswith("["):
        try:
            return json.dumps(scrub_json(json.loads(s)), indent=1, sort_keys=False) + "\n"
        except ValueError:
            pass
    return "".join(l for l in text.splitlines(True) if not TIME_LINE.match(l))


def run(weft, args, limit):
    try:
        p = subprocess.run(
            [weft] + args, cwd=ROOT, capture_output=True, timeout=limit,
            env=dict(os.environ, NO_COLOR="1"),
        )
    except subprocess.TimeoutExpired:
        return "TIMEOUT\n"
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    return f"exit {p.returncode}\n--- stdout\n{scrub(out)}--- stderr\n{scrub(err)}"


def expect_args(path: Path):
    args = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("args:"):
            args = line[len("args:"):].split()
    return args


def skip_set(folder: Path):
    f = folder / "skip.tsv"
    if not f.is_file():
        return set()
    return {l.split("\t")[0] for l in f.read_text().splitlines() if l and not l.startswith("#")}


def jobs_sim():
    models = ["sc", "tso", "rc11", "scoped-rc11", "ptx-v7.5", "vulkan", "opencl", "webgpu"]
    for m in models:
        yield f"sim/corpus.{m}", ["sim", "-m", m, "tests/corpus"], 600
    dat3m = SHARED / "corpus/dat3m/litmus"
    for sub, ms in [("PTX", ["ptx-v6.0", "ptx-v7.5"]), ("VULKAN", ["vulkan"]), ("OPENCL", ["opencl"])]:
        for m in ms:
            if (dat3m / sub).is_dir():
                yield f"sim/dat3m-{sub}.{m}", ["sim", "-m", m, "--timeout", "60", str(dat3m / sub)], 900


def jobs_show():
    for f in sorted((ROOT / "tests/corpus").rglob("*")):
        if f.suffix in (".litmus", ".json") and f.is_file():
            rel = str(f.relative_to(ROOT))
            yield f"show/{rel}", ["show", rel], 60
            yield f"show-json/{rel}", ["show", "--to", "json", rel], 60


def jobs_parse():
    yield "parse/corpus", ["parse", "tests/corpus"], 300
    yield "parse/malformed", ["parse", "tests/malformed"], 300
    if (SHARED / "corpus/dat3m/litmus").is_dir():
        yield "parse/dat3m", ["parse", str(SHARED / "corpus/dat3m/litmus")], 300


def jobs_mc():
    for f in sorted((ROOT / "tests/corpus/c").glob("*.litmus")):
        rel = str(f.relative_to(ROOT))
        yield f"mc-litmus/{f.name}", ["mc", "-m", "rc11", "--timeout", "20", rel], 60
    for e in sorted((ROOT / "tests/mc").rglob("*.expect")):
        if e.stem in skip_set(e.parent):
            continue
        src = next((e.with_suffix(x) for x in (".cu", ".cl", ".ptx", ".litmus") if e.with_suffix(x).is_file()), None)
        if src is None:
            continue
        rel = str(src.relative_to(ROOT))
        yield f"mc/{rel}", ["mc", rel, "--json", "--threads", "1"] + expect_args(e), 120


def jobs_race():
    for e in sorted((ROOT / "tests/race").glob("*.expect")):
        src = next((e.with_suffix(x) for x in (".cu", ".cl") if e.with_suffix(x).is_file()), None)
        if src is None:
            continue
        rel = str(src.relative_to(ROOT))
        for d in ("barracuda", "scoped"):
            yield f"race/{e.stem}.{d}", ["race", rel, "--json", "--definition", d] + expect_args(e), 120
        yield f"race/{e.stem}.text", ["race", rel] + expect_args(e), 120


def jobs_verify():
    known = ROOT / "tests/verify/known.tsv"
    slow = set()
    if known.is_file():
        for l in known.read_text().splitlines():
            parts = l.split("\t")
            if len(parts) >= 2 and parts[1] == "slow":
                slow.add(parts[0])
    for f in sorted((ROOT / "tests/verify").iterdir()):
        if f.suffix in (".cu", ".cl") and f.name not in slow:
            rel = str(f.relative_to(ROOT))
            yield f"verify/{f.name}", ["verify", rel, "--json"], 120


SUITES = {
    "sim": jobs_sim, "show": jobs_show, "parse": jobs_parse,
    "mc": jobs_mc, "race": jobs_race, "verify": jobs_verify,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("weft")
    ap.add_argument("outdir")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=",".join(SUITES))
    a = ap.parse_args()
    weft = str(Path(a.weft).resolve())
    out = Path(a.outdir)
    todo = []
    for s in a.only.split(","):
        todo.extend(SUITES[s]())
    print(f"{len(todo)} runs", file=sys.stderr)

    def one(job):
        name, args, limit = job
        text = run(weft, args, limit)
        p = out / (name.replace("/", "__", name.count("/") - 1) if name.count("/") > 1 else name)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("$ weft " + " ".join(args) + "\n" + text)
        return name, text.startswith("TIMEOUT")

    timeouts = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, to in ex.map(one, todo):
            if to:
                timeouts += 1
                print(f"TIMEOUT {name}", file=sys.stderr)
    print(f"{len(todo)} runs written to {out}, {timeouts} timed out", file=sys.stderr)


if __name__ == "__main__":
    main()
