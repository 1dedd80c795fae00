#!/bin/sh
# misbehave.sh - each misbehaving copy of the reference (misbehave.c) is
# reported as a failure with its own reason, and the run ends normally;
# the reference itself passes the same test.  Usage: sh harness/t/misbehave.sh O
set -u
. harness/t/lib.sh
t_init check-harness-misbehave "${1:-build}" harness/t/misbehave
T=harness/t

# kind|profile|extended regex the failure's message must match
while IFS='|' read -r kind profile want; do
    # movdqa is an x86-64 instruction; elsewhere the library is the reference
    [ "$kind" = movdqa ] && [ "$(uname -m)" != x86_64 ] && continue
    out=$tmp/$kind.tap
    "$O/selcheck" --timeout 1 --profile "$profile" --impl "$O/harness/t/libmis_$kind.so" \
        "$T/misbehave.lua" >"$out" 2>"$tmp/$kind.err"
    rc=$?
    msg=$(sed -n 's/^  message: "\(.*\)"$/\1/p' "$out" | head -1)
    if [ "$rc" != 1 ] || ! grep -q '^not ok ' "$out" || ! printf '%s\n' "$msg" | grep -Eq "$want"; then
        fail "$kind: exit $rc, message '$msg', want /$want/"
    else
        echo "  $kind: $msg"
    fi
done <<'LIST'
overrun|openvino|crashed with SIGSEGV in execute, run end: (wrote|accessed) past the end of dst: byte \+0
underrun|openvino|(wrote|accessed) [0-9]* ?bytes before the start of dst|before the start of dst
read_after|openvino|crashed with SIGSEGV in execute, run end: (read|accessed) past the end of then: byte \+0
read_before|openvino|crashed with SIGSEGV in execute, run start: (read|accessed) before the start of else: byte -1
input|openvino|modified its input then \(IO-INPUTS-1\): byte 0 of 128
dims|openvino|wrote to the dims of then
unwritten|openvino|wrong bytes in dst at element 0
dims_out|openvino|crashed with SIGSEGV in infer: infer (wrote|accessed) past the end of dims_out
hang|openvino|timeout after 1 s \(in execute, run end\)
abort|openvino|killed by SIGABRT
exit|openvino|exited with status 3 in execute, run end
unsafe|openvino|wrong bytes in dst .*run threads
misaligned|openvino|killed by SIGBUS.*in execute, run shift
movdqa|openvino|crashed with SIGSEGV in execute, run shift: a general-protection fault, which has no address: an aligned vector load
oneway|where|rejected a valid case: infer returned SEL_ERR_SHAPE; valid only under the bidirectional cond rule \(BC-NUMPY-5\): the implementation may be ignoring SEL_COND_BIDIRECTIONAL
LIST

"$O/selcheck" --profile all --impl "$O/libselect_ref.so" "$T/misbehave.lua" >"$tmp/ref.tap" 2>&1 ||
    fail "the reference fails misbehave.lua"
grep -q 'never written (the poison)' "$tmp/unwritten.tap" ||
    fail "unwritten: the poison is not named"

t_done "every misbehaviour reported with its reason; the reference passes"
