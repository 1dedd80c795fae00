-- mem_need.lua - a test larger than the memory run.sh leaves selcheck
-- (SELCHECK_MEM_AVAILABLE=1024): refused as a SKIP naming both figures;
-- the next one runs
case{ id = "big", rules = {"OP-SELECT-1"}, shapes = "_:16384x8192:_",
      dtypes = {"u8"} }
case{ id = "small", rules = {"OP-SELECT-1"}, shapes = "4:4:4", dtypes = {"u8"} }
