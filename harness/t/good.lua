-- good.lua - small valid cases for the harness's own tests (run.sh): the
-- spec's 3x2 example with literal data, a broadcast, a rank-0 case, an
-- invalid shape.  Independent of cases/, which another file set owns.
case{ id = "example_3x2", rules = {"OP-SELECT-1"}, shapes = "3x2:3x2:3x2",
      dtypes = {"f32", "i8"}, cond = {0, 0, 1, 0, 1, 1},
      values = {x = {-1, 0, 1, 2, 3, 4}, y = {11, 10, 9, 8, 7, 6}},
      expect = {shape = {3, 2}, data = {11, 10, 1, 8, 3, 4}} }
case{ id = "row_broadcast", rules = {"BC-NUMPY-1"}, shapes = "4x1:1x3:4x3",
      dtypes = {"f16"}, values = "special", expect = {4, 3} }
case{ id = "scalar", rules = {"SHAPE-RANK0-1"}, shapes = "_:_:_",
      dtypes = {"u8"}, expect = {} }
case{ id = "odd_tail", rules = {"OP-SELECT-1"}, shapes = "7x5:7x5:7x5",
      dtypes = {"u16"}, cond = "alternating" }
case{ id = "bad_shape", rules = {"BC-NUMPY-1"}, shapes = "2:3:2",
      dtypes = {"f32"}, expect = {status = "SEL_ERR_SHAPE"} }
