#!/usr/bin/env python3
"""Guest instructions per pipe round trip, per kernel function, baseline vs
patched, from tb-count plugin dumps of two boots per kernel that differ only
in the number of round trips (the difference cancels boot, scheduler loads
and everything else that does not scale with round trips).

Usage: attribute.py [--unit NAME] [--tsv FILE] UNITS_DIFF TOP \
           BASE_VMLINUX_NM BASE_SHORT.tb BASE_LONG.tb \
           PATCH_VMLINUX_NM PATCH_SHORT.tb PATCH_LONG.tb
UNITS_DIFF is how many more units (round trips, messages) the long boots
ran. The nm files are `nm -n vmlinux` output. --tsv writes every function,
"name<TAB>baseline<TAB>patched<TAB>calls baseline<TAB>calls patched" per
unit, for bench/insn-profile/scaling.py.
"""
import bisect
import sys


def load_syms(path):
    addrs, names, end = [], [], None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            if parts[2] == "_etext":
                end = int(parts[0], 16)
            if parts[1] in "tTwW":
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
    return addrs, names, end


def where(syms, va):
    addrs, names, end = syms
    if va < 0xffff800000000000:
        return "[user space]"
    if end is not None and va >= end or va < addrs[0]:
        # BPF JIT images and trampolines live outside the kernel's text
        return "[outside vmlinux text: BPF JIT, trampolines]"
    i = bisect.bisect_right(addrs, va) - 1
    return names[i]


def per_function(syms, path):
    """Instructions per function, and calls: executions of the blocks that
    start at the function's first instruction (a loop back to it would
    count too; the functions in the table do not loop to their entry)."""
    out, calls = {}, {}
    starts = dict(zip(syms[0], syms[1]))
    with open(path) as f:
        for line in f:
            parts = line.split()
            va, n = int(parts[0], 16), int(parts[1])
            k = where(syms, va)
            out[k] = out.get(k, 0) + n
            if len(parts) > 2 and starts.get(va) == k:
                calls[k] = calls.get(k, 0) + int(parts[2])
    return out, calls


def main():
    args, unit, tsv = sys.argv[1:], "round trip", None
    while args and args[0].startswith("--"):
        if args[0] == "--unit":
            unit = args[1]
        elif args[0] == "--tsv":
            tsv = args[1]
        else:
            sys.exit(f"attribute.py: unknown option {args[0]}")
        args = args[2:]
    if len(args) != 8:
        sys.exit(__doc__)
    diff_rt, top = int(args[0]), int(args[1])
    res, ncalls = {}, {}
    for kind, (nm, short, long_) in (("baseline", args[2:5]), ("patched", args[5:8])):
        syms = load_syms(nm)
        (a, ac), (b, bc) = per_function(syms, short), per_function(syms, long_)
        res[kind] = {k: (b.get(k, 0) - a.get(k, 0)) / diff_rt for k in set(a) | set(b)}
        ncalls[kind] = {k: (bc.get(k, 0) - ac.get(k, 0)) / diff_rt for k in set(ac) | set(bc)}
    base, pat = res["baseline"], res["patched"]
    keys = set(base) | set(pat)
    rows = sorted(keys, key=lambda k: -abs(pat.get(k, 0) - base.get(k, 0)))
    tb, tp = sum(base.values()), sum(pat.values())
    if tsv:
        with open(tsv, "w") as f:
            for k in sorted(keys):
                f.write(f"{k}\t{base.get(k, 0):.4f}\t{pat.get(k, 0):.4f}\t"
                        f"{ncalls['baseline'].get(k, 0):.4f}\t{ncalls['patched'].get(k, 0):.4f}\n")
    print(f"| function | baseline insns/{unit} | patched | patched - baseline"
          f" | calls/{unit} (baseline / patched) | patched - baseline per call |")
    print("|---|---:|---:|---:|---:|---:|")
    shown = 0.0
    for k in rows[:top]:
        d = pat.get(k, 0) - base.get(k, 0)
        shown += d
        cb, cp = ncalls["baseline"].get(k, 0), ncalls["patched"].get(k, 0)
        per = f"{d / cp:+.2f}" if abs(cb - cp) < 0.01 and cp >= 0.99 else ""
        print(f"| `{k}` | {base.get(k, 0):.2f} | {pat.get(k, 0):.2f} | {d:+.2f}"
              f" | {cb:.2f} / {cp:.2f} | {per} |")
    print(f"| (the other {max(0, len(rows) - top)} functions) | | | {tp - tb - shown:+.2f} | | |")
    print(f"| **total** | {tb:.2f} | {tp:.2f} | **{tp - tb:+.2f}** | | |")


main()
