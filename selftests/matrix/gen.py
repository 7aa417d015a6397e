#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the sched_ext op x kfunc load matrix.

Reads ops.list, kfuncs.list and spec (next to this file) and checks them
against 6.12's source (--ref: the unpatched kernel/sched/ext.c): each kfunc's
class against the run-time check in its body, each spec cell against the
verdict the class and the op's call site (the kf_mask SCX_CALL_OP*() sets,
whether it records the op's tasks) give, every difference marked as a
departure with its reason; ops.list's sleepable column against
bpf_scx_check_member().  With --tree and --vmlinux-h, also checks the lists
against the kernel built (struct sched_ext_ops in vmlinux.h, the
scx_kfunc_ids_* sets in <tree>/kernel/sched/ext.c) and, with --out, writes:

  mx_<op>.bpf.c  one file per op: for every kfunc, a program for that op
                 calling it and a .struct_ops.link map that uses the program
  cells.tsv      one line per cell, read by the guest loader (scxk matrix):
                 op kfunc class patched baseline departure object program map

With --cases, also checks cases/cases.list against the same spec: each
negative op must refuse its kfunc, each twin op allow it, and the baseline
behaviour must follow (sleep: a sleepable kfunc in an op that cannot sleep;
allowed: a departure cell; runtime: the rest).

Every problem found is printed, one line naming its cell, before it fails.

Usage: gen.py --ref EXT_C [--tree KERNEL_SRC --vmlinux-h VMLINUX_H --out OUTDIR] [--cases LIST]
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The scx_kfunc_ids_* sets a class's kfuncs may sit in: 6.12's, then the
# patched kernel's (dispatch_from_dsq is its own set; 6.12 put the four
# kfuncs in both the dispatch and the unlocked set).
CLASS_SETS = {
    "select_cpu": [{"select_cpu"}],
    "enq_dsp": [{"enqueue_dispatch"}],
    "dispatch": [{"dispatch"}],
    "dsq_move": [{"dispatch", "unlocked"}, {"dispatch_from_dsq"}],
    "dsq_move_setter": [{"dispatch", "unlocked"}, {"dispatch_from_dsq"}],
    "cpu_release": [{"cpu_release"}],
    "unlocked": [{"unlocked"}],
    "any": [{"any"}],
    "task_arg": [{"any"}],
}
# include/linux/sched/ext.h (6.12): __SCX_KF_RQ_LOCKED
RQ_LOCKED = {"CPU_RELEASE", "DISPATCH", "ENQUEUE", "SELECT_CPU", "REST"}
# spec verdicts, on the patched kernel: A loads; R refused (not allowed);
# S refused (not sleepable); At/Ar load, and a run-time kf_tasks check is
# left on both kernels: At passes on a task argument of the op, Ar refuses
TOKENS = ("A", "R", "S", "At", "Ar")

ERRORS = []


def die(msg):
    sys.exit(f"gen.py: {msg}")


def err(msg):
    """a problem naming its cell; all of them are printed before failing"""
    ERRORS.append(msg)


def fail_on_errors(what="gen.py"):
    if ERRORS:
        for e in ERRORS:
            print(f"{what}: {e}", file=sys.stderr)
        sys.exit(f"{what}: {len(ERRORS)} problem(s)")


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


def norm_check(words):
    """'allowed(DISPATCH|ENQUEUE) if_unlocked()' -> frozenset of the calls"""
    out = set()
    for w in words:
        m = re.fullmatch(r"(allowed|if_unlocked|on_arg_tasks)\(([\w|]*)\)", w)
        if not m:
            return None
        out.add(f"{m.group(1)}({'|'.join(sorted(m.group(2).split('|'))) if m.group(2) else ''})")
    return frozenset(out)


def read_classes():
    """the 'class NAME | check | rule' lines of kfuncs.list, in order"""
    classes = {}
    with open(os.path.join(HERE, "kfuncs.list")) as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("class "):
                continue
            # the masks hold '|' too: the columns are split on ' | '
            cols = [c.strip() for c in re.split(r"\s\|\s", line.rstrip("\n"), maxsplit=2)]
            name = cols[0].split()[1] if len(cols[0].split()) == 2 else None
            if len(cols) != 3 or name not in CLASS_SETS:
                die(f"kfuncs.list:{n}: want 'class <one of {', '.join(CLASS_SETS)}> | check | rule'")
            check = frozenset() if cols[1] == "-" else norm_check(cols[1].split())
            if check is None:
                die(f"kfuncs.list:{n}: bad check '{cols[1]}' (allowed(M|..), if_unlocked(), "
                    "on_arg_tasks(M) or -)")
            classes[name] = {"check": check, "text": cols[1], "rule": cols[2]}
    if list(classes) != list(CLASS_SETS):
        die(f"kfuncs.list: want the classes {', '.join(CLASS_SETS)}, in that order")
    return classes


def read_kfuncs():
    kfuncs = []
    for n, cols in rows("kfuncs.list"):
        if cols[0].startswith("class "):
            continue
        if len(cols) < 3:
            die(f"kfuncs.list:{n}: want 'kfunc | class | call'")
        name, cls, call = cols[0], cols[1], "|".join(cols[2:])
        if cls not in CLASS_SETS:
            die(f"kfuncs.list:{n}: {name}: unknown class '{cls}'")
        # the call must name its kfunc (scx_bpf_exit() wraps _exit_bstr)
        if re.sub(r"_bstr$", "", name) not in call:
            die(f"kfuncs.list:{n}: the call does not mention {name}")
        # "group": the spec column the kfunc's cells are in
        kfuncs.append({"name": name, "group": cls, "call": call})
    return kfuncs


def read_spec():
    """spec -> (classes in column order, {op: {class: (verdict letter,
    departure, token)}}, {op or class: reason})"""
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
            if words[0] == "why":
                # why <class> | reason: the departures of a whole column
                if len(words) != 2 or not reason.strip():
                    die(f"spec:{n}: want 'why <class> | reason'")
                reasons[words[1]] = reason.strip()
                continue
            if groups is None:
                die(f"spec:{n}: row before the '# op <classes>' header")
            op, cells = words[0], words[1:]
            if len(cells) != len(groups):
                die(f"spec:{n}: {len(cells)} verdicts for {len(groups)} classes")
            row = {}
            for g, v in zip(groups, cells):
                if v.rstrip("*") not in TOKENS or v.count("*") > 1:
                    die(f"spec:{n}: {op} x {g}: bad verdict '{v}' ({', '.join(TOKENS)};"
                        " '*' marks a departure)")
                row[g] = (v[0], v.endswith("*"), v.rstrip("*"))
            if op in spec:
                die(f"spec:{n}: {op} twice")
            spec[op] = row
            if reason.strip():
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


def text_kfuncs(text, what):
    """{kfunc: {"sets": set of set names, "sleepable": bool}} of an ext.c"""
    kf = {}
    for m in re.finditer(r"BTF_KFUNCS_START\(scx_kfunc_ids_(\w+)\)(.*?)BTF_KFUNCS_END",
                         text, re.S):
        for fm in re.finditer(r"BTF_ID_FLAGS\(func,\s*(\w+)(.*?)\)", m.group(2)):
            e = kf.setdefault(fm.group(1), {"sets": set(), "sleepable": False})
            e["sets"].add(m.group(1))
            e["sleepable"] |= "KF_SLEEPABLE" in fm.group(2)
    if not kf:
        die(f"{what}: no scx_kfunc_ids_* sets")
    return kf


def tree_kfuncs(tree):
    path = os.path.join(tree, "kernel/sched/ext.c")
    with open(path) as f:
        return text_kfuncs(f.read(), path)


def body_of(text, start):
    """the {...} block from the first '{' at or after @start"""
    i = text.index("{", start)
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j + 1]
    return text[i:]


CHECK_RE = re.compile(r"\bscx_kf_allowed(_if_unlocked|_on_arg_tasks)?\s*\(([^()]*)\)")


def checks_in(text, body, depth=1):
    """the scx_kf_allowed*() calls of @body and of the static functions it
    calls (one level: scx_dispatch_preamble(), scx_dispatch_from_dsq())"""
    out = set()
    for m in CHECK_RE.finditer(body):
        kind = {"": "allowed", "_if_unlocked": "if_unlocked",
                "_on_arg_tasks": "on_arg_tasks"}[m.group(1) or ""]
        arg = m.group(2).split(",")[0].strip()
        mask = "|".join(sorted(p.strip().replace("SCX_KF_", "") for p in arg.split("|"))) \
            if arg else ""
        out.add(f"{kind}({mask})")
    if depth:
        for name in set(re.findall(r"\b(\w+)\s*\(", body)):
            if name.startswith("scx_kf_allowed"):
                continue
            d = re.search(r"^static\b[^;{(]*\b" + name + r"\s*\([^;{]*\)\s*\{", text, re.M)
            if d:
                out |= checks_in(text, body_of(text, d.start()), depth - 1)
    return frozenset(out)


def read_ref(path):
    """6.12's rules from its kernel/sched/ext.c: the kfunc sets, each
    kfunc's run-time check, each op's kf_mask and whether its call site
    records the op's tasks, the ops that may be sleepable"""
    with open(path) as f:
        text = f.read()
    # the patched kernel has no scx_kf_allowed() in its kfuncs: not a 6.12 tree
    if "scx_kfunc_ids_dispatch_from_dsq" in text or "scx_kf_allowed(SCX_KF_DISPATCH)" not in text:
        die(f"--ref {path}: not 6.12's unpatched kernel/sched/ext.c")
    kf = text_kfuncs(text, path)
    for name, e in kf.items():
        m = re.search(r"__bpf_kfunc\b[^;{]*?\b" + name + r"\s*\(", text)
        if not m:
            die(f"--ref {path}: no __bpf_kfunc {name}()")
        e["check"] = checks_in(text, body_of(text, m.end()))
    ops = {}
    for m in re.finditer(r"\bSCX_CALL_OP(_TASK|_2TASKS)?(?:_RET)?\(\s*([A-Z_][A-Z_|\s]*?)\s*,\s*(\w+)",
                         text):
        mask = frozenset(p.strip().replace("SCX_KF_", "") for p in m.group(2).split("|")) - {"UNLOCKED"}
        site = (mask, bool(m.group(1)))
        if ops.setdefault(m.group(3), site) != site:
            die(f"--ref {path}: ops.{m.group(3)} is called with two masks: "
                f"{sorted(ops[m.group(3)][0])} and {sorted(mask)}")
    m = re.search(r"static int bpf_scx_check_member\(", text)
    sleepable = set(re.findall(r"offsetof\(struct sched_ext_ops, (\w+)\)",
                               body_of(text, m.end()))) if m else set()
    return {"kfuncs": kf, "ops": ops, "sleepable": sleepable}


def verdict612(cls, k, op, ref):
    """what 6.12 does with a program for @op calling kfunc @k: S (refused at
    load: not sleepable), A (loads, allowed at run time), Ar (loads, refused
    at run time), At (loads, allowed on the op's task arguments only)"""
    mask, tasks = ref["ops"][op["op"]]
    if k["sleepable"] and not op["sleepable"]:
        return "S"
    check = cls["check"]
    # allowed(M) and if_unlocked() are alternatives (scx_dispatch_from_dsq():
    # "!if_unlocked() && !allowed(DISPATCH)" refuses); on_arg_tasks(M) is
    # allowed(M) and then a task argument of the op
    alts = [c for c in check if not c.startswith("on_arg_tasks")]
    ok = not alts or any(
        (not mask) if c == "if_unlocked()" else bool(mask & set(c[8:-1].split("|")))
        for c in alts)
    for c in check:
        if c.startswith("on_arg_tasks"):
            m = c[13:-1]
            want = RQ_LOCKED if m == "__RQ_LOCKED" else set(m.split("|"))
            return "At" if ok and mask & want and tasks else "Ar"
    return "A" if ok else "Ar"


def patched_rule(v612, cls, op, ref):
    """the patched verdict when it keeps 6.12's rule: a run-time refusal by
    the kf_mask becomes a load-time R; the kf_tasks check stays at run time;
    a sleepable kfunc (the unlocked set) is refused by the filter in an
    rq-locked op, as not sleepable in an unlocked one"""
    keeps_tasks = any(c.startswith("on_arg_tasks") for c in cls["check"])
    if v612 == "Ar":
        return "Ar" if keeps_tasks else "R"
    if v612 == "S":
        return "R" if ref["ops"][op["op"]][0] else "S"
    return v612


def check(ops, kfuncs, classes, groups, spec, reasons, ref, members=None, tree=None):
    """everything that can be checked; records problems with err()"""
    names = [o["op"] for o in ops]
    if members is not None:
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
    if set(names) != set(ref["ops"]):
        die(f"ops.list and 6.12's SCX_CALL_OP*() call sites differ: {sorted(set(names) ^ set(ref['ops']))}")
    if groups != list(classes):
        die(f"spec columns {groups} != kfuncs.list classes {list(classes)}")
    for o in ops:
        if o["sleepable"] != (o["op"] in ref["sleepable"]):
            err(f"ops.list: {o['op']}: sleepable '{'yes' if o['sleepable'] else 'no'}', "
                "6.12's bpf_scx_check_member() says otherwise")

    listed = {k["name"] for k in kfuncs}
    if len(listed) != len(kfuncs):
        die("kfuncs.list names a kfunc twice")
    for what, kf in (("6.12 (--ref)", ref["kfuncs"]), ("the kernel (--tree)", tree)):
        if kf is None:
            continue
        if set(kf) != listed:
            die(f"kfuncs.list and {what}'s scx_kfunc_ids_* sets differ: "
                f"missing {sorted(set(kf) - listed)}, unknown {sorted(listed - set(kf))}")
        for k in kfuncs:
            sets = kf[k["name"]]["sets"]
            if sets not in CLASS_SETS[k["group"]]:
                err(f"kfuncs.list: {k['name']} is '{k['group']}' but {what} has it in the "
                    f"sets {sorted(sets)}")
    for k in kfuncs:
        r = ref["kfuncs"][k["name"]]
        k["sleepable"] = r["sleepable"] if tree is None else tree[k["name"]]["sleepable"]
        if k["sleepable"] != r["sleepable"]:
            err(f"kfuncs.list: {k['name']}: KF_SLEEPABLE differs from 6.12")
        want = classes[k["group"]]["check"]
        if r["check"] != want:
            got = " ".join(sorted(r["check"])) or "-"
            err(f"kfuncs.list: {k['name']} is '{k['group']}' ({classes[k['group']]['text']}) but "
                f"6.12's body checks {got}")
        if k["group"] == "unlocked" and not r["sleepable"]:
            err(f"kfuncs.list: {k['name']} is 'unlocked' but not KF_SLEEPABLE in 6.12")

    # every cell: the class's kfuncs must agree on it, and the spec must say
    # 6.12's rule (patched_rule()) or mark a departure with its reason
    by_op = {o["op"]: o for o in ops}
    for op, row in spec.items():
        o = by_op[op]
        for g in groups:
            letter, dep, token = row[g]
            for k in (k for k in kfuncs if k["group"] == g):
                v612 = verdict612(classes[g], k, o, ref)
                keep = patched_rule(v612, classes[g], o, ref)
                cell = f"spec: {op} x {g} ({k['name']})"
                if not dep and token != keep:
                    err(f"{cell}: says {token}, 6.12's rule gives {keep} (6.12: {v612}); "
                        "a departure must be marked '*' with its reason")
                elif dep and token == keep:
                    err(f"{cell}: marked as a departure ({token}*), but 6.12's rule gives "
                        f"{token} too")
                elif dep and op not in reasons and g not in reasons:
                    err(f"{cell}: departure {token}* without a reason ('| reason' on the row "
                        f"or 'why {g} | reason')")
                if token == "S" and (not k["sleepable"] or o["sleepable"]):
                    err(f"{cell}: S, but {k['name']} "
                        f"{'is not sleepable' if not k['sleepable'] else 'runs in a sleepable program'}")
                if token != "R" and token != "S" and k["sleepable"] and not o["sleepable"]:
                    err(f"{cell}: {token}, but {op} cannot sleep: {k['name']} would be refused "
                        "as non-sleepable (S)")
    for r in reasons:
        if r not in spec and r not in groups:
            err(f"spec: 'why {r}': no such class")
        elif r in groups and not any(spec[op][r][1] for op in spec):
            err(f"spec: 'why {r}': no departure in that column")
        elif r in spec and not any(v[1] for v in spec[r].values()):
            err(f"spec: {r}: a reason but no departure on the row")


def baseline(k, op):
    """the verdict of loading the cell on 6.12: nothing but KF_SLEEPABLE is
    checked at load time"""
    return "S" if k["sleepable"] and not op["sleepable"] else "A"


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
            name, op, kfunc, twin_op, _, baseline_ = cols
            k = by_name.get(kfunc)
            if not k or op not in spec or twin_op not in spec:
                die(f"{path}:{n}: unknown op or kfunc")
            v, dep, _ = spec[op][k["group"]]
            if v != "R":
                err(f"{path}:{n}: {name}: the spec says {v} for {kfunc} in {op}, not R")
            if spec[twin_op][k["group"]][2] != "A":
                err(f"{path}:{n}: {name}: the spec does not allow {kfunc} in the twin op {twin_op}")
            want = ("allowed" if dep else
                    "sleep" if k["sleepable"] and not sleepy[op] else "runtime")
            # "unreached": the call 6.12 would eject at run time is never
            # made there (behind a flag), so 6.12 only loads it
            if baseline_ != want and not (baseline_ == "unreached" and want == "runtime"):
                err(f"{path}:{n}: {name}: baseline is '{baseline_}', the spec implies '{want}'")


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
            _, dep, token = spec[op][k["group"]]
            b = baseline(k, o)
            src += [
                "",
                f"/* {k['name']} [{k['group']}]: expect {token}{'*' if dep else ''} (6.12: {b}) */",
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
            cells.append("\t".join([op, k["name"], k["group"], token, b, "1" if dep else "0",
                                    f"mx_{op}.bpf.o", prog, f"{prog}_ops"]))
        with open(os.path.join(out, f"mx_{op}.bpf.c"), "w") as f:
            f.write("\n".join(src) + "\n")
    with open(os.path.join(out, "cells.tsv"), "w") as f:
        f.write("# op\tkfunc\tclass\tpatched\tbaseline\tdeparture\tobject\tprogram\tmap\n")
        f.write("\n".join(cells) + "\n")
    return len(cells)


def load(a):
    """read and check everything the arguments give; -> (ops, kfuncs, spec)"""
    ops, classes, kfuncs = read_ops(), read_classes(), read_kfuncs()
    groups, spec, reasons = read_spec()
    ref = read_ref(a.ref)
    members = vmlinux_ops(a.vmlinux_h) if a.vmlinux_h else None
    tree = tree_kfuncs(a.tree) if a.tree else None
    check(ops, kfuncs, classes, groups, spec, reasons, ref, members, tree)
    return ops, kfuncs, groups, spec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", required=True, help="6.12's kernel/sched/ext.c (ref-ext.sh)")
    ap.add_argument("--tree", help="kernel source tree")
    ap.add_argument("--vmlinux-h")
    ap.add_argument("--out", help="where to write the programs (needs --tree, --vmlinux-h)")
    ap.add_argument("--cases", help="cases.list to check against the spec")
    a = ap.parse_args()
    if a.out and not (a.tree and a.vmlinux_h):
        die("--out needs --tree and --vmlinux-h")

    ops, kfuncs, _, spec = load(a)
    if a.cases:
        check_cases(a.cases, ops, kfuncs, spec)
    fail_on_errors()
    if not a.out:
        print(f"gen.py: {len(ops)} ops x {len(kfuncs)} kfuncs: lists and spec agree with 6.12 ({a.ref})")
        return
    n = emit(ops, kfuncs, spec, a.out)
    print(f"gen.py: {len(ops)} ops x {len(kfuncs)} kfuncs = {n} cells -> {a.out}")


if __name__ == "__main__":
    main()
