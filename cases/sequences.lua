-- sequences.lua - consecutive cases that differ in one attribute only
-- (IO-SEQ-1): a plan, kernel or broadcast map cached from the call before,
-- keyed on part of the request, gives the previous call's answer.
--
-- The harness runs a file's tests in order on one worker per library, so
-- neighbouring cases here are neighbouring calls (under one profile; with
-- --profile all each case runs under every profile before the next).  Each
-- sequence keeps one dtype, so the element size never changes (the pdpd
-- file rotates dtypes, so there it always does), and changes one thing per
-- step: the pdpd axis (else and cond at 0, 1, 2, 3, -1 and back), the flag
-- bits the ABI does not define, the dtype at the same element width (one
-- case whose dtypes expand in a row), the width itself, one dim of one
-- input with the output unchanged, and one dim of the output.

-- pdpd axis: then 3x3x3x3, else and cond {3} at each axis, one width each.
for _, dt in ipairs({"u8", "f16", "f32", "f64"}) do
  for i, axis in ipairs({0, 1, 2, 3, -1, 2, 0, 3}) do
    case{ id = "axis_" .. dt .. "_" .. i .. "_at" .. (axis < 0 and "auto" or axis),
          rules = {"IO-SEQ-1", axis < 0 and "BC-PDPD-2" or "BC-PDPD-3"},
          mode = "pdpd", axis = axis, dtypes = {dt}, shapes = "3:3x3x3x3:3",
          cond = "random", expect = {3, 3, 3, 3} }
  end
end

-- Flag bits the ABI does not define, none between them, same request.
for i, f in ipairs({"0x0", "0x2", "0x0", "0x80000000", "0x40", "0xfffffffe", "0x0"}) do
  case{ id = "flags_" .. i .. "_" .. f, rules = {"IO-SEQ-1", "ARG-FLAGS-1"},
        dtypes = {"f32"}, shapes = "4x1:4x67:67", cond = "random",
        flags = f ~= "0x0" and f or nil, values = "special", expect = {4, 67} }
end

-- The dtype at the same width: one case, its dtypes expanded in a row.
local SAME = {
  {"w8", {"u8", "i8", "f8e4m3", "f8e5m2", "boolean"}},
  {"w16", {"f16", "bf16", "i16", "u16"}},
  {"w32", {"f32", "i32", "u32"}},
  {"w64", {"f64", "i64", "u64"}},
}
for _, g in ipairs(SAME) do
  case{ id = "dtype_" .. g[1], rules = {"IO-SEQ-1", "BITS-1"}, dtypes = g[2],
        shapes = "5x1:5x67:67", cond = "random",
        values = {x = "patterns", y = "nan"}, expect = {5, 67} }
end
-- The width: the same request in four widths in a row.
case{ id = "dtype_widths", rules = {"IO-SEQ-1"},
      dtypes = {"f32", "f16", "f64", "u8", "i32", "bf16"},
      shapes = "5x1:5x67:67", cond = "random", values = "special",
      expect = {5, 67} }

-- One dim of one input, the output 4x5x6 throughout.
local ONE = {
  "4x5x6:4x5x6:4x1x6", "4x5x6:4x5x6:4x5x6", "4x5x6:4x5x6:1x5x6",
  "4x5x6:4x5x6:4x5x1", "4x5x6:4x1x6:4x5x6", "4x5x6:1x5x6:4x5x6",
  "4x1x6:1x5x6:4x5x6", "4x5x1:1x5x6:4x5x6", "4x5x6:1x5x6:4x5x6",
}
for i, sh in ipairs(ONE) do
  case{ id = "dim_input_" .. i, rules = {"IO-SEQ-1", "BC-NUMPY-1"},
        dtypes = {"f32"}, shapes = sh, cond = "random", expect = {4, 5, 6} }
end
-- One dim of the output (and of every input that has it).
local OUT = {{4, 5, 6}, {4, 5, 7}, {4, 6, 7}, {3, 6, 7}, {3, 6, 6}, {4, 5, 6}}
for i, d in ipairs(OUT) do
  local full = d[1] .. "x" .. d[2] .. "x" .. d[3]
  case{ id = "dim_output_" .. i, rules = {"IO-SEQ-1", "BC-NUMPY-1"},
        dtypes = {"f32"}, shapes = d[1] .. "x1x" .. d[3] .. ":" .. full .. ":" .. d[3],
        cond = "random", expect = d }
end
-- One dim of else under pdpd, then 4x5x6 throughout.
for i, e in ipairs({"5x6", "5x1", "1x6", "6", "1", "5x6"}) do
  case{ id = "dim_pdpd_else_" .. i, rules = {"IO-SEQ-1", "BC-PDPD-1"},
        mode = "pdpd", dtypes = {"f32"}, shapes = "_:4x5x6:" .. e,
        cond = "random", expect = {4, 5, 6} }
end
