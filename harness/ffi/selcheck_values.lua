-- selcheck_values.lua - exact conversion between Lua values and the bits
-- of every element type of spec/select.h, for harness/ffi/selcheck.lua.
-- Exact or refused: nothing is rounded, a NaN is only accepted as bits.
local ffi = require "ffi"
local bit = require "bit"

local V = {}

-- ebits/mbits/bias/inf describe the small floats, which are encoded here
-- exactly or not at all.  selcheck.lua adds each entry's ABI id.
local DT = {
    boolean = {size = 1, kind = "bool"},
    f64 = {size = 8, kind = "float", ct = "double"},
    f32 = {size = 4, kind = "float", ct = "float"},
    f16 = {size = 2, kind = "small", ebits = 5, mbits = 10, inf = true},
    bf16 = {size = 2, kind = "small", ebits = 8, mbits = 7, inf = true},
    f8e4m3 = {size = 1, kind = "small", ebits = 4, mbits = 3, inf = false},
    f8e5m2 = {size = 1, kind = "small", ebits = 5, mbits = 2, inf = true},
    i64 = {size = 8, kind = "int64", ct = "int64_t"},
    u64 = {size = 8, kind = "int64", ct = "uint64_t"},
    i32 = {size = 4, kind = "int", lo = -2 ^ 31, hi = 2 ^ 31 - 1},
    u32 = {size = 4, kind = "int", lo = 0, hi = 2 ^ 32 - 1},
    i16 = {size = 2, kind = "int", lo = -2 ^ 15, hi = 2 ^ 15 - 1},
    u16 = {size = 2, kind = "int", lo = 0, hi = 2 ^ 16 - 1},
    i8 = {size = 1, kind = "int", lo = -128, hi = 127},
    u8 = {size = 1, kind = "int", lo = 0, hi = 255},
}
for name, d in pairs(DT) do
    d.name = name
    d.bias = d.ebits and 2 ^ (d.ebits - 1) - 1
end
local UINT = {"uint8_t *", "uint16_t *", nil, "uint32_t *",
              nil, nil, nil, "uint64_t *"}
local SINT = {"int8_t *", "int16_t *", nil, "int32_t *",
              nil, nil, nil, "int64_t *"}

-- A small float's bits -> its value (exact: every such value is a double).
local function small_decode(d, bits)
    local m = bits % 2 ^ d.mbits
    local e = math.floor(bits / 2 ^ d.mbits) % 2 ^ d.ebits
    local s = bits >= 2 ^ (d.ebits + d.mbits) and -1 or 1
    local emax = 2 ^ d.ebits - 1
    if d.inf and e == emax then
        if m == 0 then return s * math.huge end
        return 0 / 0
    elseif not d.inf and e == emax and m == 2 ^ d.mbits - 1 then
        return 0 / 0
    elseif e == 0 then
        return s * math.ldexp(m, 1 - d.bias - d.mbits)
    end
    return s * math.ldexp(m + 2 ^ d.mbits, e - d.bias - d.mbits)
end

-- A number -> a small float's bits, or nil when not exactly representable.
-- The candidate is decoded again and compared: exactness is checked, not
-- assumed.
local function small_encode(d, x)
    if x ~= x then return nil end
    local sign = (x < 0 or 1 / x < 0) and 2 ^ (d.ebits + d.mbits) or 0
    local a = math.abs(x)
    local bits
    if a == math.huge then
        if not d.inf then return nil end
        bits = (2 ^ d.ebits - 1) * 2 ^ d.mbits
    elseif a == 0 then
        bits = 0
    else
        local _, e = math.frexp(a) -- a = f * 2^e, 0.5 <= f < 1
        local ue = e - 1            -- unbiased exponent of 1.f form
        local be = ue + d.bias
        if be >= 1 then
            if be > 2 ^ d.ebits - 1 then return nil end
            local m = math.ldexp(a, d.mbits - ue) - 2 ^ d.mbits
            if m ~= math.floor(m) then return nil end
            bits = be * 2 ^ d.mbits + m
        else
            local m = math.ldexp(a, d.bias - 1 + d.mbits)
            if m ~= math.floor(m) or m >= 2 ^ d.mbits then return nil end
            bits = m
        end
    end
    bits = bits + sign
    if small_decode(d, bits) ~= x then return nil end
    return bits
end

-- "0x7e01" -> uint64_t cdata, or nil when not a hex string.
local function parse_hex(s)
    local digits = s:match("^0[xX](%x+)$")
    if not digits or #digits > 16 then return nil end
    local v = ffi.new("uint64_t", 0)
    for i = 1, #digits do
        v = v * 16 + tonumber(digits:sub(i, i), 16)
    end
    return v
end

local function fits_bits(d, v) -- v: uint64_t cdata
    return d.size == 8 or v < bit.lshift(1ULL, 8 * d.size)
end

-- Store one value v (index i, 0-based) into buffer p of dtype d.
local function store(d, p, i, v, as_bits)
    local function bad(why)
        error(string.format("selcheck: %s element %d (%s): %s", d.name,
                            i + 1, tostring(v), why), 4)
    end
    local u = ffi.cast(UINT[d.size], p)
    if type(v) == "string" then
        local h = parse_hex(v)
        if not h then bad("not a hex string like \"0x3c00\"") end
        if not fits_bits(d, h) then bad("more bits than the dtype has") end
        u[i] = h
        return
    end
    if type(v) == "boolean" then
        if d.kind ~= "bool" then bad("a Lua boolean only fits boolean") end
        u[i] = v and 1 or 0
        return
    end
    if type(v) == "cdata" then -- int64_t / uint64_t from the prompt
        if d.kind == "int64" then ffi.cast(d.ct .. " *", p)[i] = v; return end
        if as_bits and fits_bits(d, ffi.cast("uint64_t", v)) then u[i] = v; return end
        bad("64-bit cdata only fits i64/u64 or bits")
    end
    if type(v) ~= "number" then bad("not a number, hex string or boolean") end
    if v ~= v then bad("NaN has no defined payload: write its bits (\"0x7fc00000\")") end
    if as_bits then
        if v < 0 or v ~= math.floor(v) or v >= 2 ^ math.min(53, 8 * d.size) then
            bad("not a bit pattern of the dtype")
        end
        u[i] = v
    elseif d.kind == "bool" or d.kind == "int" then
        local lo, hi = d.lo or 0, d.hi or 255
        if v ~= math.floor(v) or v < lo or v > hi then
            bad(string.format("not an integer in [%d, %d]", lo, hi))
        end
        ffi.cast(SINT[d.size], p)[i] = v < 2 ^ (8 * d.size - 1) and v or v - 2 ^ (8 * d.size)
    elseif d.kind == "int64" then
        local lo = d.ct == "int64_t" and -2 ^ 63 or 0
        if v ~= math.floor(v) or v < lo or v >= lo + 2 ^ 64 then
            bad("not an integer in range (use a hex string or cdata)")
        end
        ffi.cast(d.ct .. " *", p)[i] = v
    elseif d.kind == "float" then
        local fp = ffi.cast(d.ct .. " *", p)
        fp[i] = v
        if fp[i] ~= v or (v == 0 and 1 / fp[i] ~= 1 / v) then
            bad("not exactly representable")
        end
    elseif d.kind == "small" then
        local b = small_encode(d, v)
        if not b then bad("not exactly representable (use a hex string)") end
        u[i] = b
    else
        bad("dtype " .. d.name .. " has no element size")
    end
end

local function load(d, p, i)
    if d.kind == "float" then
        return ffi.cast(d.ct .. " *", p)[i]
    elseif d.kind == "int64" then
        return ffi.cast(d.ct .. " *", p)[i]
    elseif d.kind == "int" and (d.lo or 0) < 0 then
        return ffi.cast(SINT[d.size], p)[i]
    end
    return tonumber(ffi.cast(UINT[d.size], p)[i])
end

V.DT, V.UINT = DT, UINT
V.small_decode, V.small_encode = small_decode, small_encode
V.parse_hex, V.store, V.load = parse_hex, store, load
return V
