# harness/bench/build.mk - `make bench`: the Select benchmark (bench*.c)
# and the fill-function throughput of each Lua front end (fill_bench.c).
# IMPL=path/to/lib.so adds a third-party implementation; BENCH_ARGS passes
# more options (e.g. --quick, --only attn, --yardsticks to print every
# yardstick strategy's rows; --kernels times every kernel of opt's table in
# cache instead).  CSV (every strategy's rows) lands in $(O)/bench.csv.

B_DIR := harness/bench
B_SRC := $(B_DIR)/bench.c $(B_DIR)/bench_work.c $(B_DIR)/bench_run.c \
         $(B_DIR)/bench_sweep.c $(B_DIR)/bench_numpy.c \
         $(B_DIR)/bench_stream.c $(B_DIR)/bench_kernels.c \
         $(B_DIR)/bench_util.c
$(O)/bench: $(B_SRC) $(B_DIR)/bench.h $(O)/libselect_opt.a $(O)/libselect_ref.a $(OPT_HDR) ref/ref.h
	$(CC) $(CFLAGS_ALL) -Iopt -Iref -pthread $(B_SRC) \
	    $(O)/libselect_opt.a $(O)/libselect_ref.a -ldl -lm $(LDFLAGS_ALL) -o $@

# Fill functions' throughput under each front end (fill_bench.c running
# fill_bench.lua), elements per second: selcheck's front-end objects.
B_FB_OBJ := $(O)/harness/h_case.o $(O)/harness/h_dtype.o $(O)/harness/h_sleef.o
$(O)/harness/bench/fill_bench: $(B_DIR)/fill_bench.c $(H_LUA54_OBJ) $(B_FB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) $(H_LUA54_LIBS) $(H_LIBS) -o $@
$(O)/harness/bench/fill_bench-jit: $(B_DIR)/fill_bench.c $(H_LUAJIT_OBJ) $(B_FB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Iharness $^ $(LDFLAGS_ALL) $(H_LUAJIT_LIBS) $(H_LIBS) -o $@

ALL += $(O)/bench $(O)/harness/bench/fill_bench $(O)/harness/bench/fill_bench-jit

.PHONY: bench-select bench-fill check-bench
BENCH += bench-select bench-fill

bench-select: $(O)/bench
	$(O)/bench --csv $(O)/bench.csv $(if $(IMPL),--impl $(IMPL)) $(BENCH_ARGS)

bench-fill: $(O)/harness/bench/fill_bench $(O)/harness/bench/fill_bench-jit
	@$(O)/harness/bench/fill_bench 5
	@$(O)/harness/bench/fill_bench-jit 5

# `make bench-icount`: opt's instructions per call on the tiny-call
# workloads under callgrind (bench_icount.c): exact and repeatable under
# any load, the AVX2 level's (valgrind has no AVX-512).  Needs valgrind;
# not part of any check.  ICOUNT_CALLS calls per workload, warm (the same
# description every call: opt's plan memo hits) and cold (two
# descriptions alternating, as bench's opt-cold row: every call misses).
ICOUNT_CALLS ?= 1000
$(O)/bench_icount: $(B_DIR)/bench_icount.c $(B_DIR)/bench_work.c $(B_DIR)/bench_util.c $(B_DIR)/bench.h $(O)/libselect_opt.a $(OPT_HDR)
	$(CC) $(CFLAGS_ALL) -Iopt -pthread $(B_DIR)/bench_icount.c $(B_DIR)/bench_work.c \
	    $(B_DIR)/bench_util.c $(O)/libselect_opt.a -lm $(LDFLAGS_ALL) -o $@
ALL += $(O)/bench_icount

.PHONY: bench-icount
bench-icount: $(O)/bench_icount
	@command -v valgrind >/dev/null || { echo "bench-icount: needs valgrind (apt-get install valgrind)"; exit 1; }
	@$(O)/bench_icount --list | while read name spec; do \
	    for mode in "" cold; do \
	    n=$$(valgrind --tool=callgrind --toggle-collect=h_icount_calls \
	        --callgrind-out-file=/dev/null $(O)/bench_icount $$spec $(ICOUNT_CALLS) $$mode 2>&1 | \
	        sed -n 's/.*Collected : //p'); \
	    [ -n "$$n" ] || { echo "bench-icount: $$name: no count"; exit 1; }; \
	    eval c_$${mode:-warm}=$$((n / $(ICOUNT_CALLS))); \
	    done; \
	    printf '%-14s %-48s %6d warm %6d cold instructions per call\n' $$name $$spec $$c_warm $$c_cold; \
	done

# The benchmark's own check: a quick run of one workload verifies opt's
# bytes against the reference (bench exits non-zero on a mismatch).
# The yardsticks store data, not zeros (bench_ycheck.c says why).
$(O)/bench_ycheck: $(B_DIR)/bench_ycheck.c $(B_DIR)/bench_stream.c $(B_DIR)/bench_util.c $(B_DIR)/bench.h
	$(CC) $(CFLAGS_ALL) $(B_DIR)/bench_ycheck.c $(B_DIR)/bench_stream.c \
	    $(B_DIR)/bench_util.c $(LDFLAGS_ALL) -o $@
ALL += $(O)/bench_ycheck

CHECK_BENCH := check-bench-verify check-bench-yard
CHECK += $(CHECK_BENCH)
.PHONY: check-bench-verify check-bench-yard
check-bench-yard: $(O)/bench_ycheck
	@$(O)/bench_ycheck
check-bench: $(CHECK_BENCH)
check-bench-verify: $(O)/bench
	@$(O)/bench --quick --budget 0.2 --workload 64x1:1x3:64x3 --workload 2x1x3:1x4x1:2x4x3:f16 >$(O)/bench-check.txt 2>&1 || \
	    { cat $(O)/bench-check.txt; exit 1; }
	@echo "check-bench-verify: the benchmark runs and verifies its outputs ($(O)/bench-check.txt)"

# `make bench-sweep`: opt at one thread against the yardstick on SWEEP_N
# seeded random valid shapes (bench_sweep.c); the distribution of the
# ratios and the ten worst shapes with their --workload lines.
SWEEP_N ?= 200
SWEEP_SEED ?= 1
.PHONY: bench-sweep
bench-sweep: $(O)/bench
	$(O)/bench --sweep $(SWEEP_N) --seed $(SWEEP_SEED) --budget 0.1 $(BENCH_ARGS)
