# harness/fuzz.mk - the fuzz target (harness/fuzz_select.c): a libFuzzer
# build of ref, opt and the target with clang (make fuzz), a bounded run from
# the checked-in corpus in make check, a long one in check-long, and
# fuzz_repro, the same target without libFuzzer, for replaying one input.

FUZZ_CC   ?= clang
FUZZ_TIME ?= 20
FUZZ_LONG_TIME ?= 300
FUZZ_DIR  := $(O)/fuzz
FUZZ_CORPUS := harness/fuzz_corpus
FUZZ_HDR  := harness/t/fuzz_format.h harness/t/fuzz_case.h $(OPT_HDR) ref/ref.h
# Known, reported defects the sanitizers must not stop the run on (the
# file says which); empty it to see them again.
FUZZ_IGNORE ?= harness/t/fuzz_known.txt
FUZZ_IGN  := $(if $(FUZZ_IGNORE),-fsanitize-ignorelist=$(FUZZ_IGNORE))
# Coverage and sanitizers on every object, ref and opt included, so the
# fuzzer steers by their branches and ASan sees their accesses.
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
FUZZ_CFLAGS := $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
               -D_POSIX_C_SOURCE=200809L -Ispec -Iref -Iopt -Iharness
FUZZ_OBJ  := $(REF_SRC:%.c=$(FUZZ_DIR)/%.o) $(OPT_SRC:%.c=$(FUZZ_DIR)/%.o) \
             $(FUZZ_DIR)/harness/fuzz_select.o $(FUZZ_DIR)/harness/t/fuzz_decode.o

$(FUZZ_DIR)/ref/%.o: ref/%.c ref/ref.h ref/ref_internal.h spec/select.h $(FUZZ_IGNORE)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_IGN) -c $< -o $@

$(FUZZ_DIR)/opt/%.o: opt/%.c $(OPT_HDR) $(FUZZ_IGNORE)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_IGN) $(OPT_ISAFLAGS_$*) -pthread -c $< -o $@

$(FUZZ_DIR)/harness/%.o: harness/%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/fuzz_select: $(FUZZ_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -pthread $^ -o $@

# The reproducer: the normal toolchain and flags (so SAN=asan applies), the
# static ref and opt libraries, and a main() of its own.
$(O)/harness/fuzz_select.o: harness/fuzz_select.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -Iopt -Iharness -c $< -o $@

$(O)/harness/t/fuzz_%.o: harness/t/fuzz_%.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iopt -Iharness -c $< -o $@

$(O)/harness/fuzz_repro: $(O)/harness/t/fuzz_repro.o $(O)/harness/fuzz_select.o \
                         $(O)/harness/t/fuzz_decode.o $(O)/libselect_ref.a \
                         $(O)/libselect_opt.a
	$(CC) $(LDFLAGS_ALL) -pthread $^ -o $@

# The target's own test: the reproducer against a broken opt.
$(O)/harness/fuzz_select_broken.o: harness/fuzz_select.c $(FUZZ_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -Iopt -Iharness -DH_FZ_UNDER_TEST=h_fz_broken -c $< -o $@

$(O)/harness/fuzz_repro_broken: $(O)/harness/t/fuzz_repro.o \
                                $(O)/harness/fuzz_select_broken.o \
                                $(O)/harness/t/fuzz_decode.o \
                                $(O)/harness/t/fuzz_broken.o \
                                $(O)/libselect_ref.a $(O)/libselect_opt.a
	$(CC) $(LDFLAGS_ALL) -pthread $^ -o $@

# The seed corpus generator (harness/fuzz_corpus/README.md).
$(O)/harness/fuzz_seeds: $(O)/harness/t/fuzz_seeds.o
	$(CC) $(LDFLAGS_ALL) $^ -o $@

ALL += $(O)/harness/fuzz_repro $(O)/harness/fuzz_repro_broken $(O)/harness/fuzz_seeds

.PHONY: fuzz fuzz-corpus check-fuzz check-fuzz-corpus check-fuzz-selftest \
        check-fuzz-long
CHECK += check-fuzz-corpus check-fuzz-selftest check-fuzz
CHECK_LONG += check-fuzz-long

fuzz: $(FUZZ_DIR)/fuzz_select
	@echo "fuzz: built $<; run: sh harness/t/fuzz_run.sh $(O) SECONDS"

# Rewrites the checked-in corpus from the generator (run after changing
# harness/t/fuzz_seeds.c or the format, then commit harness/fuzz_corpus).
fuzz-corpus: $(O)/harness/fuzz_seeds
	find $(FUZZ_CORPUS) -type f ! -name README.md -delete
	$(O)/harness/fuzz_seeds $(FUZZ_CORPUS)

# The checked-in corpus is exactly what the generator writes, and every
# seed replays cleanly through the reproducer.
check-fuzz-corpus: $(O)/harness/fuzz_seeds $(O)/harness/fuzz_repro
	@rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds
	@$(O)/harness/fuzz_seeds $(FUZZ_DIR)/seeds
	@diff -r -x README.md $(FUZZ_CORPUS) $(FUZZ_DIR)/seeds >&2 || { \
	    echo "check-fuzz-corpus: $(FUZZ_CORPUS) is stale: make fuzz-corpus" >&2; exit 1; }
	@$(O)/harness/fuzz_repro $(FUZZ_CORPUS)

check-fuzz-selftest: $(O)/harness/fuzz_repro_broken
	@sh harness/t/fuzz_selftest.sh $(O)

check-fuzz: $(FUZZ_DIR)/fuzz_select
	@sh harness/t/fuzz_run.sh $(O) $(FUZZ_TIME)

check-fuzz-long: $(FUZZ_DIR)/fuzz_select
	@sh harness/t/fuzz_run.sh $(O) $(FUZZ_LONG_TIME)
