# examples/build.mk - placeholder until examples lands.
