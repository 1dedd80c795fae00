-- profiles.lua - the profiles of selcheck, as data.
-- A profile is one consistent reading of the specs: which broadcast modes
-- exist, how cond broadcasts, which then/else dtypes are valid, and which
-- extension rules apply.  Rule ids refer to spec/select.md.
-- Pure data in the Lua subset that Lua 5.4 and LuaJIT both run; an array,
-- so the order is fixed (no reliance on pairs()).

local numeric = { "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
                  "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8" }

local numeric_and_boolean = { "boolean" }
for i = 1, #numeric do numeric_and_boolean[i + 1] = numeric[i] end

return {
  {
    name = "onednn",
    summary = "oneDNN Graph Select: none/numpy, one-way cond, f32/bf16/f16",
    seeds = { "000", "001", "003" },
    modes = { "none", "numpy" },
    cond = "oneway",            -- BC-NUMPY-3
    dtypes = { "f32", "bf16", "f16" },   -- DT-PROFILE-1
    extensions = {},
  },
  {
    name = "openvino",
    summary = "OpenVINO Select-1 as written: none/numpy/pdpd, one-way cond, every numeric type",
    seeds = { "002", "004" },
    modes = { "none", "numpy", "pdpd" },
    cond = "oneway",            -- BC-NUMPY-3
    dtypes = numeric,           -- DT-PROFILE-1
    extensions = {},
  },
  -- where: the union of its sources (spec/select.md, Profiles).  Measured
  -- against each alone, some of it is an extension: f8 (not in ONNX Where,
  -- whose T predates ONNX's f8 types, nor in WebNN), boolean data and
  -- zero-size dims (not in WebNN), pdpd (OpenVINO only, and there only in
  -- its core reference and shape inference).
  {
    name = "where",
    summary = "What OpenVINO's runtime, ONNX Where, WebNN where and numpy.where do: bidirectional cond, nonzero cond bytes are true",
    seeds = { "002", "004" },
    modes = { "none", "numpy", "pdpd" },
    cond = "bidirectional",     -- BC-NUMPY-5
    dtypes = numeric_and_boolean, -- DT-PROFILE-1, DT-BOOLDATA-1
    extensions = { "COND-NZ-1" },
  },
}
