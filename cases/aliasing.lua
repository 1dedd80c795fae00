-- aliasing.lua - dst as the same buffer as then or as else (in place,
-- IO-ALIAS-1), and the aliases the contract forbids (IO-ALIAS-2).
--
-- In place is allowed when the aliased input has dst's shape; enumerated
-- for each of then and else, each element width, sizes below, at and
-- above a tile, cond all true / all false / random (all false with dst =
-- then overwrites every then element with else), with the other inputs
-- dense, broadcast and scalar, in every mode.  Forbidden: dst = then's
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

-- Forbidden: dst is then's (else's) buffer but that input is broadcast.
case{ id = "alias_x_broadcast_is_arg", rules = {"IO-ALIAS-2"}, dtypes = {"f32", "u8"},
      shapes = "7x33:1x33:7x33", alias = "x", expect = {status = "SEL_ERR_ARG"} }
case{ id = "alias_y_broadcast_is_arg", rules = {"IO-ALIAS-2"}, dtypes = {"f32", "u8"},
      shapes = "7x33:7x33:7x1", alias = "y", expect = {status = "SEL_ERR_ARG"} }
case{ id = "alias_partial_is_arg", rules = {"IO-ALIAS-2"}, dtypes = WIDTH,
      shapes = "65:65:65", alias = "partial", expect = {status = "SEL_ERR_ARG"} }
