-- spec_examples.lua - every example the seeds give, verbatim, with literal
-- expected shapes and data, so that these cases check the reference itself
-- (the harness compares the oracle with the literal as well as the impl).
--
-- The seeds hold two kinds of example: the three cond broadcast examples of
-- the two-step rule (seeds 000, 001, 003) and the 3x2 example with data of
-- OpenVINO's Select-1 page (seeds 002, 004).  That is all of them; the
-- examples of the broadcast-rules page that 002/004 link to follow.

local SHAPE = {status = "SEL_ERR_SHAPE"}  -- every invalid shape here

-- Seeds 000/001/003: "cond={4, 5}, dst_shape={2, 3, 4, 5} => {2, 3, 4, 5}".
-- dst_shape is the result of step 1, so then and else are given that shape;
-- the _step1 variants reach the same dst_shape by broadcasting then and
-- else to each other first, as step 1 describes.
case{ id = "cond_4x5_valid", rules = {"BC-NUMPY-3", "BC-NUMPY-2", "OP-SELECT-1"},
      shapes = "4x5:2x3x4x5:2x3x4x5", dtypes = {"f32", "bf16", "f16"},
      expect = {2, 3, 4, 5} }
case{ id = "cond_4x5_valid_step1", rules = {"BC-NUMPY-1", "BC-NUMPY-3"},
      shapes = "4x5:2x1x4x5:3x1x5", dtypes = {"f32", "bf16", "f16"},
      expect = {2, 3, 4, 5} }

-- "cond={3, 1, 5}, dst_shape={2, 3, 4, 5} => {2, 3, 4, 5}"
case{ id = "cond_3x1x5_valid", rules = {"BC-NUMPY-3", "BC-NUMPY-2"},
      shapes = "3x1x5:2x3x4x5:2x3x4x5", dtypes = {"f32", "bf16", "f16"},
      expect = {2, 3, 4, 5} }
case{ id = "cond_3x1x5_valid_step1", rules = {"BC-NUMPY-1", "BC-NUMPY-3"},
      shapes = "3x1x5:1x3x4x1:2x1x1x5", dtypes = {"f32", "bf16", "f16"},
      expect = {2, 3, 4, 5} }

-- "cond={3,5}, dst_shape={2, 3, 4, 5} => invalid_shape".  5 matches, 3
-- meets 4: invalid under the one-way rule and under the bidirectional one.
case{ id = "cond_3x5_invalid", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "3x5:2x3x4x5:2x3x4x5", dtypes = {"f32", "bf16", "f16"},
      expect = {status = "SEL_ERR_SHAPE"} }
case{ id = "cond_3x5_invalid_step1", rules = {"BC-NUMPY-3", "BC-NUMPY-5"},
      shapes = "3x5:2x3x4x1:1x1x1x5", dtypes = {"f32", "bf16", "f16"},
      expect = {status = "SEL_ERR_SHAPE"} }

-- Seeds 002/004, the 3x2 example:
--   cond [[false, false], [true, false], [true, true]]
--   then [[-1, 0], [1, 2], [3, 4]]
--   else [[11, 10], [9, 8], [7, 6]]
--   output [[11, 10], [1, 8], [3, 4]]
-- Run for every type that holds -1..11 exactly (f8e5m2 lacks 9 and 11,
-- unsigned types lack -1), under every mode it is valid in: identical
-- shapes are valid under none, numpy and pdpd alike.
local exact = {"f64", "f32", "f16", "bf16", "f8e4m3", "i64", "i32", "i16", "i8"}
local modes = {"none", "numpy", "pdpd"}
for _, m in ipairs(modes) do
  case{ id = "select_3x2_" .. m, rules = {"OP-SELECT-1", "COND-01-1"},
        mode = m, shapes = "3x2:3x2:3x2", dtypes = exact,
        cond = {0, 0, 1, 0, 1, 1},
        values = {x = {-1, 0, 1, 2, 3, 4}, y = {11, 10, 9, 8, 7, 6}},
        expect = {shape = {3, 2}, data = {11, 10, 1, 8, 3, 4}} }
end

-- The broadcast-rules page that seeds 002/004 link to for numpy and pdpd
-- (quoted in spec/select.md under BC-NUMPY-1 and BC-PDPD-1): "A with B",
-- A as then and B as else; cond is rank 0, which fits every placement.
local NUMPY_PAGE = {
  {"numpy_page_2x3_with_1", "2x3", "1", {2, 3}},
  {"numpy_page_2x1x5_with_1x4x5", "2x1x5", "1x4x5", {2, 4, 5}},
  {"numpy_page_2x1x5_with_4x1", "2x1x5", "4x1", {2, 4, 5}},
  {"numpy_page_3x2x1x4_with_5x4", "3x2x1x4", "5x4", {3, 2, 5, 4}},
  {"numpy_page_3_with_2", "3", "2", SHAPE},
  {"numpy_page_3x1x5_with_4x4x5", "3x1x5", "4x4x5", SHAPE},
}
for _, e in ipairs(NUMPY_PAGE) do
  case{ id = e[1], rules = {"BC-NUMPY-1", "BC-NUMPY-2"},
        shapes = "_:" .. e[2] .. ":" .. e[3], dtypes = {"f32", "i16"},
        expect = e[4] }
end
local PDPD_PAGE = {
  {"pdpd_page_3x4_at1", "3x4", 1, {2, 3, 4, 5}},
  {"pdpd_page_3x1_at1", "3x1", 1, {2, 3, 4, 5}},
  {"pdpd_page_4x5_auto", "4x5", -1, {2, 3, 4, 5}},
  {"pdpd_page_4x5_at2", "4x5", 2, {2, 3, 4, 5}},
  {"pdpd_page_1x3_at0", "1x3", 0, {2, 3, 4, 5}},
  {"pdpd_page_scalar_auto", "_", -1, {2, 3, 4, 5}},
  {"pdpd_page_5_auto", "5", -1, {2, 3, 4, 5}},
  {"pdpd_page_5_at3", "5", 3, {2, 3, 4, 5}},
}
for _, e in ipairs(PDPD_PAGE) do
  case{ id = e[1], rules = {"BC-PDPD-1", e[3] == -1 and "BC-PDPD-2" or "BC-PDPD-3"},
        mode = "pdpd", axis = e[3], shapes = "_:2x3x4x5:" .. e[2],
        dtypes = {"f32", "u8"}, expect = e[4] }
end
case{ id = "pdpd_page_8x1x6x1_with_7x1x5_at1", rules = {"BC-PDPD-1"},
      mode = "pdpd", axis = 1, shapes = "_:8x1x6x1:7x1x5", dtypes = {"f32", "u8"},
      expect = {status = "SEL_ERR_SHAPE"} }
