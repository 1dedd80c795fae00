# harness/diff/build.mk - the ref-vs-opt differential programs: difftest
# (randomized calls at every ISA level and thread count) and the fuzz
# target (fuzz_select.c): a libFuzzer build of ref, opt and the target with
# clang (make fuzz), a bounded run from the checked-in corpus in make check,
# a long one in check-long, and fuzz_repro, the same target without
# libFuzzer, for replaying one input.  `make check-diff` runs this folder.

D_DIR := harness/diff
D_HDR := $(D_DIR)/fuzz_format.h $(D_DIR)/fuzz_case.h $(OPT_HDR) ref/ref.h
D_CFLAGS = $(CFLAGS_ALL) -Iopt -Iref -I$(D_DIR)

# ---- difftest -------------------------------------------------------------

$(O)/difftest: $(D_DIR)/difftest.c $(D_DIR)/diff_gen.c $(D_DIR)/diff_periodic.c $(D_DIR)/diff_gen.h $(O)/libselect_opt.a $(O)/libselect_ref.a $(OPT_HDR) ref/ref.h
	$(CC) $(D_CFLAGS) -pthread $(D_DIR)/difftest.c $(D_DIR)/diff_gen.c $(D_DIR)/diff_periodic.c $(O)/libselect_opt.a $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@

ALL += $(O)/difftest
DIFF_SEED ?= 1
DIFF_COUNT ?= $(if $(SAN),2000,10000)

# A bounded slice in `make check` (every ISA level x 1, 2, 3 threads, then
# concurrent callers), a long run in `make check-long`.
# The third run takes the other microarchitecture's choices (SEL_SPLIT512
# flipped: Zen 4's on Zen 5 and the reverse), so the paths opt keeps for
# a CPU this machine is not are proved too (opt/README.md, "Zen 4 and Zen 5").
DIFF_SPLIT_COUNT ?= $(if $(SAN),1000,4000)
check-diff-opt: $(O)/difftest $(O)/opt/opt_ktest
	$(O)/difftest --seed $(DIFF_SEED) --count $(DIFF_COUNT)
	$(O)/difftest --seed $(DIFF_SEED) --first $(DIFF_COUNT) --count 2000 --threads 3 --jobs 3
	@split=$$($(O)/opt/opt_ktest --active | cut -d' ' -f3); \
	echo "check-diff-opt: SEL_SPLIT512=$$((1 - split)) (this CPU: $$split)"; \
	SEL_SPLIT512=$$((1 - split)) $(O)/difftest --seed $(DIFF_SEED) --first $$(($(DIFF_COUNT) + 2000)) --count $(DIFF_SPLIT_COUNT)

check-diff-opt-long: $(O)/difftest
	$(O)/difftest --seed $(DIFF_SEED) --first 100000 --count 100000
	$(O)/difftest --seed $(DIFF_SEED) --first 200000 --count 20000 --threads 2,3 --jobs 4

# ---- the fuzz target --------------------------------------------------------

FUZZ_CC   ?= clang
FUZZ_TIME ?= 20
FUZZ_LONG_TIME ?= 300
FUZZ_DIR  := $(O)/fuzz
FUZZ_CORPUS := $(D_DIR)/fuzz_corpus
# Known, reported defects the sanitizers must not stop the run on (the
# file says which); empty it to see them again.
FUZZ_IGNORE ?= $(D_DIR)/fuzz_known.txt
FUZZ_IGN  := $(if $(FUZZ_IGNORE),-fsanitize-ignorelist=$(FUZZ_IGNORE))
# Coverage and sanitizers on every object, ref and opt included, so the
# fuzzer steers by their branches and ASan sees their accesses.
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
FUZZ_CFLAGS := $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
               -D_POSIX_C_SOURCE=200809L -Ispec -Iref -Iopt -I$(D_DIR)
FUZZ_OBJ  := $(REF_SRC:%.c=$(FUZZ_DIR)/%.o) $(OPT_SRC:%.c=$(FUZZ_DIR)/%.o) \
             $(FUZZ_DIR)/diff/fuzz_select.o $(FUZZ_DIR)/diff/fuzz_decode.o

$(FUZZ_DIR)/ref/%.o: ref/%.c ref/ref.h ref/ref_internal.h spec/select.h $(FUZZ_IGNORE)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_IGN) -c $< -o $@

# The VBMI permute loops (ptile: 108 inlined copies of one loop) took
# clang over 10 minutes at -O1 with UBSan on top of ASan and coverage,
# 30 s without it: UBSan is left off for that file alone (ASan stays, and
# check-asan builds it with gcc's UBSan).
# The crep kernels in opt_avx512.c took clang 150 of the file's 170 s
# with ASan's checks inline (the masked loads are checked lane by lane);
# as calls to the ASan runtime (the same checks) the object is half the
# size and builds about three times faster.
FUZZ_ASAN_CALLS := -mllvm -asan-instrumentation-with-call-threshold=0
FUZZ_FLAGS_opt_avx512 := $(FUZZ_ASAN_CALLS)
FUZZ_FLAGS_opt_avx512_perm := -fno-sanitize=undefined $(FUZZ_ASAN_CALLS)
FUZZ_FLAGS_opt_avx512_chunk := -fno-sanitize=undefined $(FUZZ_ASAN_CALLS)

# clang 14 has no -mtls-dialect=gnu2 (opt_select.c's warm record): the
# fuzz build reads its TLS the default way.
$(FUZZ_DIR)/opt/%.o: opt/%.c $(OPT_HDR) $(FUZZ_IGNORE)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_IGN) $(filter-out -mtls-dialect=%,$(OPT_ISAFLAGS_$*)) $(FUZZ_FLAGS_$*) -pthread -c $< -o $@

$(FUZZ_DIR)/diff/%.o: $(D_DIR)/%.c $(D_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz_select: $(FUZZ_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -pthread $^ -o $@

# The reproducer: the normal toolchain and flags (so SAN=asan applies), the
# static ref and opt libraries, and a main() of its own.
$(O)/diff/%.o: $(D_DIR)/%.c $(D_HDR)
	@mkdir -p $(@D)
	$(CC) $(D_CFLAGS) -c $< -o $@

$(O)/diff/t/%.o: $(D_DIR)/t/%.c $(D_HDR)
	@mkdir -p $(@D)
	$(CC) $(D_CFLAGS) -c $< -o $@

$(O)/diff/fuzz_repro: $(O)/diff/fuzz_repro.o $(O)/diff/fuzz_select.o \
                      $(O)/diff/fuzz_decode.o $(O)/libselect_ref.a $(O)/libselect_opt.a
	$(CC) $(LDFLAGS_ALL) -pthread $^ -o $@

# The target's own test: the reproducer against a broken opt.
$(O)/diff/fuzz_select_broken.o: $(D_DIR)/fuzz_select.c $(D_HDR)
	@mkdir -p $(@D)
	$(CC) $(D_CFLAGS) -DH_FZ_UNDER_TEST=h_fz_broken -c $< -o $@

$(O)/diff/fuzz_repro_broken: $(O)/diff/fuzz_repro.o $(O)/diff/fuzz_select_broken.o \
                             $(O)/diff/fuzz_decode.o $(O)/diff/t/fuzz_broken.o \
                             $(O)/libselect_ref.a $(O)/libselect_opt.a
	$(CC) $(LDFLAGS_ALL) -pthread $^ -o $@

# The seed corpus generator (harness/diff/fuzz_corpus/README.md).
$(O)/diff/fuzz_seeds: $(O)/diff/fuzz_seeds.o
	$(CC) $(LDFLAGS_ALL) $^ -o $@

ALL += $(O)/diff/fuzz_repro $(O)/diff/fuzz_repro_broken $(O)/diff/fuzz_seeds

.PHONY: fuzz fuzz-corpus check-diff check-diff-opt check-diff-opt-long \
        check-fuzz check-fuzz-corpus check-fuzz-selftest check-fuzz-long
CHECK_DIFF := check-diff-opt check-fuzz-corpus check-fuzz-selftest check-fuzz
CHECK += $(CHECK_DIFF)
CHECK_LONG += check-diff-opt-long check-fuzz-long
check-diff: $(CHECK_DIFF)

fuzz: $(FUZZ_DIR)/fuzz_select
	@echo "fuzz: built $<; run: sh $(D_DIR)/fuzz_run.sh $(O) SECONDS"

# Rewrites the checked-in corpus from the generator (run after changing
# fuzz_seeds.c or the format, then commit harness/diff/fuzz_corpus).
fuzz-corpus: $(O)/diff/fuzz_seeds
	find $(FUZZ_CORPUS) -type f ! -name README.md -delete
	$(O)/diff/fuzz_seeds $(FUZZ_CORPUS)

# The checked-in corpus is exactly what the generator writes, and every
# seed replays cleanly through the reproducer.
check-fuzz-corpus: $(O)/diff/fuzz_seeds $(O)/diff/fuzz_repro
	@rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds
	@$(O)/diff/fuzz_seeds $(FUZZ_DIR)/seeds
	@diff -r -x README.md $(FUZZ_CORPUS) $(FUZZ_DIR)/seeds >&2 || { \
	    echo "check-fuzz-corpus: $(FUZZ_CORPUS) is stale: make fuzz-corpus" >&2; exit 1; }
	@$(O)/diff/fuzz_repro $(FUZZ_CORPUS)

check-fuzz-selftest: $(O)/diff/fuzz_repro_broken
	@sh $(D_DIR)/t/fuzz_selftest.sh $(O)

# Its objects build two at a time (make check runs its steps one by one).
check-fuzz:
	@$(MAKE) --no-print-directory -j2 $(FUZZ_DIR)/fuzz_select
	@sh $(D_DIR)/fuzz_run.sh $(O) $(FUZZ_TIME)

check-fuzz-long: $(FUZZ_DIR)/fuzz_select
	@sh $(D_DIR)/fuzz_run.sh $(O) $(FUZZ_LONG_TIME)
