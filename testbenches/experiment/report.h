// `cubecast report DIR`: one self-contained HTML page of an experiment's results folder (what was
// run and where, the plots inline as SVG, the results table, the experiment file), written to
// DIR/report.html; it needs nothing beside it and opens offline in any browser.
#pragma once
#include <string>

namespace cubecast {

// Returns the page's path; throws ExperimentError if DIR is not a results folder or cannot be written.
std::string write_report(const std::string& dir);

}  // namespace cubecast
