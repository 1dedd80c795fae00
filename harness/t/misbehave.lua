-- misbehave.lua - cases for harness/t/misbehave.sh: one plain case, run
-- concurrently (4x8 f32 buffers are 128 bytes, so only the shifted run is
-- misaligned), and one valid only with a bidirectional cond.
case{ id = "plain", rules = {"OP-SELECT-1", "IO-THREADS-1"},
      shapes = "4x8:4x8:4x8", dtypes = {"f32"}, concurrent = true }
case{ id = "cond_widens", rules = {"BC-NUMPY-5"}, shapes = "2x1:1x3:1x3",
      dtypes = {"f32"}, profiles = {"where"}, expect = {2, 3} }
