-- guarded_math.lua - Select as graphs use it, to guard math: the operand
-- is real math (SLEEF's log, sqrt, exp, sin, tanh on a ramp that crosses
-- each function's domain edges, harness/ffi/README.md), the cond is computed by
-- a fill function from that operand the way the graph's comparison would
-- (log(x) is NaN exactly where x < 0 and -inf where x = 0), and a check
-- function asserts what the guard is for: no NaN or infinity gets
-- through, and every kept element is the operand's, bit for bit.  The
-- guards reject exactly the NaNs and infinities the operands carry, so
-- each case selects around them (BITS-3) and keeps -0.0 and subnormals
-- (BITS-1).  Every f64/f32/f16/bf16 the profile allows; 4x257 elements,
-- enough for the ramp to pass every region of its function.

-- The class of element i: "nan", "inf", "-inf", "neg" (incl. -0), "pos"
-- (incl. +0).  f32/f64 elements are numbers, f16/bf16 bit patterns.
local INF = {f16 = 0x7c00, bf16 = 0x7f80}
local function class(b, i)
  local v, inf = b[i], INF[b.dtype]
  if inf then
    local mag, neg = v % 0x8000, v >= 0x8000
    if mag > inf then return "nan" end
    if mag == inf then return neg and "-inf" or "inf" end
    return neg and "neg" or "pos"
  end
  if v ~= v then return "nan" end
  if v == 1 / 0 then return "inf" end
  if v == -1 / 0 then return "-inf" end
  return (v < 0 or 1 / v < 0) and "neg" or "pos"
end

local FLOATS = {"f64", "f32", "f16", "bf16"}
local RULES = {"OP-SELECT-1", "BITS-1", "BITS-3", "BC-NUMPY-1", "BC-NUMPY-2"}

-- cond[i] = keep(class of the operand's element i).
local function cond_from(side, keep)
  return function(b, t)
    local x = t[side]
    for i = 0, b.n - 1 do b[i] = keep[class(x, i)] == true end
  end
end

-- dst holds the operand where the guard kept it, the fallback elsewhere;
-- the operand had elements of each class in `need`, the dst has none of
-- the classes in `never`, and of `keeps` at least one survived.
local function check_guard(side, never, need, keeps)
  return function(out, t)
    local x, other = t[side], side == "x" and t.y or t.x
    local seen, kept = {}, {}
    for i = 0, out.n - 1 do
      local cx, co = class(x, i), class(out, i)
      seen[cx] = true
      if never[co] then
        return false, string.format("dst[%d] is %s (%s): the guard leaked",
                                    i, out:hex(i), co)
      end
      local src = (t.cond[i] ~= 0) == (side == "x") and x or other
      local at = src == x and i or 0
      if out:hex(i) ~= src:hex(at) then
        return false, string.format("dst[%d] is %s, want %s", i, out:hex(i),
                                    src:hex(at))
      end
      if src == x then kept[co] = true end
    end
    for _, c in ipairs(need) do
      if not seen[c] then return false, "the operand has no " .. c end
    end
    for _, c in ipairs(keeps) do
      if not kept[c] then return false, "no " .. c .. " element was kept" end
    end
    return true
  end
end

local NONFINITE = {nan = true, inf = true, ["-inf"] = true}

-- where(x > 0, log(x), 0): log is NaN below 0 and -inf at +-0.
case{ id = "log_guard", rules = RULES, dtypes = FLOATS,
  shapes = "4x257:4x257:_", values = {x = "sleef:log", y = {0}},
  fill = { cond = cond_from("x", {pos = true, neg = true, inf = true}) },
  check = check_guard("x", {nan = true, ["-inf"] = true},
                      {"nan", "-inf", "neg", "pos"}, {"neg", "pos", "inf"}) }

-- where(x >= 0, sqrt(x), 0): NaN below 0; sqrt(-0) = -0 is kept.
case{ id = "sqrt_guard", rules = RULES, dtypes = FLOATS,
  shapes = "4x257:4x257:_", values = {x = "sleef:sqrt", y = {0}},
  fill = { cond = cond_from("x", {pos = true, neg = true, inf = true}) },
  check = check_guard("x", {nan = true}, {"nan", "neg", "pos"},
                      {"neg", "pos"}) }

-- where(isfinite(exp(x)), exp(x), max): overflow to +inf replaced by the
-- largest finite value; underflow to subnormals and 0 kept.
local MAX = {f64 = 1.7976931348623157e308, f32 = 3.4028234663852886e38,
             f16 = 0x7bff, bf16 = 0x7f7f}
case{ id = "exp_overflow_guard", rules = RULES, dtypes = FLOATS,
  shapes = "4x257:4x257:_", values = {x = "sleef:exp"},
  fill = { y = function(b, t) b[0] = MAX[t.dtype] end,
           cond = cond_from("x", {pos = true, neg = true}) },
  check = check_guard("x", NONFINITE, {"inf", "nan", "pos"}, {"pos"}) }

-- where(isnan(sin(x)), 0, sin(x)): sin(+-inf) is NaN; the operand is the
-- else side and the cond is true where it is dropped.
case{ id = "sin_nan_cleanup", rules = RULES, dtypes = FLOATS,
  shapes = "4x257:_:4x257", values = {x = {0}, y = "sleef:sin"},
  fill = { cond = cond_from("y", {nan = true}) },
  check = check_guard("y", {nan = true}, {"nan", "neg", "pos"},
                      {"neg", "pos"}) }

-- Attention scores tanh(q.k) masked causally with -inf: a [1,1,S,S]
-- cond broadcast over [2,3,S,S]; the scores keep their -0s and NaNs.
local NEG_INF = {f64 = -1 / 0, f32 = -1 / 0, f16 = 0xfc00, bf16 = 0xff80}
local S = 29
case{ id = "tanh_scores_causal", rules = {"OP-SELECT-1", "BITS-1",
                                          "BC-NUMPY-1"},
  dtypes = FLOATS, shapes = string.format("1x1x%dx%d:2x3x%dx%d:_", S, S, S, S),
  values = {x = "sleef:tanh"},
  fill = { y = function(b, t) b[0] = NEG_INF[t.dtype] end,
           cond = function(b)
             for i = 0, S - 1 do
               for j = 0, S - 1 do b[i * S + j] = j <= i end
             end
           end },
  check = function(out, t)
    local inf, kept = t.y:hex(0), {}
    for i = 0, out.n - 1 do
      local q, k = math.floor(i / S) % S, i % S
      local want = k > q and inf or t.x:hex(i)
      if out:hex(i) ~= want then
        return false, string.format("dst[%d] is %s, want %s", i,
                                    out:hex(i), want)
      end
      if k <= q then kept[class(out, i)] = true end
    end
    if not (kept.nan and kept.neg and kept.pos) then
      return false, "the kept scores lack a NaN, a negative or a positive"
    end
    return true
  end }
