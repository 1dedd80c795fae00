# harness/bench.mk - placeholder.
