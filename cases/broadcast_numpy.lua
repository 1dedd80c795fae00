-- broadcast_numpy.lua - numpy broadcasting, enumerated: which input has a 1
-- on which axis, which inputs lack leading axes, and every kind of invalid
-- shape; the expected shape of each case is derived from its construction.
--
-- Model.  A case of result rank R gives axis i a size d_i >= 2 and a
-- per-axis pattern: the subset of {cond, x, y} that has 1 there instead of
-- d_i (8 patterns; x is then, y is else).  An input may also lack leading
-- axes (BC-NUMPY-2) where it has 1s, which is the only place numpy allows.
-- The broadcast index of an element depends only on each axis's pattern
-- and on which axes exist, so this is the whole space of valid numpy
-- shapes up to the sizes d_i.
--
-- Bounds and why they suffice:
--   R = 0..2  every pattern on every axis, and every set of missing
--             leading axes for each input (371 cases);
--   R = 3, 4  every pattern on every axis (512 and 4096 cases), missing
--             axes sampled; with `selcheck --long` (make check-long)
--             R = 5 as well (32768 cases);
--   R = 5..8  a sample of the recurrence a(i) = a(i-2) + a(i-1) mod 8
--             up to SHAPE-RANK-1's maximum (it walks through every
--             ordered pair of adjacent patterns, which is what merging
--             adjacent axes that broadcast the same way can get wrong).
-- Under the one-way cond rule (BC-NUMPY-3) a case is invalid when cond has
-- d_i where then and else both have 1, or has an axis both lack; under the
-- bidirectional rule (BC-NUMPY-5) every such case is valid and cond widens
-- the result.  Invalid inputs proper (two sizes >= 2 that differ, 0
-- against n >= 2, on every axis position of ranks 1..3) follow the
-- enumeration.  dtypes rotate over element widths 1, 2, 4 and 8 with every
-- second case in a oneDNN type, so each profile sees the patterns.

local SHAPE = {status = "SEL_ERR_SHAPE"}  -- every invalid shape here

local DT = {"f32", "u8", "f16", "i64", "bf16", "i16", "f32", "f64"}
local DIMS = {2, 3, 4, 5, 2, 3, 2, 3}   -- d_i of axis i for R <= 4 / R > 4
local NAMES = {"e", "c", "x", "cx", "y", "cy", "xy", "cxy"}
local ncase = 0

-- bit j (0 cond, 1 x, 2 y) of pattern p: does input j have 1 there?
local function has1(p, j)
  return math.floor(p / 2 ^ j) % 2 == 1
end

-- Leading axes on which input j has 1 (how many it may drop).
local function prefix1(pats, j)
  local n = 0
  for i = 1, #pats do
    if not has1(pats[i], j) then break end
    n = n + 1
  end
  return n
end

local function dims_of(pats, j, drop, base)
  local d = {}
  for i = drop + 1, #pats do
    d[#d + 1] = has1(pats[i], j) and 1 or base[i]
  end
  return d
end

-- Expected result: axes where some input in `who` has d_i give d_i, the
-- others 1; the rank is that of the longest input in `who`.
local function result(pats, drops, who, base)
  local k = #pats
  for _, j in ipairs(who) do k = math.min(k, drops[j + 1]) end
  local d = {}
  for i = k + 1, #pats do
    local v = 1
    for _, j in ipairs(who) do
      if i > drops[j + 1] and not has1(pats[i], j) then v = base[i] end
    end
    d[#d + 1] = v
  end
  return d
end

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

local function emit(pats, drops, base)
  local c = dims_of(pats, 0, drops[1], base)
  local xy = result(pats, drops, {1, 2}, base)
  local all = result(pats, drops, {0, 1, 2}, base)
  -- one-way: cond must fit into then/else's result without changing it
  local oneway = same(xy, all) and #c <= #xy and "ok" or "invalid"
  local names = {}
  for i = 1, #pats do names[i] = NAMES[pats[i] + 1] end
  local id = "r" .. #pats .. (#pats > 0 and "_" or "") .. table.concat(names, "_")
  if drops[1] + drops[2] + drops[3] > 0 then
    id = id .. "_drop_c" .. drops[1] .. "x" .. drops[2] .. "y" .. drops[3]
  end
  ncase = ncase + 1
  local expect
  if oneway == "ok" then expect = all
  else expect = {oneway = SHAPE, bidirectional = all} end
  local rules = {"BC-NUMPY-1", "BC-NUMPY-3", "BC-NUMPY-5"}
  if drops[1] + drops[2] + drops[3] > 0 then rules[#rules + 1] = "BC-NUMPY-2" end
  if #pats == 0 then rules[#rules + 1] = "SHAPE-RANK0-1" end
  if #pats == 8 then rules[#rules + 1] = "SHAPE-RANK-1" end
  case{ id = id, rules = rules,
        shapes = {cond = c, x = dims_of(pats, 1, drops[2], base),
                  y = dims_of(pats, 2, drops[3], base)},
        dtypes = {DT[ncase % #DT + 1]}, expect = expect }
end

-- Every drop combination (R <= 2) or one sampled from the case number.
local function emit_drops(pats, base, every)
  local p = {prefix1(pats, 0), prefix1(pats, 1), prefix1(pats, 2)}
  if every then
    for a = 0, p[1] do for b = 0, p[2] do for c = 0, p[3] do
      emit(pats, {a, b, c}, base)
    end end end
  else
    local k = ncase
    emit(pats, {k % (p[1] + 1), (k + 1) % (p[2] + 1), (k + 2) % (p[3] + 1)}, base)
  end
end

-- R = 0..4: every pattern per axis (with --long, R = 5 too).
local function every_pattern(R, base)
  local n = 1
  for _ = 1, R do n = n * 8 end
  for k = 0, n - 1 do
    local pats, v = {}, k
    for i = 1, R do pats[i] = v % 8; v = math.floor(v / 8) end
    emit_drops(pats, base, R <= 2)
  end
end
for R = 0, 4 do every_pattern(R, DIMS) end
if long_run then every_pattern(5, DIMS) end

-- R = 5..8: a sample of the recurrence a(i) = a(i-2) + a(i-1) mod 8,
-- which walks through every ordered pair of adjacent patterns.
local function recurrence(R, a1, a2)
  local pats = {a1, a2}
  for i = 3, R do pats[i] = (pats[i - 2] + pats[i - 1]) % 8 end
  return pats
end
local SMALL = {2, 3, 2, 2, 3, 2, 2, 3}
for R = long_run and 6 or 5, 8 do  -- --long enumerates R = 5 whole
  for k = 0, 5 do
    emit_drops(recurrence(R, (3 * k + R) % 8, (5 * k + 1) % 8), SMALL, false)
  end
end

-- Named one-way/bidirectional differences (ARCHITECTURE section 3).
case{ id = "cond_rank_above_result", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "2x3x4:3x4:3x4", dtypes = {"f32", "i8"},
      expect = {oneway = SHAPE, bidirectional = {2, 3, 4}} }
case{ id = "cond_widens_dim", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "3x4:3x1:1x1", dtypes = {"f16", "u64"},
      expect = {oneway = SHAPE, bidirectional = {3, 4}} }
case{ id = "cond_adds_axis_and_widens", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "2x1:1x3:1x3", dtypes = {"bf16", "u16"},
      expect = {oneway = SHAPE, bidirectional = {2, 3}} }
case{ id = "cond_scalar_result_scalar", rules = {"BC-NUMPY-3", "SHAPE-RANK0-1"},
      shapes = "_:_:_", dtypes = {"f32"}, expect = {} }
case{ id = "cond_vector_then_else_scalar", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "7:_:_", dtypes = {"f32", "i32"},
      expect = {oneway = SHAPE, bidirectional = {7}} }

-- Invalid inputs: on each axis position of ranks 1..3, with every other
-- axis equal, one of these conflicts.  `ow`/`bi`: expected result under
-- the one-way/bidirectional rule, "invalid" or "same" (the base shape with
-- that axis set to `r`).
local CONFLICTS = {
  -- id,            cond, x,   y,   one-way,   bidirectional, r
  {"x_ne_y",          "d", "d", "e", "invalid", "invalid"},
  {"cond_ne_xy",      "e", "d", "d", "invalid", "invalid"},
  {"cond_ne_x_y1",    "e", "d", "1", "invalid", "invalid"},
  {"cond_ne_y_x1",    "e", "1", "d", "invalid", "invalid"},
  {"x0_vs_y",         "d", "0", "d", "invalid", "invalid"},
  {"cond0_vs_xy",     "0", "d", "d", "invalid", "invalid"},
  {"x0_vs_y1",        "1", "0", "1", "same",    "same",    0},
  {"x0_vs_y0",        "0", "0", "0", "same",    "same",    0},
  {"cond1_vs_x0",     "1", "0", "0", "same",    "same",    0},
  {"cond0_vs_xy1",    "0", "1", "1", "invalid", "same",    0},
  {"cond0_vs_x0_y1",  "0", "0", "1", "same",    "same",    0},
}
local function conflict_dim(code, d)
  if code == "d" then return d elseif code == "e" then return d + 1
  elseif code == "0" then return 0 else return 1 end
end
for R = 1, 3 do
  for a = 1, R do
    for _, cf in ipairs(CONFLICTS) do
      local sh = {cond = {}, x = {}, y = {}}
      local res = {}
      for i = 1, R do
        local d = DIMS[i]
        if i == a then
          sh.cond[i] = conflict_dim(cf[2], d)
          sh.x[i] = conflict_dim(cf[3], d)
          sh.y[i] = conflict_dim(cf[4], d)
          res[i] = cf[7]
        else
          sh.cond[i], sh.x[i], sh.y[i], res[i] = d, d, d, d
        end
      end
      local function ex(s) if s == "invalid" then return SHAPE end return res end
      local expect
      if cf[5] == cf[6] then expect = ex(cf[5])
      else expect = {oneway = ex(cf[5]), bidirectional = ex(cf[6])} end
      local rules = {"BC-NUMPY-1", "BC-NUMPY-3", "BC-NUMPY-5"}
      if cf[2] == "0" or cf[3] == "0" or cf[4] == "0" then
        rules[#rules + 1] = "BC-NUMPY-4"
      end
      ncase = ncase + 1
      case{ id = "r" .. R .. "_axis" .. a .. "_" .. cf[1], rules = rules,
            shapes = sh, dtypes = {DT[ncase % #DT + 1]}, expect = expect }
    end
  end
end
