// An experiment's plots (its file's `plots:`), drawn by gnuplot from results.csv: PNG and SVG in
// DIR/plots/, with the data each curve was drawn from beside them (NAME.dat).
#pragma once
#include <string>
#include <vector>

#include "testbenches/experiment/experiment.h"

namespace cubecast {

// Draws every plot; returns the files written. Throws ExperimentError (a plot naming a column the
// results do not have, gnuplot missing or failing).
std::vector<std::string> draw_plots(const std::vector<PlotSpec>& plots, const std::string& dir);

// Has gnuplot draw `script` (settings and a plot command) as BASE.png and BASE.svg, `width` x 650, in a
// scratch folder, then copies them there through checked writes: the failure, one line, or empty.
// quiet: its own warnings are not shown.
std::string gnuplot_png_and_svg(const std::string& script, const std::string& base, bool quiet, unsigned width = 1000);

// A results column or axis key as a person reads it ("completion (slots)" for completion_slots), for
// the plots' axes and the report's headings.
std::string column_title(const std::string& column);

// results.csv as a header and rows of cells.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int column(const std::string& name) const;  // -1 if absent
    // Whether `row`'s cell of `column` is a figure: not a completion (completion_*, ratio_to_*) of a
    // run that did not finish (its `completed` false), whose completion_* is only its last delivery.
    bool has_figure(const std::vector<std::string>& row, const std::string& column) const;
};
CsvTable read_csv(const std::string& path);

}  // namespace cubecast
