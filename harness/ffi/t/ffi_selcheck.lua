-- ffi_selcheck.lua - unit checks of the FFI binding harness/ffi/selcheck.lua:
-- exact value encoding for every dtype, refusals with readable errors,
-- and calls into the reference (statuses by name, bits kept, aliasing).
-- Usage (from the repo root): luajit harness/ffi/t/ffi_selcheck.lua [O]
package.path = "harness/ffi/?.lua;" .. package.path
local ffi = require "ffi"
local sel = require "selcheck"

local O = arg[1] or "build"
local nok, fails = 0, 0

local function ok(cond, what)
    if cond then
        nok = nok + 1
    else
        fails = fails + 1
        io.stderr:write("ffi_selcheck: FAIL " .. what .. "\n")
    end
end

local function eq(got, want, what)
    ok(got == want, string.format("%s: got %s, want %s", what,
                                  tostring(got), tostring(want)))
end

-- The call fails with an error whose message contains `pattern`.
local function refuses(pattern, what, f, ...)
    local good, err = pcall(f, ...)
    ok(not good and tostring(err):find(pattern, 1, true) ~= nil,
       string.format("%s: %s", what, good and "accepted" or tostring(err)))
end

-- Small floats: known values, both ways.
local known = {
    {"f16", 1, 0x3c00}, {"f16", 65504, 0x7bff}, {"f16", 2 ^ -24, 0x0001},
    {"f16", 2 ^ -14, 0x0400}, {"f16", -0.0, 0x8000}, {"f16", -2, 0xc000},
    {"f16", -math.huge, 0xfc00}, {"bf16", 1, 0x3f80},
    {"bf16", 2 ^ -133, 0x0001}, {"bf16", -math.huge, 0xff80},
    {"f8e4m3", 448, 0x7e}, {"f8e4m3", 1, 0x38}, {"f8e4m3", 2 ^ -9, 0x01},
    {"f8e5m2", 57344, 0x7b}, {"f8e5m2", 1, 0x3c}, {"f8e5m2", 2 ^ -16, 0x01},
    {"f8e5m2", math.huge, 0x7c},
}
for _, k in ipairs(known) do
    eq(sel.encode(k[1], k[2]), k[3], "encode " .. k[1] .. " " .. k[2])
    eq(sel.decode(k[1], k[3]), k[2], "decode " .. k[1] .. " " .. k[3])
end
eq(1 / sel.decode("f16", 0x8000), -math.huge, "decode f16 0x8000 is -0")
eq(sel.encode("f16", 1 / 3), nil, "1/3 is not an f16")
eq(sel.encode("f16", 65520), nil, "65520 is not an f16")
eq(sel.encode("f8e4m3", math.huge), nil, "f8e4m3 has no infinity")
eq(sel.encode("f8e4m3", 480), nil, "480 is not an f8e4m3 (0x7f is NaN)")
eq(sel.encode("f16", 2 ^ -25), nil, "2^-25 is below the f16 range")

-- Every non-NaN pattern of every small float: decode then encode is the
-- identity (so each value that is representable is found, exactly).
for _, dt in ipairs({"f16", "bf16", "f8e4m3", "f8e5m2"}) do
    local n = sel.dtypes[dt].size == 1 and 256 or 65536
    local bad = 0
    for b = 0, n - 1 do
        local x = sel.decode(dt, b)
        if x == x and sel.encode(dt, x) ~= b then bad = bad + 1 end
    end
    eq(bad, 0, dt .. " round trip over all patterns")
end

-- Tensors from tables: exact, refusing what the dtype cannot hold.
local t = sel.tensor("f32", {2, 2}, {{1.5, -0.0}, {"0x7fc00001", 3}})
eq(table.concat(t:hex(), " "), "0x3fc00000 0x80000000 0x7fc00001 0x40400000",
   "f32 from numbers and hex")
eq(sel.tensor("f16", {2}, {1, "0x7e01"}):hex()[2], "0x7e01", "f16 hex")
eq(sel.tensor("bf16", {1}, {0x7fc1}, {bits = true}):hex()[1], "0x7fc1",
   "bf16 bits")
eq(sel.tensor("u64", {1}, {"0xffffffffffffffff"}):get(1),
   0xffffffffffffffffULL, "u64 from hex")
eq(sel.tensor("i64", {1}, {-2 ^ 63}):hex()[1], "0x8000000000000000",
   "i64 minimum")
eq(sel.tensor("i8", {2}, {-128, 127}):bytes(), "\128\127", "i8 bytes")
eq(sel.tensor("u32", {1}, {4294967295}):get(1), 4294967295, "u32 max")
eq(sel.tensor("boolean", {3}, {true, false, 0x80}):bytes(), "\1\0\128",
   "boolean from Lua booleans and a raw byte")
eq(sel.tensor("f64", {}, {0.1}):get(1), 0.1, "rank 0 f64")
eq(tostring(sel.tensor("i16", {2, 0})), "i16[2x0]{}", "zero-size tensor")
refuses("not exactly representable", "0.1 as f32",
        sel.tensor, "f32", {1}, {0.1})
refuses("NaN has no defined payload", "NaN number",
        sel.tensor, "f64", {1}, {0 / 0})
refuses("not an integer in [-128, 127]", "i8 200",
        sel.tensor, "i8", {1}, {200})
refuses("not an integer in [0, 65535]", "u16 1.5",
        sel.tensor, "u16", {1}, {1.5})
refuses("more bits than the dtype has", "f16 from 0x10000",
        sel.tensor, "f16", {1}, {"0x10000"})
refuses("not exactly representable", "f16 1/3",
        sel.tensor, "f16", {1}, {1 / 3})
refuses("unknown dtype 'f128'", "unknown dtype", sel.tensor, "f128", {1})
refuses("2 values for 3 elements", "count", sel.tensor, "u8", {3}, {1, 2})
refuses("data has 3 entries at level 2", "ragged",
        sel.tensor, "u8", {2, 2}, {{1, 2}, {1, 2, 3}})
refuses("unknown tensor option 'bit'", "option typo",
        sel.tensor, "u8", {1}, {1}, {bit = true})
refuses("unknown broadcast option 'bidirectonal'", "broadcast typo",
        sel.broadcast, {bidirectonal = true})

-- An FFI array is used in place, and a too small one is refused.
local arr = ffi.new("float[4]", 1, 2, 3, 4)
local w = sel.tensor("f32", {4}, arr)
arr[2] = 9
eq(w:get(3), 9, "FFI array used in place")
refuses("array has 12 bytes, the tensor needs 16", "small FFI array",
        sel.tensor, "f32", {4}, ffi.new("float[3]"))
eq(tonumber(ffi.cast("uintptr_t", sel.tensor("u8", {4}, nil,
   {offset = 3}).ptr)) % 64, 3, "offset places data off alignment")
eq(sel.tensor("f32", {"0x4000000000000000", 4}).ptr, nil,
   "a huge shape gets no data")

-- Through the reference.
local impl = sel.load(O .. "/libselect_ref.so")
eq(impl.abi_version, sel.SEL_ABI_VERSION, "ABI version")
refuses("cannot load", "missing library", sel.load, O .. "/nonexistent.so")
local c = sel.tensor("boolean", {4}, {1, 0, 0x80, 0})
local x = sel.tensor("f32", {4}, {"0x7fc00001", "0xff800001", 1, "0x00000001"})
local y = sel.tensor("f32", {4}, {"0x80000000", "0x7fa00002", 2, "0x7f800000"})
local d = assert(impl:execute(c, x, y, {mode = "none"}))
local h = d:hex()
eq(h[1], "0x7fc00001", "NaN payload selected from then")
eq(h[2], "0x7fa00002", "signalling NaN selected from else")
eq(h[4], "0x7f800000", "infinity selected from else")
local r, s = impl:infer(c, x, sel.tensor("f32", {5}), {mode = "none"})
eq(r == nil and s, "SEL_ERR_SHAPE", "none with unequal shapes")
r, s = impl:infer(c, x, y, {mode = 9})
eq(s, "SEL_ERR_ATTR", "unknown broadcast type")
r, s = impl:infer(c, x, y, {mode = "pdpd", axis = -2})
eq(s, "SEL_ERR_ATTR", "pdpd axis -2")
r, s = impl:infer(nil, x, y)
eq(s, "SEL_ERR_ARG", "NULL cond")
r, s = impl:infer(c, x, sel.tensor("f16", {4}))
eq(s, "SEL_ERR_DTYPE", "then and else dtypes differ")
r, s = impl:infer(c, x, sel.tensor(99, {4}))
eq(s, "SEL_ERR_DTYPE", "raw dtype 99")
eq(sel.status_name(42), "SEL_ERR_?(42)", "unknown status value")
r = impl:infer(sel.tensor("boolean", {}), sel.tensor("i64", {2, 1, 3}),
               sel.tensor("i64", {4, 1}), {mode = "numpy"})
eq(r and table.concat(r, "x"), "2x4x3", "numpy broadcast of three ranks")

-- In place: dst is x's buffer (IO-ALIAS-1).
local a = sel.tensor("u16", {3}, {1, 2, 3})
local b = sel.tensor("u16", {3}, {7, 8, 9})
local dst = sel.tensor("u16", {3}, a.ptr)
assert(impl:execute(sel.tensor("boolean", {3}, {0, 1, 0}), a, b, nil, dst))
eq(table.concat(a:totable(), ","), "7,2,9", "execute in place into x")

if fails > 0 then
    io.stderr:write(string.format("ffi_selcheck: %d of %d checks failed\n",
                                  fails, fails + nok))
    os.exit(1)
end
print(string.format("ffi_selcheck: %d checks ok", nok))
