-- misbehave.lua - one plain case, run concurrently, for harness/t/misbehave.sh:
-- 4x8 f32 buffers are 128 bytes, so only the shifted run is misaligned.
case{ id = "plain", rules = {"OP-SELECT-1", "IO-THREADS-1"},
      shapes = "4x8:4x8:4x8", dtypes = {"f32"}, concurrent = true }
