# harness/t/build.mk - selcheck's self-tests: exit codes and script
# errors, misbehaving libraries, fill and check functions, digests, the
# SLEEF operands, the whole suite against the reference with both front
# ends, and all of it under the sanitizers.  `make check-harness` runs them.

# Tiny libraries that must be refused at setup (exit 2).
$(O)/harness/t/lib%.so: harness/t/%.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -shared $< $(LDFLAGS_ALL) -o $@

H_TLIBS := $(O)/harness/t/libnosym.so $(O)/harness/t/libbadabi.so

# The reference with one misbehaviour each (harness/t/misbehave.c).
H_MIS := overrun underrun read_after read_before input dims unwritten \
         dims_out hang abort exit unsafe misaligned movdqa oneway
H_MISLIBS := $(H_MIS:%=$(O)/harness/t/libmis_%.so)
$(O)/harness/t/libmis_%.so: harness/t/misbehave.c $(O)/libselect_ref.a spec/select.h ref/ref.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -fvisibility=hidden -DMIS_$(shell echo $* | tr a-z A-Z) \
	    -shared $< $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@

# The diagnosis and the output files (issue 12): misbehaviours one
# cluster each, --junit/--report/--results/--matrix, prove's JUnit
# formatter, progress only on a terminal (harness/t/diagnose.sh).
# decline.c: the reference declining pdpd and f64, for skips.
$(O)/harness/t/libdecline.so: harness/t/decline.c $(O)/libselect_ref.a spec/select.h ref/ref.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -fvisibility=hidden -shared $< $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@
ALL += $(O)/harness/t/libdecline.so
.PHONY: check-harness-diagnose
CHECK_HARNESS += check-harness-diagnose
check-harness-diagnose: $(O)/selcheck $(O)/libselect_ref.so $(O)/harness/t/libdecline.so \
                        $(H_MISLIBS) $(O)/examples/libminimal_oddtail.so
	@sh harness/t/diagnose.sh $(O)

# Unit checks of the exact literal conversion and the decoded notes.
$(O)/harness/t/dtype_test: harness/t/dtype_test.c $(O)/harness/h_dtype.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) -lm -o $@

ALL += $(H_TLIBS) $(H_MISLIBS) $(O)/harness/t/dtype_test

.PHONY: check-harness check-harness-run check-harness-dtype check-harness-misbehave \
        check-harness-suite check-harness-suite-jit check-harness-same-tap
CHECK_HARNESS += check-harness-run check-harness-dtype check-harness-misbehave \
         check-harness-suite check-harness-suite-jit check-harness-same-tap

check-harness-dtype: $(O)/harness/t/dtype_test
	@$(O)/harness/t/dtype_test

# Fill and check functions: the buffer API on every dtype, misuse
# messages, a runaway fill; the same TAP from both front ends.
.PHONY: check-harness-custom
CHECK_HARNESS += check-harness-custom
check-harness-custom: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so
	@sh harness/t/custom.sh $(O)

# The script time limit counts CPU time: selcheck stopped (SIGSTOP) past
# the limit at top level or in a fill function passes, in both front ends;
# a stopped runaway fill still fails at its limit of CPU.
.PHONY: check-harness-stall
CHECK_HARNESS += check-harness-stall
check-harness-stall: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so
	@sh harness/t/stall.sh $(O)

# The data of the SLEEF and fill-function cases is the same whatever runs
# it: both front ends, the reference, the optimized backend at every ISA
# level (same digest=... in every TAP line, all passing).
.PHONY: check-harness-digests
CHECK_HARNESS += check-harness-digests
check-harness-digests: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so \
                       $(O)/libselect_opt.so $(O)/opt/opt_ktest
	@sh harness/t/digests.sh $(O)

# Exit codes, script errors, --list/--only, guard pages: harness/t/run.sh.
check-harness-run: $(O)/selcheck $(O)/selcheck-jit $(H_TLIBS) $(O)/libselect_ref.so
	@sh harness/t/run.sh $(O)

# Each way an implementation can misbehave is reported with its reason.
check-harness-misbehave: $(O)/selcheck $(H_MISLIBS) $(O)/libselect_ref.so
	@sh harness/t/misbehave.sh $(O)

# The whole suite against the reference, every profile, both front ends.
check-harness-suite: $(O)/selcheck $(O)/libselect_ref.so
	prove -j2 --exec "$(O)/selcheck --profile all --impl $(O)/libselect_ref.so" cases/*.lua

check-harness-suite-jit: $(O)/selcheck-jit $(O)/libselect_ref.so
	prove -j2 --exec "$(O)/selcheck-jit --profile all --impl $(O)/libselect_ref.so" cases/*.lua

# Both front ends print the same TAP, byte for byte.
check-harness-same-tap: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so
	@$(O)/selcheck --fast --profile all --impl $(O)/libselect_ref.so > $(O)/harness/tap-lua54.txt || true
	@$(O)/selcheck-jit --fast --profile all --impl $(O)/libselect_ref.so > $(O)/harness/tap-luajit.txt || true
	@cmp $(O)/harness/tap-lua54.txt $(O)/harness/tap-luajit.txt && \
	    echo "check-harness-same-tap: selcheck and selcheck-jit agree ($$(grep -c '^ok' $(O)/harness/tap-lua54.txt) ok lines)"

# Sanitizers: the harness, the reference and the test libraries built once
# more with AddressSanitizer+UBSan ($(O)/asan) and ThreadSanitizer
# ($(O)/tsan); the self-tests, the misbehaving libraries and the suite
# (--fast, without the multi-MiB cases of large.lua) must come out the same.
# Only from an unsanitized make: a sanitized make check does not recurse.
ifeq ($(SAN),)
H_SAN_BUILD = selcheck selcheck-jit libselect_ref.so $(H_TLIBS:$(O)/%=%) \
              $(H_MISLIBS:$(O)/%=%)
.PHONY: check-harness-asan check-harness-tsan
CHECK_HARNESS += check-harness-asan check-harness-tsan

check-harness-asan:
	@$(MAKE) --no-print-directory -s O=$(O)/asan SAN=asan $(H_SAN_BUILD:%=$(O)/asan/%)
	@sh harness/t/run.sh $(O)/asan
	@sh harness/t/custom.sh $(O)/asan >/dev/null
	@sh harness/t/misbehave.sh $(O)/asan >/dev/null
	@$(O)/asan/selcheck --fast --profile all --impl $(O)/asan/libselect_ref.so \
	    --skip 'large:*' >$(O)/asan/suite.tap 2>$(O)/asan/suite.err || \
	    { grep -A12 '^not ok' $(O)/asan/suite.tap | head -40; cat $(O)/asan/suite.err; exit 1; }
	@echo "check-harness-asan: self-tests, misbehaviours and $$(grep -c '^ok' $(O)/asan/suite.tap) suite tests clean under ASan+UBSan"

# TSan stops the worker at the first race (halt_on_error): the reference
# in the concurrent cases must be clean, the deliberately unsafe library
# must not.
check-harness-tsan:
	@$(MAKE) --no-print-directory -s O=$(O)/tsan SAN=tsan $(O)/tsan/selcheck \
	    $(O)/tsan/libselect_ref.so $(O)/tsan/harness/t/libmis_unsafe.so
	@TSAN_OPTIONS=halt_on_error=1 $(O)/tsan/selcheck --profile all \
	    --impl $(O)/tsan/libselect_ref.so --only '*concurrent*' --skip 'large:*' \
	    cases/*.lua harness/t/misbehave.lua >$(O)/tsan/concurrent.tap 2>$(O)/tsan/concurrent.err || \
	    { cat $(O)/tsan/concurrent.err; grep -A12 '^not ok' $(O)/tsan/concurrent.tap | head -40; exit 1; }
	@if TSAN_OPTIONS=halt_on_error=1 $(O)/tsan/selcheck --impl $(O)/tsan/harness/t/libmis_unsafe.so \
	    harness/t/misbehave.lua >$(O)/tsan/unsafe.tap 2>&1; then \
	    echo "check-harness-tsan: the unsafe library passed" >&2; exit 1; fi
	@echo "check-harness-tsan: $$(grep -c '^ok' $(O)/tsan/concurrent.tap) concurrent tests race-free; the unsafe library caught"
endif


# ---- SLEEF operands (h_sleef.c) --------------------------------------------

SLEEF_LIBS := -lsleef -lm

$(O)/harness/t/sleef_fill: harness/t/sleef_fill.c harness/t/sleef_cpu.h \
		harness/h_sleef.h $(O)/harness/h_sleef.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $< $(O)/harness/h_sleef.o $(LDFLAGS_ALL) $(SLEEF_LIBS) -o $@

ALL += $(O)/harness/t/sleef_fill

.PHONY: check-sleef-fill check-sleef-levels
CHECK_HARNESS += check-sleef-fill check-sleef-levels

check-sleef-fill: $(O)/harness/t/sleef_fill
	$<

# One object per SLEEF level, each with only that level's ISA flags; the
# test runs those the CPU supports.  x86-64 only, like SLEEF's levels.
SLEEF_X86 := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),1,)
ifneq ($(SLEEF_X86),)
SLEEF_LEVELS := purec sse2 sse4 avx avx512fnofma purecfma avx2128 avx2 fma4 avx512f
SLEEF_LVLFLAGS_purec :=
SLEEF_LVLFLAGS_sse2 := -msse2
SLEEF_LVLFLAGS_sse4 := -msse4.1
SLEEF_LVLFLAGS_avx := -mavx
SLEEF_LVLFLAGS_avx512fnofma := -mavx512f
SLEEF_LVLFLAGS_purecfma := -mavx2 -mfma
SLEEF_LVLFLAGS_avx2128 := -mavx2 -mfma
SLEEF_LVLFLAGS_avx2 := -mavx2 -mfma
SLEEF_LVLFLAGS_fma4 := -mavx -mfma4
SLEEF_LVLFLAGS_avx512f := -mavx512f
SLEEF_LVL_OBJ := $(SLEEF_LEVELS:%=$(O)/harness/t/sleef_lvl_%.o)

$(O)/harness/t/sleef_lvl_%.o: harness/t/sleef_levels_isa.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DLVL_$* $(SLEEF_LVLFLAGS_$*) -c $< -o $@

$(O)/harness/t/sleef_levels: harness/t/sleef_levels.c harness/t/sleef_cpu.h \
		harness/h_sleef.h $(O)/harness/h_sleef.o $(SLEEF_LVL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $< $(O)/harness/h_sleef.o $(SLEEF_LVL_OBJ) $(LDFLAGS_ALL) $(SLEEF_LIBS) -o $@

ALL += $(O)/harness/t/sleef_levels

check-sleef-levels: $(O)/harness/t/sleef_levels
	$<
else
check-sleef-levels:
	@echo "check-sleef-levels: skipped (SLEEF's SIMD levels are x86-64 here)"
endif

# ---- hostile libraries and the protocol fuzzer (issue 17) -------------------

# The reference with one attack on the harness each (harness/t/hostile.c).
H_HOS := forge forge_nexec procmem sigstop sigterm sigalrm rlimit ptrace \
         forkpipe forkleft memory unsup guardwrite guardread segv arena late \
         ctorspin hangzero
H_HOSLIBS := $(H_HOS:%=$(O)/harness/t/libhos_%.so)
H_HOS_DEF_sigstop := -DHOS_SIG=SIGSTOP
H_HOS_DEF_sigterm := -DHOS_SIG=SIGTERM
H_HOS_DEF_sigalrm := -DHOS_SIG=SIGALRM
$(O)/harness/t/libhos_%.so: harness/t/hostile.c harness/h_wproto.h harness/h_worker.h \
		$(O)/libselect_ref.a spec/select.h ref/ref.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -Iharness -fvisibility=hidden \
	    -DHOS_$(shell echo $* | tr a-z A-Z) $(H_HOS_DEF_$*) -shared $< \
	    $(O)/libselect_ref.a $(LDFLAGS_ALL) -lpthread -o $@

# The worker whose replies wfuzz.c mangles (SELCHECK_WFUZZ=seed).
$(O)/harness/t/h_wproc_fuzz.o: harness/h_wproc.c $(H_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DH_WFUZZ -c $< -o $@
$(O)/harness/t/selcheck-worker-fuzz: $(O)/harness/h_wmain.o $(O)/harness/t/h_wproc_fuzz.o \
		$(O)/harness/h_wmem.o $(O)/harness/h_wsec.o harness/t/wfuzz.c $(H_HDR)
	$(CC) $(CFLAGS_ALL) -Iharness $(filter %.o %.c,$^) $(LDFLAGS_ALL) -ldl -lpthread -o $@

ALL += $(H_HOSLIBS) $(O)/harness/t/selcheck-worker-fuzz

# Every attack caught with its reason (hostile.sh); the whole suite against
# a library that hangs on every zero-size test in under 2 minutes is the
# long variant (make check has one file of it).
.PHONY: check-harness-hostile check-harness-hostile-long
CHECK_HARNESS += check-harness-hostile
check-harness-hostile: $(O)/selcheck $(O)/selcheck-worker $(O)/libselect_ref.so $(H_HOSLIBS)
	@sh harness/t/hostile.sh $(O) quick
CHECK_LONG += check-harness-hostile-long
check-harness-hostile-long: $(O)/selcheck $(O)/selcheck-worker $(O)/libselect_ref.so $(H_HOSLIBS)
	@sh harness/t/hostile.sh $(O)

# The protocol fuzzer under ASan+UBSan: the judge against mangled replies.
ifeq ($(SAN),)
.PHONY: check-harness-wfuzz
CHECK_HARNESS += check-harness-wfuzz
check-harness-wfuzz:
	@$(MAKE) --no-print-directory -s O=$(O)/asan SAN=asan $(O)/asan/selcheck \
	    $(O)/asan/libselect_ref.so $(O)/asan/harness/t/selcheck-worker-fuzz
	@sh harness/t/wfuzz.sh $(O)/asan 3
endif

CHECK += $(CHECK_HARNESS)
check-harness: $(CHECK_HARNESS)
