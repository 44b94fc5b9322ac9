// The figure of a study with axes (the sweep file's `plot:`): y against x, one line per value of
// `series`, a grid of panels by `rows` x `columns`, and one SVG per combination of the values of any
// other column that varies (DIR/Y-by-X[-COLUMN-VALUE...].svg, its .dat and .gp kept beside it).
// Categories on x keep the order the study lists them in.
#pragma once
#include <string>
#include <vector>

#include "sim/io/study/sweep_spec.hpp"

namespace t3sim::report {

struct StudyFigure {
  std::string svg;                  // its file
  std::vector<std::string> series;  // the titles of its curves, in plot order (panel by panel)
  std::string caption;
};
struct StudyFigures {
  std::vector<StudyFigure> figures;
  std::string failure;  // "" when every figure was made, else why not
};
StudyFigures plot_study_axes(const std::string& csv, const std::string& dir, const io::SweepSpec& spec);

}  // namespace t3sim::report
