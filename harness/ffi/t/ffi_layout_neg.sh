#!/bin/sh
# ffi_layout_neg.sh - proves the FFI layout check can fail: runs it on
# mutants of harness/ffi/selcheck.lua whose cdef differs from spec/select.h and
# requires each difference to be reported by name.
# Usage (from the repo root): sh harness/ffi/t/ffi_layout_neg.sh LAYOUT_FILE

layout=$1
if [ -z "$layout" ] || [ ! -s "$layout" ]; then
    echo "usage: sh harness/ffi/t/ffi_layout_neg.sh LAYOUT_FILE" >&2
    exit 2
fi
LUAJIT=${LUAJIT:-luajit}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

# Control: an unmodified copy passes, so the mutants fail for their change.
cp harness/ffi/selcheck.lua "$tmp/selcheck.lua"
if ! $LUAJIT harness/ffi/t/ffi_layout.lua "$layout" "$tmp" >"$tmp/out" 2>&1; then
    echo "ffi_layout_neg: the unmodified module fails:" >&2
    cat "$tmp/out" >&2
    exit 1
fi

# mutant NAME SED-SCRIPT EXPECTED-LINE...: every expected line must appear.
mutant() {
    name=$1 script=$2
    shift 2
    n=$((n + 1))
    sed "$script" harness/ffi/selcheck.lua >"$tmp/selcheck.lua"
    if cmp -s harness/ffi/selcheck.lua "$tmp/selcheck.lua"; then
        echo "ffi_layout_neg: $name: the mutation did not apply" >&2
        fail=1
        return
    fi
    if $LUAJIT harness/ffi/t/ffi_layout.lua "$layout" "$tmp" >"$tmp/out" 2>&1; then
        echo "ffi_layout_neg: $name: the check passed a wrong cdef" >&2
        fail=1
        return
    fi
    for want in "$@"; do
        if ! grep -qF "ffi_layout: $want" "$tmp/out"; then
            echo "ffi_layout_neg: $name: no line '$want' in:" >&2
            sed 's/^/    /' "$tmp/out" >&2
            fail=1
        fi
    done
}

mutant field_moved '/^    const int64_t \*dims;$/{h;d;}; /^    void \*data;$/G' \
    "field sel_tensor.dims: offset C 8, LuaJIT 16" \
    "field sel_tensor.data: offset C 16, LuaJIT 8"
mutant int32_to_int64 's/^    int32_t rank;$/    int64_t rank;/' \
    "field sel_tensor.rank: size C 4, LuaJIT 8" \
    "field sel_tensor.dims: offset C 8, LuaJIT 16" \
    "struct sel_tensor: size C 24, LuaJIT 32"
mutant unsigned_to_signed 's/^    uint32_t flags;$/    int32_t flags;/' \
    "field sel_broadcast.flags: kind C u32, LuaJIT i32"
mutant narrowed_in_padding 's/^    uint32_t abi_version;$/    uint16_t abi_version;/' \
    "field sel_impl.abi_version: size C 4, LuaJIT 2" \
    "field sel_impl.abi_version: kind C u32, LuaJIT u16"
mutant field_removed '/^    const char \*name;$/d' \
    "field sel_impl.name: missing from the cdef" \
    "struct sel_impl: size C 40, LuaJIT 32"
mutant enum_value 's/SEL_ERR_SHAPE = 1,/SEL_ERR_SHAPE = 9,/' \
    "const SEL_ERR_SHAPE: C 1, LuaJIT 9"
mutant define_missing 's/, SEL_MAX_RANK = 8//' \
    "const SEL_MAX_RANK: missing from the module"
mutant extra_constant 's/SEL_ERR_NOMEM = 6$/SEL_ERR_NOMEM = 6, SEL_ERR_EXTRA = 7/' \
    "const SEL_ERR_EXTRA: in the module (= 7) but not in spec/select.h"

if [ $fail -ne 0 ]; then
    echo "ffi_layout_neg: FAILED" >&2
    exit 1
fi
echo "ffi_layout_neg: all $n wrong cdefs were caught, each by name"
