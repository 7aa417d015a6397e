# scx-kfilter: build a kernel variant, its guest payload and initramfs, boot
# it in QEMU and report KTAP results. Each stage is one script; this file
# only wires them together and holds the variant data.
#
# Targets:
#   make main | make all   the main job (also plain `make`): the core and
#                          the baseline kernel (cached), each booted once:
#                          in-tree sched_ext selftests and the negative
#                          loads, side by side, the latest bench
#   make check             the full suite CI runs: the KERNELS
#                          variants + payloads + boot + KTAP reports
#                          (+ schedulers under load, harness tests),
#                          summed in the last line
#   make check-one [V=name]  one kernel variant's build, boot and report
#   make check-harness     the harness's own tests (also run by check)
#   make list-tests        the test names T= matches, from the last full runs
#   make check-series [BOOT=1]   per patch: git am, checkpatch --strict,
#                          Signed-off-by, kernel-doc, build clang+gcc, W=1
#   make deps              install the missing host packages (the main
#                          job installs too; other targets name them)
#   make kernel [V=name] [DEBUG=1] [BENCH=1]   build one kernel
#   make build-nocgroup    baseline, core and full built without
#                          CONFIG_CGROUP_SCHED: no new compiler warning
#   make payload | make initramfs   the stages up to the guest image
#   make run CMD='...'     boot a kernel, run one guest command; fails
#                          (make's status 2, "Error N") if it exits N != 0
#   make shell             interactive guest shell
#   make repro-cgroup-move the 6.12 ops.cgroup_move() deadlock: baseline hangs,
#                          the series refuses the scheduler at load
#   make repro-sleepable-timer DEBUG=1   6.12's sleepable bpf_timer callback:
#                          the baseline debug kernel reports GFP_KERNEL in
#                          softirq, the series refuses the scheduler at load
#   make bench             baseline vs patched kernel benchmark (bench/run.sh)
#   make bench-compare A=dir B=dir   two stored bench results side by side
#   make insn-profile      instructions per pipe round trip, per kernel
#                          function, baseline vs patched (bench/insn-profile.sh)
#   make insn-scaling      the same at 1/2/4 vCPUs and 20/40/80 tasks: the
#                          saving per op-path call (bench/scaling.sh)
#   make veristat          verifier cost per program (veristat), baseline vs
#                          patched, side by side (bench/veristat.sh)
#   make clean-cache       drop every cached tree, build and ccache
#   make help              this text
#
# Variables, set on the command line:
#   V                        the kernel variant of one-kernel targets: core
#                            (default), full, baseline, limit (the variant
#                            table below)
#   BASELINE DEBUG BENCH VERBOSE BOOT   yes/no: 1/0, y/n, yes/no, true/false
#                            (BASELINE=1: V=baseline; BOOT: check-series
#                            also boots each kernel patch and runs its
#                            in-tree sched_ext selftests)
#   KERNELS                  check/repro variants (core full baseline)
#   CMD                      make run's guest command
#   BZIMAGE                  run/shell/check-one: boot this kernel (built
#                            elsewhere) with V's initramfs, build no kernel
#   T                        only the tests it selects: globs over suite:test
#                            names, comma-separated (make list-tests)
#   A B                      make bench-compare's results directories
#   SCHED_LOAD               quick|full|off real schedulers under load
#   HARNESS                  quick|full: the harness tests without (the
#                            default) or with their kernel boots
#   SERIES KERNEL_TARBALL CACHE_DIR   inputs and where builds are cached
#   KSRC                     your own Linux 6.12.y tree (git or plain)
#                            instead of KERNEL_TARBALL; copied, never changed
#   QEMU_TIMEOUT QEMU_ARGS GUEST_APPEND   guest run knobs
#   KEEP_RUNS LOG_DIR RUN_ID HEARTBEAT_S   runs kept, log links, run id
#   REPS MSG_REPS PIPE_LOOPS MSG_ARGS MSG_ROUNDS PERF_MSG LOAD_ITERS SCHEDS
#   WORKLOADS BENCH_LOAD BENCH_JOBS BENCH_TIMEOUT RESULTS_DIR   make bench
#                            (environment)
# See README.md.

SHELL := /bin/bash

CACHE_DIR ?= $(HOME)/.cache/scx-kfilter
KERNEL_TARBALL ?= /usr/src/linux-source-6.12.tar.xz
export CACHE_DIR KERNEL_TARBALL

# --- Variant data: which patches, which fragments. One rule builds them all.
yes = $(filter 1 y yes true,$(1))
# A yes/no knob set to anything else (DEBUG=on, BASELINE="yes please") would
# silently mean "no": refuse it.
bools := BASELINE DEBUG BENCH VERBOSE BOOT
$(foreach v,$(bools),$(if $(filter-out 0 1 y n yes no true false,$(strip $($(v)))),\
	$(error $(v)='$($(v))': want 1 or 0 (also y/n, yes/no, true/false))))
# T=PATTERN: only the tests whose "suite:test" name it selects, as kunit.py's
# --filter_glob: comma-separated shell globs, one without ":" naming suites
# (initramfs/t-glob.sh, the one matcher: guest and host). It goes on the
# kernel command line and into sh case patterns: t_glob_check refuses any
# other character, with one line.
T ?=
$(if $(T),$(if $(shell sh -c '. initramfs/t-glob.sh && t_glob_check "$$1" 2>/dev/null || echo bad' sh '$(subst ','"'"',$(T))'),\
	$(error $(shell sh -c '. initramfs/t-glob.sh && t_glob_check "$$1" 2>&1' sh '$(subst ','"'"',$(T))'))))
# --- Kernel variants are data, one line each: name, kind, series files
# (joined by '+', applied in order; none: 6.12.118 as shipped) and what the
# verifier's refusals name after "is not allowed" (plain: nothing; named:
# the op and callback; the guest tests read it). Kind is what the project's
# tests expect of the kernel: patched (carries the core) or baseline.
#   name     kind      series                                       refusals
VARIANT_TABLE := \
	core:patched:series/core/series:plain \
	full:patched:series/core/series+series/followup/series:named \
	baseline:baseline:none:- \
	limit:patched:series/core/series+bench/limit/series:plain
VARIANTS := $(foreach l,$(VARIANT_TABLE),$(firstword $(subst :, ,$(l))))
vfield = $(word $(2),$(subst :, ,$(filter $(1):%,$(VARIANT_TABLE))))
# V=name selects the variant; BASELINE=1 is V=baseline.
V ?= $(if $(call yes,$(BASELINE)),baseline,core)
$(if $(filter $(V),$(VARIANTS)),,$(error V=$(V): unknown variant (one of: $(VARIANTS))))
KIND := $(call vfield,$(V),2)
REFUSAL := $(filter-out -,$(call vfield,$(V),4))
# SERIES overrides the variant's series files (e.g. to try a series elsewhere).
SERIES ?= $(subst +, ,$(call vfield,$(V),3))
$(foreach f,$(filter-out none,$(SERIES)),$(if $(wildcard $(f)),,$(error SERIES=$(f): no such series file \
	(a quilt-style list of patches, e.g. series/core/series))))
# One series file for the build: the variant's, or their patches joined in
# the cache (scripts/variant-series.sh).
SERIES_FILE := $(if $(word 2,$(SERIES)),$(shell scripts/variant-series.sh $(V) $(SERIES)),$(SERIES))
FRAGMENTS := kconfig-fragments/base.config \
	$(if $(call yes,$(DEBUG)),$(wildcard kconfig-fragments/debug.config)) \
	$(if $(call yes,$(BENCH)),$(wildcard kconfig-fragments/bench.config))
# The one place a variant's name and run directory are spelled: NAME
# DEBUG BENCH -> NAME[-debug][-bench] and runs/<that>-<run id> (check-one
# writes there; check and main read what it wrote from there).
variant_name = $(1)$(if $(call yes,$(2)),-debug)$(if $(call yes,$(3)),-bench)
run_dir = $(CACHE_DIR)/runs/$(call variant_name,$(1),$(2),$(3))-$(RUN_ID)
VARIANT := $(call variant_name,$(V),$(DEBUG),$(BENCH))

# --- Where things land (all in the cache, outside the checkout).
TREE := $(CACHE_DIR)/build/$(VARIANT)
# BZIMAGE=/path/to/bzImage: boot a kernel built elsewhere with V's
# initramfs (run, shell, check-one); no kernel is built for it, the payload
# comes from V's cached tree (scripts/check-prebuilt.sh).
OWN_BZIMAGE := $(if $(filter command line environment,$(origin BZIMAGE)),$(strip $(BZIMAGE)))
BZIMAGE_GOALS := run shell check-one initramfs payload print-run-dir
$(if $(OWN_BZIMAGE),$(if $(filter-out $(BZIMAGE_GOALS),$(or $(MAKECMDGOALS),main)),\
	$(error BZIMAGE=$(OWN_BZIMAGE): a kernel of your own boots in one-kernel targets only ($(BZIMAGE_GOALS)), not $(filter-out $(BZIMAGE_GOALS),$(or $(MAKECMDGOALS),main)))))
BZIMAGE := $(or $(OWN_BZIMAGE),$(TREE)/arch/x86/boot/bzImage)
PAYLOAD := $(shell scripts/payload-dir.sh $(TREE))
# The cache is shared by everyone on the machine: what one run boots and
# logs (initramfs, console log) is private to that run, in its own dir.
# Exported so the sub-makes of one `make check` agree on it.
RUN_ID ?= $(shell date +%Y%m%d-%H%M%S)-$(shell echo $$PPID)
export RUN_ID
RUN_DIR := $(call run_dir,$(V),$(DEBUG),$(BENCH))
INITRD := $(RUN_DIR)/initramfs.cpio
CHECK_LOG := $(RUN_DIR)/console.log
# <variant>-check.log / -shell.log here link to the latest run's log.
LOG_DIR ?= $(CACHE_DIR)/logs
KEEP_RUNS ?= 10

# --- Guest run knobs. The debug kernel (KASAN, lockdep) runs the suite
# about 11 times slower under TCG (measured: the in-tree selftests 607 s
# vs 56 s on the shared 2 cores).
# selftests/sched-load in the check payload: quick (default), full (longer
# runs and more scheduler options, about 15-20 more minutes per kernel) or
# off (reported as a skip).
SCHED_LOAD ?= quick
sched_load_full := $(filter full,$(SCHED_LOAD))
QEMU_TIMEOUT ?= $(if $(call yes,$(DEBUG)),$(if $(sched_load_full),21600,10800),$(if $(sched_load_full),3600,1200))
# Extra run-qemu.sh options (e.g. --accel tcg --smp 4) and kernel cmdline
# (e.g. scx.scx_reps=3).
QEMU_ARGS ?=
GUEST_APPEND ?=
# The debug kernel boots with 4-level paging: with QEMU's LA57 (-cpu max),
# an interrupt landing while identify_cpu() refills the boot CPU's feature
# bits makes KASAN see a per-CPU address as wild (a false "BUG: KASAN:
# wild-memory-access in rcu_is_watching" at boot, 2 of 8 boots).
KERNEL_APPEND := $(if $(call yes,$(DEBUG)),no5lvl)

.PHONY: all main check check-one deps kernel payload initramfs run shell clean-cache help check-series

all: main

# The main job: what the series changes, shown on both kernels in minutes.
# Each kernel boots once and runs the in-tree sched_ext selftests and the
# project's negative loads and their twins (the "cases" family); then the
# two side by side, the latest stored benchmark table, and the summary.
# No real schedulers under load, no harness tests, no matrices: `make
# check` (what CI runs) has all of them.
MAIN_KERNELS := core baseline
# Its tests (T= sugar; a T= of your own replaces it): the small suites,
# the in-tree selftests and the project's negative loads and their twins.
MAIN_T := sched-ext-state,hang-detector,scx-selftest,scx-simple,neg,baseline-diff,pos
main:
	@set -o pipefail; rc=0; start=$$(date +%s); sums=$$(mktemp); trap 'rm -f $$sums' EXIT; \
	scripts/install-deps.sh; \
	echo "==> main job: the core and the baseline kernel, each booted once (in-tree sched_ext selftests, negative loads)" >&2; \
	for k in $(MAIN_KERNELS); do \
		set -- $$($(MAKE) --no-print-directory -s kernel-status V=$$k DEBUG= BENCH=); \
		if [ "$$1" = cached ]; then echo "==> $$k kernel: cached ($$2)" >&2; \
		else echo "==> $$k kernel: not cached, building it first: $$( [ "$${3:-0}" -gt 0 ] && echo "its last build took $$3 s" || echo "about 10 min cold on 2 cores"), then about 4 min of payload build and guest run" >&2; fi; \
	done; \
	logs=; \
	for k in $(MAIN_KERNELS); do \
		echo "==> main: $$k kernel ($$(( $$(date +%s) - start )) s so far)" >&2; \
		$(MAKE) --no-print-directory check-one V=$$k BASELINE= DEBUG= BENCH= SCHED_LOAD=off \
			T='$(or $(T),$(MAIN_T))' \
			| tee -a $$sums || rc=1; \
		l=$(call run_dir,$$k,,)/console.log; [ ! -f $$l ] || logs="$$logs $$l"; \
	done; \
	set -- $$logs; \
	if [ $$# -eq 2 ]; then echo; scripts/side-by-side.sh --save $$1 $$2 || true; fi; \
	b=$$(grep -l '^| pipe / ' bench/results/*/results.md 2>/dev/null | xargs -r grep -H '^Taken ' | sed 's/:Taken / /' | sort -k2,3 | tail -n 1 | cut -d' ' -f1); \
	if [ -n "$$b" ]; then \
		echo; echo "# the latest stored benchmark with the pipe workload ($$b):"; \
		sed -n '/^## Run time/,/^## /p' $$b | grep '^|'; \
	fi; \
	echo; echo "# full reports: $(CACHE_DIR)/runs/*-$(RUN_ID)/ (console.log, side-by-side.txt); everything: make check"; \
	echo "# main job: $$(( $$(date +%s) - start )) s"; \
	scripts/sum-totals.sh $$sums || rc=1; \
	exit $$rc

help:
	@sed -n '1,/^$$/p' Makefile

# `make deps` installs what is missing; every other target only checks the
# package groups it needs (scripts/install-deps.sh --check GROUP...) and
# stops with one line naming them and `make deps` (under CI it installs).
# `make` (main) installs, as the first command on a fresh machine.
deps:
	@scripts/install-deps.sh
NEEDS = @scripts/install-deps.sh --check

# KSRC=/path/to/linux: your own 6.12.y tree instead of KERNEL_TARBALL,
# copied into the cache, never modified (scripts/kernel-source.sh).
KSRC ?=
export KSRC
TREE_PKGS := $(if $(KSRC),,tarball)

# Bad input stops here in one line, before minutes of extraction or build:
# an unusable CACHE_DIR, a KERNEL_TARBALL of another kernel version, a KSRC
# tree of another version. kernel-source.sh prints the tarball (or KSRC's
# stand-in for one) that build-kernel.sh's prepare-tree.sh is to read.
kernel:
	$(NEEDS) build $(TREE_PKGS)
	@scripts/check-cache-dir.sh
	@t=$$(scripts/kernel-source.sh) && KERNEL_TARBALL=$$t scripts/build-kernel.sh $(VARIANT) $(SERIES_FILE) $(FRAGMENTS) >/dev/null

# The baseline (the reference for warnings), core and full built without
# CONFIG_CGROUP_SCHED, never booted (scripts/build-nocgroup.sh).
.PHONY: build-nocgroup
build-nocgroup:
	$(NEEDS) build $(TREE_PKGS)
	@scripts/check-cache-dir.sh
	@scripts/build-nocgroup.sh $(foreach v,baseline core full,$(v)=$(call vfield,$(v),3))

# "cached DIR" or "build DIR SECONDS" (the last build's time), building nothing
.PHONY: kernel-status
kernel-status:
	@t=$$(scripts/kernel-source.sh) && KERNEL_TARBALL=$$t scripts/build-kernel.sh --status $(VARIANT) $(SERIES_FILE) $(FRAGMENTS) | tail -1

# With BZIMAGE=, V's cached tree must be built already: the payload is
# built against it, the kernel is not (re)built.
.PHONY: prebuilt-kernel print-run-dir
prebuilt-kernel:
	$(NEEDS) build
	@scripts/check-prebuilt.sh $(OWN_BZIMAGE) $(TREE) $(V)
payload: $(if $(OWN_BZIMAGE),prebuilt-kernel,kernel)
	@SCX_REFUSAL=$(REFUSAL) SCX_VARIANT_NAME=$(V) scripts/build-payload.sh $(TREE) $(KIND) $(PAYLOAD)

# Where check-one writes this run (for tests and tools; run_dir above).
print-run-dir:
	@echo $(RUN_DIR)

# Under the tree's payload lock: this checkout may be rebuilding the payload. The
# baseline guest also gets the patched tree's in-tree selftests runner, as
# /usr/bin/runner-patched, when a patched payload was built: the series'
# new in-tree tests run there against 6.12 (selftests/intree-diff.list).
PATCHED_RUNNER := $(firstword $(wildcard $(CACHE_DIR)/build/core/tools/testing/selftests/sched_ext/runner \
	$(CACHE_DIR)/build/core-debug/tools/testing/selftests/sched_ext/runner))
initramfs: payload
	$(NEEDS) guest
	@mkdir -p $(RUN_DIR)
	@ov=; if [ $(KIND) = baseline ] && [ -n "$(PATCHED_RUNNER)" ]; then \
		ov=$(RUN_DIR)/patched-runner; mkdir -p $$ov/usr/bin; \
		install -m 0755 $(PATCHED_RUNNER) $$ov/usr/bin/runner-patched; \
	fi; \
	scripts/with-lock.sh $(TREE)/.scx-payload.lock "another build of the $(V) payload" \
		initramfs/build-initramfs.sh $(TREE) $(INITRD) $(PAYLOAD) $$ov

# Both kernels by default: the patched one is what we test, the baseline
# shows the same negative programs caught only at run time there (the
# differential a reviewer asks for). Each prints its own KTAP report; the
# last line sums them. KERNELS=patched runs one.
KERNELS ?= core full baseline
# What scripts/check.sh and scripts/repro-each-kernel.sh get from here: the
# kernels, and check-one's run directory with @K@ for the kernel (run_dir,
# spelled once above). MAKE='$(MAKE)' is spelled in each recipe line
# itself: only there does make see a recursive make (jobserver, make -n).
CHECK_ENV = CHECK_KERNELS='$(KERNELS)' CHECK_VARIANTS='$(VARIANTS)' \
	CHECK_RUN_DIR='$(call run_dir,@K@,$(DEBUG),$(BENCH))' \
	CHECK_DEBUG=$(if $(call yes,$(DEBUG)),1) CHECK_VERBOSE=$(if $(call yes,$(VERBOSE)),1) \
	SCHED_LOAD='$(SCHED_LOAD)' T='$(T)' KEEP_RUNS='$(KEEP_RUNS)' LOG_DIR='$(LOG_DIR)'
check:
	$(NEEDS) build guest lint $(TREE_PKGS)
	@MAKE='$(MAKE)' $(CHECK_ENV) HARNESS=$(HARNESS) HARNESS_KERNEL=$(BZIMAGE) HARNESS_APPEND=$(KERNEL_APPEND) scripts/check.sh

# The names T= matches: no static list, the guest suites decide at run
# time which tests exist, so they come from each kernel's last full report
# and the last make check that ran every harness test (scripts/list-tests.sh).
.PHONY: list-tests
list-tests:
	@scripts/list-tests.sh $(CACHE_DIR)/runs $(foreach k,$(KERNELS),$(call variant_name,$(k),$(DEBUG),$(BENCH)))

# The harness's own tests (tests/harness: splat detection on synthetic
# logs; run-qemu.sh on a panicking, hanging, payload-less guest, booting the
# patched kernel). `make check` runs them too. HARNESS=quick (the default,
# CI) leaves out their kernel boots: about 8 of their 10 minutes on the
# shared 2 cores; HARNESS=full runs them.
HARNESS ?= quick
$(if $(filter quick full,$(HARNESS)),,$(error HARNESS='$(HARNESS)': want quick (the default, no kernel boots) or full))
.PHONY: check-harness
# Only the full harness boots a kernel: the quick one needs none built.
check-harness: $(if $(filter full,$(HARNESS)),kernel)
	$(NEEDS) guest lint
	@HARNESS=$(HARNESS) HARNESS_KERNEL=$(BZIMAGE) HARNESS_APPEND=$(KERNEL_APPEND) tests/harness/run.sh

# The 6.12 bug the series' first patch fixes, reproduced in a boot of its own
# per kernel (it hangs the unpatched guest on purpose): the baseline must
# hang on the first cgroup move under a scheduler whose ops.cgroup_move()
# calls scx_bpf_dispatch_from_dsq(), the patched kernel must refuse that
# scheduler at load. About 2.5 minutes (DEBUG=1: about 11, the baseline
# waits out its 600 s timeout). scripts/repro-cgroup-move.sh.
.PHONY: repro-cgroup-move repro-cgroup-move-one
repro-cgroup-move:
	@MAKE='$(MAKE)' $(CHECK_ENV) scripts/repro-each-kernel.sh repro-cgroup-move

# The build's own output goes to stderr: stdout is the run's KTAP document
# (a payload rebuild's lines in it broke kunit.py's reading of make check
# DEBUG=1's whole-run document).
repro-cgroup-move-one:
	@$(MAKE) --no-print-directory initramfs >&2
	@scripts/repro-cgroup-move.sh --expect $(if $(filter baseline,$(KIND)),hang,refuse) \
		--kernel $(BZIMAGE) --initrd $(INITRD) --log $(RUN_DIR)/repro-cgroup-move.log \
		--timeout $(if $(call yes,$(DEBUG)),600,120) --append "$(KERNEL_APPEND)"

# The 6.12 verifier hole the core series' backport of upstream 469d638d1520
# closes, reproduced in a boot of its own per kernel (lockdep turns itself
# off after its first report): a bpf_timer callback armed by the sleepable
# ops.init() is verified as sleepable, so scx_bpf_create_dsq() (a GFP_KERNEL
# allocation) loads and runs in the timer softirq. The baseline debug kernel
# must report it (lockdep's inconsistent fs_reclaim usage, then "BUG:
# sleeping function called from invalid context" from bpf_timer_cb()) and
# keep the scheduler enabled; the series kernels must refuse the scheduler
# at load as not sleepable. The report needs DEBUG=1 (lockdep,
# DEBUG_ATOMIC_SLEEP): make check DEBUG=1 runs it. About 2 minutes (the
# baseline debug boot 1.5, each series kernel 10 s).
# scripts/repro-sleepable-timer.sh.
.PHONY: repro-sleepable-timer repro-sleepable-timer-one
repro-sleepable-timer:
	@MAKE='$(MAKE)' $(CHECK_ENV) scripts/repro-each-kernel.sh repro-sleepable-timer

# The build's own output goes to stderr: stdout is the KTAP document. The
# baseline's report is only predicted on the debug kernel: without DEBUG=1
# the baseline is refused the run (not ok) rather than passing on nothing.
repro-sleepable-timer-one:
	@$(if $(filter baseline,$(KIND)),$(if $(call yes,$(DEBUG)),,{ printf 'KTAP version 1\n1..1\nnot ok 1 repro-sleepable-timer:report # the baseline report needs the debug kernel (DEBUG=1: lockdep, DEBUG_ATOMIC_SLEEP)\n'; exit 1; }))
	@$(MAKE) --no-print-directory initramfs >&2
	@scripts/repro-sleepable-timer.sh --expect $(if $(filter baseline,$(KIND)),report,refuse) \
		--kernel $(BZIMAGE) --initrd $(INITRD) --log $(RUN_DIR)/repro-sleepable-timer.log \
		--timeout $(if $(call yes,$(DEBUG)),600,120) --append "$(KERNEL_APPEND)"

# The report runs even when the guest failed (it says how); a failed build
# still ends in a KTAP document and the "N passed, N failed" line.
check-one:
	@scripts/check-cache-dir.sh
	@mkdir -p $(LOG_DIR)
	@ls -1dt $(CACHE_DIR)/runs/$(VARIANT)-2* 2>/dev/null | tail -n +$(KEEP_RUNS) | xargs -r rm -rf
	@if $(MAKE) --no-print-directory initramfs; then \
		rc=0; \
		ln -sfn $(CHECK_LOG) $(LOG_DIR)/$(VARIANT)-check.log; \
		./run-qemu.sh --kernel $(BZIMAGE) --initrd $(INITRD) \
			--log $(CHECK_LOG) --timeout $(QEMU_TIMEOUT) \
			--append "scx.payload=check scx.sched_load=$(SCHED_LOAD) $(if $(T),scx.t=$(T)) $(KERNEL_APPEND) $(GUEST_APPEND)" $(QEMU_ARGS) || rc=$$?; \
		echo; \
		[ -z "$(T)$(strip $(GUEST_APPEND))" ] || echo "T=$(T) $(GUEST_APPEND)" > $(RUN_DIR)/filter; \
		r=0; scripts/ktap-report.sh --qemu-rc $$rc $(if $(T),--filter '$(T)' --names-from "$$(scripts/last-full-report.sh $(CACHE_DIR)/runs $(VARIANT))") $(CHECK_LOG) > $(RUN_DIR)/report.ktap || r=$$?; \
	else \
		mkdir -p $(RUN_DIR); \
		r=0; scripts/ktap-report.sh --stage-failed "building the $(VARIANT) kernel, payload or initramfs" > $(RUN_DIR)/report.ktap || r=$$?; \
	fi; \
	: > $(RUN_DIR)/timings.tsv; [ ! -f $(CHECK_LOG) ] || scripts/ktap-timings.sh $(CHECK_LOG) > $(RUN_DIR)/timings.tsv; \
	scripts/ktap-convert.sh junit $(VARIANT) $(RUN_DIR)/timings.tsv < $(RUN_DIR)/report.ktap > $(RUN_DIR)/junit.xml; \
	scripts/ktap-convert.sh json $(VARIANT) $(RUN_DIR)/timings.tsv < $(RUN_DIR)/report.ktap > $(RUN_DIR)/summary.json; \
	echo "# $(VARIANT): KTAP $(RUN_DIR)/report.ktap, JUnit $(RUN_DIR)/junit.xml, JSON $(RUN_DIR)/summary.json, seconds per test $(RUN_DIR)/timings.tsv, console $(CHECK_LOG)" >&2; \
	[ ! -s $(RUN_DIR)/timings.tsv ] || { echo "# $(VARIANT): the slowest tests (seconds):"; sort -t'	' -k3,3 -rn $(RUN_DIR)/timings.tsv | head -5 | awk -F'	' '{ printf "#   %8s  %s\n", $$3, $$2 }'; } >&2; \
	cat $(RUN_DIR)/report.ktap; \
	exit $$r

# One command in the guest, its exit status propagated (like `vng -- cmd`):
# make run CMD='runner -t minimal'. The console is shown and kept as
# run.log in the run's directory.
export CMD
.PHONY: run-needs-cmd
run-needs-cmd:
	@[ -n "$$CMD" ] || { echo "ERROR: make run needs CMD='a shell command for the guest'" >&2; exit 2; }
run: run-needs-cmd initramfs
	@scripts/run.sh --boot $(BZIMAGE) $(INITRD) $(RUN_DIR)/run.log $(QEMU_TIMEOUT) \
		"$(KERNEL_APPEND) $(GUEST_APPEND)" $(QEMU_ARGS)

shell: initramfs
	@mkdir -p $(LOG_DIR); ln -sfn $(RUN_DIR)/shell.log $(LOG_DIR)/$(VARIANT)-shell.log
	./run-qemu.sh --interactive --kernel $(BZIMAGE) --initrd $(INITRD) \
		--log $(RUN_DIR)/shell.log \
		--append "scx.payload=shell $(KERNEL_APPEND) $(GUEST_APPEND)" $(QEMU_ARGS)

clean-cache:
	@case "$(CACHE_DIR)" in ""|/|"$(HOME)"|"$(HOME)/") \
		echo "refusing to remove CACHE_DIR='$(CACHE_DIR)'" >&2; exit 1;; esac
	rm -rf "$(CACHE_DIR)"

# Baseline vs patched, side by side (docs/benchmark.md): both kernels
# and payloads through the rules above, then boot both and report.
.PHONY: bench
# Its kernels add kconfig-fragments/bench.config (BENCH=1). Every variant
# of BENCH_VARIANTS against the baseline (bench/run-variants.sh); limit is
# bench-only (core without kf_tasks) and never runs scx_flatcg, the one
# in-tree scheduler calling scx_bpf_task_cgroup().
BENCH_VARIANTS ?= core full limit
bench:
	$(NEEDS) build guest bench $(TREE_PKGS)
	@# refuse a used RESULTS_DIR before building anything (run.sh checks again)
	@[ -z "$$RESULTS_DIR" ] || [ ! -e "$$RESULTS_DIR/results.md" ] || { echo "ERROR: RESULTS_DIR=$$RESULTS_DIR already holds a run (results.md): name a new directory, or leave RESULTS_DIR unset for a dated one" >&2; exit 2; }
	@for v in baseline $(BENCH_VARIANTS); do \
		$(MAKE) --no-print-directory payload V=$$v BASELINE= DEBUG= BENCH=1 || exit 1; \
	done
	@SCHEDS_LIMIT=$${SCHEDS_LIMIT:-fair,simple,qmap} bench/run-variants.sh $(CACHE_DIR)/build/baseline-bench \
		$(foreach v,$(BENCH_VARIANTS),$(v)=$(CACHE_DIR)/build/$(v)-bench)

# Two stored bench results side by side (bench/compare.sh).
.PHONY: bench-compare
bench-compare:
	@[ -n "$(A)" ] && [ -n "$(B)" ] || { echo "ERROR: make bench-compare needs A=<results dir> B=<results dir> (e.g. bench/results/2026-12-05-v2-pipe)" >&2; exit 2; }
	@bench/compare.sh $(A) $(B)

# Where the pipe round trip's instructions go, per kernel function, on the
# two bench kernels: a TCG plugin counts them (bench/insn-profile.sh;
# SCHED, LOOPS, OUT from the environment).
.PHONY: insn-profile
insn-profile:
	$(NEEDS) guest
	@$(MAKE) --no-print-directory payload V=baseline DEBUG= BENCH=1
	@$(MAKE) --no-print-directory payload V=$(V) BASELINE= DEBUG= BENCH=1
	@bench/insn-profile.sh $(CACHE_DIR)/build/baseline-bench $(CACHE_DIR)/build/$(V)-bench

# How the saving grows with the work: insn-profile at 1, 2, 4 vCPUs (pipe)
# and 20, 40, 80 tasks (messaging), the saving per call of the changed
# functions and how well the calls predict it (bench/scaling.sh).
.PHONY: insn-scaling
insn-scaling:
	$(NEEDS) guest
	@$(MAKE) --no-print-directory payload V=baseline DEBUG= BENCH=1
	@$(MAKE) --no-print-directory payload V=$(V) BASELINE= DEBUG= BENCH=1
	@bench/scaling.sh $(CACHE_DIR)/build/baseline-bench $(CACHE_DIR)/build/$(V)-bench

# Verification cost as BPF maintainers read it: veristat from each kernel's
# tree on scx_simple, scx_qmap, scx_central and scx_flatcg, one boot per
# kernel, a side-by-side table (bench/veristat.sh; its knobs, e.g.
# VERISTAT_REPS and RESULTS_DIR, come from the environment).
.PHONY: veristat
veristat:
	$(NEEDS) guest
	@$(MAKE) --no-print-directory kernel V=baseline DEBUG= BENCH=
	@$(MAKE) --no-print-directory kernel V=$(V) BASELINE= DEBUG= BENCH=
	@bench/veristat.sh $(CACHE_DIR)/build/baseline $(CACHE_DIR)/build/$(V)

# Maintainer checks on the series itself: per patch git am, checkpatch
# --strict and a kernel build (bisectability); not part of `make check`.
check-series:
	$(NEEDS) build series $(TREE_PKGS)
	@t=$$(scripts/kernel-source.sh) && KERNEL_TARBALL=$$t BOOT=$(if $(call yes,$(BOOT)),1,0) scripts/check-series.sh $(SERIES_FILE) kconfig-fragments/base.config
