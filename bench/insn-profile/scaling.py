#!/usr/bin/env python3
"""How the series' saving grows with the work: insn-profile runs of several
configurations (vCPUs, workloads, task counts) side by side.

For each run directory (bench/insn-profile.sh's OUT, with functions.tsv),
per unit of work (round trip or message):
  - the saving in the functions the series changes (those of STATIC_DIFF,
    bench/static-diff.sh's table, derived from the objects) and in all;
  - the calls of those functions (the op-call paths and kfuncs);
  - the saving per such call;
  - two predictions of the saving from the calls alone: each function's
    calls times its saving per call in the first (reference) run, and
    times its static instruction difference (STATIC_DIFF), with the
    measured/predicted ratio.

Usage: scaling.py [--dat FILE] STATIC_DIFF.md LABEL=DIR [LABEL=DIR...]
(markdown on stdout; --dat: "label<TAB>calls<TAB>saving" per run, and the
reference's saving per call as a last "# slope" line, for scaling.gp)
"""
import re
import sys


def load_tsv(path):
    rows = {}
    with open(path) as f:
        for line in f:
            name, b, p, cb, cp = line.rstrip("\n").split("\t")
            rows[name] = (float(b), float(p), float(cb), float(cp))
    return rows


def load_static(path):
    """function -> patched - baseline static instructions"""
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^\| `([^`]+)` \| (\d+) \| (\d+) \| ([+-]\d+) \|$", line.strip())
            if m:
                out[m.group(1)] = int(m.group(4))
    return out


def main():
    args, dat = sys.argv[1:], None
    if args[:1] == ["--dat"]:
        dat, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    static = load_static(args[0])
    if not static:
        sys.exit(f"scaling.py: no function rows in {args[0]}")
    runs = []
    for arg in args[1:]:
        label, _, d = arg.partition("=")
        runs.append((label, load_tsv(f"{d}/functions.tsv")))

    ref_label, ref = runs[0]
    # per-call saving in the reference run, where the function is called
    per_call = {f: (ref[f][1] - ref[f][0]) / ref[f][3]
                for f in static if f in ref and ref[f][3] >= 0.5 and abs(ref[f][2] - ref[f][3]) < 0.01}

    print("| configuration | saving per unit, changed functions (all) | calls of changed functions per unit"
          " | saving per call | predicted from the reference's per-call savings (measured/predicted)"
          " | predicted from the static count (measured/predicted) |")
    print("|---|---:|---:|---:|---:|---:|")
    points = []
    for label, r in runs:
        changed = [f for f in static if f in r]
        save = sum(r[f][1] - r[f][0] for f in changed)
        total = sum(v[1] - v[0] for v in r.values())
        calls = sum(r[f][3] for f in changed)
        pred = sum(r[f][3] * per_call.get(f, 0.0) for f in changed)
        unexplained = sum(r[f][3] for f in changed if f not in per_call and r[f][3] >= 0.01)
        spred = sum(r[f][3] * static[f] for f in changed)
        ratio = lambda m, p: f"{m / p:.2f}" if abs(p) > 1e-9 else "n/a"
        note = f", {unexplained:.2f} calls not in the reference" if unexplained else ""
        points.append((label, calls, save))
        print(f"| {label} | {save:+.2f} ({total:+.2f}) | {calls:.2f} | {save / calls if calls else 0:+.2f}"
              f" | {pred:+.2f} ({ratio(save, pred)}){note} | {spred:+.2f} ({ratio(save, spred)}) |")
    if dat:
        with open(dat, "w") as f:
            for label, calls, save in points:
                f.write(f"{label}\t{calls:.4f}\t{save:.4f}\n")
            ref_calls = points[0][1]
            f.write(f"# slope {points[0][2] / ref_calls if ref_calls else 0:.4f}\n")
    print()
    print(f"Reference for the per-call savings: {ref_label}. Per function, calls per unit (patched) "
          "and saving per call, where called:")
    print()
    print("| function | static diff | " + " | ".join(l for l, _ in runs) + " |")
    print("|---|---:|" + "---:|" * len(runs))
    for f in sorted(static, key=lambda f: static[f]):
        cells = []
        for _, r in runs:
            if f in r and r[f][3] >= 0.01:
                cells.append(f"{r[f][3]:.2f} x {(r[f][1] - r[f][0]) / r[f][3]:+.1f}")
            else:
                cells.append("")
        if any(cells):
            print(f"| `{f}` | {static[f]:+d} | " + " | ".join(cells) + " |")


main()
