# harness/ffi/build.mk - the LuaJIT FFI module (selcheck.lua and
# selcheck_values.lua): the layout dump of spec/select.h its cdef is
# checked against, and its checks.  `make check-ffi` runs this folder.

F_DIR := harness/ffi
LUAJIT ?= luajit

$(O)/ffi/ffi_layout: $(F_DIR)/ffi_layout.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(LDFLAGS_ALL) -o $@

$(O)/ffi/ffi_layout.txt: $(O)/ffi/ffi_layout
	$< > $@

ALL += $(O)/ffi/ffi_layout

.PHONY: check-ffi check-ffi-layout check-ffi-layout-neg check-ffi-module check-ffi-example
CHECK_FFI := check-ffi-layout check-ffi-layout-neg check-ffi-module check-ffi-example
CHECK += $(CHECK_FFI)
check-ffi: $(CHECK_FFI)

# The cdef against what the C compiler sees in spec/select.h.
check-ffi-layout: $(O)/ffi/ffi_layout.txt
	$(LUAJIT) $(F_DIR)/t/ffi_layout.lua $<

# The same check on deliberately wrong cdefs must fail, naming the field.
check-ffi-layout-neg: $(O)/ffi/ffi_layout.txt
	LUAJIT=$(LUAJIT) sh $(F_DIR)/t/ffi_layout_neg.sh $<

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
	$(FFI_RUN) $(F_DIR)/t/ffi_selcheck.lua $(O)

check-ffi-example: $(O)/libselect_ref.so $(O)/libselect_opt.so
	$(FFI_RUN) examples/explore.lua $(O) --all
else
check-ffi-module check-ffi-example:
	@echo "$@: skipped under SAN=$(SAN) (luajit cannot load these libraries)"
endif
