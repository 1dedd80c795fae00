-- aliasing.lua - dst as the same buffer as then or as else (in place,
-- IO-ALIAS-1), and the aliases the contract forbids (IO-ALIAS-2).
--
-- In place is allowed when the aliased input has dst's shape; enumerated
-- for each of then and else, each element width, sizes below, at and
-- above a tile, cond all true / all false / random (all false with dst =
-- then overwrites every then element with else), with the other inputs
-- dense, broadcast and scalar, in every mode; with the other operand
-- broadcast along every subset of the axes, in both directions (dst on
-- then's buffer, else broadcast; dst on else's, then broadcast), and under
-- pdpd at every placement.  Forbidden: dst = then's
-- buffer while then is broadcast, and a dst that overlaps then partly
-- (errors.lua has more partial overlaps).  The harness checks that no
-- input byte outside dst changed (IO-INPUTS-1) on every case.

local WIDTH = {"u8", "f16", "f32", "f64"}

for _, a in ipairs({"x", "y"}) do
  for _, n in ipairs({1, 17, 64, 1000}) do
    for _, c in ipairs({"all_true", "all_false", "random"}) do
      case{ id = "alias_" .. a .. "_n" .. n .. "_" .. c,
            rules = {"IO-ALIAS-1", "IO-INPUTS-1"}, dtypes = WIDTH,
            shapes = n .. ":" .. n .. ":" .. n, cond = c, alias = a,
            values = "special", expect = {n} }
    end
  end
end

-- The other inputs broadcast; the aliased one has dst's shape.
local BC = {
  {"x", "else_row", "1x33:7x33:1x33", {7, 33}},
  {"x", "else_scalar", "_:7x33:_", {7, 33}},
  {"x", "cond_column", "7x1:7x33:33", {7, 33}},
  {"y", "then_row", "1x33:1x33:7x33", {7, 33}},
  {"y", "then_scalar_cond_scalar", "_:_:7x33", {7, 33}},
  {"y", "then_column", "33:7x1:7x33", {7, 33}},
}
for _, b in ipairs(BC) do
  case{ id = "alias_" .. b[1] .. "_" .. b[2],
        rules = {"IO-ALIAS-1", "IO-INPUTS-1", "BC-NUMPY-1"}, dtypes = WIDTH,
        shapes = b[3], alias = b[1], cond = "runs", expect = b[4] }
end
for _, a in ipairs({"x", "y"}) do
  case{ id = "alias_" .. a .. "_none", rules = {"IO-ALIAS-1", "BC-NONE-1"},
        mode = "none", dtypes = WIDTH, shapes = "3x65:3x65:3x65", alias = a,
        expect = {3, 65} }
  case{ id = "alias_" .. a .. "_pdpd", rules = {"IO-ALIAS-1", "BC-PDPD-1"},
        mode = "pdpd", dtypes = WIDTH, shapes = "65:3x65:3x65", alias = a,
        expect = {3, 65} }
  case{ id = "alias_" .. a .. "_rank0", rules = {"IO-ALIAS-1", "SHAPE-RANK0-1"},
        dtypes = WIDTH, shapes = "_:_:_", alias = a, cond = "all_false",
        expect = {} }
  case{ id = "alias_" .. a .. "_offset3", rules = {"IO-ALIAS-1", "IO-ALIGN-1"},
        dtypes = WIDTH, shapes = "257:257:257", alias = a, offset = 3,
        expect = {257} }
  case{ id = "alias_" .. a .. "_zero_size", rules = {"IO-ALIAS-1", "IO-ZERO-1"},
        dtypes = {"f32"}, shapes = "0x3:0x3:0x3", alias = a, expect = {0, 3} }
end

-- In place with the other operand broadcast along any axis: dst is then's
-- buffer while else has a 1 (or no axis) in every subset of the axes of a
-- 5x7x67 output, and the same with dst on else's buffer and then
-- broadcast; cond dense, or broadcast like the other operand.  Under pdpd
-- only then can be dst's shape, so there else takes every placement.
local OUT = {5, 7, 67}
local function dims(mask, drop)
  local d = {}
  for i = 1, 3 do
    if i > drop then
      d[#d + 1] = math.floor(mask / 2 ^ (i - 1)) % 2 == 1 and 1 or OUT[i]
    end
  end
  return table.concat(d, "x")
end
local FULL = "5x7x67"
for _, a in ipairs({"x", "y"}) do
  for mask = 1, 7 do
    -- the leading axes that are 1 may also be missing
    local lead = 0
    while lead < 3 and math.floor(mask / 2 ^ lead) % 2 == 1 do lead = lead + 1 end
    for drop = 0, lead do
      local o = drop == 3 and "_" or dims(mask, drop)
      local other = a == "x" and "else" or "then"
      local sh = a == "x" and (FULL .. ":" .. FULL .. ":" .. o)
                          or (FULL .. ":" .. o .. ":" .. FULL)
      local id = "alias_" .. a .. "_" .. other .. "_ones" .. mask .. "_drop" .. drop
      case{ id = id, rules = {"IO-ALIAS-1", "IO-INPUTS-1", "BC-NUMPY-1"},
            dtypes = WIDTH, shapes = sh, alias = a, cond = "random",
            values = "special", expect = OUT }
      if drop == 0 then
        local csh = o .. (a == "x" and (":" .. FULL .. ":" .. o)
                                    or (":" .. o .. ":" .. FULL))
        case{ id = id .. "_cond_too", rules = {"IO-ALIAS-1", "BC-NUMPY-3"},
              dtypes = WIDTH, shapes = csh, alias = a, cond = "runs",
              expect = OUT }
      end
    end
  end
end
for _, p in ipairs({{"67", -1}, {"7x67", -1}, {"5x1", 0}, {"7", 1}, {"1x67", 1}, {"_", 3}}) do
  local name = p[1] == "_" and "scalar" or p[1]
  case{ id = "alias_x_pdpd_else_" .. name .. "_at" .. (p[2] < 0 and "auto" or p[2]),
        rules = {"IO-ALIAS-1", "BC-PDPD-1"}, mode = "pdpd", axis = p[2],
        dtypes = WIDTH, shapes = "_:" .. FULL .. ":" .. p[1], alias = "x",
        cond = "random", expect = OUT }
end

-- Forbidden: dst is then's (else's) buffer but that input is broadcast.
case{ id = "alias_x_broadcast_is_arg", rules = {"IO-ALIAS-2"}, dtypes = {"f32", "u8"},
      shapes = "7x33:1x33:7x33", alias = "x", expect = {status = "SEL_ERR_ARG"} }
case{ id = "alias_y_broadcast_is_arg", rules = {"IO-ALIAS-2"}, dtypes = {"f32", "u8"},
      shapes = "7x33:7x33:7x1", alias = "y", expect = {status = "SEL_ERR_ARG"} }
case{ id = "alias_partial_is_arg", rules = {"IO-ALIAS-2"}, dtypes = WIDTH,
      shapes = "65:65:65", alias = "partial", expect = {status = "SEL_ERR_ARG"} }
