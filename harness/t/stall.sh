#!/bin/sh
# stall.sh - a script's time limit counts CPU time (h_lua_limit.c): a
# selcheck stopped (SIGSTOP, as a stalled VM) for longer than its limit
# inside a script's top level (its probe, a child) or inside a fill
# function, then continued, passes, in both front ends; a runaway fill
# stopped for a while still fails once it has used the limit of CPU.
# (custom.sh and run.sh stop runaway code unstopped.)
# Usage: sh harness/t/stall.sh O
set -u
. harness/t/lib.sh
t_init check-harness-stall "${1:-build}" harness/t/stall
T=harness/t
REF=$O/libselect_ref.so
rm -f "$tmp"/never.* "$tmp"/hang.*

# The children of pid $1 (from /proc: no procps needed).
kids_of() {
    for f in /proc/[0-9]*/stat; do
        read -r a b c d rest 2>/dev/null <"$f" && [ "$d" = "$1" ] && echo "$a"
    done
}

# The user CPU time of pid $1's child, in clock ticks (0 if none yet).
kid_ticks() {
    k=$(kids_of "$1")
    set -- $(cat "/proc/${k:-0}/stat" 2>/dev/null) 0
    echo "${14:-0}"
}

# Stops pid $1 and its children for $2 s once $3 holds (polled), then
# continues them.  Nothing if $1 ends first.
stall() {
    i=0
    until eval "$3"; do
        kill -0 "$1" 2>/dev/null || return
        i=$((i + 1))
        [ $i -gt 600 ] && { echo "never: $3" >"$tmp/never.$1"; return; }
        sleep 0.05
    done
    kids=$(kids_of "$1")
    kill -STOP "$1" $kids
    sleep "$2"
    kill -CONT "$1" $kids
}

# The limit is 6 s (--timeout 1); each stop is 9 s, past the probe's
# limit + 2 s too.  At top level: stopped once the probe child exists.
# In the fill: once test 1's line is out (stdout is flushed before each
# test), so test 2's fill runs.
pids=
for S in selcheck selcheck-jit; do
    "$O/$S" --timeout 1 --impl "$REF" "$T/stall.lua" >"$tmp/top-$S" 2>&1 &
    p=$!
    stall $p 9 "[ -n \"\$(kids_of $p)\" ]" &
    pids="$pids $p:top-$S"
    "$O/$S" --timeout 1 --impl "$REF" "$T/stall.lua" >"$tmp/fill-$S" 2>&1 &
    p=$!
    stall $p 9 "grep -q '^ok 1 ' $tmp/fill-$S 2>/dev/null" &
    pids="$pids $p:fill-$S"
done
# A runaway fill stopped 4 s once it has used 0.5 s of CPU still fails,
# at its limit of CPU: under LuaJIT the watchdog bails out after 6 + 2 s
# of the script thread's CPU time, or at the wall-clock backstop (4 x 6
# s + 2 s from the fill's start) on a machine too busy to give it that.
# The old wall-clock limit bailed out 8 s after the fill started, the
# stop counted: after 4 s of CPU at most, within 8 s of the start.
H="$T/custom_hang.lua"
t0=$(date +%s)
( "$O/selcheck-jit" --timeout 1 --impl "$REF" "$H" >"$tmp/hang" 2>&1
  echo $? >"$tmp/hang.rc"
  times >"$tmp/hang.times" ) &
p=$!
stall $p 4 "[ \$(kid_ticks $p) -ge 50 ]" &
hang=$p

for pf in $pids; do
    wait "${pf%%:*}"
    rc=$?
    f=$tmp/${pf#*:}
    [ "$rc" = 0 ] && [ "$(grep -c '^ok' "$f")" = 2 ] ||
        fail "stopped past the limit in ${pf#*:}: exit $rc, want 0 and 2 passes ($f)"
done
wait $hang
t=$(($(date +%s) - t0))
rc=$(cat "$tmp/hang.rc")
[ "$rc" = 2 ] && grep -q "^Bail out! selcheck: fill.x of custom_hang:spin\[f32\] ($H:7) ran past its time limit (6 s)" \
    "$tmp/hang" || fail "a stopped runaway fill not stopped: exit $rc ($tmp/hang)"
# the children's user time, "XmY.Ys", on times' second line
cpu=$(sed -n '2s/^\([0-9]*\)m\([0-9]*\)\.\([0-9]\).*/\1 \2 \3/p' "$tmp/hang.times")
set -- $cpu
[ $# = 3 ] && { [ $(($1 * 600 + $2 * 10 + $3)) -ge 75 ] || [ $t -ge 26 ]; } ||
    fail "a runaway fill stopped 4 s bailed out after $(sed -n 2p "$tmp/hang.times") of CPU, $t s: its stop was counted"
wait
for f in "$tmp"/never.*; do
    [ -e "$f" ] && fail "a stop never came: $(cat "$f")"
done
t_done "stopped past the limit at top level and in a fill: passes in both front ends; a stopped runaway fill stopped at its CPU limit"
