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
