# opt/arm64.mk - opt on other architectures, under user-mode emulation:
# cross-builds ref, opt (NEON), the kernel test, the difftest and both Lua
# front ends for aarch64 into $(O)/arm64 and runs them with qemu-user; and a
# scalar-only opt for riscv64 into $(O)/riscv64, run the same way.
#
# The cross builds are the project's own rules run by a sub-make with the
# cross compiler as CC (opt/build.mk picks the ISA files from CC's target).
# CFLAGS/LDFLAGS/SAN are cleared there: a host -march or sanitizer does not
# apply to another architecture.  Packages: .ci/packages/arm64.txt (the
# :arm64 libraries need `dpkg --add-architecture arm64`, which .ci/deps does).

ARM64_CC   ?= aarch64-linux-gnu-gcc
ARM64_O    := $(O)/arm64
# Run with Debian's multiarch libc6:arm64 (/lib/ld-linux-aarch64.so.1), not
# -L /usr/aarch64-linux-gnu: once libc6:arm64 is installed (the Lua front
# ends need it), the cross tree's ld.so loads the multiarch libc.so.6 via
# ld.so.cache, and that mix hangs in pthread_create.
ARM64_RUN  := qemu-aarch64 -L /
RV64_CC    ?= riscv64-linux-gnu-gcc
RV64_O     := $(O)/riscv64
RV64_RUN   := env QEMU_LD_PREFIX=/usr/riscv64-linux-gnu qemu-riscv64
ARM64_COMMA := ,
XMAKE      := $(MAKE) --no-print-directory CFLAGS= LDFLAGS= SAN=
# Cases of check-arm64-diff-long's difftest (check-long).
ARM64_DIFF_LONG  ?= 10000

ARM64_BIN := $(ARM64_O)/ref/test_ref $(ARM64_O)/opt/opt_ktest $(ARM64_O)/opt/opt_kpool $(ARM64_O)/difftest_kcount
ARM64_SUITE_BIN := $(ARM64_O)/libselect_opt.so $(ARM64_O)/selcheck $(ARM64_O)/selcheck-jit \
                   $(ARM64_O)/selcheck-worker
RV64_BIN  := $(RV64_O)/opt/opt_ktest $(RV64_O)/opt/opt_kpool $(RV64_O)/difftest_kcount $(RV64_O)/libselect_opt.so

# The difftest with opt/opt_kcount.c in front of opt_kernel(): the same
# test (its sources: harness/diff/diff*.c, see harness/diff/build.mk), plus
# a line per ISA and thread setting saying which kernels ran.
ARM64_DIFF_SRC = $(wildcard harness/diff/diff*.c)
$(O)/difftest_kcount: $(wildcard harness/diff/diff*.[ch]) $(O)/opt/opt_kcount.o \
                      $(O)/libselect_opt.a $(O)/libselect_ref.a $(OPT_HDR) ref/ref.h
	$(CC) $(D_CFLAGS) -pthread $(ARM64_DIFF_SRC) $(O)/opt/opt_kcount.o \
	    $(O)/libselect_opt.a $(O)/libselect_ref.a -Wl,--wrap=opt_kernel $(LDFLAGS_ALL) -o $@

.PHONY: check-arm64 check-arm64-long arm64-build arm64-build-suite arm64-worker riscv64-build \
        check-arm64-kernels check-arm64-diff check-arm64-cases \
        check-arm64-cases-long check-arm64-diff-long check-riscv64
CHECK_ARM64 := check-arm64-kernels check-arm64-diff check-arm64-cases check-riscv64
# make check runs the slice without the cross-built selcheck (its suite
# run takes 1-3.5 min under qemu and its :arm64 libraries come from
# .ci/packages/long/); `make check-arm64` and check-long run it all.
CHECK += check-arm64-kernels check-arm64-diff check-riscv64
CHECK_LONG += check-arm64-cases check-arm64-long
check-arm64: $(CHECK_ARM64)
check-arm64-long: check-arm64-diff-long check-arm64-cases-long

arm64-build:
	@$(XMAKE) -j2 O=$(ARM64_O) CC=$(ARM64_CC) $(ARM64_BIN)
arm64-build-suite: arm64-build # one sub-make at a time in $(ARM64_O), even under -j
	@$(XMAKE) -j2 O=$(ARM64_O) CC=$(ARM64_CC) $(ARM64_SUITE_BIN)
riscv64-build:
	@$(XMAKE) -j2 O=$(RV64_O) CC=$(RV64_CC) $(RV64_BIN)

# ARCH_KTEST,O,RUN: the kernel test at every level the table has there.
# --no-fork: qemu-user cannot start threads in a child forked from a
# threaded process (the pool's fork test runs natively in check-opt).
define ARCH_KTEST
	@$(3) $(2)/opt/opt_ktest --no-fork > $(2)/opt/opt_ktest.tap || \
	    { grep -v '^ok' $(2)/opt/opt_ktest.tap; exit 1; }
	@$(3) $(2)/opt/opt_kpool >> $(2)/opt/opt_ktest.tap || \
	    { tail -4 $(2)/opt/opt_ktest.tap; exit 1; }
	@echo "$(1): kernel test: $$(grep -c '^ok' $(2)/opt/opt_ktest.tap) ok," \
	    "levels: $$($(3) $(2)/opt/opt_ktest --supported | tr '\n' ' ')"
endef

# ARCH_DIFF,O,RUN,levels,seed,step,cap,threads: the difftest in slices of
# step cases until every kernel of each level has run at 1 and at 2 threads
# (opt_kcount.c adds the counts up over slices), at most cap cases; every
# slice must have 0 mismatches.  Seed 1 needs about 12 000 cases for one
# rare kernel (x32_vss: a vector cond with then and else both one element,
# 4-byte dtype); most seeds 2000-4000; seed 7 1000.
define ARCH_DIFF
	@rm -f $(1)/kcount.dat; first=0; runs=0; \
	while :; do \
	    OPT_KCOUNT_FILE=$(1)/kcount.dat $(2) $(1)/difftest_kcount --seed $(4) --first $$first \
	        --count $(5) --threads $(7) > $(1)/diff.log || { cat $(1)/diff.log; exit 1; }; \
	    grep -q ' 0 mismatches$$' $(1)/diff.log || { cat $(1)/diff.log; exit 1; }; \
	    grep "^difftest: seed" $(1)/diff.log; \
	    runs=$$((runs + $$(sed -n 's/.*: \([0-9]*\) runs.*/\1/p' $(1)/diff.log))); \
	    first=$$((first + $(5))); miss=""; \
	    for isa in $(3); do for t in 1 2; do \
	        grep -q "^kernels $$isa t$$t: \([0-9]*\)/\1 called" $(1)/diff.log || miss="$$miss $$isa/t$$t"; \
	    done; done; \
	    [ -z "$$miss" ] && break; \
	    [ $$first -lt $(6) ] || { cat $(1)/diff.log; \
	        echo "$(1): difftest: after $$first cases a kernel never ran at:$$miss" >&2; exit 1; }; \
	done; \
	echo "difftest (aggregate): seed $(4), cases 0..$$((first - 1)), threads $(7): $$runs runs, 0 mismatches"; \
	grep '^kernels' $(1)/diff.log
endef

# The reference's own unit test too: the oracle must hold on aarch64.
check-arm64-kernels: arm64-build
	@$(ARM64_RUN) $(ARM64_O)/ref/test_ref > $(ARM64_O)/test_ref.tap || \
	    { grep -v '^ok' $(ARM64_O)/test_ref.tap; exit 1; }
	@echo "check-arm64: reference unit test: $$(grep -c '^ok' $(ARM64_O)/test_ref.tap) ok"
	$(call ARCH_KTEST,check-arm64,$(ARM64_O),$(ARM64_RUN))

check-arm64-diff: arm64-build
	$(call ARCH_DIFF,$(ARM64_O),$(ARM64_RUN),scalar neon,7,1000,20000,1$(ARM64_COMMA)2)
	@$(ARM64_RUN) $(ARM64_O)/difftest_kcount --seed 7 --first 100000 --count 300 \
	    --threads 2 --jobs 2 > $(ARM64_O)/diff-jobs.log || { cat $(ARM64_O)/diff-jobs.log; exit 1; }
	@grep '^difftest: seed' $(ARM64_O)/diff-jobs.log

check-arm64-diff-long: arm64-build
	$(call ARCH_DIFF,$(ARM64_O),$(ARM64_RUN),scalar neon,2,$(ARM64_DIFF_LONG),$(ARM64_DIFF_LONG),1$(ARM64_COMMA)2$(ARM64_COMMA)3)

# The suite through the aarch64 selcheck against the aarch64 opt (NEON,
# 2 threads), and one case file's TAP (every 8- and 16-bit pattern, NaN
# payloads) equal to the x86-64 build's but for the impl and sandbox
# comment lines.  check-long: every level x 1, 2 threads, and every case
# file's TAP equal from the x86-64 selcheck, the aarch64 selcheck and the
# aarch64 selcheck-jit.
# selcheck starts selcheck-worker with execv; with no binfmt_misc the
# kernel cannot run an aarch64 file, so SELCHECK_WORKER names a script that
# runs it under qemu.  qemu-user has no user/PID namespaces nor seccomp:
# selcheck says on stderr that its sandbox is incomplete.
ARM64_WORKER = $(abspath $(ARM64_O))/worker-qemu
ARM64_SEL = env SELCHECK_WORKER=$(ARM64_WORKER) $(ARM64_RUN) $(ARM64_O)/$(1) --profile all \
            --impl $(ARM64_O)/libselect_opt.so
ARM64_PROVE = prove -j2 --exec "$(call ARM64_SEL,$(1))" cases/*.lua
ARM64_TAPFILTER := grep -v '^\# \(impl\|sandbox\)'
ARM64_NATIVE := $(O)/selcheck $(O)/selcheck-worker $(O)/libselect_opt.so

arm64-worker: arm64-build-suite
	@printf '#!/bin/sh\nexec %s -0 selcheck-worker %s "$$@"\n' "$(ARM64_RUN)" \
	    "$(abspath $(ARM64_O))/selcheck-worker" > $(ARM64_WORKER) && chmod +x $(ARM64_WORKER)

define ARM64_NL


endef

# ARM64_SAME,file,front ends: file's TAP from the x86-64 selcheck and each
# aarch64 front end, filtered, must be equal.
define ARM64_SAME
	@$(O)/selcheck --profile all --impl $(O)/libselect_opt.so $(1) 2>/dev/null | \
	    $(ARM64_TAPFILTER) > $(ARM64_O)/tap-x86-$(notdir $(1)).tap || true
	@for fe in $(2); do \
	    $(call ARM64_SEL,$$fe) $(1) 2>/dev/null | $(ARM64_TAPFILTER) > $(ARM64_O)/tap-$$fe-$(notdir $(1)).tap; \
	    cmp -s $(ARM64_O)/tap-x86-$(notdir $(1)).tap $(ARM64_O)/tap-$$fe-$(notdir $(1)).tap || \
	        { diff $(ARM64_O)/tap-x86-$(notdir $(1)).tap $(ARM64_O)/tap-$$fe-$(notdir $(1)).tap | head -20; \
	          echo "check-arm64: $(1): aarch64 $$fe's TAP differs from x86-64 selcheck's" >&2; exit 1; }; \
	done
	@echo "check-arm64: $(1): the same TAP from x86-64 selcheck and aarch64 $(2)" \
	    "($$(tail -1 $(ARM64_O)/tap-x86-$(notdir $(1)).tap | sed 's/^# //'))"
endef

check-arm64-cases: arm64-worker $(ARM64_NATIVE)
	@SEL_ISA=neon SEL_NUM_THREADS=2 $(call ARM64_PROVE,selcheck) > $(ARM64_O)/cases.log 2>&1 || \
	    { tail -40 $(ARM64_O)/cases.log; exit 1; }
	@echo "check-arm64-cases: aarch64 selcheck, opt neon t2: $$(grep -E '^(Files|Result)' $(ARM64_O)/cases.log | tr '\n' ' ')"
	$(call ARM64_SAME,cases/values.lua,selcheck)

check-arm64-cases-long: arm64-worker $(ARM64_NATIVE)
	@for isa in scalar neon; do for t in 1 2; do \
	    SEL_ISA=$$isa SEL_NUM_THREADS=$$t $(call ARM64_PROVE,selcheck) > $(ARM64_O)/cases-$$isa-t$$t.log 2>&1 || \
	        { tail -40 $(ARM64_O)/cases-$$isa-t$$t.log; exit 1; }; \
	    echo "check-arm64-cases-long: $$isa t$$t: $$(grep -E '^(Files|Result)' $(ARM64_O)/cases-$$isa-t$$t.log | tr '\n' ' ')"; \
	done; done
	$(foreach f,$(wildcard cases/*.lua),$(call ARM64_SAME,$(f),selcheck selcheck-jit)$(ARM64_NL))

# Off x86-64 and aarch64 opt is scalar only: it must build and pass there.
check-riscv64: riscv64-build
	$(call ARCH_KTEST,check-riscv64,$(RV64_O),$(RV64_RUN))
	$(call ARCH_DIFF,$(RV64_O),$(RV64_RUN),scalar,21,1000,20000,1$(ARM64_COMMA)2)
