# examples/build.mk - the example third-party implementation and its two
# deliberately broken copies (same source, one -D macro each), and the
# check that selcheck passes the first and catches the others exactly.
# (examples/broken/ belongs to cases/build.mk.)

EX_VARIANTS := minimal minimal_oddtail minimal_rank0crash
EX_LIBS := $(EX_VARIANTS:%=$(O)/examples/lib%.so)
EX_DEF_minimal :=
EX_DEF_minimal_oddtail := -DBUG_ODD_TAIL
EX_DEF_minimal_rank0crash := -DBUG_RANK0_CRASH

$(O)/examples/lib%.so: examples/minimal.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden $(EX_DEF_$*) -shared $< $(LDFLAGS_ALL) -o $@

ALL += $(EX_LIBS)

.PHONY: check-examples
CHECK += check-examples

check-examples: $(O)/selcheck $(EX_LIBS)
	@sh harness/t/examples.sh $(O)
