// A value as an error line may echo it: control characters escaped (a newline in a value must not
// break the one-line error), and cut short if long; and a word as the shell reads it.
#pragma once
#include <string>
#include <vector>

namespace cubecast {

std::string printable(const std::string& value, size_t max_chars = 100);

// A field of a list or a file as people type it, without the spaces and tabs around it ("0, 5, 9").
std::string trimmed(const std::string& field);

// A file's first line without the UTF-8 byte-order mark some editors save before it.
void drop_byte_order_mark(std::string& first_line);

// A number as an error line echoes a value given: the shortest text that reads back as the same
// number (-1, 0.25, 1e-09, 1.0000001, nan), so a value just past a bound never reads as the bound.
std::string printable_number(double value);
// A computed number (a bound, a mean) as a line states it: six significant digits at most (2.33333).
std::string approximate_number(double value);

// A word for the shell: as it is if plain, else in single quotes (a quote in it closed, escaped and
// reopened).
std::string shell_word(const std::string& word);

// The name of `names` nearest to a mistyped one (by edit distance, at most a third of its length and
// at least 2 edits allowed), or empty if none is that near: what "did you mean ...?" offers.
std::string nearest_name(const std::string& given, const std::vector<std::string>& names);

}  // namespace cubecast
