# cases/build.mk - the suite's own checks: every rule of spec/select.md has a
# case (check-cases-coverage), and every deliberately broken implementation
# of examples/broken/ (built by examples/build.mk) is caught
# (check-cases-broken, cases/t/broken.sh).  `make check-cases` runs them.

.PHONY: check-cases check-cases-coverage check-cases-broken
CHECK_CASES := check-cases-coverage check-cases-broken
CHECK += $(CHECK_CASES)
check-cases: $(CHECK_CASES)

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

# One output past 2^31 elements (IO-LENGTH-1): a 2.2 GB u8 dst from inputs
# of a few KiB, sampled (cases/t/huge.c; each library in a child process);
# skipped with a message where MemAvailable is short.  The reference and
# opt must pass, the idx32 broken build (a 32-bit flat index) must fail.
$(O)/cases/huge: cases/t/huge.c spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $< $(LDFLAGS_ALL) -ldl -o $@

ALL += $(O)/cases/huge
.PHONY: check-cases-huge
CHECK_LONG += check-cases-huge
check-cases-huge: $(O)/cases/huge $(O)/libselect_ref.so $(O)/libselect_opt.so \
                  $(O)/broken/libidx32.so
	@$(O)/cases/huge $(O)/libselect_ref.so $(O)/libselect_opt.so \
	    '!$(O)/broken/libidx32.so'
