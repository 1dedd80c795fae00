-- fuzz_regressions.lua - inputs the fuzzer (harness/diff/fuzz_select.c) found,
-- decoded into cases so that every implementation meets them, not only the
-- two the fuzzer compares.  One block per finding, with what it broke.

-- A zero-element shape whose other dims multiply past int64 (2^62 x 2 x 0):
-- the reference once multiplied left to right and overflowed before the 0
-- (SHAPE-OVF-1, decision D5: any 0 dim makes the count 0).
local P62 = "0x4000000000000000"
local modes = { "none", "numpy", "pdpd" }
for i = 1, #modes do
  local s = { dims = { P62, 2, 0 } }
  case{ id = "zero_after_huge_dims_" .. modes[i],
        rules = { "SHAPE-OVF-1", "IO-ZERO-1" },
        mode = modes[i], dtypes = { "f32", "u8" },
        shapes = { cond = s, x = s, y = s },
        expect = { P62, 2, 0 } }
end
