# harness/build.mk - placeholder until harness lands.
