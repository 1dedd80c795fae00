# harness/bench.mk - `make bench`: the Select benchmark (harness/bench*.c).
# IMPL=path/to/lib.so adds a third-party implementation; BENCH_ARGS passes
# more options (e.g. --quick, --only attn, --yardsticks to print every
# yardstick strategy's rows; --kernels times every kernel of opt's table in
# cache instead).  CSV (every strategy's rows) lands in $(O)/bench.csv.

H_BENCH_SRC := harness/bench.c harness/bench_stream.c harness/bench_kernels.c \
               harness/bench_util.c
$(O)/bench: $(H_BENCH_SRC) harness/bench.h $(O)/libselect_opt.a $(O)/libselect_ref.a $(OPT_HDR) ref/ref.h
	$(CC) $(CFLAGS_ALL) -Iopt -Iref -pthread $(H_BENCH_SRC) \
	    $(O)/libselect_opt.a $(O)/libselect_ref.a -ldl $(LDFLAGS_ALL) -o $@

ALL += $(O)/bench
.PHONY: bench-select
BENCH += bench-select

bench-select: $(O)/bench
	$(O)/bench --csv $(O)/bench.csv $(if $(IMPL),--impl $(IMPL)) $(BENCH_ARGS)
