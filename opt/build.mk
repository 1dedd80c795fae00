# opt/build.mk - the optimized backend: libselect_opt.so (exports
# sel_get_impl only), libselect_opt.a (the same objects, for the tests that
# link opt next to ref) and the kernel unit test.
# Only each ISA's kernel file gets that ISA's -m flags; the rest of opt is
# plain C and runs on any x86-64 (dispatch picks the level at run time).

OPT_X86 := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),1,)
OPT_ISA_SRC := opt/opt_scalar.c $(if $(OPT_X86),opt/opt_sse2.c opt/opt_avx2.c opt/opt_avx512.c)
OPT_SRC := opt/opt_shape.c opt/opt_plan.c opt/opt_dispatch.c opt/opt_pool.c \
           opt/opt_exec.c opt/opt_select.c $(OPT_ISA_SRC)
OPT_OBJ := $(OPT_SRC:%.c=$(O)/%.o)
OPT_HDR := opt/opt.h opt/opt_kernels.h opt/opt_vloop.h spec/select.h

OPT_ISAFLAGS_opt_sse2   := -msse2
OPT_ISAFLAGS_opt_avx2   := -mavx2
OPT_ISAFLAGS_opt_avx512 := -mavx512f -mavx512bw -mavx512vl

$(O)/opt/%.o: opt/%.c $(OPT_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(OPT_ISAFLAGS_$*) -fvisibility=hidden -pthread -c $< -o $@

$(O)/libselect_opt.a: $(OPT_OBJ)
	@rm -f $@
	ar rcs $@ $^

# -z nodelete: the pool's threads outlive any dlclose of the library.
$(O)/libselect_opt.so: $(OPT_OBJ) $(O)/opt/opt_export.o
	$(CC) -shared -pthread -Wl,-z,nodelete $(LDFLAGS_ALL) $^ -o $@

$(O)/opt/opt_ktest: $(O)/opt/opt_ktest.o $(O)/libselect_opt.a
	$(CC) -pthread $(LDFLAGS_ALL) $^ -o $@

ALL += $(O)/libselect_opt.so $(O)/libselect_opt.a $(O)/opt/opt_ktest

.PHONY: check-opt-exports check-opt-kernels
CHECK += check-opt-exports check-opt-kernels

# The library exports sel_get_impl and nothing else of the project.
check-opt-exports: $(O)/libselect_opt.so
	@syms=$$(nm -D --defined-only $< | awk '{print $$3}' | grep -v '^_' | sort | tr '\n' ' '); \
	if [ "$$syms" != "sel_get_impl " ]; then \
	    echo "check-opt-exports: $< exports: $$syms" >&2; exit 1; fi; \
	echo "check-opt-exports: $< exports only sel_get_impl"

check-opt-kernels: $(O)/opt/opt_ktest
	$(O)/opt/opt_ktest > $(O)/opt/opt_ktest.tap || { grep -v '^ok' $(O)/opt/opt_ktest.tap; exit 1; }
	@echo "check-opt-kernels: $$(grep -c '^ok' $(O)/opt/opt_ktest.tap) ok ($$(grep -c SKIP $(O)/opt/opt_ktest.tap) skipped)"

# The randomized differential test, opt against ref (harness/difftest.c):
# a bounded slice in `make check` (every ISA level x 1, 2, 3 threads, then
# concurrent callers), a long run in `make check-long`.
$(O)/difftest: harness/difftest.c $(O)/libselect_opt.a $(O)/libselect_ref.a $(OPT_HDR) ref/ref.h
	$(CC) $(CFLAGS_ALL) -Iopt -Iref -pthread $< $(O)/libselect_opt.a $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@

ALL += $(O)/difftest
DIFF_SEED ?= 1
.PHONY: check-opt-diff check-opt-diff-long
CHECK += check-opt-diff
CHECK_LONG += check-opt-diff-long

check-opt-diff: $(O)/difftest
	$(O)/difftest --seed $(DIFF_SEED) --count 3000
	$(O)/difftest --seed $(DIFF_SEED) --first 3000 --count 1000 --threads 3 --jobs 3

check-opt-diff-long: $(O)/difftest
	$(O)/difftest --seed $(DIFF_SEED) --first 100000 --count 100000
	$(O)/difftest --seed $(DIFF_SEED) --first 200000 --count 20000 --threads 2,3 --jobs 4
