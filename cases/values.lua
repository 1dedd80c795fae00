-- values.lua - Select copies bits: NaN payloads, signalling NaNs, -0.0,
-- +-inf, subnormals and integer extremes come through unchanged, every
-- 8- and 16-bit pattern does too, and the unselected element never matters.
--
-- Literal cases, one per property and float dtype, give the exact bit
-- patterns in both branches with cond 1,0,1,0,... and the expected bytes,
-- so they check the reference too.  Pattern cases run every bit pattern of
-- each 8- and 16-bit dtype through then (cond all true) and through else
-- (all false) with the other branch all NaN (BITS-2, BITS-3: a reference
-- that computes in float returns NaN there), and a dense sample of the
-- 32/64-bit ones.  That is every value of every type up to 16 bits.
-- The same specials as a broadcast one-element then or else (a fill
-- value, BITS-FILL-1), in every dtype.  Last, SLEEF results (NaN, inf, -0
-- from real math) in either branch.

-- Bit patterns per float dtype: -0, +0, quiet NaNs with payloads (both
-- signs), signalling NaNs, +-inf, subnormals (smallest, largest,
-- negative), and an ordinary value.  f8e4m3 has no inf and one NaN per
-- sign; its largest finite value stands in for inf.
local F = {
  f64 = {negzero = "0x8000000000000000", zero = "0x0000000000000000",
         qnan = "0x7ff8000000000001", qnan_neg = "0xfff80000deadbeef",
         snan = "0x7ff0000000000001", snan_neg = "0xfff0000000012345",
         inf = "0x7ff0000000000000", ninf = "0xfff0000000000000",
         sub_min = "0x0000000000000001", sub_max = "0x000fffffffffffff",
         sub_neg = "0x8000000000000001", one = "0x3ff0000000000000"},
  f32 = {negzero = "0x80000000", zero = "0x00000000",
         qnan = "0x7fc00001", qnan_neg = "0xffc12345",
         snan = "0x7f800001", snan_neg = "0xff812345",
         inf = "0x7f800000", ninf = "0xff800000",
         sub_min = "0x00000001", sub_max = "0x007fffff",
         sub_neg = "0x80000001", one = "0x3f800000"},
  f16 = {negzero = "0x8000", zero = "0x0000", qnan = "0x7e01",
         qnan_neg = "0xfe45", snan = "0x7c01", snan_neg = "0xfd45",
         inf = "0x7c00", ninf = "0xfc00", sub_min = "0x0001",
         sub_max = "0x03ff", sub_neg = "0x8001", one = "0x3c00"},
  bf16 = {negzero = "0x8000", zero = "0x0000", qnan = "0x7fc1",
          qnan_neg = "0xffc5", snan = "0x7f81", snan_neg = "0xff85",
          inf = "0x7f80", ninf = "0xff80", sub_min = "0x0001",
          sub_max = "0x007f", sub_neg = "0x8001", one = "0x3f80"},
  f8e5m2 = {negzero = "0x80", zero = "0x00", qnan = "0x7e", qnan_neg = "0xff",
            snan = "0x7d", snan_neg = "0xfd", inf = "0x7c", ninf = "0xfc",
            sub_min = "0x01", sub_max = "0x03", sub_neg = "0x81", one = "0x3c"},
  f8e4m3 = {negzero = "0x80", zero = "0x00", qnan = "0x7f", qnan_neg = "0xff",
            snan = "0x7f", snan_neg = "0xff", inf = "0x7e", ninf = "0xfe",
            sub_min = "0x01", sub_max = "0x07", sub_neg = "0x81", one = "0x38"},
}
local FLOATS = {"f64", "f32", "f16", "bf16", "f8e5m2", "f8e4m3"}

-- property id, rules, then's and else's values (keys of F)
local PROPS = {
  {"neg_zero_kept", {"BITS-1"},
   {"negzero", "zero", "negzero", "negzero"}, {"zero", "negzero", "zero", "negzero"}},
  {"nan_payload_kept", {"BITS-1"},
   {"qnan", "one", "qnan_neg", "zero"}, {"one", "qnan_neg", "zero", "qnan"}},
  {"snan_kept", {"BITS-1"},
   {"snan", "one", "snan_neg", "snan"}, {"snan_neg", "snan", "one", "snan_neg"}},
  {"inf_kept", {"BITS-1"},
   {"inf", "ninf", "ninf", "one"}, {"ninf", "inf", "one", "inf"}},
  {"subnormal_kept", {"BITS-1"},
   {"sub_min", "sub_max", "sub_neg", "sub_max"}, {"sub_neg", "sub_min", "sub_max", "zero"}},
  {"unselected_nan_ignored", {"BITS-3"},
   {"one", "qnan", "negzero", "snan"}, {"qnan", "sub_min", "snan_neg", "inf"}},
  {"unselected_inf_ignored", {"BITS-3"},
   {"zero", "inf", "negzero", "ninf"}, {"ninf", "one", "inf", "sub_max"}},
}
-- cond 1,0,1,0 twice: each value is chosen once from each position.
local COND = {1, 0, 1, 0, 0, 1, 0, 1}

for _, p in ipairs(PROPS) do
  for _, d in ipairs(FLOATS) do
    local x, y, want = {}, {}, {}
    for i = 1, 8 do
      local k = (i - 1) % 4 + 1
      -- the second half swaps which branch holds which value
      local a, b = p[3][k], p[4][k]
      if i > 4 then a, b = b, a end
      x[i], y[i] = F[d][a], F[d][b]
      want[i] = COND[i] == 1 and x[i] or y[i]
    end
    local rules = {"OP-SELECT-1"}
    for _, r in ipairs(p[2]) do rules[#rules + 1] = r end
    case{ id = p[1] .. "_" .. d, rules = rules, dtypes = {d},
          shapes = "8:8:8", cond = COND, values = {x = x, y = y},
          expect = {shape = {8}, data = want} }
  end
end

-- Integer extremes, beyond 2^53 where a type has them (a blend through
-- double loses them).
local I = {
  i64 = {"0x8000000000000000", "0x7fffffffffffffff", "0xffffffffffffffff", "0x0020000000000001"},
  u64 = {"0xffffffffffffffff", "0x8000000000000000", "0x0000000000000000", "0x001fffffffffffff"},
  i32 = {"0x80000000", "0x7fffffff", "0xffffffff", "0x00000001"},
  u32 = {"0xffffffff", "0x80000000", "0x00000000", "0x7fffffff"},
  i16 = {"0x8000", "0x7fff", "0xffff", "0x0001"},
  u16 = {"0xffff", "0x8000", "0x0000", "0x7fff"},
  i8 = {"0x80", "0x7f", "0xff", "0x01"},
  u8 = {"0xff", "0x80", "0x00", "0x7f"},
}
local INTS = {"i64", "u64", "i32", "u32", "i16", "u16", "i8", "u8"}
for _, d in ipairs(INTS) do
  local x, y, want = {}, {}, {}
  for i = 1, 8 do
    x[i] = I[d][(i - 1) % 4 + 1]
    y[i] = I[d][(i + 1) % 4 + 1]
    want[i] = COND[i] == 1 and x[i] or y[i]
  end
  case{ id = "int_extremes_" .. d, rules = {"BITS-1", "OP-SELECT-1"},
        dtypes = {d}, shapes = "8:8:8", cond = COND, values = {x = x, y = y},
        expect = {shape = {8}, data = want} }
end

-- Special values as a broadcast one-element then or else, a fill value to
-- many kernels (BITS-FILL-1): every special of every dtype on each side,
-- as rank 0, {1} and {1,1}, against 67 dense elements (a tail at every
-- vector width) under a random cond.
local FILL_F = {"negzero", "qnan", "qnan_neg", "snan", "snan_neg", "inf",
                "ninf", "sub_min", "sub_neg"}
local FORMS = {{"_", "67"}, {"1", "67"}, {"1x1", "3x67"}}
local function fill(id, d, v, side, form)
  local f = FORMS[form]
  local sh = side == "x" and (f[2] .. ":" .. f[1] .. ":" .. f[2])
                          or (f[2] .. ":" .. f[2] .. ":" .. f[1])
  local vals = {x = "normal", y = "normal"}
  vals[side] = {v}
  case{ id = id, rules = {"BITS-FILL-1", "BITS-1", "BC-NUMPY-2"}, dtypes = {d},
        shapes = sh, cond = "random", values = vals,
        expect = form == 3 and {3, 67} or {67} }
end
local nfill = 0
for _, d in ipairs(FLOATS) do
  for _, k in ipairs(FILL_F) do
    for _, side in ipairs({"x", "y"}) do
      nfill = nfill + 1
      fill("fill_" .. side .. "_" .. k .. "_" .. d, d, F[d][k], side, nfill % 3 + 1)
    end
  end
end
for _, d in ipairs(INTS) do
  for j, v in ipairs(I[d]) do
    for _, side in ipairs({"x", "y"}) do
      nfill = nfill + 1
      fill("fill_" .. side .. "_int" .. j .. "_" .. d, d, v, side, nfill % 3 + 1)
    end
  end
end
for j, v in ipairs({"0x02", "0x80", "0xff"}) do
  for _, side in ipairs({"x", "y"}) do
    nfill = nfill + 1
    fill("fill_" .. side .. "_byte" .. j .. "_boolean", "boolean", v, side, nfill % 3 + 1)
  end
end

-- Every bit pattern through each branch, the other branch all NaN.
local GROUPS = {
  {"w16", {"f16", "bf16", "i16", "u16"}, 65536},
  {"w8", {"u8", "i8", "f8e4m3", "f8e5m2", "boolean"}, 256},
  {"w32", {"f32", "i32", "u32"}, 4096},
  {"w64", {"f64", "i64", "u64"}, 4096},
}
for _, g in ipairs(GROUPS) do
  local n = g[3]
  local sh = n .. ":" .. n .. ":" .. n
  local bits = g[1] == "w16" or g[1] == "w8"
  local rules = {"BITS-1", "BITS-3"}
  if bits then rules[#rules + 1] = "BITS-2" end
  case{ id = "patterns_" .. g[1] .. "_then_nan_else", rules = rules,
        dtypes = g[2], shapes = sh, cond = "all_true",
        values = {x = "patterns", y = "nan"}, expect = {n} }
  case{ id = "patterns_" .. g[1] .. "_else_nan_then", rules = rules,
        dtypes = g[2], shapes = sh, cond = "all_false",
        values = {x = "nan", y = "patterns"}, expect = {n} }
  case{ id = "patterns_" .. g[1] .. "_both_random_cond", rules = rules,
        dtypes = g[2], shapes = sh, cond = "random",
        values = "patterns", expect = {n} }
  -- a scalar cond, broadcast: the whole of one branch, the other NaN
  case{ id = "patterns_" .. g[1] .. "_scalar_cond_true", rules = rules,
        dtypes = g[2], shapes = "_:" .. n .. ":" .. n, cond = {1},
        values = {x = "patterns", y = "nan"}, expect = {n} }
  case{ id = "patterns_" .. g[1] .. "_scalar_cond_false", rules = rules,
        dtypes = g[2], shapes = "_:" .. n .. ":" .. n, cond = {0},
        values = {x = "nan", y = "patterns"}, expect = {n} }
end
-- every 16-bit pattern where then is dense and else a broadcast NaN row
case{ id = "patterns_w16_else_row_nan", rules = {"BITS-2", "BITS-3", "BC-NUMPY-1"},
      dtypes = {"f16", "bf16"}, shapes = "256x1:256x256:256", cond = "runs",
      values = {x = "patterns", y = "nan"}, expect = {256, 256} }

-- Value classes over every dtype of the profile.
case{ id = "special_random_cond", rules = {"BITS-1", "OP-SELECT-1"},
      shapes = "1000:1000:1000", values = "special", expect = {1000} }
case{ id = "special_broadcast", rules = {"BITS-1", "BC-NUMPY-1", "IO-INPUTS-1"},
      shapes = "7x1:1x33:7x33", values = "special", cond = "runs", expect = {7, 33} }
case{ id = "nan_both_branches", rules = {"BITS-1", "BITS-3"},
      shapes = "515:515:515", values = "nan", expect = {515} }
case{ id = "ramp_then_special_else", rules = {"BITS-1", "BITS-3"},
      shapes = "300:300:300", values = {x = "ramp", y = "special"},
      cond = "alternating", expect = {300} }

-- Select guarding real math, the way graphs use it (log of negatives,
-- exp overflow, sqrt of negatives): SLEEF results in one branch, in the
-- other an ordinary ramp, each selected where the cond runs say.
for _, op in ipairs({"log", "exp", "sqrt", "sin", "tanh"}) do
  case{ id = "sleef_" .. op .. "_then", rules = {"BITS-1", "BITS-3"},
        dtypes = {"f64", "f32", "f16", "bf16"}, shapes = "4x129:4x129:129",
        values = {x = "sleef:" .. op, y = "ramp"}, cond = "runs",
        expect = {4, 129} }
  case{ id = "sleef_" .. op .. "_else", rules = {"BITS-1", "BITS-3"},
        dtypes = {"f64", "f32", "f16", "bf16"}, shapes = "4x1:_:4x129",
        values = {x = "normal", y = "sleef:" .. op}, cond = "alternating",
        expect = {4, 129} }
end
