#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the sched_ext kfunc call-site matrix.

Every kfunc of kfuncs.list, called from every call site of callsite.spec
(the op's program itself, a static or global function, a bpf_loop()
callback, a bpf_timer or a bpf_wq callback) inside a program for every
arming op of callsite.spec.  Checks the lists against the kernel as gen.py
does, and the call-site spec against the matrix spec, and writes into OUTDIR:

  cs_<site>_<op>.bpf.c  one file per (call site, arming op): for every kfunc
                        a program for the op making the call from that site,
                        and a .struct_ops.link map that uses the program
  cells.tsv             one line per cell, read by scxk callsite (tab
                        separated): site op kfunc group patched baseline
                        object program map refusal
  groups                the (call site, arming op) groups, "<site>@<op>", in
                        the order of cells.tsv

Usage: callsite.py --ref EXT_C --tree KERNEL_SRC --vmlinux-h VMLINUX_H --out OUTDIR
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402  (the list readers and checks of the op x kfunc matrix)


def die(msg):
    sys.exit(f"callsite.py: {msg}")


SITES = ("direct", "static", "global", "loop", "timer", "wq")


def read_callsite_spec(groups):
    """callsite.spec -> (arming ops, [{site, sleeps, row: {group: verdict or '='},
    refusal}])"""
    arm, sites, cols = None, [], None
    KNOWN.clear()
    path = os.path.join(HERE, "callsite.spec")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            body, _, refusal = line.rstrip("\n").partition("|")
            words = body.split()
            if not words:
                continue
            if words[0] == "#" and len(words) > 2 and words[1:3] == ["site", "sleeps"]:
                cols = words[3:]
                continue
            if words[0].startswith("#"):
                continue
            if words[0] == "arm":
                arm = words[1:]
                continue
            if words[0] == "known":
                # known SITE@OP KFUNC VERDICT | why: 6.12 gives VERDICT
                if len(words) != 4 or words[3] not in ("A", "R", "S") or \
                        "@" not in words[1] or not refusal.strip():
                    die(f"callsite.spec:{n}: want 'known SITE@OP KFUNC A|R|S | why'")
                KNOWN[(words[1], words[2])] = (words[3], refusal.strip())
                continue
            if cols is None:
                die(f"callsite.spec:{n}: row before the '# site sleeps <groups>' header")
            if cols != groups:
                die(f"callsite.spec:{n}: columns {cols} are not spec's {groups}")
            site, sleeps, cells = words[0], words[1], words[2:]
            # SITE@VARIANT: that variant's row for the site (others: SITE's)
            site, _, variant = site.partition("@")
            if variant and variant not in VARIANTS:
                die(f"callsite.spec:{n}: unknown variant '{variant}' (one of {', '.join(VARIANTS)})")
            if site not in SITES:
                die(f"callsite.spec:{n}: unknown call site '{site}' (one of {', '.join(SITES)})")
            if sleeps not in ("op", "yes", "no"):
                die(f"callsite.spec:{n}: sleeps is '{sleeps}', want op, yes or no")
            if len(cells) != len(cols):
                die(f"callsite.spec:{n}: {len(cells)} verdicts for {len(cols)} groups")
            for v in cells:
                if v not in ("A", "R", "S", "="):
                    die(f"callsite.spec:{n}: bad verdict '{v}' (A, R, S or =)")
            refusal = refusal.strip()
            if "{op}" not in refusal:
                die(f"callsite.spec:{n}: the refusal does not name the op ({{op}})")
            if variant:
                prev = [s for s in sites if s["site"] == site]
                if not prev or variant in prev[0]["rows"]:
                    die(f"callsite.spec:{n}: {site}@{variant} before {site}, or twice")
                if sleeps != prev[0]["sleeps"]:
                    die(f"callsite.spec:{n}: {site}@{variant} sleeps differently from {site}")
                prev[0]["rows"][variant] = dict(zip(cols, cells))
                prev[0]["refusals"][variant] = refusal
                continue
            if any(s["site"] == site for s in sites):
                die(f"callsite.spec:{n}: {site} twice")
            sites.append({"site": site, "sleeps": sleeps, "row": dict(zip(cols, cells)),
                          "refusal": refusal, "rows": {}, "refusals": {}})
    if not arm:
        die("callsite.spec: no 'arm <ops>' line")
    if [s["site"] for s in sites] != list(SITES):
        die(f"callsite.spec: want the call sites {', '.join(SITES)}, in that order")
    return arm, sites


# (site@op, kfunc) -> (verdict, why): cells where 6.12 differs from its own
# rules because of a verifier bug the series carries the fix for; the
# baseline expects what 6.12 does and prints why, so a fixed baseline fails
# it and the line is dropped.
KNOWN = {}


def site_sleeps(site, op):
    return op["sleepable"] if site["sleeps"] == "op" else site["sleeps"] == "yes"


# The series variants whose verdicts differ in callsite.spec (matrix/spec is
# the same for all): the core series, and core with the follow-up.
VARIANTS = ("core", "full")


def verdicts(site, op, k, spec, variant="core"):
    """(patched, baseline) verdict of one cell; patched is @variant's"""
    v = site["rows"].get(variant, site["row"])[k["group"]]
    patched = spec[op["op"]][k["group"]][0] if v == "=" else v
    # judged as the arming op, but the code at the call site may not sleep
    if patched == "A" and k["sleepable"] and not site_sleeps(site, op):
        patched = "S"
    baseline = "S" if k["sleepable"] and not site_sleeps(site, op) else "A"
    known = KNOWN.get((f"{site['site']}@{op['op']}", k["name"]))
    if known:
        return patched, known[0]
    return patched, baseline


def check_sites(arm, sites, ops, kfuncs, spec):
    by_op = {o["op"]: o for o in ops}
    for a in arm:
        if a not in by_op:
            die(f"callsite.spec: arming op '{a}' is not in ops.list")
        # a departure that loads (A*, S*) would break the baseline's negative
        # control below; an R* (tick's dsq_move setters) is an R like any
        for k in kfuncs:
            v, dep = spec[a][k["group"]][:2]
            if dep and v != "R":
                die(f"callsite.spec: {a} x {k['group']} is a departure {v}* in spec: "
                    "not an arming op")
    # the S cells are exactly where a sleepable kfunc meets code that cannot
    # sleep (as gen.py checks the matrix spec): then the baseline differs from
    # the spec in its R cells only
    for s in sites:
        for a in arm:
            for k in kfuncs:
                if (f"{s['site']}@{a}", k["name"]) in KNOWN:
                    continue
                for variant in VARIANTS:
                    p, b = verdicts(s, by_op[a], k, spec, variant)
                    if (p == "S") != (b == "S") and p != "R":
                        die(f"callsite.spec: {s['site']}@{a} x {k['name']} ({variant}): {p}, "
                            f"but the code {'may' if site_sleeps(s, by_op[a]) else 'may not'} sleep")


def emit(arm, sites, ops, kfuncs, spec, out):
    by_op = {o["op"]: o for o in ops}
    os.makedirs(out, exist_ok=True)
    cells, groups = [], []
    for s in sites:
        site = s["site"]
        for a in arm:
            o = by_op[a]
            sec = "struct_ops.s" if o["sleepable"] else "struct_ops"
            args = "" if o["args"] == "void" else ", " + o["args"]
            obj = f"cs_{site}_{a}"
            groups.append(f"{site}@{a}")
            src = [
                "// SPDX-License-Identifier: GPL-2.0",
                f"/* Generated by selftests/matrix/callsite.py: every sched_ext kfunc",
                f" * called from call site '{site}' in sched_ext_ops.{a}.  Do not edit;",
                " * edit the lists instead. */",
                '#include "callsite.bpf.h"',
                "",
                'char _license[] SEC("license") = "GPL";',
            ]
            for i, k in enumerate(kfuncs):
                prog = f"k{i:02d}"
                p, b = verdicts(s, o, k, spec)
                pf, _ = verdicts(s, o, k, spec, "full")
                fn = f"cs_{site}_{prog}"
                body = [f"\t{{ {k['call']}; }}"]
                src += ["", f"/* {k['name']} [{k['group']}]: expect {p} (full: {pf}, 6.12: {b}) */"]
                if site == "static":
                    src += [f"static __noinline int {fn}(void)", "{", *body, "\treturn 0;", "}"]
                    call = [f"\t{fn}();"]
                elif site == "global":
                    src += [f"__noinline int {fn}(void)", "{", *body, "\treturn 0;", "}"]
                    call = [f"\t{fn}();"]
                elif site == "loop":
                    src += [f"static long {fn}(u64 i, void *ctx)", "{", *body, "\treturn 1;", "}"]
                    call = [f"\tbpf_loop(1, {fn}, NULL, 0);"]
                elif site == "timer":
                    src += [f"static int {fn}(void *map, int *key, struct bpf_timer *timer)",
                            "{", *body, "\treturn 0;", "}"]
                    call = [f"\tCS_ARM_TIMER({fn});"]
                elif site == "wq":
                    src += [f"static int {fn}(void *map, int *key, void *value)",
                            "{", *body, "\treturn 0;", "}"]
                    call = [f"\tCS_ARM_WQ({fn});"]
                else:
                    call = body
                src += [
                    "",
                    f'SEC("{sec}/{a}")',
                    f"int BPF_PROG({prog}{args})",
                    "{",
                    *call,
                    "\treturn 0;",
                    "}",
                    "",
                    'SEC(".struct_ops.link")',
                    f"struct sched_ext_ops {prog}_ops = {{",
                    f"\t.{a} = (void *){prog},",
                    f'\t.name = "cs_{site}_{a}_{i:02d}",',
                    "};",
                ]
                refusal = " from " + s["refusals"].get("full", s["refusal"]).format(op=a, fn=fn)
                cells.append("\t".join([site, a, k["name"], k["group"], p, pf, b,
                                        f"{obj}.bpf.o", prog, f"{prog}_ops", refusal]))
            with open(os.path.join(out, f"{obj}.bpf.c"), "w") as f:
                f.write("\n".join(src) + "\n")
    with open(os.path.join(out, "cells.tsv"), "w") as f:
        f.write("# site\top\tkfunc\tgroup\tcore\tfull\tbaseline\tobject\tprogram\tmap\trefusal\n")
        f.write("\n".join(cells) + "\n")
    with open(os.path.join(out, "groups"), "w") as f:
        f.write("\n".join(groups) + "\n")
    with open(os.path.join(out, "known"), "w") as f:
        for (g, k), (v, why) in sorted(KNOWN.items()):
            f.write(f"{g} {k}: expected {v} on 6.12: {why}\n")
    return len(groups), len(cells)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", required=True, help="6.12's kernel/sched/ext.c (ref-ext.sh)")
    ap.add_argument("--tree", required=True, help="kernel source tree")
    ap.add_argument("--vmlinux-h", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    # gen.py's lists and checks (against 6.12 and the tree); also sets each
    # kfunc's "sleepable" from the kernel
    ops, kfuncs, groups, spec = gen.load(a)
    gen.fail_on_errors("callsite.py")
    arm, sites = read_callsite_spec(groups)
    check_sites(arm, sites, ops, kfuncs, spec)
    ng, n = emit(arm, sites, ops, kfuncs, spec, a.out)
    print(f"callsite.py: {len(sites)} call sites x {len(arm)} arming ops = {ng} groups"
          f" x {len(kfuncs)} kfuncs = {n} cells -> {a.out}")


if __name__ == "__main__":
    main()
