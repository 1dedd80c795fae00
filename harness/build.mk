# harness/build.mk - selcheck (Lua 5.4) and selcheck-jit (LuaJIT): one C
# core that links no Lua, and the front end (h_lua*.c) compiled once per
# interpreter.  Its self-tests are in harness/t/build.mk; `make
# check-harness` runs them.

H_CORE := h_case h_dtype h_gen h_point h_point_fn h_point_locate h_mem h_layout h_worker h_wspawn h_wcheck h_wtime h_wsec h_judge h_jdesc \
          h_tap h_run h_main h_results h_runset h_feat h_cluster h_diagtap \
          h_junit h_report h_progress
H_FRONT := h_lua h_lua_read h_lua_case h_lua_fill h_lua_buf h_lua_limit
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

# selcheck-worker: the process an implementation runs in (h_wmain.c sets
# up its sandbox, h_wproc.c serves jobs); selcheck starts it from its own
# directory, or from $$SELCHECK_WORKER.
H_WORKER_OBJ := $(O)/harness/h_wmain.o $(O)/harness/h_wproc.o $(O)/harness/h_wmem.o \
                $(O)/harness/h_wsec.o
$(O)/selcheck-worker: $(H_WORKER_OBJ)
	$(CC) $(LDFLAGS_ALL) $^ -ldl -lpthread -o $@
$(O)/selcheck $(O)/selcheck-jit: | $(O)/selcheck-worker

ALL += $(O)/selcheck $(O)/selcheck-jit $(O)/harness/h_sleef.o $(O)/selcheck-worker
CHECK_HARNESS :=
