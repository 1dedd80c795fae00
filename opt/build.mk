# opt/build.mk - placeholder until opt lands.
