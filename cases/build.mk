# cases/build.mk - placeholder until cases lands.
