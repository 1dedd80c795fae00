-- custom.lua - fill and check functions (custom.sh runs it with both front
-- ends, which must print the same TAP): every dtype's element values
-- through the buffers, the context table, the fill order, t.rand, and
-- what a function can reach.  Each check returns false when the buffer
-- API misbehaves, which fails its test.

-- Per dtype: values a fill writes, and the bits they must become.
local dtypes = {
  {"boolean", {0, 1, 255, true}, {"0x00", "0x01", "0xff", "0x01"}},
  {"u8", {0, 255, 128, 1}, {"0x00", "0xff", "0x80", "0x01"}},
  {"i8", {-128, 127, -1, 0}, {"0x80", "0x7f", "0xff", "0x00"}},
  {"u16", {0, 65535, 1, 40000}, {"0x0000", "0xffff", "0x0001", "0x9c40"}},
  {"i16", {-32768, 32767, -2, 5}, {"0x8000", "0x7fff", "0xfffe", "0x0005"}},
  {"u32", {0, 4294967295, 1, 2147483648},
   {"0x00000000", "0xffffffff", "0x00000001", "0x80000000"}},
  {"i32", {-2147483648, 2147483647, -1, 3},
   {"0x80000000", "0x7fffffff", "0xffffffff", "0x00000003"}},
  {"u64", {0, 2 ^ 53 - 1, 1, 2 ^ 40},
   {"0x0000000000000000", "0x001fffffffffffff", "0x0000000000000001",
    "0x0000010000000000"}},
  {"i64", {-(2 ^ 53 - 1), 2 ^ 53 - 1, -1, 2 ^ 40},
   {"0xffe0000000000001", "0x001fffffffffffff", "0xffffffffffffffff",
    "0x0000010000000000"}},
  -- Small floats take bit patterns: a NaN with a payload, -0, the
  -- smallest subnormal, an infinity.
  {"f16", {0x7e01, 0x8000, 0x0001, 0xfc00},
   {"0x7e01", "0x8000", "0x0001", "0xfc00"}},
  {"bf16", {0x7fc1, 0x8000, 0x0001, 0xff80},
   {"0x7fc1", "0x8000", "0x0001", "0xff80"}},
  {"f8e4m3", {0x7f, 0x80, 0x01, 0xfe}, {"0x7f", "0x80", "0x01", "0xfe"}},
  {"f8e5m2", {0x7d, 0x80, 0x01, 0xfc}, {"0x7d", "0x80", "0x01", "0xfc"}},
  -- f32/f64 take numbers, exactly.
  {"f32", {1.5, -0.0, 2 ^ -149, -1 / 0},
   {"0x3fc00000", "0x80000000", "0x00000001", "0xff800000"}},
  {"f64", {0.1, -0.0, 2 ^ -1074, 1 / 0},
   {"0x3fb999999999999a", "0x8000000000000000", "0x0000000000000001",
    "0x7ff0000000000000"}},
}

for _, d in ipairs(dtypes) do
  local name, vals, bits = d[1], d[2], d[3]
  case{ id = "values_" .. name, rules = {"OP-SELECT-1", "BITS-1"},
    shapes = "4:4:4", dtypes = {name}, cond = {1, 0, 1, 1},
    fill = { x = function(b)
      for i = 0, 3 do b[i] = vals[i + 1] end
    end },
    check = function(out, t)
      local x, y, c = t.x, t.y, t.cond
      for i = 0, 3 do
        if x:hex(i) ~= bits[i + 1] then
          return false, string.format("x[%d] is %s, want %s", i, x:hex(i),
                                      bits[i + 1])
        end
        local v = vals[i + 1]
        if v == true then v = 1 end
        if x[i] ~= v and v == v and name ~= "f16" and name ~= "bf16" then
          return false, string.format("x[%d] reads back as %.17g", i, x[i])
        end
        local src = c[i] ~= 0 and x or y
        if out:hex(i) ~= src:hex(i) then
          return false, string.format("out[%d] is %s, want %s", i,
                                      out:hex(i), src:hex(i))
        end
      end
      return true
    end }
end

-- The context: names, dtypes, shapes and dims, the order x, y, cond, and
-- t.rand in its ranges.
case{ id = "context", rules = {"OP-SELECT-1", "BC-NUMPY-1"},
  shapes = "3x1:1x4:3x4", dtypes = {"f32", "i16"},
  fill = {
    x = function(b, t)
      assert(b.name == "x" and t.x == b and b.dtype == t.dtype)
      assert(b.n == 4 and #b == 4 and t.dims[1] == 1 and t.dims[2] == 4)
      assert(t.cond.dtype == "boolean" and t.cond.n == 3)
      assert(tostring(b) == "x: " .. t.dtype .. "[4]")
      for i = 0, 3 do b[i] = 10 + i end
    end,
    y = function(b, t)
      assert(t.shapes.y[1] == 3 and t.shapes.cond[2] == 1 and #t.dims == 2)
      for i = 0, 11 do b[i] = t.x[i % 4] + 100 end -- x is filled by now
    end,
    cond = function(b, t)
      for i = 0, 2 do
        local u, k, r = t.rand(), t.rand(3), t.rand(-2, 2)
        assert(u >= 0 and u < 1, "rand()")
        assert(k >= 1 and k <= 3 and k == math.floor(k), "rand(3)")
        assert(r >= -2 and r <= 2 and r == math.floor(r), "rand(-2, 2)")
        b[i] = t.y[i * 4] == 110 and i % 2 or 0
      end
    end,
  },
  check = function(out, t)
    if out.name ~= "dst" or out.n ~= 12 or t.shapes.dst[2] ~= 4 then
      return false, "dst context"
    end
    for i = 0, 11 do
      local r, col = math.floor(i / 4), i % 4
      local want = t.cond[r] ~= 0 and 10 + col or 110 + col
      if out[i] ~= want then
        return false, string.format("out[%d] = %g, want %g", i, out[i], want)
      end
    end
    return true
  end }

-- What a function reaches: no ffi, jit, bit, io, os, require; no
-- metatable to change; fields are read-only; other inputs are read-only;
-- a buffer kept past its call is dead; a forged self is refused.
local kept
case{ id = "reach", rules = {"OP-SELECT-1"}, shapes = "4:4:4",
  dtypes = {"f32"},
  fill = { x = function(b, t)
    for _, g in ipairs({"ffi", "jit", "bit", "io", "os", "require",
                        "debug", "package", "dofile", "loadfile"}) do
      assert(_G[g] == nil, g .. " is reachable from a fill")
    end
    assert(type(getmetatable(b)) == "string", "the metatable is reachable")
    assert(not pcall(function() b.n = 100 end), "b.n is writable")
    assert(not pcall(function() t.y[0] = 1 end), "y is writable")
    assert(not pcall(function() return b[4] end), "b[4] is readable")
    assert(not pcall(function() return b[-1] end), "b[-1] is readable")
    assert(not pcall(function() return b[0.5] end), "b[0.5] is readable")
    assert(not pcall(b.hex, {n = 4}, 0), "hex takes a forged self")
    kept = b
    b[0] = 1
  end },
  check = function(out)
    local ok, err = pcall(function() return kept[0] end)
    if ok or not err:find("used after its fill or check function returned",
                          1, true) then
      return false, "a buffer kept past its call still works"
    end
    return true
  end }

-- A check that holds for a masked attention pattern written by a fill
-- over a whole [1,1,S,S] cond, broadcast over heads.
case{ id = "causal", rules = {"OP-SELECT-1", "BC-NUMPY-1"},
  shapes = "1x1x33x33:1x2x33x33:_", dtypes = {"f16", "f32"},
  values = {x = "normal", y = {"0xfc00"}},
  fill = { cond = function(b, t)
    local S = t.dims[4]
    for i = 0, S - 1 do
      for j = 0, S - 1 do b[i * S + j] = j <= i end
    end
  end },
  check = function(out, t)
    local S, y = t.dims and 33, t.y:hex(0)
    for h = 0, 1 do
      for i = 0, S - 1 do
        for j = i + 1, S - 1 do
          if out:hex((h * S + i) * S + j) ~= y then
            return false, string.format("[%d,%d,%d] is not masked", h, i, j)
          end
        end
      end
    end
    return true
  end }
