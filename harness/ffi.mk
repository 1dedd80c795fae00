# harness/ffi.mk - the LuaJIT FFI binding (harness/selcheck.lua) and the
# SLEEF value generators (harness/h_sleef.c): their programs and checks.
# Included by the top Makefile after harness/bench.mk.

LUAJIT ?= luajit

# ---- FFI binding ---------------------------------------------------------

$(O)/harness/ffi_layout: harness/ffi_layout.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(LDFLAGS_ALL) -o $@

$(O)/harness/ffi_layout.txt: $(O)/harness/ffi_layout
	$< > $@

ALL += $(O)/harness/ffi_layout

.PHONY: check-ffi-layout check-ffi-layout-neg check-ffi-module check-ffi-example
CHECK += check-ffi-layout check-ffi-layout-neg check-ffi-module check-ffi-example

# The cdef against what the C compiler sees in spec/select.h.
check-ffi-layout: $(O)/harness/ffi_layout.txt
	$(LUAJIT) harness/t/ffi_layout.lua $<

# The same check on deliberately wrong cdefs must fail, naming the field.
check-ffi-layout-neg: $(O)/harness/ffi_layout.txt
	LUAJIT=$(LUAJIT) sh harness/t/ffi_layout_neg.sh $<

# Loading a sanitized library into luajit (not instrumented): under
# SAN=asan the runtime must be preloaded, which works with gcc's libasan
# and libubsan; under SAN=tsan luajit crashes inside the tsan runtime, so
# those checks are skipped there (the selcheck front ends cover tsan).
FFI_ASAN_RT = $(shell a=$$($(CC) -print-file-name=libasan.so); \
    u=$$($(CC) -print-file-name=libubsan.so); \
    [ -f "$$a" ] && [ -f "$$u" ] && echo "$$a:$$u")
FFI_RUN_ = $(LUAJIT)
FFI_RUN_asan = $(if $(FFI_ASAN_RT),LD_PRELOAD=$(FFI_ASAN_RT) $(LUAJIT))
FFI_RUN = $(FFI_RUN_$(SAN))

ifneq ($(FFI_RUN),)
check-ffi-module: $(O)/libselect_ref.so
	$(FFI_RUN) harness/t/ffi_selcheck.lua $(O)

check-ffi-example: $(O)/libselect_ref.so $(O)/libselect_opt.so
	$(FFI_RUN) examples/explore.lua $(O) --all
else
check-ffi-module check-ffi-example:
	@echo "$@: skipped under SAN=$(SAN) (luajit cannot load these libraries)"
endif

# ---- SLEEF ---------------------------------------------------------------

$(O)/harness/h_sleef.o: harness/h_sleef.c harness/h_sleef.h spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

SLEEF_LIBS := -lsleef -lm

$(O)/harness/t/sleef_fill: harness/t/sleef_fill.c harness/t/sleef_cpu.h \
		harness/h_sleef.h $(O)/harness/h_sleef.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $< $(O)/harness/h_sleef.o $(LDFLAGS_ALL) $(SLEEF_LIBS) -o $@

ALL += $(O)/harness/h_sleef.o $(O)/harness/t/sleef_fill

.PHONY: check-sleef-fill check-sleef-levels
CHECK += check-sleef-fill check-sleef-levels

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
