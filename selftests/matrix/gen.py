#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the sched_ext op x kfunc load matrix.

Reads ops.list, kfuncs.list and spec (next to this file), checks them against
the kernel (struct sched_ext_ops in vmlinux.h, the scx_kfunc_ids_* sets in
<tree>/kernel/sched/ext.c) and writes into OUTDIR:

  mx_<op>.bpf.c  one file per op: for every kfunc, a program for that op
                 calling it and a .struct_ops.link map that uses the program
  cells.tsv      one line per cell, read by the guest loader (scxk matrix):
                 op kfunc group expected departure object program map

With --cases, also checks cases/cases.list against the same spec: each
negative op must refuse its kfunc, each twin op allow it, and the baseline
behaviour must follow (sleep: a sleepable kfunc in an op that cannot sleep;
allowed: a departure cell; runtime: the rest).

Usage: gen.py --tree KERNEL_SRC --vmlinux-h VMLINUX_H --out OUTDIR [--cases LIST]
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# scx_kfunc_ids_<set> -> group name used in kfuncs.list and spec
SET_GROUP = {
    "select_cpu": "select_cpu",
    "enqueue_dispatch": "enq_dsp",
    "dispatch": "dispatch",
    "dispatch_from_dsq": "dsq_move",   # the patched kernel's set of its own
    "cpu_release": "cpu_release",
    "unlocked": "unlocked",
    "any": "any",
}
VERDICTS = "ARS"


def die(msg):
    sys.exit(f"gen.py: {msg}")


def rows(name):
    """Non-comment lines of a list file, split on '|', with line numbers."""
    path = os.path.join(HERE, name)
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            yield n, [c.strip() for c in line.rstrip("\n").split("|")]


def read_ops():
    ops = []
    for n, cols in rows("ops.list"):
        if len(cols) != 3 or cols[1] not in ("yes", "no"):
            die(f"ops.list:{n}: want 'op | yes/no | arguments'")
        ops.append({"op": cols[0], "sleepable": cols[1] == "yes",
                    "args": cols[2]})
    return ops


def read_kfuncs():
    kfuncs = []
    for n, cols in rows("kfuncs.list"):
        if len(cols) < 3:
            die(f"kfuncs.list:{n}: want 'kfunc | group | call'")
        name, group, call = cols[0], cols[1], "|".join(cols[2:])
        # the call must name its kfunc (scx_bpf_exit() wraps _exit_bstr)
        if re.sub(r"_bstr$", "", name) not in call:
            die(f"kfuncs.list:{n}: the call does not mention {name}")
        kfuncs.append({"name": name, "group": group, "call": call})
    return kfuncs


def read_spec():
    """spec -> (groups in column order, {op: {group: (verdict, departure)}},
    {op: reason})"""
    groups, spec, reasons = None, {}, {}
    path = os.path.join(HERE, "spec")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            body, _, reason = line.rstrip("\n").partition("|")
            words = body.split()
            if not words:
                continue
            if words[0] == "#" and len(words) > 1 and words[1] == "op":
                groups = words[2:]
                continue
            if words[0].startswith("#"):
                continue
            if groups is None:
                die(f"spec:{n}: row before the '# op <groups>' header")
            op, cells = words[0], words[1:]
            if len(cells) != len(groups):
                die(f"spec:{n}: {len(cells)} verdicts for {len(groups)} groups")
            row, departure = {}, False
            for g, v in zip(groups, cells):
                if v.rstrip("*") not in list(VERDICTS) or len(v) > 2:
                    die(f"spec:{n}: bad verdict '{v}' (A, R or S, '*' marks a departure)")
                row[g] = (v[0], v.endswith("*"))
                departure |= v.endswith("*")
            if departure and not reason.strip():
                die(f"spec:{n}: {op} has a departure ('*') but no '| reason'")
            if op in spec:
                die(f"spec:{n}: {op} twice")
            spec[op] = row
            reasons[op] = reason.strip()
    return groups, spec, reasons


def vmlinux_ops(path):
    """{member: number of arguments} of struct sched_ext_ops in vmlinux.h"""
    with open(path) as f:
        text = f.read()
    m = re.search(r"^struct sched_ext_ops \{\n(.*?)^\};", text, re.M | re.S)
    if not m:
        die(f"{path}: no struct sched_ext_ops")
    members = {}
    for fm in re.finditer(r"\(\*(\w+)\)\((.*?)\);", m.group(1)):
        args = fm.group(2).strip()
        members[fm.group(1)] = 0 if args in ("", "void") else args.count(",") + 1
    return members


def tree_kfuncs(tree):
    """{kfunc: {"sets": set of set names, "sleepable": bool}} from ext.c"""
    path = os.path.join(tree, "kernel/sched/ext.c")
    with open(path) as f:
        text = f.read()
    kf = {}
    for m in re.finditer(r"BTF_KFUNCS_START\(scx_kfunc_ids_(\w+)\)(.*?)BTF_KFUNCS_END",
                         text, re.S):
        for fm in re.finditer(r"BTF_ID_FLAGS\(func,\s*(\w+)(.*?)\)", m.group(2)):
            e = kf.setdefault(fm.group(1), {"sets": set(), "sleepable": False})
            e["sets"].add(m.group(1))
            e["sleepable"] |= "KF_SLEEPABLE" in fm.group(2)
    if not kf:
        die(f"{path}: no scx_kfunc_ids_* sets")
    return kf


def check(ops, kfuncs, groups, spec, members, tree):
    names = [o["op"] for o in ops]
    if set(names) != set(members):
        die("ops.list and struct sched_ext_ops differ: "
            f"missing {sorted(set(members) - set(names))}, "
            f"unknown {sorted(set(names) - set(members))}")
    for o in ops:
        nargs = 0 if o["args"] == "void" else o["args"].count(",") + 1
        if nargs != members[o["op"]]:
            die(f"ops.list: {o['op']} has {nargs} arguments, the kernel {members[o['op']]}")
    if set(names) != set(spec):
        die(f"spec and ops.list differ: {sorted(set(names) ^ set(spec))}")
    kgroups = {k["group"] for k in kfuncs}
    if kgroups != set(groups):
        die(f"kfunc groups {sorted(kgroups)} != spec columns {sorted(groups)}")

    listed = {k["name"] for k in kfuncs}
    if len(listed) != len(kfuncs):
        die("kfuncs.list names a kfunc twice")
    if set(tree) != listed:
        die("kfuncs.list and the kernel's scx_kfunc_ids_* sets differ: "
            f"missing {sorted(set(tree) - listed)}, unknown {sorted(listed - set(tree))}")
    for k in kfuncs:
        sets = tree[k["name"]]["sets"]
        groups_in_tree = {SET_GROUP.get(s, s) for s in sets}
        # 6.12 keeps the dsq_move kfuncs in both the dispatch and unlocked sets
        if k["group"] not in groups_in_tree and not (
                k["group"] == "dsq_move" and sets == {"dispatch", "unlocked"}):
            die(f"kfuncs.list: {k['name']} is '{k['group']}' but the kernel has it in {sorted(sets)}")
        k["sleepable"] = tree[k["name"]]["sleepable"]

    # S only where a sleepable kfunc meets an op that cannot sleep
    sleepy = {o["op"]: o["sleepable"] for o in ops}
    for k in kfuncs:
        for op, row in spec.items():
            v = row[k["group"]][0]
            if v == "S" and (not k["sleepable"] or sleepy[op]):
                die(f"spec: {op} x {k['group']} is S but {k['name']} "
                    f"{'is not sleepable' if not k['sleepable'] else 'runs in a sleepable program'}")
            if v == "A" and k["sleepable"] and not sleepy[op]:
                die(f"spec: {op} x {k['group']} is A but {op} cannot sleep: "
                    f"{k['name']} would be refused as non-sleepable (S)")


def check_cases(path, ops, kfuncs, spec):
    by_name = {k["name"]: k for k in kfuncs}
    sleepy = {o["op"]: o["sleepable"] for o in ops}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.split("|")]
            if len(cols) != 6:
                die(f"{path}:{n}: want 'name | op | kfunc | twin op | twin name | baseline'")
            name, op, kfunc, twin_op, _, baseline = cols
            k = by_name.get(kfunc)
            if not k or op not in spec or twin_op not in spec:
                die(f"{path}:{n}: unknown op or kfunc")
            v, dep = spec[op][k["group"]]
            if v != "R":
                die(f"{path}:{n}: {name}: the spec says {v} for {kfunc} in {op}, not R")
            if spec[twin_op][k["group"]][0] != "A":
                die(f"{path}:{n}: {name}: the spec does not allow {kfunc} in the twin op {twin_op}")
            want = ("allowed" if dep else
                    "sleep" if k["sleepable"] and not sleepy[op] else "runtime")
            # "unreached": the call 6.12 would eject at run time is never
            # made there (behind a flag), so 6.12 only loads it
            if baseline != want and not (baseline == "unreached" and want == "runtime"):
                die(f"{path}:{n}: {name}: baseline is '{baseline}', the spec implies '{want}'")


def emit(ops, kfuncs, spec, out):
    os.makedirs(out, exist_ok=True)
    cells = []
    for o in ops:
        op, sec = o["op"], "struct_ops.s" if o["sleepable"] else "struct_ops"
        args = "" if o["args"] == "void" else ", " + o["args"]
        src = [
            "// SPDX-License-Identifier: GPL-2.0",
            f"/* Generated by selftests/matrix/gen.py: sched_ext_ops.{op} x every",
            " * sched_ext kfunc.  Do not edit; edit the lists instead. */",
            '#include "matrix.bpf.h"',
            "",
            'char _license[] SEC("license") = "GPL";',
        ]
        for i, k in enumerate(kfuncs):
            prog = f"k{i:02d}"
            v, dep = spec[op][k["group"]]
            src += [
                "",
                f"/* {k['name']} [{k['group']}]: expect {v}{'*' if dep else ''} */",
                f'SEC("{sec}/{op}")',
                f"int BPF_PROG({prog}{args})",
                "{",
                f"\t{{ {k['call']}; }}",
                "\treturn 0;",
                "}",
                "",
                'SEC(".struct_ops.link")',
                f"struct sched_ext_ops {prog}_ops = {{",
                f"\t.{op} = (void *){prog},",
                f'\t.name = "mx_{op}_{i:02d}",',
                "};",
            ]
            cells.append("\t".join([op, k["name"], k["group"], v, "1" if dep else "0",
                                    f"mx_{op}.bpf.o", prog, f"{prog}_ops"]))
        with open(os.path.join(out, f"mx_{op}.bpf.c"), "w") as f:
            f.write("\n".join(src) + "\n")
    with open(os.path.join(out, "cells.tsv"), "w") as f:
        f.write("# op\tkfunc\tgroup\texpected\tdeparture\tobject\tprogram\tmap\n")
        f.write("\n".join(cells) + "\n")
    return len(cells)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", required=True, help="kernel source tree")
    ap.add_argument("--vmlinux-h", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cases", help="cases.list to check against the spec")
    a = ap.parse_args()

    ops, kfuncs = read_ops(), read_kfuncs()
    groups, spec, _ = read_spec()
    check(ops, kfuncs, groups, spec, vmlinux_ops(a.vmlinux_h), tree_kfuncs(a.tree))
    if a.cases:
        check_cases(a.cases, ops, kfuncs, spec)
    n = emit(ops, kfuncs, spec, a.out)
    print(f"gen.py: {len(ops)} ops x {len(kfuncs)} kfuncs = {n} cells -> {a.out}")


if __name__ == "__main__":
    main()
