// hiptile_tune: tune the common shapes before production. For each shape it asks DefaultTunedGemm
// (gfx942) of the given element type and layouts to choose in find mode search (or hybrid), which
// times every candidate and stores the fastest in the tuning database; a program that later runs
// in find mode db (the default) then uses those winners without timing anything (docs/tuning.md).
//
//   hiptile_tune [--db PATH] [--mode hybrid|search] [--types f16|bf16] [--layouts rcr|rrr|crr|ccr] SHAPE...
//
// It takes the command line a GEMM's bench log line prints (HIPTILE_LOG_MASK=32, docs/logging.md):
//   hiptile_tune --types f16 --layouts rcr --mode search 4096x4096x4096
//
// An entry matches a later call only when everything in the problem's key agrees (docs/tuning.md):
// the tool tunes packed operands (A's, B's and D's leading dimensions their row or column lengths;
// batches stacked one after the other), 16-byte aligned pointers, a C (read; here D's own buffer),
// no bias, one K slice and stream-K left to the device. In the simulator, "timing" is the MI300
// timing model's prediction for the simulated MI300X, which exists for the data-parallel candidate
// of every types and layouts here and for all candidates of f16 rcr; a batched shape is not modelled
// there, so the heuristic decides and nothing is stored.
//
// Exit status: 0 when every shape was chosen (and, by timing, stored), 1 when one failed, 2 for a
// command line it does not take (with the usage on standard error).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "hiptile/host/device_buffer.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/tune/default_tuned_gemm.hpp"
#include "hiptile/tune/tuning_database.hpp"
#include "hiptile/version.hpp"

namespace {

using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace tune = hiptile::tune;

constexpr char const* kUsage =
    "usage: hiptile_tune [--db PATH] [--mode hybrid|search] [--types f16|bf16] [--layouts rcr|rrr|crr|ccr] SHAPE...\n"
    "  Times DefaultTunedGemm's candidates (gfx942) for each SHAPE and stores the fastest in the tuning\n"
    "  database, where find mode db (the default) reads it (docs/tuning.md).\n"
    "  SHAPE      MxNxK or MxNxKxBATCH, positive integers up to 1048576 (4096x4096x4096, 16x4096x4096x8)\n"
    "  --db       the database file; default HIPTILE_TUNING_DB, else $XDG_CACHE_HOME/hiptile/tuning.db,\n"
    "             else $HOME/.cache/hiptile/tuning.db\n"
    "  --mode     search (default): time every candidate, whatever the database holds;\n"
    "             hybrid: keep the database's winner where it has one, time the rest\n"
    "  --types    A's, B's and C's element type (default f16)\n"
    "  --layouts  A's, B's and C's layouts, r row-major, c column-major; C row-major (default rcr)\n"
    "  The entries match calls with packed leading dimensions, 16-byte aligned pointers, a C, no bias,\n"
    "  one K slice and stream-K left to the device.\n";

struct Shape {
  std::string text;  // as given
  hiptile::GemmCoord problem;
  int batch = 1;
};

struct Options {
  std::string database;  // empty: default_database_path()
  tune::FindMode mode = tune::FindMode::kSearch;
  std::string types = "f16";
  std::string layouts = "rcr";
  std::vector<Shape> shapes;
};

// One row of the table.
struct Row {
  std::string shape;
  hiptile::Status status = hiptile::Status::kSuccess;
  tune::TunedChoice choice;
  bool stored = false;  // its entry is in the database file now
};

// A positive integer up to 2^20, or 0.
int parse_extent(std::string_view text) {
  if (text.empty() || text.size() > 7) return 0;
  long value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return 0;
    value = value * 10 + (ch - '0');
  }
  return value >= 1 && value <= (1L << 20) ? int(value) : 0;
}

// "MxNxK" or "MxNxKxBATCH".
bool parse_shape(std::string_view text, Shape& shape) {
  std::vector<int> extents;
  std::size_t start = 0;
  while (true) {
    std::size_t const x = text.find('x', start);
    int const v = parse_extent(text.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start));
    if (v == 0) return false;
    extents.push_back(v);
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (extents.size() != 3 && extents.size() != 4) return false;
  shape = {std::string(text), {extents[0], extents[1], extents[2]}, extents.size() == 4 ? extents[3] : 1};
  return true;
}

bool parse_command_line(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    std::string_view const arg = argv[i];
    if (arg.starts_with("--")) {
      if (i + 1 >= argc) return false;
      std::string_view const value = argv[++i];
      if (arg == "--db" && !value.empty()) {
        options.database = value;
      } else if (arg == "--mode" && (value == "search" || value == "hybrid")) {
        tune::parse_find_mode(value, options.mode);
      } else if (arg == "--types" && (value == "f16" || value == "bf16")) {
        options.types = value;
      } else if (arg == "--layouts" && (value == "rcr" || value == "rrr" || value == "crr" || value == "ccr")) {
        options.layouts = value;
      } else {
        return false;
      }
    } else {
      Shape shape;
      if (!parse_shape(arg, shape)) return false;
      options.shapes.push_back(shape);
    }
  }
  return !options.shapes.empty();
}

// Chooses for one shape with DefaultTunedGemm<Element, LayoutA, LayoutB> (C row-major) on packed,
// zeroed operands, then reads the database file again to confirm what was stored.
template <class Element, class LayoutA, class LayoutB>
Row tune_shape(Shape const& shape, Options const& options, std::string const& path) {
  using Gemm = tune::DefaultTunedGemm<Element, LayoutA, Element, LayoutB, Element, RowMajor, hiptile::arch::Gfx942>;
  Row row;
  row.shape = shape.text;
  hiptile::GemmCoord const p = shape.problem;
  std::int64_t const m = p.m, n = p.n, k = p.k, batch = shape.batch;
  // Zeroed: timing on a device reads A, B and C (a run's time does not depend on the values).
  hiptile::host::DeviceBuffer<Element> a(std::size_t(m * k * batch)), b(std::size_t(k * n * batch)),
      d(std::size_t(m * n * batch));
  for (auto* buffer : {&a, &b, &d}) {
    if (hiptile::Status const s = hiptile::zero_memory_async(buffer->data(), buffer->size_bytes(), nullptr); !ok(s)) {
      row.status = s;
      return row;
    }
  }
  if (hiptile::Status const s = hiptile::device_synchronize(); !ok(s)) {
    row.status = s;
    return row;
  }
  typename Gemm::Arguments args{
      .problem = p,
      .a = {a.data(), LayoutA::kRowMajor ? k : m},
      .b = {b.data(), LayoutB::kRowMajor ? n : k},
      .c = {d.data(), n},
      .d = {d.data(), n},
      .output_op = {1.0f, 0.0f},
      .batch_count = shape.batch,
      .batch_stride_a = batch > 1 ? m * k : 0,
      .batch_stride_b = batch > 1 ? k * n : 0,
      .batch_stride_c = batch > 1 ? m * n : 0,
      .batch_stride_d = batch > 1 ? m * n : 0,
  };
  Gemm const op({.mode = options.mode, .database = path});
  row.status = op.select_preferred(args, row.choice);
  if (!ok(row.status)) return row;
  hiptile::DeviceInfo const* device = nullptr;
  if (!ok(hiptile::current_device_info(device))) return row;
  tune::TuningDatabase const written(path);  // the file as it is now, not the process's copy
  row.stored = written
                   .find({device->name, device->compute_units, std::string(hiptile::kVersion),
                          Gemm::candidate_list_id(), Gemm::problem_key_text(args)})
                   .has_value();
  return row;
}

using TuneShape = Row (*)(Shape const&, Options const&, std::string const&);

struct Variant {
  std::string_view types, layouts;
  TuneShape tune;
};

template <class Element>
constexpr Variant kVariantsOf[] = {
    {hiptile::element_name<Element>(), "rcr", &tune_shape<Element, RowMajor, ColumnMajor>},
    {hiptile::element_name<Element>(), "rrr", &tune_shape<Element, RowMajor, RowMajor>},
    {hiptile::element_name<Element>(), "crr", &tune_shape<Element, ColumnMajor, RowMajor>},
    {hiptile::element_name<Element>(), "ccr", &tune_shape<Element, ColumnMajor, ColumnMajor>},
};

TuneShape find_variant(Options const& options) {
  for (auto const* variants : {kVariantsOf<hiptile::half_t>, kVariantsOf<hiptile::bfloat16_t>}) {
    for (int i = 0; i < 4; ++i) {
      if (variants[i].types == options.types && variants[i].layouts == options.layouts) return variants[i].tune;
    }
  }
  return nullptr;
}

std::string source_text(Row const& row) {
  if (!ok(row.status)) return std::string("failed: ") + hiptile::to_string(row.status);
  tune::TunedChoice const& c = row.choice;
  std::string text = tune::to_string(c.source);
  if (c.source == tune::ChoiceSource::kTimed) {
    text += (c.predicted ? ", model, " : ", ") + std::to_string(c.timed_candidates) + " timed";
  }
  if (c.source == tune::ChoiceSource::kTimed && !row.stored) text += "; NOT STORED";
  if (c.source == tune::ChoiceSource::kHeuristic) text += "; nothing timed, not stored";
  return text;
}

int run(Options const& options) {
  std::string const path = options.database.empty() ? tune::default_database_path() : options.database;
  if (path.empty()) {
    std::fprintf(stderr, "hiptile_tune: no database path: give --db, or set HIPTILE_TUNING_DB or HOME\n");
    return 1;
  }
  TuneShape const tune_one = find_variant(options);
  hiptile::DeviceInfo const* device = nullptr;
  if (tune_one == nullptr || !ok(hiptile::current_device_info(device))) {
    std::fprintf(stderr, "hiptile_tune: the runtime could not report the device\n");
    return 1;
  }
  std::printf("hiptile_tune: %s, layouts %s, find mode %s, on %s\n", options.types.c_str(), options.layouts.c_str(),
              tune::to_string(options.mode), device->name.c_str());
  std::printf("tuning database: %s\n\n", path.c_str());
  std::vector<Row> rows;
  for (Shape const& shape : options.shapes) {
    try {
      rows.push_back(tune_one(shape, options, path));
    } catch (std::exception const& e) {  // the operands could not be allocated or zeroed
      std::fprintf(stderr, "hiptile_tune: %s: %s\n", shape.text.c_str(), e.what());
      Row failed;
      failed.shape = shape.text;
      failed.status = hiptile::Status::kErrorMemoryAllocation;
      rows.push_back(failed);
    }
  }
  std::printf("%-20s %8s %12s  %-36s %s\n", "shape", "K slices", "us", "source", "winner");
  bool all = true;
  for (Row const& row : rows) {
    bool const failed = !ok(row.status) || (row.choice.source == tune::ChoiceSource::kTimed && !row.stored);
    all = all && !failed;
    std::string const us = ok(row.status) && row.choice.source != tune::ChoiceSource::kHeuristic
                               ? std::to_string(row.choice.microseconds)
                               : std::string("-");
    std::printf("%-20s %8d %12s  %-36s %s\n", row.shape.c_str(), ok(row.status) ? row.choice.split_k_slices : 0,
                us.c_str(), source_text(row).c_str(), ok(row.status) ? row.choice.name.c_str() : "-");
  }
  return all ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  Options options;
  if (!parse_command_line(argc, argv, options)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    return run(options);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "hiptile_tune: %s\n", e.what());
    return 1;
  }
}
