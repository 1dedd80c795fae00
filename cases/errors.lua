-- errors.lua - bad arguments: NULL pointers, unknown broadcast types, ranks
-- outside 0..8, negative dims, element counts that overflow, dst of the
-- wrong dtype or shape, partial overlap, and which status wins (ERR-ORDER-1).
--
-- Each fault is tried on each tensor it can affect (cond, then, else, dst),
-- once alone and once with the fault of every other phase of ERR-ORDER-1
-- (ARG pointers > ATTR > DTYPE > SHAPE > ARG data/overlap), pairwise: for
-- two faults of different phases the earlier phase's status must win.
-- Every input here is small or invalid, so nothing large is allocated.

local T = {"cond", "x", "y"}
local ARG = {status = "SEL_ERR_ARG"}
local ATTR = {status = "SEL_ERR_ATTR"}
local DTYPE = {status = "SEL_ERR_DTYPE"}
local SHAPE = {status = "SEL_ERR_SHAPE"}
local OK = "2x3:2x3:2x3"

-- ARG-NULL-1: NULL tensors, NULL dims at rank > 0, NULL data with elements.
for _, t in ipairs({"cond", "x", "y", "dst"}) do
  case{ id = "null_" .. t, rules = {"ARG-NULL-1"}, dtypes = {"f32"},
        shapes = OK, null = t, expect = ARG }
  case{ id = "null_" .. t .. "_dims", rules = {"ARG-NULL-1"}, dtypes = {"f32"},
        shapes = OK, null = t .. ".dims", expect = ARG }
  case{ id = "null_" .. t .. "_data", rules = {"ARG-NULL-1"}, dtypes = {"f32"},
        shapes = OK, null = t .. ".data", expect = ARG }
  -- dims may be NULL at rank 0, data when the tensor has no elements
  case{ id = "null_" .. t .. "_dims_rank0_ok", rules = {"ARG-NULL-1", "SHAPE-RANK0-1"},
        dtypes = {"f32"}, shapes = "_:_:_", null = t .. ".dims", expect = {} }
  case{ id = "null_" .. t .. "_data_empty_ok", rules = {"ARG-NULL-1", "IO-ZERO-1"},
        dtypes = {"f32"}, shapes = "0x3:0x3:0x3", null = t .. ".data", expect = {0, 3} }
end
-- A broadcast input with elements needs data even when dst is empty.
case{ id = "null_x_data_output_empty", rules = {"ARG-NULL-1", "IO-ZERO-1"},
      dtypes = {"f32"}, shapes = "1x3:1x3:0x1", null = "x.data", expect = ARG }
case{ id = "null_dst_data_output_empty_ok", rules = {"IO-ZERO-1"},
      dtypes = {"f32"}, shapes = "1x3:1x3:0x1", null = "dst.data", expect = {0, 3} }

-- ARG-ATTR-1: broadcast types that do not exist.
for _, b in ipairs({3, 4, 7, 255, -1, 2147483647}) do
  case{ id = "btype_" .. (b < 0 and "minus" .. (-b) or b), rules = {"ARG-ATTR-1"},
        dtypes = {"f32"}, shapes = OK, btype = b, expect = ATTR }
end
-- The axis field is ignored outside pdpd (BC-PDPD-3): a raw numpy type
-- value with any axis is fine.
case{ id = "btype_numpy_raw_ok", rules = {"ARG-ATTR-1", "BC-NUMPY-1"},
      dtypes = {"f32"}, shapes = "3:2x3:1", btype = 1, expect = {2, 3} }

-- SHAPE-RANK-1: rank 9 and a negative rank, on each input and on dst.
for _, t in ipairs(T) do
  local sh = {cond = {2, 3}, x = {2, 3}, y = {2, 3}}
  sh[t] = {rank = 9, fill = 1}
  case{ id = "rank9_" .. t, rules = {"SHAPE-RANK-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {2, 3}, x = {2, 3}, y = {2, 3}}
  sh[t] = {rank = -1}
  case{ id = "rank_negative_" .. t, rules = {"SHAPE-RANK-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {2, 3}, x = {2, 3}, y = {2, 3}}
  sh[t] = {rank = 16, fill = 1}   -- the harness's cap on requests
  case{ id = "rank16_" .. t, rules = {"SHAPE-RANK-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
end
case{ id = "rank9_dst", rules = {"SHAPE-RANK-1", "SHAPE-DST-1"}, dtypes = {"f32"},
      shapes = "_:_:_", dst = {dims = {1, 1, 1, 1, 1, 1, 1, 1, 1}}, expect = SHAPE }
case{ id = "rank9_all_none", rules = {"SHAPE-RANK-1"}, mode = "none", dtypes = {"f32"},
      shapes = {cond = {rank = 9, fill = 1}, x = {rank = 9, fill = 1},
                y = {rank = 9, fill = 1}}, expect = SHAPE }

-- SHAPE-NEG-1: a negative dim in each input (also where it would be a
-- broadcast 1 or a 0), and INT64_MIN.
for _, t in ipairs(T) do
  local sh = {cond = {2, 3}, x = {2, 3}, y = {2, 3}}
  sh[t] = {dims = {2, -1}}
  case{ id = "negative_dim_" .. t, rules = {"SHAPE-NEG-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {0, 3}, x = {0, 3}, y = {0, 3}}
  sh[t] = {dims = {-1, 3}}
  case{ id = "negative_dim_with_zero_" .. t, rules = {"SHAPE-NEG-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {2, 3}, x = {2, 3}, y = {2, 3}}
  sh[t] = {dims = {"0x8000000000000000", 3}}
  case{ id = "int64_min_dim_" .. t, rules = {"SHAPE-NEG-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
end
case{ id = "negative_dim_pdpd", rules = {"SHAPE-NEG-1"}, mode = "pdpd", dtypes = {"f32"},
      shapes = {cond = {2, 3}, x = {2, 3}, y = {dims = {-1}}}, expect = SHAPE }

-- SHAPE-OVF-1: counts or byte sizes beyond int64/size_t, in inputs and in
-- the output only; a 0 dim makes any count 0.
local P62, P61, P32 = "0x4000000000000000", "0x2000000000000000", "0x100000000"
for _, t in ipairs(T) do
  local sh = {cond = {1}, x = {1}, y = {1}}
  sh[t] = {dims = {P62, 4}}
  case{ id = "count_2p64_" .. t, rules = {"SHAPE-OVF-1"}, dtypes = {"f32"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {1}, x = {1}, y = {1}}
  sh[t] = {dims = {P32, P32}}
  case{ id = "count_2p32_squared_" .. t, rules = {"SHAPE-OVF-1"}, dtypes = {"u8"},
        shapes = sh, expect = SHAPE }
end
-- count 2^61 fits int64; 8-byte elements make 2^64 bytes
case{ id = "bytes_2p64_8byte", rules = {"SHAPE-OVF-1"}, dtypes = {"f64", "i64", "u64"},
      shapes = {cond = {1}, x = {dims = {P61}}, y = {dims = {P61}}}, expect = SHAPE }
-- overflow in the output only: then {2^62, 1} with else {1, 4}
case{ id = "output_count_overflow", rules = {"SHAPE-OVF-1", "BC-NUMPY-1"},
      dtypes = {"f32", "u8"},
      shapes = {cond = {1}, x = {dims = {P62, 1}}, y = {1, 4}}, expect = SHAPE }
case{ id = "output_count_overflow_cond", rules = {"SHAPE-OVF-1", "BC-NUMPY-5"},
      dtypes = {"u8"}, profiles = {"where"},
      shapes = {cond = {dims = {P62, 1}}, x = {1, 4}, y = {1}}, expect = SHAPE }
-- Products that wrap to small nonzero values, not to 0: a check that only
-- notices a product of 0 passes every power of two above.  Counts: 3 x
-- (2^64+2)/3 wraps to 2, 15 x (2^64+14)/15 to 14 (over three dims);
-- bytes: (2^62+1) f32 elements wrap to 4 bytes, (2^61+1) f64 ones to 8;
-- the output only: {3,1} with {1,(2^64+2)/3} wraps to 2 elements, and
-- {3,1} with {1,(2^62+2)/3} f32 to 8 bytes, each input valid.
local W3, W15 = "0x5555555555555556", "0x1111111111111112"
for _, t in ipairs(T) do
  local sh = {cond = {1}, x = {1}, y = {1}}
  sh[t] = {dims = {3, W3}}
  case{ id = "count_wraps_to_2_" .. t, rules = {"SHAPE-OVF-1"}, dtypes = {"u8"},
        shapes = sh, expect = SHAPE }
  sh = {cond = {1}, x = {1}, y = {1}}
  sh[t] = {dims = {5, 3, W15}}
  case{ id = "count_wraps_to_14_" .. t, rules = {"SHAPE-OVF-1"}, dtypes = {"u8"},
        shapes = sh, expect = SHAPE }
end
case{ id = "bytes_wrap_to_4_f32", rules = {"SHAPE-OVF-1"}, dtypes = {"f32", "i32", "u32"},
      shapes = {cond = {1}, x = {dims = {"0x4000000000000001"}}, y = {1}}, expect = SHAPE }
case{ id = "bytes_wrap_to_8_f64", rules = {"SHAPE-OVF-1"}, dtypes = {"f64", "i64", "u64"},
      shapes = {cond = {1}, x = {1}, y = {dims = {"0x2000000000000001"}}}, expect = SHAPE }
case{ id = "output_count_wraps_to_2", rules = {"SHAPE-OVF-1", "BC-NUMPY-1"},
      dtypes = {"u8", "i8"},
      shapes = {cond = {1}, x = {3, 1}, y = {dims = {1, W3}}}, expect = SHAPE }
case{ id = "output_bytes_wrap_to_8", rules = {"SHAPE-OVF-1", "BC-NUMPY-1"},
      dtypes = {"f32"},
      shapes = {cond = {1}, x = {3, 1}, y = {dims = {1, "0x1555555555555556"}}},
      expect = SHAPE }
case{ id = "count_wraps_to_2_pdpd_then", rules = {"SHAPE-OVF-1", "BC-PDPD-1"},
      mode = "pdpd", dtypes = {"u8"},
      shapes = {cond = {1}, x = {dims = {3, W3}}, y = {1}}, expect = SHAPE }
-- a 0 anywhere makes the count 0, however large the other dims
case{ id = "zero_with_huge_dims_ok", rules = {"SHAPE-OVF-1", "IO-ZERO-1"},
      dtypes = {"f32"},
      shapes = {cond = {1}, x = {dims = {0, P62, P62}}, y = {1}} }

-- DT-DST-1, SHAPE-DST-1: a dst other than the inferred one.
case{ id = "dst_dtype_f16_for_f32", rules = {"DT-DST-1"}, dtypes = {"f32"},
      shapes = OK, dst = {dtype = "f16"}, expect = DTYPE }
case{ id = "dst_dtype_same_size", rules = {"DT-DST-1"}, dtypes = {"f16"},
      shapes = OK, dst = {dtype = "bf16"}, expect = DTYPE }
case{ id = "dst_dtype_boolean", rules = {"DT-DST-1"}, dtypes = {"u8"},
      profiles = {"openvino", "where"}, -- u8 data is outside onednn
      shapes = OK, dst = {dtype = "boolean"}, expect = DTYPE }
case{ id = "dst_dtype_unknown", rules = {"DT-DST-1", "DT-UNKNOWN-1"}, dtypes = {"f32"},
      shapes = OK, dst = {dtype = 99}, expect = DTYPE }
local DST = {
  {"dst_transposed", OK, {3, 2}},
  {"dst_flattened", OK, {6}},
  {"dst_extra_axis", OK, {1, 2, 3}},
  {"dst_missing_axis", "3:2x3:3", {3}},
  {"dst_rank0_for_1", "1:1:1", {}},
  {"dst_1_for_rank0", "_:_:_", {1}},
  {"dst_unbroadcast", "3:1x3:1", {3}},
  {"dst_zero_for_nonempty", OK, {0, 3}},
  {"dst_nonempty_for_zero", "1:0x3:1", {1, 3}},
}
for _, d in ipairs(DST) do
  case{ id = d[1], rules = {"SHAPE-DST-1"}, dtypes = {"f32"}, shapes = d[2],
        dst = {dims = d[3]}, expect = SHAPE }
end
case{ id = "dst_shape_pdpd", rules = {"SHAPE-DST-1", "BC-PDPD-1"}, mode = "pdpd",
      dtypes = {"f32"}, shapes = "3:2x3:3", dst = {dims = {3}}, expect = SHAPE }

-- IO-ALIAS-2: dst partly overlapping then.
for _, s in ipairs({"2:2:2", "64:64:64", "4x33:4x33:4x33", "33:4x33:1"}) do
  case{ id = "partial_overlap_" .. s:gsub(":", "_"), rules = {"IO-ALIAS-2"},
        dtypes = {"u8", "f32"}, shapes = s, alias = "partial", expect = ARG }
end

-- ERR-ORDER-1: two faults of different phases; the earlier one wins.
-- phases: 1 ARG pointers, 2 ATTR, 3 DTYPE, 4 SHAPE, 5 ARG data/overlap.
local BADSHAPE = "2x3:2x3:2x4"
local PAIRS = {
  {"null_x_and_btype", {null = "x", btype = 7}, ARG},
  {"null_dims_and_cond_dtype", {null = "y.dims", dtype_override = {cond = "u8"}}, ARG},
  {"null_cond_and_shape", {null = "cond", shapes = BADSHAPE}, ARG},
  {"null_dst_and_dst_dtype", {null = "dst", dst = {dtype = "f16"}}, ARG},
  {"btype_and_cond_dtype", {btype = 7, dtype_override = {cond = "f32"}}, ATTR},
  {"btype_and_shape", {btype = 9, shapes = BADSHAPE}, ATTR},
  {"pdpd_axis_and_dtype", {mode = "pdpd", axis = -2, dtype_override = {y = "f16"}}, ATTR},
  {"pdpd_axis_and_shape", {mode = "pdpd", axis = -5, shapes = "2x3:2x3:4"}, ATTR},
  {"btype_and_null_data", {btype = 3, null = "x.data"}, ATTR},
  {"dtype_and_shape", {dtype_override = {y = "f16"}, shapes = BADSHAPE}, DTYPE},
  {"unknown_dtype_and_rank9", {dtype_override = {cond = 0},
     shapes = {cond = {2, 3}, x = {rank = 9, fill = 1}, y = {2, 3}}}, DTYPE},
  {"dst_dtype_and_dst_shape", {dst = {dtype = "f16", dims = {3, 2}}}, DTYPE},
  {"dtype_and_partial_overlap", {dtype_override = {x = "i32"}, alias = "partial"}, DTYPE},
  {"shape_and_null_data", {shapes = BADSHAPE, null = "y.data"}, SHAPE},
  {"shape_and_partial_overlap", {shapes = "2x3:2x3:3x3", alias = "partial"}, SHAPE},
  {"dst_shape_and_null_data", {dst = {dims = {6}}, null = "cond.data"}, SHAPE},
  {"negative_dim_and_null_data", {shapes = {cond = {2, 3}, x = {dims = {2, -3}},
     y = {2, 3}}, null = "x.data"}, SHAPE},
}
for _, p in ipairs(PAIRS) do
  local c = {id = "order_" .. p[1], rules = {"ERR-ORDER-1"}, dtypes = {"f32"},
             shapes = OK, expect = p[3]}
  for k, v in pairs(p[2]) do c[k] = v end   -- order of assignment is irrelevant
  case(c)
end
