// Grouped GEMM on the simulator: many problems of different sizes in one launch, each group checked
// against a double-precision reference with its own α, β, C and bias; groups of size 0 (no tokens),
// 1 and ragged; the mixture-of-experts layout (one token matrix, each expert a slice of its rows);
// any number of persistent workgroups gives the same bits; per-group errors name their group.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <random>
#include <vector>

#include "gemm_test_support.hpp"
#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/gemm/device/grouped_gemm.hpp"
#include "hiptile/host/device_buffer.hpp"
#include "hiptile/sim/runtime.hpp"

namespace {

using namespace gemm_test;
namespace device = hiptile::gemm::device;
namespace ep = hiptile::epilogue;

using Single = device::DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, hiptile::arch::Gfx942>;
using Grouped = device::GroupedGemmOf<Single>;
using GroupArguments = Grouped::GroupArguments;

// One group's operands, each in its own host buffer (simulator device memory is host memory).
struct Problem {
  Shape shape;
  float alpha = 1.0f, beta = 0.0f;
  BiasMode bias_mode = BiasMode::kNone;
  Matrix<half_t, RowMajor> a;
  Matrix<half_t, ColumnMajor> b;
  Matrix<half_t, RowMajor> c, d;
  std::vector<half_t> bias;
  Problem(Shape s, float alpha_, float beta_, BiasMode mode, std::mt19937& rng)
      : shape(s), alpha(alpha_), beta(beta_), bias_mode(mode), a(s.m, s.k, s.pad), b(s.k, s.n, s.pad),
        c(s.m, s.n, s.pad), d(s.m, s.n, s.pad), bias(std::max(1, std::max(s.m, s.n))) {
    fill(a, rng, -1.0f, 1.0f);
    fill(b, rng, -1.0f, 1.0f);
    fill(c, rng, -2.0f, 2.0f);
    for (auto& x : bias) x = half_t(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng));
    for (auto& x : d.data) x = half_t(NAN);
  }
  GroupArguments arguments() {
    GroupArguments g{{shape.m, shape.n, shape.k}, a.cref(), b.cref(), c.cref(), d.ref(), {alpha, beta}};
    g.bias = bias.data();
    g.bias_mode = bias_mode;
    return g;
  }
  // Every element of D against the reference; D's padding untouched.
  void check() const {
    Shape const s = shape;
    for (int i = 0; i < s.m; ++i) {
      for (int j = 0; j < s.n; ++j) {
        double acc = 0, magnitude = 0;
        for (int k = 0; k < s.k; ++k) {
          double const p = double(float(a.at(i, k))) * double(float(b.at(k, j)));
          acc += p;
          magnitude += std::abs(p);
        }
        double const bias_value = bias_mode == BiasMode::kPerRow      ? double(float(bias[i]))
                                  : bias_mode == BiasMode::kPerColumn ? double(float(bias[j]))
                                                                      : 0.0;
        double const cij = double(float(c.at(i, j)));
        double const ref = alpha * acc + beta * cij + bias_value;
        double const tol = unit_roundoff<half_t>() * std::abs(ref) +
                           1.2 * (s.k + 4) * std::ldexp(1.0, -23) *
                               (std::abs(alpha) * magnitude + std::abs(beta * cij) + std::abs(bias_value)) +
                           1e-30;
        double const got = double(float(d.at(i, j)));
        if (!(std::abs(got - ref) <= tol)) {
          FAIL("D[" << i << "][" << j << "] = " << got << ", reference " << ref << " (M=" << s.m << " N=" << s.n
                    << " K=" << s.k << ")");
        }
      }
    }
    for (std::size_t idx = 0; idx < d.data.size(); ++idx) {
      bool const inside = std::int64_t(idx) / d.ld < s.m && std::int64_t(idx) % d.ld < s.n;
      if (!inside && !std::isnan(float(d.data[idx]))) FAIL("the kernel wrote D outside the problem at " << idx);
    }
  }
};

// Runs the groups with `workgroups` persistent workgroups (0: the simulated device's).
hiptile::Status run_grouped(std::vector<GroupArguments> const& groups, int workgroups, Grouped& op) {
  Grouped::Arguments args{int(groups.size()), groups.data(), workgroups};
  args.workspace_bytes = Grouped::get_workspace_size(args);
  static std::vector<hiptile::host::DeviceBuffer<std::byte>> workspaces;  // outlive the operator's runs
  workspaces.emplace_back(args.workspace_bytes);
  args.workspace = workspaces.back().data();
  int failed = -2;
  hiptile::Status const s = Grouped::can_implement(args, &failed);
  if (s != Status::kSuccess) return s;
  REQUIRE(failed == -1);
  REQUIRE(op.initialize(args) == Status::kSuccess);
  hiptile::Status const r = op.run();
  INFO(hiptile::last_launch_error());
  return r;
}

}  // namespace

TEST_CASE("grouped GEMM computes each group of mixed sizes, empty groups included, against the reference",
          "[sim][gemm][grouped]") {
  std::mt19937 rng(5);
  // M = 0 (an expert without tokens), N = 0, 1 × 1 × 1, K below one tile, ragged edges, two tiles.
  std::vector<Shape> const shapes = {{0, 64, 32, 0},   {1, 1, 1, 0},   {67, 1, 40, 8},  {0, 0, 0, 0},
                                     {129, 127, 33, 0}, {13, 257, 300, 24}, {5, 0, 17, 0}, {256, 130, 64, 40}};
  std::vector<Problem> problems;
  problems.reserve(shapes.size());
  for (std::size_t g = 0; g < shapes.size(); ++g) {
    BiasMode const mode = g % 3 == 0 ? BiasMode::kNone : (g % 3 == 1 ? BiasMode::kPerRow : BiasMode::kPerColumn);
    problems.emplace_back(shapes[g], 1.0f - 0.25f * float(g % 4), g % 2 == 0 ? 0.0f : 0.5f, mode, rng);
  }
  std::vector<GroupArguments> groups;
  for (auto& p : problems) groups.push_back(p.arguments());
  int const workgroups = GENERATE(0, 1, 3, 1000);
  INFO("workgroups " << workgroups);
  for (auto& p : problems) {
    for (auto& x : p.d.data) x = half_t(NAN);
  }
  Grouped op;
  REQUIRE(run_grouped(groups, workgroups, op) == Status::kSuccess);
  // 1 + 1 + 2 + 3 + 4 tiles of 128 × 128: the simulated MI300X (304 CUs) holds more workgroups.
  CHECK(op.tiles() == 11);
  CHECK(op.workgroups() == (workgroups == 0 ? 11 : std::min(workgroups, 11)));
  CHECK(op.params().scheduler.group_count == 5);  // the empty groups are not given to the kernel
  for (auto const& p : problems) p.check();
}

TEST_CASE("grouped GEMM runs a mixture-of-experts layer: each expert's tokens are a slice of one matrix",
          "[sim][gemm][grouped]") {
  // 300 tokens of K = 96 over 5 experts (N = 72) with uneven counts, one expert without tokens.
  int const tokens = 300, k = 96, n = 72;
  std::vector<int> const counts = {130, 0, 1, 100, 69};
  std::mt19937 rng(9);
  Matrix<half_t, RowMajor> a(tokens, k, 0), d(tokens, n, 0);
  fill(a, rng, -1.0f, 1.0f);
  for (auto& x : d.data) x = half_t(NAN);
  std::vector<Matrix<half_t, ColumnMajor>> weights;
  for (std::size_t e = 0; e < counts.size(); ++e) {
    weights.emplace_back(k, n, 0);
    fill(weights.back(), rng, -1.0f, 1.0f);
  }
  std::vector<GroupArguments> groups;
  int first = 0;
  for (std::size_t e = 0; e < counts.size(); ++e) {
    GroupArguments g{{counts[e], n, k},
                     {a.data.data() + first * a.ld, a.ld},
                     weights[e].cref(),
                     {},
                     {d.data.data() + first * d.ld, d.ld},
                     {1.0f, 0.0f}};
    groups.push_back(g);
    first += counts[e];
  }
  Grouped op;
  REQUIRE(run_grouped(groups, 0, op) == Status::kSuccess);
  first = 0;
  for (std::size_t e = 0; e < counts.size(); ++e) {
    for (int t = first; t < first + counts[e]; ++t) {
      for (int j = 0; j < n; ++j) {
        double acc = 0, magnitude = 0;
        for (int kk = 0; kk < k; ++kk) {
          double const p = double(float(a.at(t, kk))) * double(float(weights[e].at(kk, j)));
          acc += p;
          magnitude += std::abs(p);
        }
        double const tol = unit_roundoff<half_t>() * std::abs(acc) + 1.2 * (k + 4) * std::ldexp(1.0, -23) * magnitude;
        double const got = double(float(d.at(t, j)));
        if (!(std::abs(got - acc) <= tol)) FAIL("token " << t << " (expert " << e << "), column " << j);
      }
    }
    first += counts[e];
  }
}

TEST_CASE("grouped GEMM gives the same bits whatever the number of persistent workgroups", "[sim][gemm][grouped]") {
  std::mt19937 rng(3);
  std::vector<Problem> problems;
  problems.emplace_back(Shape{200, 300, 150, 0}, 1.0f, 0.0f, BiasMode::kNone, rng);
  problems.emplace_back(Shape{40, 140, 500, 0}, 0.5f, 1.0f, BiasMode::kPerColumn, rng);
  std::vector<GroupArguments> groups;
  for (auto& p : problems) groups.push_back(p.arguments());
  std::vector<std::vector<half_t>> outputs;
  for (int workgroups : {1, 2, 7, 0}) {
    Grouped op;
    REQUIRE(run_grouped(groups, workgroups, op) == Status::kSuccess);
    std::vector<half_t> all;
    for (auto const& p : problems) all.insert(all.end(), p.d.data.begin(), p.d.data.end());
    outputs.push_back(all);
  }
  for (std::size_t i = 1; i < outputs.size(); ++i) {
    REQUIRE(std::memcmp(outputs[i].data(), outputs[0].data(), outputs[0].size() * sizeof(half_t)) == 0);
  }
  for (auto const& p : problems) p.check();
}

TEST_CASE("grouped GEMM with no groups, or only empty ones, succeeds and writes nothing", "[sim][gemm][grouped]") {
  std::mt19937 rng(1);
  Problem p(Shape{0, 16, 16, 0}, 1.0f, 0.0f, BiasMode::kNone, rng);
  std::vector<GroupArguments> groups{p.arguments()};
  groups[0].a.data = nullptr;  // an empty group's pointers are not read
  Grouped::Arguments none{};
  CHECK(Grouped::get_workspace_size(none) == 0);
  Grouped op;
  CHECK(op(none) == Status::kSuccess);
  CHECK(op.tiles() == 0);
  Grouped::Arguments empty{1, groups.data()};
  CHECK(Grouped::get_workspace_size(empty) == 0);
  CHECK(op(empty) == Status::kSuccess);
  CHECK(op.tiles() == 0);
}

TEST_CASE("grouped GEMM refuses a bad group with its own Status and says which group", "[sim][gemm][grouped]") {
  std::mt19937 rng(2);
  std::vector<Problem> problems;
  for (int g = 0; g < 4; ++g) problems.emplace_back(Shape{40 + g, 33, 24, 0}, 1.0f, 0.0f, BiasMode::kNone, rng);
  auto groups_of = [&] {
    std::vector<GroupArguments> groups;
    for (auto& p : problems) groups.push_back(p.arguments());
    return groups;
  };
  hiptile::host::DeviceBuffer<std::byte> workspace(1 << 16);
  auto check = [&](std::vector<GroupArguments> const& groups, Status expected, int expected_group) {
    Grouped::Arguments args{int(groups.size()), groups.data(), 0, workspace.data(), workspace.size()};
    int failed = -2;
    CHECK(Grouped::can_implement(args, &failed) == expected);
    CHECK(failed == expected_group);
    Grouped op;
    CHECK(op.initialize(args) == expected);
    CHECK(op.run() == (expected == Status::kSuccess ? Status::kSuccess : Status::kErrorNotInitialized));
  };
  check(groups_of(), Status::kSuccess, -1);
  {
    auto g = groups_of();
    g[2].b.data = nullptr;
    check(g, Status::kErrorNullPointer, 2);
  }
  {
    auto g = groups_of();
    g[1].a.data += 1;  // 2 bytes off the 16-byte vector
    check(g, Status::kErrorMisalignedOperand, 1);
  }
  {
    auto g = groups_of();
    g[3].problem.k = -1;
    check(g, Status::kErrorInvalidProblem, 3);
  }
  {
    auto g = groups_of();
    g[0].problem.k = 0;  // a non-empty output needs K >= 1, as one GEMM does
    check(g, Status::kErrorInvalidProblem, 0);
  }
  {
    auto g = groups_of();
    g[2].split_k_slices = 2;  // one group is one problem
    check(g, Status::kErrorNotSupported, 2);
  }
  {
    auto g = groups_of();
    g[3].d = g[1].d;  // two groups writing the same D
    check(g, Status::kErrorAliasedOperand, 3);
  }
  {
    auto g = groups_of();
    g[0].a = {reinterpret_cast<half_t const*>(g[2].d.data), g[2].d.ld};  // reads what group 2 writes
    check(g, Status::kErrorAliasedOperand, 0);
  }
  {
    auto g = groups_of();
    g[1].c = {g[1].d.data, g[1].d.ld};  // in place within its own group: allowed
    g[1].output_op = {1.0f, 1.0f};
    check(g, Status::kSuccess, -1);
  }
  auto g = groups_of();
  Grouped::Arguments args{int(g.size()), g.data(), 0, workspace.data(), workspace.size()};
  int failed = -2;
  Grouped::Arguments bad = args;
  bad.group_count = -1;
  CHECK(Grouped::can_implement(bad, &failed) == Status::kErrorInvalidProblem);
  CHECK(failed == -1);
  bad = args;
  bad.groups = nullptr;
  CHECK(Grouped::can_implement(bad) == Status::kErrorNullPointer);
  bad = args;
  bad.workgroups = -3;
  CHECK(Grouped::can_implement(bad) == Status::kErrorInvalidProblem);
  bad = args;
  bad.workspace = nullptr;
  CHECK(Grouped::can_implement(bad) == Status::kErrorWorkspaceNull);
  bad = args;
  bad.workspace_bytes = Grouped::get_workspace_size(args) - 1;
  CHECK(Grouped::can_implement(bad) == Status::kErrorWorkspaceTooSmall);
  bad = args;
  bad.workspace = workspace.data() + 8;
  CHECK(Grouped::can_implement(bad) == Status::kErrorMisalignedOperand);
  bad = args;
  bad.workspace = const_cast<half_t*>(problems[2].a.data.data());  // initialize would overwrite group 2's A
  bad.workspace_bytes = Grouped::get_workspace_size(args);
  CHECK(Grouped::can_implement(bad, &failed) == Status::kErrorAliasedOperand);
  CHECK(failed == 2);
  CHECK(Grouped::get_workspace_size(args) == 4 * (sizeof(Grouped::Group) + sizeof(int)));
}
