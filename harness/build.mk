# harness/build.mk - selcheck (Lua 5.4) and selcheck-jit (LuaJIT): one C
# core that links no Lua, and the front end (h_lua*.c) compiled once per
# interpreter.  Its self-tests are in harness/t/build.mk; `make
# check-harness` runs them.

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

# SLEEF operands, the "sleef:<fn>" value classes (h_sleef.c): plain C, no
# Lua, shared by both front ends.
$(O)/harness/h_sleef.o: harness/h_sleef.c harness/h_sleef.h spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(O)/selcheck: $(H_CORE_OBJ) $(H_LUA54_OBJ) $(O)/harness/h_sleef.o $(O)/libselect_ref.a
	$(CC) $(LDFLAGS_ALL) $^ $(H_LUA54_LIBS) $(H_LIBS) -o $@

$(O)/selcheck-jit: $(H_CORE_OBJ) $(H_LUAJIT_OBJ) $(O)/harness/h_sleef.o $(O)/libselect_ref.a
	$(CC) $(LDFLAGS_ALL) $^ $(H_LUAJIT_LIBS) $(H_LIBS) -o $@

ALL += $(O)/selcheck $(O)/selcheck-jit $(O)/harness/h_sleef.o
CHECK_HARNESS :=

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
CHECK_HARNESS += check-harness-install
check-harness-install: $(O)/selcheck $(O)/selcheck-jit $(H_INSTALL_LIBS)
	@rm -rf $(O)/inst
	@$(MAKE) --no-print-directory -s install-harness DESTDIR=$(abspath $(O))/inst PREFIX=/usr >/dev/null
	@cd / && env -u SELCHECK_HOME $(abspath $(O))/inst/usr/bin/selcheck --only 'spec_examples:*' \
	    >$(abspath $(O))/inst/tap.txt && \
	    grep -q '^# impl: .*/inst/usr/bin/../lib/libselect_' $(abspath $(O))/inst/tap.txt && \
	    echo "check-harness-install: the installed selcheck runs $$(grep -c '^ok' $(abspath $(O))/inst/tap.txt) spec examples from /"
