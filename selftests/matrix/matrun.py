# SPDX-License-Identifier: GPL-2.0
"""The kfunc matrix's run phase, generator side (gen.py imports it).

Every cell that loads on the patched kernel (spec A, At, Ar) is also run,
on both kernels: gen.py writes, next to the cell's load-phase map
kNN_ops (its op alone, as before), a map kNN_run with the same program and
the helper ops of matrun.bpf.h (ops.init creates the DSQs, ops.enqueue and
ops.dispatch place the tasks, ops.exit records how the scheduler ended),
SCX_OPS_SWITCH_PARTIAL so that only the loader's tasks are scheduled by it.
The cell's program counts its call (kNN_hits, MX_HIT in kfuncs.list).
runs.tsv tells the guest (scxk matrix-run) what each cell must show:

  call       the counter moved; the scheduler was detached by the loader,
             never ejected (or, in the dump rows, ejected by the trigger)
  exit       the counter moved, and ops.exit saw SCX_EXIT_UNREG_BPF with
             the call's message
  error      the counter moved, and the kernel ejected the scheduler with
             the call's message
  eject      the call is refused at run time on that kernel (the reason
             says by what): the counter moved and the kernel ejected the
             scheduler with that message; counted apart, never as passed
  skip       cannot run here (the reason says why); counted apart
"""

import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
TRIGGERS = ("attach", "detach", "load", "rt", "cgroup", "cancel", "dump", "-")
# the scheduler is already exiting when these run: a run-time refusal there
# is a second error, which the kernel drops (scx_ops_error_kind() keeps the
# first), and scx_bpf_exit()/scx_bpf_error() do nothing
EXITING = {"exit", "dump", "dump_cpu", "dump_task"}
DUMP_MSG = "scx_bpf_dump() must only be called from ops.dump() and friends"
KF_TASKS_MSG = "called on a task not being operated on"
KF_MASK_MSG = "kfunc with mask"


def read_run(ops):
    """run.list -> {op: (trigger, reason)}; every op of ops.list once"""
    out = {}
    with open(os.path.join(HERE, "run.list")) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = [c.strip() for c in line.rstrip("\n").split("|")]
            if len(cols) != 3 or cols[1] not in TRIGGERS or (cols[1] == "-") != bool(cols[2]):
                raise SystemExit(f"gen.py: run.list:{n}: want 'op | trigger | reason', "
                                 f"a reason exactly when the trigger is '-'")
            if cols[0] in out:
                raise SystemExit(f"gen.py: run.list:{n}: {cols[0]} twice")
            out[cols[0]] = (cols[1], cols[2])
    names = [o["op"] for o in ops]
    if set(out) != set(names):
        raise SystemExit(f"gen.py: run.list and ops.list differ: {sorted(set(out) ^ set(names))}")
    return out


def own_task(op):
    """the op's own task argument, or None: ops.dispatch's @prev may be NULL
    (6.12 does not mark it nullable, so the verifier would let a kfunc
    take it)"""
    if op["op"] == "dispatch":
        return None
    m = re.search(r"struct task_struct \*(\w+)", op["args"])
    return m.group(1) if m else None


def kind(op, k, verdict, trigger, reason, patched):
    """what the run of cell (@op, @k) must show on a kernel whose load
    verdict and run-time check give @verdict (A, At, Ar); 6.12 refuses a
    kf_tasks kfunc in an unlocked op by its kf_mask first, the patched
    kernel has only the kf_tasks check left (scx_kf_arg_task_ok())"""
    name, o = k["name"], op["op"]
    if trigger == "-":
        return "skip", reason
    if k["group"] == "dsq_move" and o in ("init", "exit"):
        return "skip", (f"{name} moves a task it finds on a DSQ, and no task is queued on one "
                        f"when ops.{o} runs ({'before any task joins sched_ext' if o == 'init' else 'after every task left it'})")
    refusal = None
    if verdict == "Ar":
        refusal = KF_MASK_MSG if op["unlocked612"] and not patched else KF_TASKS_MSG
    elif name == "scx_bpf_dump_bstr" and o not in ("dump", "dump_cpu", "dump_task"):
        refusal = DUMP_MSG
    if refusal:
        if o in EXITING:
            return "skip", (f"refused at run time (\"{refusal}\"), but ops.{o} runs once the "
                            "scheduler is exiting, where the kernel drops a second error")
        return "eject", refusal
    if o in EXITING:
        return "call", ""
    if name == "scx_bpf_exit_bstr":
        return "exit", "matrix 1"
    if name == "scx_bpf_error_bstr":
        return "error", "matrix 1"
    return "call", ""


def call_text(op, k, i):
    """the cell's call with its arguments for @op and its counter"""
    call = k["call"]
    own = own_task(op)
    if own:
        call = call.replace("WITH_TASK(", f"WITH_OWN({own}, ")
    if "MX_HIT" not in call:
        call += "; MX_HIT"
    return call


def around(op, k, positive):
    """code before and after a positive cell's call that its run needs: the
    DSQs in ops.init, a dispatch for scx_bpf_dispatch_cancel() to cancel,
    the task placed by ops.enqueue and ops.dispatch (a task left unplaced
    stalls: the watchdog would eject the scheduler).  Only allowed calls
    are added, and only to positive cells: a refusal still names the
    cell's kfunc, the first call the verifier meets that it refuses."""
    o, name = op["op"], k["name"]
    pre, post = [], []
    if not positive:
        return pre, post
    if o == "init":
        pre.append("mx_dsqs();")
    if o == "dispatch":
        if name == "scx_bpf_dispatch_cancel":
            pre.append("WITH_TASK(t, scx_bpf_dispatch(t, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, 0));")
        post.append("mx_consume();")
    if o == "enqueue" and name not in ("scx_bpf_dispatch", "scx_bpf_dispatch_vtime"):
        post.append("scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);")
    return pre, post


def helpers(op, trigger):
    """{member: helper program} of the row's kNN_run maps"""
    o = op["op"]
    h = {"init": "mx_init", "exit": "mx_exit",
         "enqueue": "mx_enqueue_q" if o == "dequeue" else "mx_enqueue",
         "dispatch": "mx_dispatch_q" if o == "dequeue" else "mx_dispatch"}
    if trigger == "dump":
        h["set_weight"] = "mx_set_weight_err"
    if trigger == "cancel":
        h["cgroup_prep_move"] = "mx_prep_move_refuse"
    return {m: p for m, p in h.items() if m != o}


def run_map(op, prog, i, trigger):
    """the kNN_run map: the cell's op and the helpers for the others"""
    o = op["op"]
    lines = ['SEC(".struct_ops.link")', f"struct sched_ext_ops {prog}_run = {{",
             f"\t.{o} = (void *){prog},"]
    for member, helper in helpers(op, trigger).items():
        lines.append(f"\t.{member} = (void *){helper},")
    lines += ["\t.flags = SCX_OPS_SWITCH_PARTIAL | SCX_OPS_KEEP_BUILTIN_IDLE,",
              f'\t.name = "mr_{o}_{i:02d}",', "};"]
    return lines


def tsv_line(op, k, i, trigger, kp, kb):
    """runs.tsv: op kfunc map counter trigger kind-patched msg kind-baseline msg"""
    prog = f"k{i:02d}"
    return "\t".join([op["op"], k["name"], f"{prog}_run", f"{prog}_hits", trigger,
                      kp[0], kp[1] or "-", kb[0], kb[1] or "-"])
