# harness/build.mk - selcheck (Lua 5.4) and selcheck-jit (LuaJIT): one C
# core that links no Lua, and the front end (h_lua*.c) compiled once per
# interpreter.  Also the harness's self-tests and the whole suite under
# prove against the reference with both front ends.

H_CORE := h_case h_dtype h_gen h_point h_point_fn h_layout h_worker h_wproc h_judge \
          h_tap h_run h_main
H_FRONT := h_lua h_lua_read h_lua_case h_lua_fill h_lua_buf
H_CORE_OBJ := $(H_CORE:%=$(O)/harness/%.o)
H_LUA54_OBJ := $(H_FRONT:%=$(O)/harness/lua54/%.o)
H_LUAJIT_OBJ := $(H_FRONT:%=$(O)/harness/luajit/%.o)
H_HDR := $(wildcard harness/h_*.h) spec/select.h ref/ref.h
H_LIBS := -lsleef -ldl -lpthread -lm

H_LUA54_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
H_LUA54_LIBS := $(shell pkg-config --libs lua5.4 2>/dev/null)
H_LUAJIT_CFLAGS := $(shell pkg-config --cflags luajit 2>/dev/null)
H_LUAJIT_LIBS := $(shell pkg-config --libs luajit 2>/dev/null)

$(O)/harness/%.o: harness/%.c $(H_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -DH_HOME='"$(CURDIR)"' -c $< -o $@

$(O)/harness/lua54/%.o: harness/%.c $(H_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(H_LUA54_CFLAGS) -c $< -o $@

$(O)/harness/luajit/%.o: harness/%.c $(H_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(H_LUAJIT_CFLAGS) -I$(O)/harness -c $< -o $@

# selcheck-jit's buffer objects are Lua (h_lua_jit.lua), embedded as a C
# string: each line quoted, backslashes and quotes escaped.
$(O)/harness/h_lua_jit.inc: harness/h_lua_jit.lua
	@mkdir -p $(@D)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(O)/harness/luajit/h_lua_buf.o: $(O)/harness/h_lua_jit.inc

# h_sleef.o (SLEEF operands, the "sleef:<fn>" value classes) is built by
# harness/ffi.mk.
$(O)/selcheck: $(H_CORE_OBJ) $(H_LUA54_OBJ) $(O)/harness/h_sleef.o $(O)/libselect_ref.a
	$(CC) $(LDFLAGS_ALL) $^ $(H_LUA54_LIBS) $(H_LIBS) -o $@

$(O)/selcheck-jit: $(H_CORE_OBJ) $(H_LUAJIT_OBJ) $(O)/harness/h_sleef.o $(O)/libselect_ref.a
	$(CC) $(LDFLAGS_ALL) $^ $(H_LUAJIT_LIBS) $(H_LIBS) -o $@

# `make bench`: fill functions' throughput under each front end
# (harness/t/fill_bench.c on t/fill_bench.lua), elements per second.
H_FB_OBJ := $(O)/harness/h_case.o $(O)/harness/h_dtype.o $(O)/harness/h_sleef.o
$(O)/harness/t/fill_bench: harness/t/fill_bench.c $(H_LUA54_OBJ) $(H_FB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) $(H_LUA54_LIBS) $(H_LIBS) -o $@
$(O)/harness/t/fill_bench-jit: harness/t/fill_bench.c $(H_LUAJIT_OBJ) $(H_FB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) $(H_LUAJIT_LIBS) $(H_LIBS) -o $@
ALL += $(O)/harness/t/fill_bench $(O)/harness/t/fill_bench-jit

.PHONY: bench-fill
BENCH += bench-fill
bench-fill: $(O)/harness/t/fill_bench $(O)/harness/t/fill_bench-jit
	@$(O)/harness/t/fill_bench 5
	@$(O)/harness/t/fill_bench-jit 5

# Tiny libraries that must be refused at setup (exit 2).
$(O)/harness/t/lib%.so: harness/t/%.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -shared $< $(LDFLAGS_ALL) -o $@

H_TLIBS := $(O)/harness/t/libnosym.so $(O)/harness/t/libbadabi.so

# The reference with one misbehaviour each (harness/t/misbehave.c).
H_MIS := overrun underrun read_after read_before input dims unwritten \
         dims_out hang abort exit unsafe misaligned oneway
H_MISLIBS := $(H_MIS:%=$(O)/harness/t/libmis_%.so)
$(O)/harness/t/libmis_%.so: harness/t/misbehave.c $(O)/libselect_ref.a spec/select.h ref/ref.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iref -fvisibility=hidden -DMIS_$(shell echo $* | tr a-z A-Z) \
	    -shared $< $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@

# Unit checks of the exact literal conversion and the decoded notes.
$(O)/harness/t/dtype_test: harness/t/dtype_test.c $(O)/harness/h_dtype.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) -lm -o $@

ALL += $(O)/selcheck $(O)/selcheck-jit $(H_TLIBS) $(H_MISLIBS) \
       $(O)/harness/t/dtype_test

.PHONY: check-harness check-harness-dtype check-harness-misbehave \
        check-harness-suite check-harness-suite-jit check-harness-same-tap
CHECK += check-harness check-harness-dtype check-harness-misbehave \
         check-harness-suite check-harness-suite-jit check-harness-same-tap

check-harness-dtype: $(O)/harness/t/dtype_test
	@$(O)/harness/t/dtype_test

# Fill and check functions: the buffer API on every dtype, misuse
# messages, a runaway fill; the same TAP from both front ends.
.PHONY: check-harness-custom
CHECK += check-harness-custom
check-harness-custom: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so
	@sh harness/t/custom.sh $(O)

# The data of the SLEEF and fill-function cases is the same whatever runs
# it: both front ends, the reference, the optimized backend at every ISA
# level (same digest=... in every TAP line, all passing).
.PHONY: check-harness-digests
CHECK += check-harness-digests
check-harness-digests: $(O)/selcheck $(O)/selcheck-jit $(O)/libselect_ref.so \
                       $(O)/libselect_opt.so $(O)/opt/opt_ktest
	@sh harness/t/digests.sh $(O)

# Exit codes, script errors, --list/--only, guard pages: harness/t/run.sh.
check-harness: $(O)/selcheck $(O)/selcheck-jit $(H_TLIBS) $(O)/libselect_ref.so
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
CHECK += check-harness-asan check-harness-tsan

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

.PHONY: install-harness
INSTALL += install-harness
# bin/selcheck{,-jit}, lib/libselect_{ref,opt}.so (selcheck's default
# --impl, found as ../lib from bin), include/select.h, share/selcheck/
# {spec,cases} (found as ../share/selcheck from bin).
H_INSTALL_LIBS := $(O)/libselect_ref.so $(O)/libselect_opt.so
install-harness: $(O)/selcheck $(O)/selcheck-jit $(H_INSTALL_LIBS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/selcheck/spec \
	    $(DESTDIR)$(PREFIX)/share/selcheck/cases
	install -m 755 $(O)/selcheck $(O)/selcheck-jit $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(H_INSTALL_LIBS) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 spec/select.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 spec/select.md spec/profiles.lua $(DESTDIR)$(PREFIX)/share/selcheck/spec/
	install -m 644 cases/*.lua cases/README.md $(DESTDIR)$(PREFIX)/share/selcheck/cases/

# An installed tree works from anywhere: spec/, cases/ and the default
# implementation are found relative to bin/.
.PHONY: check-harness-install
CHECK += check-harness-install
check-harness-install: $(O)/selcheck $(O)/selcheck-jit $(H_INSTALL_LIBS)
	@rm -rf $(O)/inst
	@$(MAKE) --no-print-directory -s install-harness DESTDIR=$(abspath $(O))/inst PREFIX=/usr >/dev/null
	@cd / && env -u SELCHECK_HOME $(abspath $(O))/inst/usr/bin/selcheck --only 'spec_examples:*' \
	    >$(abspath $(O))/inst/tap.txt && \
	    grep -q '^# impl: .*/inst/usr/bin/../lib/libselect_' $(abspath $(O))/inst/tap.txt && \
	    echo "check-harness-install: the installed selcheck runs $$(grep -c '^ok' $(abspath $(O))/inst/tap.txt) spec examples from /"
