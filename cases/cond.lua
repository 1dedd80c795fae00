-- cond.lua - the cond input: every cond pattern over sizes that cross SIMD
-- tile boundaries, for each element width; broadcast conds; and cond bytes
-- other than 0 and 1, which only the COND-NZ-1 extension defines.
--
-- Portable part (COND-01-1): the five generated patterns (all true, all
-- false, alternating, random, runs crossing 16/32/64-element boundaries)
-- for element widths 1, 2, 4 and 8 at sizes just below, at and above 64
-- and a long odd size, plus literal 0/1 bytes.  Extension (COND-NZ-1, only
-- under profiles listing it): every single-bit byte (an implementation
-- testing `== 1`, the low bit or the sign bit fails one of them), 0x7f and
-- 0xff, random nonzero bytes, and a broadcast cond of 0x80.

local SHAPE = {status = "SEL_ERR_SHAPE"}  -- every invalid shape here

local WIDTH = {"u8", "f16", "f32", "f64"}
local PATTERNS = {"all_true", "all_false", "alternating", "random", "runs"}
local SIZES = {63, 64, 65, 1031}

for _, p in ipairs(PATTERNS) do
  for _, n in ipairs(SIZES) do
    case{ id = p .. "_n" .. n, rules = {"COND-01-1", "OP-SELECT-1"},
          dtypes = WIDTH, shapes = n .. ":" .. n .. ":" .. n, cond = p,
          values = "special", expect = {n} }
  end
end

-- cond broadcast: scalar, a row, a column, and cond the only dense input.
local BC = {
  {"scalar_true", "_:5x33:5x33", {1}, {5, 33}},
  {"scalar_false", "_:5x33:5x33", {0}, {5, 33}},
  {"row", "33:5x33:5x33", "runs", {5, 33}},
  {"column", "5x1:5x33:5x33", "alternating", {5, 33}},
  {"dense_with_scalar_data", "5x33:_:_",
   "random", {oneway = SHAPE, bidirectional = {5, 33}}},
  {"dense_with_broadcast_data", "5x33:5x1:1x33", "runs", {5, 33}},
}
for _, b in ipairs(BC) do
  case{ id = "broadcast_" .. b[1], rules = {"COND-01-1", "BC-NUMPY-3", "BC-NUMPY-5"},
        dtypes = {"f32", "u16"}, shapes = b[2], cond = b[3], expect = b[4] }
end

-- Literal 0/1 bytes with literal data: checks the reference too.
local X, Y = {}, {}
for i = 1, 16 do X[i] = i; Y[i] = 100 + i end
local function literal(cond)
  local want = {}
  for i = 1, #cond do want[i] = cond[i] ~= 0 and X[i] or Y[i] end
  return want
end
local C01 = {0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1}
case{ id = "cond_bytes_0_1", rules = {"COND-01-1", "OP-SELECT-1"},
      dtypes = {"f32", "f16", "u8", "i64"}, shapes = "16:16:16", cond = C01,
      values = {x = X, y = Y}, expect = {shape = {16}, data = literal(C01)} }

-- Extension: nonzero bytes.  Each single bit alone, then 0x7f and 0xff,
-- each followed by a 0.
local BYTES = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x7f, 0xff,
               0x03, 0xfe}
for _, b in ipairs(BYTES) do
  local c = {}
  for i = 1, 16 do c[i] = i % 2 == 1 and b or 0 end
  case{ id = string.format("cond_byte_0x%02x", b), rules = {"COND-NZ-1"},
        dtypes = {"f32", "f16", "u8", "i64"}, shapes = "16:16:16", cond = c,
        values = {x = X, y = Y}, expect = {shape = {16}, data = literal(c)} }
end
local MIX = {0x80, 0, 0xff, 0x02, 0, 0x7f, 0x01, 0, 0x40, 0xfe, 0, 0x10, 0x08, 0, 0x04, 0x20}
case{ id = "cond_bytes_mixed", rules = {"COND-NZ-1"},
      dtypes = {"f32", "f16", "u8", "i64"}, shapes = "16:16:16", cond = MIX,
      values = {x = X, y = Y}, expect = {shape = {16}, data = literal(MIX)} }
for _, n in ipairs(SIZES) do
  case{ id = "cond_bytes_random_n" .. n, rules = {"COND-NZ-1"},
        dtypes = WIDTH, shapes = n .. ":" .. n .. ":" .. n, cond = "bytes",
        expect = {n} }
end
case{ id = "cond_byte_0x80_scalar", rules = {"COND-NZ-1", "BC-NUMPY-2"},
      dtypes = WIDTH, shapes = "_:7x65:7x65", cond = {0x80}, expect = {7, 65} }
case{ id = "cond_bytes_row_broadcast", rules = {"COND-NZ-1", "BC-NUMPY-1"},
      dtypes = WIDTH, shapes = "65:7x65:7x1", cond = "bytes", expect = {7, 65} }
case{ id = "cond_bytes_pdpd", rules = {"COND-NZ-1", "BC-PDPD-5"}, mode = "pdpd",
      dtypes = WIDTH, shapes = "7:7x65:7", axis = 0, cond = "bytes",
      expect = {7, 65} }
