# opt/build.mk - the optimized backend: libselect_opt.so (exports
# sel_get_impl only), libselect_opt.a (the same objects, for the tests that
# link opt next to ref) and the kernel unit test.
# Only each ISA's kernel file gets that ISA's -m flags; the rest of opt is
# plain C and runs on any x86-64 (dispatch picks the level at run time).
# Which ISA files build follows $(CC)'s target: x86-64 adds SSE2, AVX2 and
# AVX-512, aarch64 adds NEON, any other architecture builds scalar only
# (opt/arm64.mk cross-builds and runs the last two under qemu).
# The ref-vs-opt difftest and fuzzer are harness/diff/build.mk's; `make
# check-opt` runs this folder's checks.

OPT_MACHINE := $(shell $(CC) -dumpmachine)
OPT_X86 := $(if $(findstring x86_64,$(OPT_MACHINE)),1,)
OPT_ARM64 := $(if $(findstring aarch64,$(OPT_MACHINE)),1,)
# One file per ISA level (check-opt-cases takes the level names from it);
# the AVX-512 loops of other files (byte permutes, tile pairs) are compiled
# at the avx512 level's flags but are not a level.
OPT_ISA_SRC := opt/opt_scalar.c $(if $(OPT_X86),opt/opt_sse2.c opt/opt_avx2.c opt/opt_avx512.c) \
               $(if $(OPT_ARM64),opt/opt_neon.c)
OPT_AVX512_SRC := $(if $(OPT_X86),opt/opt_avx512_perm.c opt/opt_avx512_chunk.c opt/opt_vtile512.c)
OPT_SRC := opt/opt_shape.c opt/opt_fast.c opt/opt_plan.c opt/opt_dispatch.c opt/opt_pool.c \
           opt/opt_block.c opt/opt_stage.c opt/opt_brep.c opt/opt_crep.c opt/opt_ptile.c opt/opt_ptile_run.c opt/opt_bwarm.c opt/opt_small.c opt/opt_swalk.c opt/opt_hit.c opt/opt_vtile.c opt/opt_chunk.c \
           opt/opt_exec.c opt/opt_tuning.c opt/opt_rows.c opt/opt_phase.c opt/opt_pick.c opt/opt_select.c $(OPT_ISA_SRC) $(OPT_AVX512_SRC)
OPT_OBJ := $(OPT_SRC:%.c=$(O)/%.o)
OPT_HDR := opt/opt.h opt/opt_hit.h opt/opt_phase.h opt/opt_pick.h opt/opt_wrap.h opt/opt_rows.h opt/opt_swalk.h opt/opt_stage.h opt/opt_ptile.h opt/opt_past.h opt/opt_kernels.h opt/opt_vloop.h opt/opt_vwrap.h spec/select.h

# Every opt function starts at 0 mod 64, so its speed no longer hangs on
# where the link puts it: with gcc's default 16, a shift of 16-48 bytes in
# the objects before a kernel moved shapes by 10-25% (opt_block's
# 1x3x8x1:2x8x3x8x44:8x1:u8:pdpd:-1 ran 770-960 ns after some shifts and
# 630-700 ns after others; aligned, 635-690 ns after every shift).
# Costs 7 KB of text and call_64_f32 about 0.5 ns (opt_hit_try runs best at
# 48 mod 64). Details: opt/NOTES.md "Code layout".
OPT_ALIGN := -falign-functions=64

OPT_ISAFLAGS_opt_sse2   := -msse2
OPT_ISAFLAGS_opt_avx2   := -mavx2
# The AVX-512 kernels' loops start at 0 mod 64: on Zen 5 a select loop of
# 7-8 instructions that crossed a 64-byte line ran same_i8_4Ki at 37.9 ns
# against 31.5 in one block, by layout alone (engineer T, ninth round).
OPT_ISAFLAGS_opt_avx512 := -mavx512f -mavx512bw -mavx512vl -falign-loops=64
OPT_ISAFLAGS_opt_avx512_perm := -mavx512f -mavx512bw -mavx512vl
OPT_ISAFLAGS_opt_avx512_chunk := -mavx512f -mavx512bw -mavx512vl
OPT_ISAFLAGS_opt_vtile512 := -mavx512f -mavx512bw -mavx512vl -falign-loops=64
OPT_ISAFLAGS_opt_neon   := -march=armv8-a+simd
# The warm call's record through a TLS descriptor, which clobbers no
# argument register (opt_select.c's execute_long says why), where the
# compiler has the flag (gcc; not clang 14, which the TSan build uses).
OPT_TLS_GNU2 := $(if $(OPT_X86),$(shell $(CC) -mtls-dialect=gnu2 -x c -c \
    -o /dev/null /dev/null 2>/dev/null && echo -mtls-dialect=gnu2))
OPT_ISAFLAGS_opt_select := $(OPT_TLS_GNU2)

$(O)/opt/%.o: opt/%.c $(OPT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(OPT_ISAFLAGS_$*) $(OPT_ALIGN) -fvisibility=hidden -pthread -c $< -o $@

$(O)/libselect_opt.a: $(OPT_OBJ)
	@rm -f $@
	ar rcs $@ $^

# -z nodelete: the pool's threads outlive any dlclose of the library.
$(O)/libselect_opt.so: $(OPT_OBJ) $(O)/opt/opt_export.o
	$(CC) -shared -pthread -Wl,-z,nodelete $(LDFLAGS_ALL) $^ -o $@

$(O)/opt/opt_ktest.o $(O)/opt/opt_kchunk.o $(O)/opt/opt_kvtile.o $(O)/opt/opt_kphase.o $(O)/opt/opt_kptile.o $(O)/opt/opt_kfar.o $(O)/opt/opt_khit.o $(O)/opt/opt_kguard.o: opt/opt_ktests.h
$(O)/opt/opt_ktest: $(O)/opt/opt_ktest.o $(O)/opt/opt_kchunk.o $(O)/opt/opt_kvtile.o $(O)/opt/opt_kphase.o \
                  $(O)/opt/opt_kptile.o $(O)/opt/opt_kfar.o $(O)/opt/opt_khit.o \
                  $(O)/opt/opt_kguard.o $(O)/libselect_opt.a
	$(CC) -pthread $(LDFLAGS_ALL) $^ -o $@

# The pool's job change, forced: opt_pool.c again, with its test hooks.
$(O)/opt/opt_kpool: opt/opt_kpool.c opt/opt_pool.c opt/opt_pool_hooks.h $(OPT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DOPT_POOL_HOOKS -pthread opt/opt_kpool.c opt/opt_pool.c $(LDFLAGS_ALL) -o $@

ALL += $(O)/libselect_opt.so $(O)/libselect_opt.a $(O)/opt/opt_ktest $(O)/opt/opt_kpool

.PHONY: check-opt check-opt-exports check-opt-kernels check-opt-env
CHECK_OPT := check-opt-exports check-opt-env check-opt-kernels

# The library exports sel_get_impl and nothing else of the project.
check-opt-exports: $(O)/libselect_opt.so
	@syms=$$(nm -D --defined-only $< | awk '{print $$3}' | grep -v '^_' | sort | tr '\n' ' '); \
	if [ "$$syms" != "sel_get_impl " ]; then \
	    echo "check-opt-exports: $< exports: $$syms" >&2; exit 1; fi; \
	echo "check-opt-exports: $< exports only sel_get_impl"

# SEL_ISA, SEL_NUM_THREADS and SEL_SPLIT512: honoured when valid; otherwise
# one line on stderr and the default (the best level this machine runs;
# online CPUs; what cpuid says of 512-bit halves).
check-opt-env: $(O)/opt/opt_ktest
	@K=$(O)/opt/opt_ktest; best=$$($$K --supported | tail -1); cpus=$$(getconf _NPROCESSORS_ONLN); \
	split=$$(SEL_SPLIT512= $$K --active | cut -d' ' -f3); \
	test "$$(SEL_ISA=scalar SEL_NUM_THREADS=3 SEL_SPLIT512=1 $$K --active)" = "scalar 3 1" && \
	test "$$(SEL_SPLIT512=0 $$K --active | cut -d' ' -f3)" = 0 && \
	test "$$(SEL_ISA= SEL_NUM_THREADS= SEL_SPLIT512= $$K --active)" = "$$best $$cpus $$split" && \
	test "$$(SEL_ISA=bogus SEL_NUM_THREADS=0 SEL_SPLIT512=2 $$K --active 2>$(O)/opt/env.err)" = "$$best $$cpus $$split" && \
	grep -q "SEL_ISA=bogus is not one of" $(O)/opt/env.err && grep -q "SEL_NUM_THREADS=0 is not" $(O)/opt/env.err && \
	grep -q "SEL_SPLIT512=2 is not 0 or 1" $(O)/opt/env.err && \
	echo "check-opt-env: SEL_ISA, SEL_NUM_THREADS and SEL_SPLIT512 honoured, bad values fall back to $$best/$$cpus/$$split with a message" || \
	{ echo "check-opt-env: failed" >&2; cat $(O)/opt/env.err >&2; exit 1; }

# Then once more with the other microarchitecture's choices (SEL_SPLIT512
# flipped), as check-diff-opt does.
check-opt-kernels: $(O)/opt/opt_ktest $(O)/opt/opt_kpool
	$(O)/opt/opt_ktest > $(O)/opt/opt_ktest.tap || { grep -v '^ok' $(O)/opt/opt_ktest.tap; exit 1; }
	@plan=$$(sed -n 's/^1\.\.//p' $(O)/opt/opt_ktest.tap); ran=$$(grep -c '^\(not \)\?ok' $(O)/opt/opt_ktest.tap); \
	test "$$plan" = "$$ran" || { echo "check-opt-kernels: the plan says $$plan tests, $$ran ran" >&2; exit 1; }
	$(O)/opt/opt_kpool >> $(O)/opt/opt_ktest.tap || { tail -4 $(O)/opt/opt_ktest.tap; exit 1; }
	@echo "check-opt-kernels: $$(grep -c '^ok' $(O)/opt/opt_ktest.tap) ok ($$(grep -c SKIP $(O)/opt/opt_ktest.tap) skipped)"
	@split=$$($(O)/opt/opt_ktest --active | cut -d' ' -f3); \
	SEL_SPLIT512=$$((1 - split)) $(O)/opt/opt_ktest > $(O)/opt/opt_ktest_split.tap || \
	    { grep -v '^ok' $(O)/opt/opt_ktest_split.tap; exit 1; }; \
	echo "check-opt-kernels: with SEL_SPLIT512=$$((1 - split)): $$(grep -c '^ok' $(O)/opt/opt_ktest_split.tap) ok"

# The whole case suite against opt at every ISA level this machine runs
# (levels it cannot run are listed as skipped): in `make check` each level
# at 1 thread and the best level also at 2 and 3 (the difftest already
# runs every level at every thread count); in `make check-long` every
# level at 1, 2 and 3 threads.
OPT_THREADS_MATRIX ?= 1 2 3
.PHONY: check-opt-cases check-opt-cases-long
CHECK_OPT += check-opt-cases
CHECK_LONG += check-opt-cases-long

# opt_cases ISA THREADS: one pass of the suite under prove.
define opt_cases
echo "check-opt-cases: SEL_ISA=$(1) SEL_NUM_THREADS=$(2)"; \
SEL_ISA=$(1) SEL_NUM_THREADS=$(2) prove -j2 --exec "$(O)/selcheck --profile all --impl $(O)/libselect_opt.so" cases/*.lua > $(O)/opt/cases-$(1)-t$(2).log 2>&1 || \
    { tail -40 $(O)/opt/cases-$(1)-t$(2).log; exit 1; }; \
tail -1 $(O)/opt/cases-$(1)-t$(2).log
endef

check-opt-cases: $(O)/selcheck $(O)/libselect_opt.so $(O)/opt/opt_ktest
	@run="$$($(O)/opt/opt_ktest --supported)"; best=; \
	for isa in $(OPT_ISA_SRC:opt/opt_%.c=%); do \
	    case " $$(echo $$run) " in *" $$isa "*) best=$$isa;; \
	    *) echo "check-opt-cases: skip $$isa: this CPU/OS cannot run it"; continue;; esac; \
	    $(call opt_cases,$$isa,1); \
	done; \
	for t in 2 3; do $(call opt_cases,$$best,$$t); done

check-opt-cases-long: $(O)/selcheck $(O)/libselect_opt.so $(O)/opt/opt_ktest
	@run="$$($(O)/opt/opt_ktest --supported)"; \
	for isa in $(OPT_ISA_SRC:opt/opt_%.c=%); do \
	    case " $$(echo $$run) " in *" $$isa "*) ;; \
	    *) echo "check-opt-cases: skip $$isa: this CPU/OS cannot run it"; continue;; esac; \
	    for t in $(OPT_THREADS_MATRIX); do $(call opt_cases,$$isa,$$t); done; \
	done

CHECK += $(CHECK_OPT)
check-opt: $(CHECK_OPT)
