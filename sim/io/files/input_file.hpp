// Reads an input file (machine, workload, cases, study, measurements) whole, after checking that it
// is something a person meant: a regular file of at most kMaxInputBytes. A device (/dev/zero), FIFO or
// socket would never end or block; a huge file is a wrong file. Errors are io::InputError at the file.
#pragma once
#include <fstream>
#include <string>

namespace t3sim::io {

// Inputs are hand-written YAML and CSV tables of a few KiB; 64 MiB leaves room for generated ones.
constexpr unsigned long long kMaxInputBytes = 64ull << 20;
// Traces of whole programs are generated and can be large: a run holds the text (1 byte a character)
// and 16 bytes per line (ti_trace_reader.cpp), whose 32-bit line lengths this bound keeps exact.
constexpr unsigned long long kMaxTraceBytes = (4ull << 30) - 1;

std::string read_input_file(const std::string& path, unsigned long long max_bytes = kMaxInputBytes);
// The same checks, then the open stream (for readers that take a file a line at a time).
std::ifstream open_input_file(const std::string& path, unsigned long long max_bytes = kMaxInputBytes);

// `path` as named inside `file`: itself when absolute, else relative to the folder of `file`.
std::string path_beside(const std::string& file, const std::string& path);

}  // namespace t3sim::io
