-- large.lua - tensors of several MiB in the broadcast patterns real models
-- use, big enough to cross an implementation's thread splits; run twice
-- at once from two threads (IO-THREADS-1) and in place.
--
-- Patterns: the attention mask ([1,1,S,S] cond against [B,H,S,S] scores,
-- a scalar -inf-like else), a row bias, a column gate, a scalar then, a
-- dense 8-byte select, the pdpd form of the mask, and outputs of odd sizes
-- just above 4 MiB (IO-LENGTH-1).  Few cases, each a
-- single dtype, so that the suite stays fast: what these add over the
-- small cases is size (chunking, thread boundaries), not new shapes.

-- [B,H,S,S] scores masked by a [1,1,S,S] cond: 1x8x384x384 f32 = 4.5 MiB.
case{ id = "attention_mask_1x1xsxs", rules = {"BC-NUMPY-1", "BC-NUMPY-3", "OP-SELECT-1"},
      dtypes = {"f32"}, shapes = "1x1x384x384:1x8x384x384:_", cond = "runs",
      expect = {1, 8, 384, 384} }
case{ id = "attention_mask_concurrent", rules = {"IO-THREADS-1", "BC-NUMPY-3"},
      dtypes = {"f16"}, shapes = "1x1x512x512:2x4x512x512:_", cond = "random",
      concurrent = true, expect = {2, 4, 512, 512} }
case{ id = "attention_mask_in_place", rules = {"IO-ALIAS-1", "IO-INPUTS-1", "BC-NUMPY-3"},
      dtypes = {"bf16"}, shapes = "1x1x512x512:2x4x512x512:_", cond = "runs",
      alias = "x", expect = {2, 4, 512, 512} }
-- The same mask under pdpd (cond right-aligned by its own axis).
case{ id = "attention_mask_pdpd", rules = {"BC-PDPD-5", "BC-PDPD-2"}, mode = "pdpd",
      dtypes = {"f32"}, shapes = "384x384:1x8x384x384:_", cond = "runs",
      expect = {1, 8, 384, 384} }
-- Row bias: else a row of 1024 against 2048x1024 f16 (4 MiB).
case{ id = "row_broadcast_else", rules = {"BC-NUMPY-1"}, dtypes = {"f16"},
      shapes = "2048x1024:2048x1024:1024", cond = "random", values = "special",
      expect = {2048, 1024} }
-- Column gate: cond 4096x1 against 4096x1024 u8 (4 MiB), concurrently.
case{ id = "column_broadcast_cond", rules = {"BC-NUMPY-3", "IO-THREADS-1"},
      dtypes = {"u8"}, shapes = "4096x1:4096x1024:4096x1024", cond = "alternating",
      concurrent = true, expect = {4096, 1024} }
-- Scalar then (a fill value), 2M i32 else (8 MiB).
case{ id = "scalar_then", rules = {"BC-NUMPY-2"}, dtypes = {"i32"},
      shapes = "2097152:_:2097152", cond = "runs", expect = {2097152} }
-- Dense 8-byte select, 1M f64 (8 MiB), from two threads at once.
case{ id = "dense_f64_concurrent", rules = {"IO-THREADS-1", "BITS-1"},
      dtypes = {"f64"}, shapes = "1048576:1048576:1048576", cond = "random",
      values = "special", concurrent = true, expect = {1048576} }

-- Large outputs of odd sizes (IO-LENGTH-1): just above 4 MiB (opt's
-- parallel threshold, opt/opt_exec.c) and not a multiple of any vector,
-- chunk or thread count, dense and broadcast; the harness poisons dst, so
-- an element a split leaves unwritten shows.
case{ id = "odd_u8", rules = {"IO-LENGTH-1", "BITS-1"}, dtypes = {"u8"},
      shapes = "4194305:4194305:4194305", cond = "random",
      values = {x = "patterns", y = "nan"}, expect = {4194305} }
case{ id = "odd_f32_scalar_else", rules = {"IO-LENGTH-1", "BC-NUMPY-2"},
      dtypes = {"f32"}, shapes = "1048579:1048579:_", cond = "runs",
      values = {x = "special", y = {"0x7fc00001"}}, expect = {1048579} }
case{ id = "odd_f16_rows", rules = {"IO-LENGTH-1", "BC-NUMPY-1", "BC-NUMPY-3"},
      dtypes = {"f16"}, shapes = "1031x1:1031x2039:2039", cond = "random",
      values = {x = "patterns", y = "nan"}, expect = {1031, 2039} }
