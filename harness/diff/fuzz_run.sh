#!/bin/sh
# fuzz_run.sh - runs the fuzz target for a bounded time from a copy of the
# checked-in corpus (which it never modifies), then prints libFuzzer's
# figures.  Usage: sh harness/diff/fuzz_run.sh O SECONDS.  Exit 1 on a finding.
set -u
O=${1:-build}
secs=${2:-25}
dir=$O/fuzz
bin=$dir/fuzz_select
work=$dir/run-corpus
log=$dir/run.log

[ -x "$bin" ] || { echo "fuzz_run: $bin missing (make fuzz)" >&2; exit 2; }
rm -rf "$work" "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*
mkdir -p "$work"
cp harness/diff/fuzz_corpus/* "$work"/ && rm -f "$work"/README.md

# A fixed seed: the same run on the same machine explores the same inputs.
# -timeout: one input may not take 10 s; -rss_limit_mb: the target caps
# its buffers at 2 MiB each, so more than this is a leak.
start=$(date +%s)
"$bin" -seed=1 -max_total_time="$secs" -max_len=512 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/" \
    "$work" >"$log" 2>&1
rc=$?
end=$(date +%s)

cov=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 |
      sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
if [ "$rc" != 0 ]; then
    grep -v -E '^#[0-9]+|^    #[0-9]' "$log" | tail -25 >&2
    art=$(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null | head -1)
    echo "check-fuzz: FAILED (exit $rc) after $((end - start)) s" >&2
    [ -n "$art" ] && echo "check-fuzz: input $art; replay: $O/diff/fuzz_repro -v $art" >&2
    exit 1
fi
echo "check-fuzz: ${execs:-?} inputs in $((end - start)) s (${rate:-?}/s), $cov, no mismatch ($log)"
