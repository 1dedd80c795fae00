-- custom.lua - data shaped by the case itself: attention masks (causal,
-- key padding, sliding window) written by fill functions over [1,1,S,S],
-- [B,1,1,S] and [S,S] conds and broadcast over batch and heads; a ReLU
-- whose cond is read from its own then operand; an integer ramp whose
-- every output element a check function recomputes.  Each check states
-- the property the pattern exists for (a masked score is -inf, nothing
-- negative leaves a ReLU), so the case also checks its own construction.
-- The masks cover the diagonal, the first and last rows and columns, and
-- rows that keep one key or all of them; S = 37 is no tile multiple.

-- Per dtype: -inf as a fill writes it (numbers for f32/f64, bit
-- patterns for the 16- and 8-bit floats).
local NEG_INF = {f64 = -1 / 0, f32 = -1 / 0, f16 = 0xfc00, bf16 = 0xff80,
                 f8e5m2 = 0xfc}
local ATTN = {"f64", "f32", "f16", "bf16", "f8e5m2"}

-- else = -inf, whatever the dtype.
local function neg_inf(b, t)
  b[0] = NEG_INF[t.dtype]
end

-- Every element of out is -inf where masked(flat index) says so, and
-- then's element (bit for bit) elsewhere; then must broadcast to out.
-- Elements compare as read (bits, or numbers for f32/f64); NaN and zero
-- numbers, which that cannot tell apart, compare as bits.
local function check_mask(masked)
  return function(out, t)
    local y, x = t.y, t.x
    local nx, kept, hidden = x.n, 0, 0
    for i = 0, out.n - 1 do
      local src, at = x, i % nx
      if masked(i) then src, at = y, 0 end
      local o, w = out[i], src[at]
      if (o ~= w or o == 0) and out:hex(i) ~= src:hex(at) then
        return false, string.format("dst[%d] is %s, want %s", i,
                                    out:hex(i), src:hex(at))
      end
      if src == y then hidden = hidden + 1 else kept = kept + 1 end
    end
    if kept == 0 or hidden == 0 then
      return false, "the mask keeps or hides everything"
    end
    return true
  end
end

-- Causal: query i sees keys 0..i.  cond [1,1,S,S] over scores [B,H,S,S].
local S = 37
case{ id = "causal_mask", rules = {"OP-SELECT-1", "BC-NUMPY-1", "BITS-1"},
  shapes = string.format("1x1x%dx%d:2x3x%dx%d:_", S, S, S, S),
  dtypes = ATTN, values = {x = "special"},
  fill = { y = neg_inf, cond = function(b)
    for i = 0, S - 1 do
      for j = 0, S - 1 do b[i * S + j] = j <= i end
    end
  end },
  check = check_mask(function(i)
    local q, k = math.floor(i / S) % S, i % S
    return k > q
  end) }

-- Key padding: batch b has len[b] valid keys (from t.rand, at least one
-- of them 1 and one S); cond [B,1,1,S] over [B,H,S,S].
local B, H = 3, 2
local lens = {}
case{ id = "padding_mask", rules = {"OP-SELECT-1", "BC-NUMPY-1"},
  shapes = string.format("%dx1x1x%d:%dx%dx%dx%d:_", B, S, B, H, S, S),
  dtypes = ATTN,
  fill = { y = neg_inf, cond = function(b, t)
    for bi = 0, B - 1 do
      lens[bi] = bi == 0 and 1 or bi == 1 and S or t.rand(S)
      for j = 0, S - 1 do b[bi * S + j] = j < lens[bi] end
    end
  end },
  check = check_mask(function(i)
    local bi = math.floor(i / (H * S * S))
    return i % S >= lens[bi]
  end) }

-- Sliding window of width 5 around the diagonal, on a rank-2 cond that
-- gains the batch and head axes (BC-NUMPY-2); scores of rank 4.
local W = 5
case{ id = "window_mask", rules = {"OP-SELECT-1", "BC-NUMPY-1", "BC-NUMPY-2"},
  shapes = string.format("%dx%d:1x2x%dx%d:_", S, S, S, S),
  dtypes = {"f32", "f16", "bf16"},
  fill = { y = neg_inf, cond = function(b)
    for i = 0, S - 1 do
      for j = 0, S - 1 do b[i * S + j] = math.abs(i - j) < W end
    end
  end },
  check = check_mask(function(i)
    local q, k = math.floor(i / S) % S, i % S
    return math.abs(q - k) >= W
  end) }

-- A larger causal mask, so fill functions run at the sizes of a model
-- (1 MiB of f16 scores); the check walks rows, not a closure per element.
local L, LH = 256, 8
case{ id = "causal_mask_256", rules = {"OP-SELECT-1", "BC-NUMPY-1"},
  shapes = string.format("1x1x%dx%d:1x%dx%dx%d:_", L, L, LH, L, L),
  dtypes = {"f16"},
  fill = { y = neg_inf, cond = function(b)
    for i = 0, L - 1 do
      for j = 0, L - 1 do b[i * L + j] = j <= i end
    end
  end },
  check = function(out, t)
    local x, inf = t.x, t.y[0]
    for r = 0, LH * L - 1 do
      local q, base = r % L, r * L
      for k = 0, L - 1 do
        local want = k > q and inf or x[base + k]
        if out[base + k] ~= want then
          return false, string.format("dst[%d] is %s", base + k,
                                      out:hex(base + k))
        end
      end
    end
    return true
  end }

-- ReLU as a select: where(x > 0, x, 0), the cond read from then itself
-- (its sign and NaN-ness, from bits for the small floats).  Special
-- values: NaN, -0 and -inf must all come out as +0.
local SIGN = {f16 = 0x8000, bf16 = 0x8000, f8e4m3 = 0x80, f8e5m2 = 0x80}
local NANAT = {f16 = 0x7c00, bf16 = 0x7f80, f8e4m3 = 0x7e, f8e5m2 = 0x7c}
local function positive(x, i)
  local dt, s = x.dtype, SIGN[x.dtype]
  if dt == "i64" or dt == "u64" then -- beyond 2^53: read the bits
    local h = x:hex(i)
    return h ~= "0x0000000000000000" and (dt == "u64" or h < "0x8")
  end
  local v = x[i]
  if s then -- bits: below the sign bit, above zero, not a NaN
    return v > 0 and v < s and v <= NANAT[dt]
  end
  return v > 0 -- numbers: false for NaN, -0
end
case{ id = "relu", rules = {"OP-SELECT-1", "BITS-1", "BITS-3", "BC-NUMPY-1"},
  shapes = "6x43:6x43:_", dtypes = "profile", values = {x = "special", y = {0}},
  fill = { cond = function(b, t)
    for i = 0, b.n - 1 do b[i] = positive(t.x, i) end
  end },
  check = function(out, t)
    local zero, pos, cut = t.y:hex(0), 0, 0
    for i = 0, out.n - 1 do
      if positive(t.x, i) then
        if out:hex(i) ~= t.x:hex(i) then
          return false, string.format("dst[%d] lost its positive value", i)
        end
        pos = pos + 1
      elseif out:hex(i) ~= zero then
        return false, string.format("dst[%d] = %s is not +0", i, out:hex(i))
      else
        cut = cut + 1
      end
    end
    if pos == 0 or cut == 0 then return false, "one branch never chosen" end
    return true
  end }

-- Integers: then = flat index, else = -(index) - 1 (unsigned: max - index),
-- cond every third element; the check recomputes each output element.
local INTS = {"i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8"}
local MAX = {u64 = 2 ^ 53 - 1, u32 = 4294967295, u16 = 65535, u8 = 255}
local function wrap(dt, v) -- into the range of 8-bit types
  if dt == "i8" then return (v + 128) % 256 - 128 end
  if dt == "u8" then return v % 256 end
  return v
end
case{ id = "int_ramp", rules = {"OP-SELECT-1", "BC-NUMPY-1"},
  shapes = "3x1x11:1x4x11:3x4x1", dtypes = INTS,
  fill = {
    x = function(b, t)
      for i = 0, b.n - 1 do b[i] = wrap(t.dtype, i) end
    end,
    y = function(b, t)
      local m = MAX[t.dtype]
      for i = 0, b.n - 1 do b[i] = wrap(t.dtype, m and m - i or -i - 1) end
    end,
    cond = function(b)
      for i = 0, b.n - 1 do b[i] = i % 3 == 0 end
    end,
  },
  check = function(out, t)
    for i = 0, out.n - 1 do -- out [3,4,11]: cond [3,1,11], x [1,4,11], y [3,4,1]
      local a, h, k = math.floor(i / 44), math.floor(i / 11) % 4, i % 11
      local want = t.cond[a * 11 + k] ~= 0 and t.x[h * 11 + k] or t.y[a * 4 + h]
      if out[i] ~= want then
        return false, string.format("dst[%d] = %.17g, want %.17g", i,
                                    out[i], want)
      end
    end
    return true
  end }
