-- conditions.lua - the run conditions real bugs depend on (issue 13): each
-- tensor at its own misalignment, buffers reused at the same addresses with
-- new data, flag bits the ABI does not define, boolean data over every byte.
-- The harness varies the conditions; these cases name the rules they check.

local WIDTHS = {"u8", "f16", "f32", "f64"}

-- IO-ALIGN-1: dense inputs of every width, long enough for a vector body.
-- The SHIFT run puts cond, then, else and dst each at its own offset (one
-- odd, one a multiple of 2, 4 or 8 that is not one of 16), so a kernel that
-- picks aligned loads from dst's alignment faults or reads the wrong bytes.
for _, n in ipairs({67, 1000, 4099}) do
  case{ id = "align_each_own_" .. n, rules = {"IO-ALIGN-1", "OP-SELECT-1"},
        dtypes = WIDTHS, shapes = n .. ":" .. n .. ":" .. n, expect = {n} }
end
case{ id = "align_each_own_rows", rules = {"IO-ALIGN-1", "BC-NUMPY-1"},
      dtypes = WIDTHS, shapes = "33x1:33x65:1x65", expect = {33, 65} }

-- IO-REUSE-1: once a reuse case passed, the harness runs it again at the
-- very same addresses with new data; a cache keyed by address replays the
-- first answer.
local REUSE = {
  {"dense", "1000:1000:1000", {1000}},
  {"scalar_cond", "_:4096:4096", {4096}},
  {"row_cond", "8x1:8x125:8x125", {8, 125}},
  {"bcast_else", "8x125:8x125:125", {8, 125}},
}
for _, r in ipairs(REUSE) do
  case{ id = "reuse_" .. r[1], rules = {"IO-REUSE-1", "OP-SELECT-1"},
        dtypes = WIDTHS, shapes = r[2], reuse = true, expect = r[3] }
end

-- ARG-FLAGS-1: flag bits the ABI does not define, under every mode; and
-- where the cond rule decides validity, they must not switch it.
local FLAGS = {{"bit1", "0x2"}, {"bit31", "0x80000000"},
               {"all_undefined", "0xfffffffe"}}
for _, f in ipairs(FLAGS) do
  case{ id = "flags_" .. f[1] .. "_numpy", rules = {"ARG-FLAGS-1", "BC-NUMPY-1"},
        shapes = "4x1:4x3:3", flags = f[2], expect = {4, 3} }
  case{ id = "flags_" .. f[1] .. "_none", rules = {"ARG-FLAGS-1", "BC-NONE-1"},
        mode = "none", shapes = "4x3:4x3:4x3", flags = f[2], expect = {4, 3} }
  case{ id = "flags_" .. f[1] .. "_pdpd", rules = {"ARG-FLAGS-1", "BC-PDPD-1"},
        mode = "pdpd", shapes = "3:4x3:3", flags = f[2], expect = {4, 3} }
  case{ id = "flags_" .. f[1] .. "_cond_rule", rules = {"ARG-FLAGS-1", "BC-NUMPY-3", "BC-NUMPY-5"},
        dtypes = {"f32"}, shapes = "2x1:1x3:1x3", flags = f[2],
        expect = {oneway = "invalid", bidirectional = {2, 3}} }
end

-- DT-BOOLDATA-1 and BITS-2: boolean then/else over all 256 bytes, from
-- either branch, dense and with a broadcast cond (the harness checks that
-- a "patterns" input citing BITS-2 holds every pattern).
case{ id = "bool_data_every_byte", rules = {"DT-BOOLDATA-1", "BITS-2"},
      dtypes = {"boolean"}, shapes = "256:256:256", cond = "alternating",
      values = "patterns", expect = {256} }
case{ id = "bool_data_every_byte_then", rules = {"DT-BOOLDATA-1", "BITS-2"},
      dtypes = {"boolean"}, shapes = "_:256:256", cond = {1},
      values = "patterns", expect = {256} }
case{ id = "bool_data_every_byte_else", rules = {"DT-BOOLDATA-1", "BITS-2"},
      dtypes = {"boolean"}, shapes = "_:256:256", cond = {0},
      values = "patterns", expect = {256} }

-- IO-THREADS-1: the two threads of a concurrent run want different
-- answers: the second runs other data at its own shapes (concurrent =
-- "c:t:e"), above the 32 Ki and 64 Ki element grains parallel kernels
-- split at, so scratch or state shared between calls shows.
local THREADS = {
  {"dense", "70001:70001:70001", "65537:65537:65537"},
  {"scalar_else", "_:131075:_", "131075:131075:_"},
  {"rows", "257x1:257x259:259", "129x1:129x517:517"},
}
for _, th in ipairs(THREADS) do
  case{ id = "threads_differ_" .. th[1], rules = {"IO-THREADS-1", "OP-SELECT-1"},
        dtypes = WIDTHS, shapes = th[2], concurrent = th[3] }
end
