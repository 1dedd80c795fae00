-- broadcast_none.lua - auto_broadcast = none: the three shapes must be
-- identical (BC-NONE-1), cond included; anything else is SEL_ERR_SHAPE.
--
-- Valid: identical shapes of every rank 0..8, with and without zero-size
-- dims.  Invalid: starting from an identical triple of rank 0..4, one
-- input differs in exactly one way: one dim set to 1 (what numpy would
-- accept), to d+1, or to 0; a leading axis dropped (numpy would accept);
-- a leading or trailing 1 added.  Every input, every axis, every kind: any
-- difference between shapes is a combination of these single changes, so
-- an implementation that accepts none of them rejects every difference
-- whose first detected change is one of them.

local DT = {"f32", "u8", "f16", "i64", "bf16", "u32"}
local BASE = {2, 3, 4, 5}
local WHO = {"cond", "x", "y"}
local n = 0

local function dtype()
  n = n + 1
  return {DT[n % #DT + 1]}
end

local function copy(d)
  local r = {}
  for i = 1, #d do r[i] = d[i] end
  return r
end

-- Valid: identical shapes.
local VALID = {
  {"r0", {}}, {"r1", {7}}, {"r2", {2, 3}}, {"r3", {2, 3, 4}},
  {"r4", {2, 3, 4, 5}}, {"r5", {2, 1, 3, 1, 2}}, {"r6", {1, 2, 1, 3, 2, 2}},
  {"r7", {2, 2, 1, 2, 3, 1, 2}}, {"r8", {2, 1, 2, 3, 1, 2, 2, 3}},
  {"all_ones_r4", {1, 1, 1, 1}}, {"zero_r1", {0}}, {"zero_mid_r3", {2, 0, 3}},
  {"zero_last_r2", {3, 0}},
}
for _, v in ipairs(VALID) do
  local rules = {"BC-NONE-1", "OP-SELECT-1"}
  if #v[2] == 0 then rules[#rules + 1] = "SHAPE-RANK0-1" end
  if #v[2] == 8 then rules[#rules + 1] = "SHAPE-RANK-1" end
  if v[1]:find("zero") then rules[#rules + 1] = "BC-NUMPY-4" end
  case{ id = "same_" .. v[1], rules = rules, mode = "none",
        shapes = {cond = v[2], x = v[2], y = v[2]}, dtypes = dtype(),
        expect = v[2] }
end

-- Invalid: one input changed in one way.
local function invalid(id, base, j, changed)
  local sh = {cond = base, x = base, y = base}
  sh[WHO[j]] = changed
  case{ id = id, rules = {"BC-NONE-1"}, mode = "none", shapes = sh,
        dtypes = dtype(), expect = {status = "SEL_ERR_SHAPE"} }
end

for R = 0, 4 do
  local base = {}
  for i = 1, R do base[i] = BASE[i] end
  for j = 1, 3 do
    local who = WHO[j]
    for a = 1, R do
      local d = copy(base); d[a] = 1
      invalid("r" .. R .. "_" .. who .. "_axis" .. a .. "_is_1", base, j, d)
      d = copy(base); d[a] = base[a] + 1
      invalid("r" .. R .. "_" .. who .. "_axis" .. a .. "_plus_1", base, j, d)
      d = copy(base); d[a] = 0
      invalid("r" .. R .. "_" .. who .. "_axis" .. a .. "_is_0", base, j, d)
    end
    if R > 0 then
      local d = {}
      for i = 2, R do d[#d + 1] = base[i] end
      invalid("r" .. R .. "_" .. who .. "_drops_leading", base, j, d)
    end
    local lead, trail = {1}, copy(base)
    for i = 1, R do lead[i + 1] = base[i] end
    trail[R + 1] = 1
    invalid("r" .. R .. "_" .. who .. "_adds_leading_1", base, j, lead)
    if R > 0 then
      invalid("r" .. R .. "_" .. who .. "_adds_trailing_1", base, j, trail)
    end
  end
end

-- Zero-size: 0 against 1 is valid under numpy (BC-NUMPY-4), not here.
case{ id = "zero_vs_one", rules = {"BC-NONE-1", "BC-NUMPY-4"}, mode = "none",
      shapes = "1x3:0x3:0x3", dtypes = {"f32"}, expect = {status = "SEL_ERR_SHAPE"} }
case{ id = "zero_vs_zero", rules = {"BC-NONE-1", "BC-NUMPY-4", "IO-ZERO-1"},
      mode = "none", shapes = "0x3:0x3:0x3", dtypes = {"f32", "u8"},
      expect = {0, 3} }
