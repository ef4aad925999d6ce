// libsystemc.so's main() calls sc_main(), so the library needs one to link; a fuzz target's main() is
// libFuzzer's, and this one is never called.
#include <cstdlib>

extern "C" int sc_main(int, char*[]) { std::abort(); }  // C linkage, as <systemc> declares it
