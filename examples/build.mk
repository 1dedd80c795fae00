# examples/build.mk - the example third-party implementation and its two
# deliberately broken copies (same source, one -D macro each), and the
# check that selcheck passes the first and catches the others exactly; the
# broken implementations of examples/broken/ (cases/build.mk checks that
# the suite catches each).  `make check-examples` runs this folder.

EX_VARIANTS := minimal minimal_oddtail minimal_rank0crash
EX_LIBS := $(EX_VARIANTS:%=$(O)/examples/lib%.so)
EX_DEF_minimal :=
EX_DEF_minimal_oddtail := -DBUG_ODD_TAIL
EX_DEF_minimal_rank0crash := -DBUG_RANK0_CRASH

$(O)/examples/lib%.so: examples/minimal.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden $(EX_DEF_$*) -shared $< $(LDFLAGS_ALL) -o $@

ALL += $(EX_LIBS)

# One library per bug, all from examples/broken/ (broken.c and the shape
# checks, broken_shape.c); `none` is the same source without a bug and
# must pass what the others fail.
BROKEN_BUGS := nan_canon negzero cond_eq1 float_unselected blend bidir_cond \
               pdpd_cond_axis zero_one swap_bcast dense tail poison_flip \
               one_alignment flags_reject bool_normalize addr_cache \
               grain_quiet fill_float plan_axis ovf_zero_only split_rem \
               inplace_fill idx32 shared_scratch
BROKEN_LIBS := $(patsubst %,$(O)/broken/lib%.so,none $(BROKEN_BUGS))

BROKEN_SRC := examples/broken/broken.c examples/broken/broken_shape.c
$(O)/broken/lib%.so: $(BROKEN_SRC) examples/broken/broken.h spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -DBUG=$* -shared $(BROKEN_SRC) $(LDFLAGS_ALL) -o $@

ALL += $(BROKEN_LIBS)

.PHONY: check-examples check-examples-minimal
CHECK_EXAMPLES := check-examples-minimal
CHECK += $(CHECK_EXAMPLES)
check-examples: $(CHECK_EXAMPLES)

check-examples-minimal: $(O)/selcheck $(EX_LIBS)
	@sh examples/t/examples.sh $(O)
