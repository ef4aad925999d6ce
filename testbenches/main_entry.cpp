// Every cubecast executable starts here: keep SystemC's banner off stdout, then hand over to
// SystemC, which calls the program's sc_main.
#include <cstdlib>

extern "C" int sc_elab_and_sim(int argc, char* argv[]);

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_elab_and_sim(argc, argv);
}
