-- dtypes.lua - element types: every dtype each profile allows, with a
-- boolean cond; then/else of different dtypes; every non-boolean cond
-- dtype; values that are not a sel_dtype at all.
--
-- Complete over the 15 sel_dtypes: each is run as then/else under every
-- profile that allows it (DT-PROFILE-1; boolean data only under `where`,
-- DT-BOOLDATA-1), each is paired with a partner of the same width (what a
-- check on sizes alone would accept) and one of another width, and each
-- non-boolean dtype is tried as cond, u8 and i8 included (one byte, like
-- boolean).  dst dtype mismatches are in errors.lua.

local ALL = {"boolean", "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
             "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8"}
-- A partner of the same element size, and one of another size.
local SAME = {boolean = "u8", f64 = "i64", f32 = "u32", f16 = "bf16",
              bf16 = "f16", f8e4m3 = "f8e5m2", f8e5m2 = "f8e4m3",
              i64 = "u64", i32 = "f32", i16 = "u16", i8 = "boolean",
              u64 = "f64", u32 = "i32", u16 = "i16", u8 = "i8"}
local OTHER = {boolean = "f32", f64 = "f32", f32 = "f64", f16 = "f32",
               bf16 = "f32", f8e4m3 = "f16", f8e5m2 = "bf16", i64 = "i32",
               i32 = "i64", i16 = "i8", i8 = "i16", u64 = "u32", u32 = "u16",
               u16 = "u8", u8 = "u16"}
local BAD = {status = "SEL_ERR_DTYPE"}

-- Every dtype of the profile, dense and broadcast, ordinary and special
-- values (the default dtypes = every dtype the profile allows).
case{ id = "every_dtype_dense", rules = {"DT-PROFILE-1", "OP-SELECT-1", "DT-COND-1"},
      shapes = "3x5:3x5:3x5", values = "normal", expect = {3, 5} }
case{ id = "every_dtype_broadcast", rules = {"DT-PROFILE-1", "BC-NUMPY-1"},
      shapes = "1x5:3x1:1x5", values = "special", expect = {3, 5} }
case{ id = "every_dtype_pdpd", rules = {"DT-PROFILE-1", "BC-PDPD-1"},
      mode = "pdpd", shapes = "5:3x5:1x5", values = "special", expect = {3, 5} }
case{ id = "every_dtype_none", rules = {"DT-PROFILE-1", "BC-NONE-1"},
      mode = "none", shapes = "17:17:17", values = "nan", expect = {17} }
case{ id = "every_dtype_scalar", rules = {"DT-PROFILE-1", "SHAPE-RANK0-1"},
      shapes = "_:_:_", values = "special", expect = {} }

-- A dtype the profile does not allow (DT-PROFILE-1): onednn has only f32,
-- bf16 and f16; openvino no boolean data.  The profile calls these invalid
-- (SEL_ERR_DTYPE); an implementation that handles them anyway is TODO
-- "lenient" (a failure under --strict), one that declines them in
-- supports() is a SKIP.
case{ id = "outside_onednn", rules = {"DT-PROFILE-1"}, profiles = {"onednn"},
      dtypes = {"f64", "f8e4m3", "f8e5m2", "i64", "i32", "i16", "i8",
                "u64", "u32", "u16", "u8", "boolean"},
      shapes = "2x3:2x3:2x3", expect = "invalid" }
case{ id = "outside_openvino", rules = {"DT-PROFILE-1", "DT-BOOLDATA-1"},
      profiles = {"openvino"}, dtypes = {"boolean"},
      shapes = "2x3:2x3:2x3", expect = "invalid" }

-- boolean then/else (ONNX, numpy): only the `where` profile allows them.
case{ id = "boolean_data", rules = {"DT-BOOLDATA-1"}, dtypes = {"boolean"},
      shapes = "4x4:4x4:1x4", values = "patterns", cond = "alternating",
      expect = {4, 4} }
case{ id = "boolean_data_literal", rules = {"DT-BOOLDATA-1", "BITS-1"},
      dtypes = {"boolean"}, shapes = "4:4:4", cond = {1, 0, 1, 0},
      values = {x = {1, 1, 0, 0}, y = {0, 1, 1, 0}},
      expect = {shape = {4}, data = {1, 1, 0, 0}} }

-- then and else differ: same size (a size-only check passes), other size.
for _, d in ipairs(ALL) do
  case{ id = "else_" .. SAME[d] .. "_then_" .. d, rules = {"DT-SAME-1"},
        dtypes = {d}, shapes = "2x3:2x3:2x3", dtype_override = {y = SAME[d]},
        expect = BAD }
  case{ id = "then_" .. OTHER[d] .. "_else_" .. d, rules = {"DT-SAME-1"},
        dtypes = {d}, shapes = "2x3:2x3:2x3", dtype_override = {x = OTHER[d]},
        expect = BAD }
end

-- cond of every dtype but boolean; also with a broadcast cond.
for _, d in ipairs(ALL) do
  if d ~= "boolean" then
    case{ id = "cond_" .. d, rules = {"DT-COND-1"}, dtypes = {"f32", "u8"},
          shapes = "2x3:2x3:2x3", dtype_override = {cond = d}, expect = BAD }
  end
end
case{ id = "cond_f32_broadcast", rules = {"DT-COND-1"}, dtypes = {"f32"},
      shapes = "3:2x3:1", dtype_override = {cond = "f32"}, expect = BAD }
case{ id = "cond_same_dtype_as_data", rules = {"DT-COND-1"}, dtypes = {"f16"},
      shapes = "4:4:4", dtype_override = {cond = "f16"}, expect = BAD }

-- Values that are not a sel_dtype (0 is reserved so a zeroed struct is
-- caught; 16 is one past the last).
local RAW = {0, 16, 99, -1, 2147483647}
for _, v in ipairs(RAW) do
  local tag = v < 0 and "minus" .. (-v) or tostring(v)
  case{ id = "unknown_" .. tag .. "_both", rules = {"DT-UNKNOWN-1"},
        dtypes = {"f32"}, shapes = "2x3:2x3:2x3",
        dtype_override = {x = v, y = v}, expect = BAD }
  case{ id = "unknown_" .. tag .. "_cond", rules = {"DT-UNKNOWN-1", "DT-COND-1"},
        dtypes = {"f32"}, shapes = "2x3:2x3:2x3",
        dtype_override = {cond = v}, expect = BAD }
end
case{ id = "unknown_then_only", rules = {"DT-UNKNOWN-1", "DT-SAME-1"},
      dtypes = {"f16"}, shapes = "3:3:3", dtype_override = {x = 99}, expect = BAD }
