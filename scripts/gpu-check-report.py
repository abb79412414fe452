#!/usr/bin/env python3
"""Compares what scripts/gpu-check.sh brought back from a GPU with the suite's labels and the
emulator: per race-suite kernel, the races `weft race --backend cuda` found (instrumented PTX
run on the GPU, paper 003 §4) against the `barracuda:` label of tests/race/NAME.expect and
against the emulator's instrumented run (scripts/gpu-check-prep.sh), the buffers of the
native GPU run against the emulator's, compute-sanitizer racecheck's verdict, and the
kernel times (paper 003 Fig. 10); and, when section mc ran, per model-checker kernel
(tests/mc/kernels) its `weft mc` label beside what the native runs gave (completed runs and
their final buffers, trapped `__assert`s, timeouts) and the emulator's result for the same
launch (round-robin and three random schedules, from the prep directory).

    scripts/gpu-check-report.py GPU_OUT_DIR PREP_DIR [--markdown]
"""
import json
import os
import re
import sys


def label_set(expect_path, source_path):
    """The `barracuda:` label as a set of (kind, line, line), or None when unlabelled."""
    text = open(expect_path).read()
    m = re.search(r"^barracuda:\s*(.*)$", text, re.M)
    if not m:
        return None
    body = m.group(1).strip()
    if body == "none":
        return set()
    markers = {}
    for i, line in enumerate(open(source_path).read().splitlines(), 1):
        for mk in re.findall(r"//.*?(@\w+)", line):
            markers.setdefault(mk, i)
        for mk in re.findall(r"/\*.*?(@\w+).*?\*/", line):
            markers.setdefault(mk, i)
    out = set()
    for part in body.split(";"):
        toks = part.split()
        if len(toks) < 3:
            continue
        kind, a, b = toks[0], toks[1], toks[2]
        la, lb = markers.get(a, a), markers.get(b, b)
        out.add((kind, min(la, lb), max(la, lb)) if isinstance(la, int) and isinstance(lb, int) else (kind, la, lb))
    return out


def line_no(s):
    m = re.search(r":(\d+)$", s or "")
    return int(m.group(1)) if m else s


def race_set(path):
    try:
        j = json.load(open(path))
    except Exception:
        return None, None
    out = set()
    for r in j.get("races", []):
        a, b = line_no(r["first"]["line"]), line_no(r["second"]["line"])
        if isinstance(a, int) and isinstance(b, int):
            a, b = min(a, b), max(a, b)
        out.add((r["kind"], a, b))
    for f in j.get("findings", []):
        kind = "barrier-divergence" if "divergence" in f else ("deadlock" if "deadlock" in f else f.split(":")[0])
        lines = sorted({int(x) for x in re.findall(r"\.(?:cu|cl|ptx):(\d+)", f)})
        if len(lines) == 1:
            out.add((kind, lines[0], lines[0]))
        elif len(lines) >= 2:
            out.add((kind, lines[0], lines[-1]))
        else:
            out.add((kind, "-", "-"))
    return out, j


TRAP = re.compile(r"ILLEGAL_INSTRUCTION|illegal instruction|LAUNCH_FAILED|unspecified launch failure|trap", re.I)


def outcome(j):
    """A run's final buffers, compactly."""
    b = json.dumps(j.get("buffers", {}), sort_keys=True, separators=(",", ":"))
    return b if len(b) <= 160 else b[:157] + "..."


def emu_result(path):
    try:
        j = json.load(open(path))
    except Exception:
        return None
    f = "; ".join(x.split(" at ")[0] for x in j.get("findings", []))
    return outcome(j) + (f" [{f}]" if f else "")


def mc_table(gpu, prep, md):
    """Per model-checker kernel: label, native runs, emulator."""
    idx = os.path.join(gpu, "mc", "kernels.tsv")
    if not os.path.exists(idx):
        return
    rows = []
    for line in open(idx):
        parts = line.rstrip("\n").split("|")
        if len(parts) < 4:
            continue
        name, _kernel, args, label = parts[:4]
        runs = os.path.join(gpu, "mc", name + ".runs.tsv")
        if not os.path.exists(runs):
            continue
        n = done = trap = hung = 0
        other, outs = {}, {}
        for r in open(runs):
            f = r.rstrip("\n").split("\t")
            if len(f) < 5:
                continue
            n += 1
            rc, js, err = f[1], f[3], f[4]
            if rc == "0" and js.startswith("{"):
                done += 1
                try:
                    o = outcome(json.loads(js))
                except Exception:
                    o = "unreadable JSON"
                outs[o] = outs.get(o, 0) + 1
            elif rc in ("124", "137"):
                hung += 1
            elif TRAP.search(err):
                trap += 1
            else:
                k = (err[:80] or f"exit {rc}")
                other[k] = other.get(k, 0) + 1
        gpu_out = "; ".join(f"{c}x {o}" for o, c in sorted(outs.items(), key=lambda x: -x[1])) or "-"
        emu_rr = emu_result(os.path.join(prep, "emu", "mc", name + ".rr.json")) or "n/a"
        rnd = {}
        for sd in (1, 2, 3):
            e = emu_result(os.path.join(prep, "emu", "mc", f"{name}.s{sd}.json"))
            if e is not None:
                rnd[e] = rnd.get(e, 0) + 1
        emu_rnd = "; ".join(f"{c}x {o}" for o, c in rnd.items()) or "n/a"
        oth = "; ".join(f"{c}x {k}" for k, c in other.items()) or "0"
        rows.append((name + (f" `{args}`" if args else ""), label, n, done, trap, hung, oth, gpu_out, emu_rr, emu_rnd))
    head = ["kernel (args)", "mc label", "runs", "completed", "trapped (`__assert` false)", "timed out",
            "other failures", "GPU final buffers (count x values)", "emulator, round-robin [findings]",
            "emulator, 3 random schedules"]
    print()
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
    else:
        for r in rows:
            print("  ".join(f"{h}={x}" for h, x in zip(head, r)))


def main():
    gpu, prep = sys.argv[1], sys.argv[2]
    md = "--markdown" in sys.argv
    rows = []
    stats = {"kernels": 0, "gpu_ran": 0, "gpu_eq_emu": 0, "gpu_eq_label": 0, "emu_eq_label": 0,
             "native_ran": 0, "native_eq_emu": 0, "labelled": 0}
    san = {}
    idx = os.path.join(gpu, "sanitizer", "index.txt")
    if os.path.exists(idx):
        for line in open(idx):
            n = line.split()[0]
            m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", line)
            san[n] = (int(m.group(2)), int(m.group(3))) if m else None
    for name in sorted(os.listdir("tests/race")):
        if not (name.endswith(".cu") or name.endswith(".cl")):
            continue
        stats["kernels"] += 1
        base = os.path.join("tests/race", name.rsplit(".", 1)[0])
        lab = label_set(base + ".expect", os.path.join("tests/race", name)) if os.path.exists(base + ".expect") else None
        g, gj = race_set(os.path.join(gpu, "race", name + ".gpu.json"))
        e, _ = race_set(os.path.join(prep, "emu", name + ".race.json"))
        if lab is not None:
            stats["labelled"] += 1
        if g is not None:
            stats["gpu_ran"] += 1
            stats["gpu_eq_emu"] += g == e
            if lab is not None:
                stats["gpu_eq_label"] += (g == lab)
        if e is not None and lab is not None:
            stats["emu_eq_label"] += e == lab
        # native buffers
        nat = None
        try:
            nj = json.load(open(os.path.join(gpu, "race", name + ".native.json")))
            ej = json.load(open(os.path.join(prep, "emu", name + ".native.json")))
            stats["native_ran"] += 1
            same = nj["buffers"] == ej["buffers"]
            stats["native_eq_emu"] += same
            nat = ("same" if same else "differ", nj.get("kernel_ms"))
        except Exception:
            pass
        inst_ms = None
        if gj and gj.get("gpu_kernel_ms"):
            inst_ms = min(gj["gpu_kernel_ms"])
        rows.append((name, lab, e, g, nat, inst_ms, san.get(name)))
    def fmt(s):
        if s is None:
            return "n/a"
        if not s:
            return "none"
        return "; ".join(f"{k} {a}-{b}" for k, a, b in sorted(s, key=str))
    if md:
        print("| kernel | label (barracuda) | emulator, instrumented | GPU, instrumented | native buffers vs emulator | racecheck errors/warnings | kernel ms native / instrumented |")
        print("|---|---|---|---|---|---|---|")
    for name, lab, e, g, nat, inst_ms, sn in rows:
        tag = "" if g == lab else " **≠ label**"
        nms = f"{nat[1]:.4f}" if nat and nat[1] is not None else "n/a"
        ims = f"{inst_ms:.4f}" if inst_ms is not None else "n/a"
        snt = f"{sn[0]}/{sn[1]}" if sn else "n/a"
        if md:
            print(f"| {name} | {fmt(lab)} | {fmt(e)} | {fmt(g)}{tag} | {nat[0] if nat else 'n/a'} | {snt} | {nms} / {ims} |")
        else:
            print(f"{name:45s} label={fmt(lab)} | emu={fmt(e)} | gpu={fmt(g)}{tag} | native={nat} | racecheck={snt} | ms {nms}/{ims}")
    print(json.dumps(stats))
    mc_table(gpu, prep, md)


if __name__ == "__main__":
    main()
