// Persistent convolutions (SplitKMode::kPersistent) on the simulator: a grid of fewer workgroups
// than tiles, each walking tiles w, w + grid, ... of every batch (gemm/kernel/persistent_scheduler.hpp).
//  - Fprop, Dgrad (strided, with and without row classes that have no filter taps) and Wgrad, grouped
//    or not, give the double-precision reference's answer for grids of 1, 3 and 7 workgroups and
//    the device's count;
//  - the output is bitwise the data-parallel kernel's (the same tiles, each with its whole K loop in
//    the same order);
//  - the grid is min(workgroups, tiles × batches), and the arguments are checked: a negative grid,
//    or a grid given to a configuration that is not persistent, is refused.
#include <cstdint>
#include <vector>

#include "conv_test_support.hpp"

namespace {

using namespace conv_test;
using hiptile::half_t;
using hiptile::conv::RowDivision;
using hiptile::gemm::kernel::SplitKMode;

template <ConvOperator Op, SplitKMode Mode = SplitKMode::kPersistent>
using Conv = Gfx942Conv<Op, half_t, IteratorAlgorithm::kPrecomputed, 8, half_t, RowDivision::kFast, RowDivision::kFast,
                        Mode>;

// Problems of several tiles and batches: 2-D unit stride, grouped, strided (Dgrad: 4 row classes),
// a stride larger than the filter (Dgrad: row classes without taps), 3-D.
std::vector<ConvProblemSize> const kShapes = {
    ConvProblemSize::conv2d(2, 19, 17, 16, 24, 3, 3, 1, 1),
    ConvProblemSize::conv2d(1, 13, 12, 32, 40, 3, 3, 1, 1, 2, 2),
    ConvProblemSize::conv2d(1, 16, 15, 16, 8, 1, 1, 0, 0, 3, 3),
    ConvProblemSize::conv3d(1, {{4, 7, 6}}, 8, 16, {{3, 3, 3}}, {{1, 1, 1}}),
};

ConvProblemSize grouped(ConvProblemSize p, int groups) {
  p.groups = groups;
  return p;
}

template <ConvOperator Op>
void check_grids() {
  Epilogue e{0.75f, 0.5f, true};
  std::vector<ConvProblemSize> shapes = kShapes;
  shapes.push_back(grouped(ConvProblemSize::conv2d(2, 11, 10, 32, 32, 3, 3, 1, 1), 2));
  for (int workgroups : {1, 3, 7, 0}) {
    e.workgroups = workgroups;
    for (ConvProblemSize const& p : shapes) {
      INFO("workgroups " << workgroups << ": " << describe(p));
      CHECK(run_conv<Conv<Op>>(p, e).passed());
    }
  }
}

TEST_CASE("conv: persistent Fprop gives the reference's answer for every grid", "[conv][persistent]") {
  check_grids<ConvOperator::kFprop>();
}
TEST_CASE("conv: persistent Dgrad gives the reference's answer for every grid", "[conv][persistent]") {
  check_grids<ConvOperator::kDgrad>();
}
TEST_CASE("conv: persistent Wgrad gives the reference's answer for every grid", "[conv][persistent]") {
  check_grids<ConvOperator::kWgrad>();
}

// Fixed data for one problem; d (poisoned) written by configuration C with `workgroups`.
struct Tensors {
  hiptile::host::DeviceBuffer<half_t> a, b, d;
  explicit Tensors(ConvProblemSize const& p, ConvOperator op) {
    TensorShapes const s = tensor_shapes(p);
    std::int64_t const a_size = op == ConvOperator::kFprop ? s.x_rows * s.x_cols : s.y_rows * s.y_cols;
    std::int64_t const b_size = op == ConvOperator::kWgrad ? s.x_rows * s.x_cols : s.w_rows * s.w_cols;
    std::int64_t const d_size = op == ConvOperator::kFprop   ? s.y_rows * s.y_cols
                                : op == ConvOperator::kDgrad ? s.x_rows * s.x_cols
                                                             : s.w_rows * s.w_cols;
    HostMatrix<half_t, RowMajor> ha(1, a_size), hb(1, b_size), hd(1, d_size);
    hiptile::host::fill_random(ha, 11, -1.0, 1.0);
    hiptile::host::fill_random(hb, 12, -1.0, 1.0);
    hiptile::host::poison(hd);
    a = hiptile::host::DeviceBuffer<half_t>(std::as_const(ha).span());
    b = hiptile::host::DeviceBuffer<half_t>(std::as_const(hb).span());
    d = hiptile::host::DeviceBuffer<half_t>(std::as_const(hd).span());
  }
};

template <class C>
std::vector<half_t> output_of(ConvProblemSize const& p, int workgroups, std::int64_t* grid = nullptr) {
  Tensors t(p, C::kOperator);
  typename C::Arguments args{p, t.a.data(), t.b.data(), nullptr, t.d.data(), {1.0f, 0.0f}};
  args.workgroups = workgroups;
  C conv;
  REQUIRE(conv.initialize(args) == Status::kSuccess);
  REQUIRE(conv.run() == Status::kSuccess);
  if (grid != nullptr) *grid = conv.workgroups();
  return t.d.copy_to_host();
}

template <ConvOperator Op>
void check_bitwise() {
  for (ConvProblemSize const& p : kShapes) {
    INFO(describe(p));
    std::vector<half_t> const data_parallel = output_of<Conv<Op, SplitKMode::kNone>>(p, 0);
    std::vector<half_t> const persistent = output_of<Conv<Op>>(p, 5);
    REQUIRE(persistent.size() == data_parallel.size());
    std::int64_t differing = 0;
    for (std::size_t i = 0; i < persistent.size(); ++i) differing += persistent[i].bits() != data_parallel[i].bits();
    CHECK(differing == 0);
  }
}

TEST_CASE("conv: persistent kernels write bitwise the data-parallel kernel's output", "[conv][persistent]") {
  check_bitwise<ConvOperator::kFprop>();
  check_bitwise<ConvOperator::kDgrad>();
  check_bitwise<ConvOperator::kWgrad>();
}

TEST_CASE("conv: a persistent grid is min(workgroups, tiles x batches); its argument is checked", "[conv][persistent]") {
  // Fprop 2x19x17, 16 -> 24: M = 2·19·17 = 646 rows, 6 tiles of 128 × 1 of 128, one batch.
  ConvProblemSize const p = ConvProblemSize::conv2d(2, 19, 17, 16, 24, 3, 3, 1, 1);
  std::int64_t grid = 0;
  output_of<Conv<ConvOperator::kFprop>>(p, 4, &grid);
  CHECK(grid == 4);
  output_of<Conv<ConvOperator::kFprop>>(p, 1000, &grid);
  CHECK(grid == 6);
  output_of<Conv<ConvOperator::kFprop>>(p, 0, &grid);  // the simulated device holds more than 6
  CHECK(grid == 6);

  Tensors t(p, ConvOperator::kFprop);
  Conv<ConvOperator::kFprop>::Arguments args{p, t.a.data(), t.b.data(), nullptr, t.d.data(), {1.0f, 0.0f}};
  args.workgroups = -1;
  CHECK(Conv<ConvOperator::kFprop>::can_implement(args) == Status::kErrorInvalidProblem);
  Conv<ConvOperator::kFprop, SplitKMode::kNone>::Arguments plain = args;
  plain.workgroups = 8;
  CHECK(Conv<ConvOperator::kFprop, SplitKMode::kNone>::can_implement(plain) == Status::kErrorNotSupported);
  plain.workgroups = 0;
  CHECK(Conv<ConvOperator::kFprop, SplitKMode::kNone>::can_implement(plain) == Status::kSuccess);
}

}  // namespace
