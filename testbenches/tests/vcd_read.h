// A small VCD reader for tests: each signal's value changes by its full dotted name (scopes joined),
// so two dumps written by different writers (SystemC's sc_trace, the transaction level's TlmWaves) can
// be compared signal by signal.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

using ValueChanges = std::vector<std::pair<uint64_t, uint64_t>>;  // (time in the dump's unit, value)

// Only real changes are kept (a value written again is not a change); initial zeros are dropped.
std::map<std::string, ValueChanges> read_vcd_changes(const std::string& path);
