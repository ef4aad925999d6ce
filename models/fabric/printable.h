// A value as an error line may echo it: control characters escaped (a newline in a value must not
// break the one-line error), and cut short if long.
#pragma once
#include <string>

namespace cubecast {

std::string printable(const std::string& value, size_t max_chars = 100);

}  // namespace cubecast
