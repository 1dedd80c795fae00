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

.PHONY: check-ffi-layout check-ffi-layout-neg
CHECK += check-ffi-layout check-ffi-layout-neg

# The cdef against what the C compiler sees in spec/select.h.
check-ffi-layout: $(O)/harness/ffi_layout.txt
	$(LUAJIT) harness/t/ffi_layout.lua $<

# The same check on deliberately wrong cdefs must fail, naming the field.
check-ffi-layout-neg: $(O)/harness/ffi_layout.txt
	LUAJIT=$(LUAJIT) sh harness/t/ffi_layout_neg.sh $<
