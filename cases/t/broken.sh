#!/bin/sh
# broken.sh - test the tester: selcheck must catch every deliberately broken
# implementation of examples/broken/ and blame the right case, while the
# reference and the bug-free build of the same source pass the same runs.
#
# Usage: sh cases/t/broken.sh BUILD_DIR   (BUILD_DIR holds selcheck,
# libselect_ref.so and broken/lib<bug>.so; `make check-cases-broken`).
#
# One row per bug: bug, profile, extra options, case file, --only glob, and
# a pattern a `not ok` line must match (grep -E on the TAP).  The runs are
# narrowed with --only so the whole check takes seconds.
set -u
O=${1:?usage: broken.sh BUILD_DIR}
SELCHECK=${SELCHECK:-$O/selcheck}
fail=0

rows() {
cat <<'EOF'
nan_canon        openvino -         values.lua          values:nan_payload_kept_*      values:nan_payload_kept_f32\[f32\]
negzero          onednn   -         values.lua          values:neg_zero_kept_*         values:neg_zero_kept_f16\[f16\]
cond_eq1         where    -         cond.lua            cond:cond_byte_*               cond:cond_byte_0x80\[
float_unselected onednn   -         values.lua          values:unselected_nan_*        values:unselected_nan_ignored_bf16\[bf16\]
float_unselected openvino -         values.lua          values:patterns_w16_then_nan*  values:patterns_w16_then_nan_else\[f16\]
blend            onednn   -         values.lua          values:unselected_*            values:unselected_inf_ignored_f32\[f32\]
blend            openvino -         values.lua          values:neg_zero_kept_*         values:neg_zero_kept_f(32|64)\[
bidir_cond       openvino --strict  broadcast_numpy.lua broadcast_numpy:cond_*         broadcast_numpy:cond_rank_above_result\[
pdpd_cond_axis   openvino -         broadcast_pdpd.lua  broadcast_pdpd:cond_vs_else_a3* broadcast_pdpd:cond_vs_else_a3_else2_cond1_auto\[
zero_one         openvino -         edges.lua           edges:zero_*                   edges:zero_vs_one\[
swap_bcast       openvino -         broadcast_numpy.lua broadcast_numpy:r1_*           broadcast_numpy:r1_x\[
dense            openvino -         broadcast_numpy.lua broadcast_numpy:r1_*           broadcast_numpy:r1_c\[
tail             openvino -         edges.lua           edges:size_*                   edges:size_17\[
poison_flip      openvino -         edges.lua           edges:size_*                   edges:size_1\[
one_alignment    openvino -         conditions.lua      conditions:align_*             conditions:align_each_own_
flags_reject     openvino -         conditions.lua      conditions:flags_*             conditions:flags_bit1_numpy\[
bool_normalize   where    -         conditions.lua      conditions:bool_*              conditions:bool_data_every_byte\[
grain_quiet      openvino -         lengths.lua         lengths:grain_*                lengths:grain_f8e5m2_n
fill_float       openvino -         values.lua          values:fill_*                  values:fill_[xy]_snan(_neg)?_f32\[
plan_axis        openvino -         sequences.lua       sequences:axis_*               sequences:axis_[a-z0-9]+_[2-8]_at
ovf_zero_only    openvino --strict  errors.lua          errors:*wrap*                  errors:(count|bytes|output_count|output_bytes)_wrap
split_rem        openvino -         large.lua           large:odd_*                    large:odd_
inplace_fill     openvino -         aliasing.lua        aliasing:alias_x_else_*        aliasing:alias_x_else_ones[4-7]_drop0
addr_cache       openvino -         conditions.lua      conditions:reuse_*             conditions:reuse_dense\[
shared_scratch   openvino -         conditions.lua      conditions:threads_*           conditions:threads_differ_dense\[
EOF
}

# run LIB PROFILE OPTS FILE GLOB OUT: selcheck's exit status
run() {
    opts=$3
    [ "$opts" = - ] && opts=
    # shellcheck disable=SC2086
    "$SELCHECK" --impl "$1" --profile "$2" $opts --only "$5" "cases/$4" >"$6" 2>"$6.err"
}

mkdir -p "$O/broken/tap"
rm -f "$O/broken/tap/.failed"
rows | while read -r bug profile opts file glob pattern; do
    out="$O/broken/tap/$bug-$profile.tap"
    run "$O/broken/lib$bug.so" "$profile" "$opts" "$file" "$glob" "$out"
    st=$?
    if [ $st -ne 1 ]; then
        echo "not caught: $bug ($profile $opts $file $glob): exit $st, want 1; see $out" >&2
        echo x >>"$O/broken/tap/.failed"
    elif ! grep -v '# TODO' "$out" | grep -Eq "^not ok .*($pattern)"; then
        echo "misattributed: $bug: no 'not ok' line matches '$pattern' in $out" >&2
        echo x >>"$O/broken/tap/.failed"
    else
        echo "caught: $bug ($profile $opts, $(grep -c '^not ok' "$out") not ok)"
    fi
    # the correct builds pass the very same run
    for good in "$O/libselect_ref.so" "$O/broken/libnone.so"; do
        gout="$O/broken/tap/$bug-$profile.$(basename "$good" .so).tap"
        if ! run "$good" "$profile" "$opts" "$file" "$glob" "$gout"; then
            echo "correct build fails the $bug run: $good; see $gout" >&2
            echo x >>"$O/broken/tap/.failed"
        fi
    done
done

# Lenient, not strict: bidir_cond accepts invalid shapes, which without
# --strict is a TODO (not a failure), and still names the case.
out="$O/broken/tap/bidir_cond-lenient.tap"
if ! run "$O/broken/libbidir_cond.so" openvino - broadcast_numpy.lua 'broadcast_numpy:cond_*' "$out"; then
    echo "bidir_cond without --strict: want exit 0 (TODO lenient); see $out" >&2
    fail=1
elif ! grep -Eq '^not ok .*broadcast_numpy:cond_rank_above_result\[.*# TODO' "$out"; then
    echo "bidir_cond without --strict: no '# TODO' line for cond_rank_above_result in $out" >&2
    fail=1
else
    echo "lenient: bidir_cond reported as TODO without --strict"
fi

if [ -f "$O/broken/tap/.failed" ]; then
    rm -f "$O/broken/tap/.failed"
    fail=1
fi
# The diagnosis: each one, over the whole suite, is one cluster named by
# its symptom (cases/t/clusters.sh).
sh cases/t/clusters.sh "$O" || fail=1

[ $fail -eq 0 ] && echo "check-cases-broken: every broken implementation caught"
exit $fail
