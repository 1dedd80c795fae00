# cases/build.mk - the suite's own checks: every rule of spec/select.md has a
# case (check-cases-coverage), and every deliberately broken implementation
# of examples/broken/ is caught (check-cases-broken, cases/t/broken.sh).

# One library per bug, all from examples/broken/broken.c; `none` is the
# same source without a bug and must pass what the others fail.
BROKEN_BUGS := nan_canon negzero cond_eq1 float_unselected blend bidir_cond \
               pdpd_cond_axis zero_one swap_bcast dense tail
BROKEN_LIBS := $(patsubst %,$(O)/broken/lib%.so,none $(BROKEN_BUGS))

$(O)/broken/lib%.so: examples/broken/broken.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -DBUG=$* -shared $< $(LDFLAGS_ALL) -o $@

ALL += $(BROKEN_LIBS)

.PHONY: check-cases-coverage check-cases-broken
CHECK += check-cases-coverage check-cases-broken

# Every rule has at least one case and no case names an unknown rule.
check-cases-coverage: $(O)/selcheck
	@$(O)/selcheck --coverage >$(O)/coverage.txt || { cat $(O)/coverage.txt; \
	    echo "check-cases-coverage: failed" >&2; exit 1; }
	@echo "check-cases-coverage: every rule has a case ($(O)/coverage.txt)"

check-cases-broken: $(O)/selcheck $(O)/libselect_ref.so $(BROKEN_LIBS)
	@sh cases/t/broken.sh $(O)

# The long enumerations (`selcheck --long`, scripts see long_run): the whole
# suite with them, against the reference and the optimized backend.
.PHONY: check-cases-long
CHECK_LONG += check-cases-long
check-cases-long: $(O)/selcheck $(O)/libselect_ref.so $(O)/libselect_opt.so
	@$(O)/selcheck --long --profile all --impl $(O)/libselect_ref.so \
	    --impl $(O)/libselect_opt.so >$(O)/long.tap 2>$(O)/long.err || \
	    { grep -A14 '^not ok' $(O)/long.tap | head -60; cat $(O)/long.err; exit 1; }
	@echo "check-cases-long: $$(tail -1 $(O)/long.tap)"
