-- edges.lua - sizes and placements where loops go wrong: rank 0 in every
-- position, zero-size outputs, the maximum rank, all dims 1, long inner vs
-- long outer dims, every size 1..257, sizes around tile multiples, odd
-- buffer addresses.
--
-- Tails: a SIMD kernel handles n elements as full vectors plus a tail;
-- with widths 1..8 bytes and vectors up to 64 bytes unrolled up to 4 times
-- a tile is at most 256 elements, so every n in 1..257 (one width each, in
-- rotation) and, for every width, m-1, m, m+1 for each multiple m of 64 up
-- to 512 and for 1024 reach every tail length of every tile.  Each tail size is also
-- run with a broadcast (scalar else, scalar cond) and at byte offsets
-- 1, 2, 3 and 7 (IO-ALIGN-1).

local SHAPE = {status = "SEL_ERR_SHAPE"}  -- every invalid shape here

local WIDTH = {"u8", "f16", "f32", "f64"}

-- Rank 0 in every position, in every mode that allows it.
local R0 = {
  {"all", "_:_:_", {}},
  {"cond", "_:5:5", {5}},
  {"then", "5:_:5", {5}},
  {"else", "5:5:_", {5}},
  {"then_else", "5:_:_", {oneway = SHAPE, bidirectional = {5}}},
  {"cond_else", "_:5:_", {5}},
  {"cond_then", "_:_:5", {5}},
}
for _, r in ipairs(R0) do
  case{ id = "rank0_" .. r[1], rules = {"SHAPE-RANK0-1", "BC-NUMPY-2"},
        dtypes = WIDTH, shapes = r[2], expect = r[3] }
end
case{ id = "rank0_all_none", rules = {"SHAPE-RANK0-1", "BC-NONE-1"}, mode = "none",
      dtypes = WIDTH, shapes = "_:_:_", expect = {} }
case{ id = "rank0_vs_1_none", rules = {"SHAPE-RANK0-1", "BC-NONE-1"}, mode = "none",
      dtypes = {"f32"}, shapes = "_:1:1", expect = {status = "SEL_ERR_SHAPE"} }
case{ id = "rank0_all_pdpd", rules = {"SHAPE-RANK0-1", "BC-PDPD-1"}, mode = "pdpd",
      dtypes = WIDTH, shapes = "_:_:_", expect = {} }
case{ id = "rank0_cond_else_pdpd", rules = {"SHAPE-RANK0-1", "BC-PDPD-5"}, mode = "pdpd",
      dtypes = WIDTH, shapes = "_:3x5:_", expect = {3, 5} }
case{ id = "rank0_then_pdpd", rules = {"SHAPE-RANK0-1", "BC-PDPD-6"}, mode = "pdpd",
      dtypes = {"f32"}, shapes = "_:_:5", expect = {status = "SEL_ERR_SHAPE"} }

-- Zero-element outputs: nothing is written, data pointers may be NULL.
local Z = {
  {"zero_1d", "0:0:0", {0}},
  {"zero_vs_one", "1:0:1", {0}},
  {"zero_cond_one_data", "0:1:1", {oneway = SHAPE, bidirectional = {0}}},
  {"zero_inner", "1x0:3x0:3x1", {3, 0}},
  {"zero_outer", "0x1:0x7:1x7", {0, 7}},
  {"zero_middle_r4", "2x1x3x1:2x0x3x5:1x1x1x5", {2, 0, 3, 5}},
  {"zero_cond_scalar", "_:4x0:4x1", {4, 0}},
}
for _, z in ipairs(Z) do
  case{ id = z[1], rules = {"IO-ZERO-1", "BC-NUMPY-4"}, dtypes = WIDTH,
        shapes = z[2], expect = z[3] }
end
case{ id = "zero_vs_one_reads_nothing", rules = {"IO-ZERO-1", "BC-NUMPY-4"},
      dtypes = {"f32", "u8"}, shapes = "1x1:1x0:1x1", expect = {1, 0} }
-- pdpd is one way (D7): then's 1 yields to else's 0, and cond, merged
-- after else, must then be 0 there too (a cond 1 against 0 is invalid).
case{ id = "zero_pdpd_then_one", rules = {"IO-ZERO-1", "BC-NUMPY-4", "BC-PDPD-1"},
      mode = "pdpd", dtypes = WIDTH, shapes = "0x1:1x1:0x1", expect = {0, 1} }
case{ id = "zero_pdpd_cond_one", rules = {"BC-NUMPY-4", "BC-PDPD-5"},
      mode = "pdpd", dtypes = WIDTH, shapes = "1x1:1x1:0x1",
      expect = {status = "SEL_ERR_SHAPE"} }

-- The maximum rank, all dims 1, and broadcasting at rank 8.
case{ id = "rank8_dense", rules = {"SHAPE-RANK-1"}, dtypes = WIDTH,
      shapes = "2x2x2x2x2x2x2x3:2x2x2x2x2x2x2x3:2x2x2x2x2x2x2x3",
      expect = {2, 2, 2, 2, 2, 2, 2, 3} }
case{ id = "rank8_all_ones", rules = {"SHAPE-RANK-1"}, dtypes = WIDTH,
      shapes = "1x1x1x1x1x1x1x1:1x1x1x1x1x1x1x1:1x1x1x1x1x1x1x1",
      expect = {1, 1, 1, 1, 1, 1, 1, 1} }
case{ id = "rank8_alternating_broadcast", rules = {"SHAPE-RANK-1", "BC-NUMPY-1"},
      dtypes = WIDTH, shapes = "2x1x2x1x2x1x2x1:1x3x1x3x1x3x1x3:2x3x2x1x2x3x2x1",
      expect = {2, 3, 2, 3, 2, 3, 2, 3} }
case{ id = "rank8_vs_rank1", rules = {"SHAPE-RANK-1", "BC-NUMPY-2"}, dtypes = WIDTH,
      shapes = "3:2x1x2x1x2x1x2x3:_", expect = {2, 1, 2, 1, 2, 1, 2, 3} }
case{ id = "rank8_pdpd_axis7", rules = {"SHAPE-RANK-1", "BC-PDPD-3"}, mode = "pdpd",
      axis = 7, dtypes = WIDTH, shapes = "3:2x1x2x1x2x1x2x3:3",
      expect = {2, 1, 2, 1, 2, 1, 2, 3} }
case{ id = "all_dims_one_r3", rules = {"BC-NUMPY-1"}, dtypes = WIDTH,
      shapes = "1x1:1x1x1:1", expect = {1, 1, 1} }
case{ id = "all_dims_one_none", rules = {"BC-NONE-1"}, mode = "none", dtypes = WIDTH,
      shapes = "1x1x1:1x1x1:1x1x1", expect = {1, 1, 1} }

-- Long inner vs long outer dims.
local LONG = {
  {"long_inner_row_broadcast", "1x4099:3x4099:1x4099", {3, 4099}},
  {"long_outer_column_broadcast", "4099x1:4099x3:4099x1", {4099, 3}},
  {"outer_product", "1:1x2053:257x1", {257, 2053}},
  {"outer_product_cond", "257x1:1x2053:_",
   {oneway = SHAPE, bidirectional = {257, 2053}}},
  {"inner_1_outer_long", "4097x1:4097x1:1x1", {4097, 1}},
}
for _, l in ipairs(LONG) do
  case{ id = l[1], rules = {"BC-NUMPY-1", "OP-SELECT-1", "IO-INPUTS-1"},
        dtypes = {"u8", "f32"},
        shapes = l[2], cond = "runs", expect = l[3] }
end

-- Every size 1..257, one width each in rotation.
for n = 1, 257 do
  case{ id = "size_" .. n, rules = {"OP-SELECT-1"}, dtypes = {WIDTH[n % 4 + 1]},
        shapes = n .. ":" .. n .. ":" .. n, cond = "random", values = "special",
        expect = {n} }
end

-- Around every multiple of 64 up to 512 and around 1024, every width;
-- with broadcasts around 64 and 256.
local MULT = {64, 128, 192, 256, 320, 384, 448, 512, 1024}
for _, m in ipairs(MULT) do
  for d = -1, 1 do
    local n = m + d
    local s = n .. ":" .. n .. ":" .. n
    case{ id = "tail_" .. n, rules = {"OP-SELECT-1"}, dtypes = WIDTH,
          shapes = s, cond = "runs", expect = {n} }
    if m == 64 or m == 256 then
      case{ id = "tail_" .. n .. "_scalar_else", rules = {"BC-NUMPY-2"},
            dtypes = WIDTH, shapes = n .. ":" .. n .. ":_", cond = "alternating",
            expect = {n} }
      case{ id = "tail_" .. n .. "_scalar_cond", rules = {"BC-NUMPY-2"},
            dtypes = WIDTH, shapes = "_:" .. n .. ":" .. n, cond = {1},
            expect = {n} }
    end
  end
end

-- Odd addresses: every buffer starts `offset` bytes past an aligned one.
for _, off in ipairs({1, 2, 3, 7}) do
  for _, n in ipairs({15, 64, 257}) do
    case{ id = "offset" .. off .. "_n" .. n, rules = {"IO-ALIGN-1"},
          dtypes = WIDTH, shapes = n .. ":" .. n .. ":" .. n, offset = off,
          cond = "runs", values = "special", expect = {n} }
  end
  case{ id = "offset" .. off .. "_broadcast", rules = {"IO-ALIGN-1", "BC-NUMPY-1"},
        dtypes = WIDTH, shapes = "9x1:1x67:9x67", offset = off, expect = {9, 67} }
end

-- Reentrancy on small tensors too: two threads, one call each at once.
case{ id = "concurrent_small_broadcast", rules = {"IO-THREADS-1", "BC-NUMPY-1"},
      dtypes = WIDTH, shapes = "9x1:1x67:9x67", concurrent = true, expect = {9, 67} }
case{ id = "concurrent_small_pdpd", rules = {"IO-THREADS-1", "BC-PDPD-5"}, mode = "pdpd",
      dtypes = WIDTH, shapes = "67:9x67:1x67", concurrent = true, expect = {9, 67} }
