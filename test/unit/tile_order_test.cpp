// Tile orders: each maps workgroup ids onto the output tiles one to one, and XcdRemap gives every
// XCD (ids i ≡ x mod X, as MI300 dispatches them) one contiguous range of the inner order's ids.
#include <catch2/catch.hpp>

#include <climits>
#include <set>
#include <utility>
#include <vector>

#include "hiptile/gemm/kernel/tile_order.hpp"

namespace {

using namespace hiptile::gemm::kernel;
using hiptile::Status;

static_assert(TileOrderType<RowMajorTileOrder> && TileOrderType<GroupedTileOrder<8>> &&
              TileOrderType<XcdRemap<GroupedTileOrder<8>, 8>>);

template <class Order>
typename Order::Params params_of(int tiles_m, int tiles_n) {
  typename Order::Params p{};
  REQUIRE(Order::make_params(tiles_m, tiles_n, p) == Status::kSuccess);
  return p;
}

template <class Order>
void check_bijection(int tiles_m, int tiles_n) {
  auto const p = params_of<Order>(tiles_m, tiles_n);
  std::set<std::pair<int, int>> seen;
  for (int id = 0; id < tiles_m * tiles_n; ++id) {
    TileCoord const t = Order::tile(p, id);
    INFO("tiles " << tiles_m << "x" << tiles_n << ", id " << id << " -> (" << t.m << ", " << t.n << ")");
    REQUIRE((t.m >= 0 && t.m < tiles_m && t.n >= 0 && t.n < tiles_n));
    REQUIRE(seen.insert({t.m, t.n}).second);
  }
}

std::vector<std::pair<int, int>> const kGrids = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {8, 8}, {9, 13}, {17, 3}, {64, 64}, {31, 33}};

TEMPLATE_TEST_CASE("every tile order visits every output tile exactly once", "", RowMajorTileOrder,
                   GroupedTileOrder<1>, GroupedTileOrder<4>, GroupedTileOrder<8>, (XcdRemap<GroupedTileOrder<8>, 8>),
                   (XcdRemap<RowMajorTileOrder, 3>)) {
  for (auto [m, n] : kGrids) check_bijection<TestType>(m, n);
}

TEST_CASE("the row-major order walks the tiles of a row before the next row") {
  auto const p = params_of<RowMajorTileOrder>(3, 5);
  CHECK((RowMajorTileOrder::tile(p, 0).m == 0 && RowMajorTileOrder::tile(p, 0).n == 0));
  CHECK((RowMajorTileOrder::tile(p, 4).m == 0 && RowMajorTileOrder::tile(p, 4).n == 4));
  CHECK((RowMajorTileOrder::tile(p, 5).m == 1 && RowMajorTileOrder::tile(p, 5).n == 0));
}

TEST_CASE("the grouped order walks a group of tile-rows column by column") {
  // 10 tile-rows in groups of 4 (the last group has 2), 3 tile-columns.
  auto const p = params_of<GroupedTileOrder<4>>(10, 3);
  std::vector<std::pair<int, int>> got;
  for (int id = 0; id < 30; ++id) got.emplace_back(GroupedTileOrder<4>::tile(p, id).m, GroupedTileOrder<4>::tile(p, id).n);
  CHECK(got[0] == std::pair{0, 0});
  CHECK(got[3] == std::pair{3, 0});
  CHECK(got[4] == std::pair{0, 1});
  CHECK(got[12] == std::pair{4, 0});
  CHECK(got[24] == std::pair{8, 0});
  CHECK(got[25] == std::pair{9, 0});
  CHECK(got[26] == std::pair{8, 1});
  CHECK(got[29] == std::pair{9, 2});
}

TEST_CASE("the XCD remap gives each XCD one contiguous range of the inner order") {
  for (int tiles : {1, 7, 8, 9, 64, 100, 1023}) {
    auto const p = params_of<XcdRemap<RowMajorTileOrder, 8>>(1, tiles);
    std::vector<std::vector<int>> per_xcd(8);
    for (int id = 0; id < tiles; ++id) per_xcd[id % 8].push_back(XcdRemap<RowMajorTileOrder, 8>::remap(p, id));
    int next = 0;
    for (auto const& ids : per_xcd) {
      for (int i : ids) REQUIRE(i == next++);  // consecutive within an XCD, XCD after XCD
    }
    REQUIRE(next == tiles);
  }
}

// The tile-row count an order's Params keep (in the inner order's Params for XcdRemap).
template <class P>
int& tiles_m_of(P& p) {
  if constexpr (requires { p.order; }) {
    return tiles_m_of(p.order);
  } else {
    return p.tiles_m;
  }
}

TEMPLATE_TEST_CASE("every tile order refuses tile counts it cannot index, with a Status and without throwing", "",
                   RowMajorTileOrder, GroupedTileOrder<8>, (XcdRemap<GroupedTileOrder<8>, 8>)) {
  struct Case {
    int tiles_m, tiles_n;
    Status expected;
  };
  for (Case const c : {Case{0, 1, Status::kErrorInvalidProblem}, Case{1, 0, Status::kErrorInvalidProblem},
                       Case{-1, 5, Status::kErrorInvalidProblem}, Case{5, INT_MIN, Status::kErrorInvalidProblem},
                       Case{65536, 32768, Status::kErrorIndexOverflow}, Case{INT_MAX, 2, Status::kErrorIndexOverflow},
                       Case{46341, 46341, Status::kErrorIndexOverflow}}) {
    INFO(c.tiles_m << " x " << c.tiles_n);
    typename TestType::Params p{};
    int& marker = tiles_m_of(p);
    marker = 12345;  // a refused call leaves the Params as they were
    CHECK(TestType::make_params(c.tiles_m, c.tiles_n, p) == c.expected);
    CHECK(marker == 12345);
  }
}

TEST_CASE("the grouped order takes grids whose group spans more ids than an int holds") {
  // One tile-row of 2^31 - 1 tiles: GroupM · tiles_n is far past 2^31, yet every id is a valid tile.
  auto const p = params_of<GroupedTileOrder<8>>(1, INT_MAX);
  for (int id : {0, 1, 12345, INT_MAX / 2, INT_MAX - 1}) {
    TileCoord const t = GroupedTileOrder<8>::tile(p, id);
    CHECK((t.m == 0 && t.n == id));
  }
  // Seven tile-rows (fewer than a group) of 2^31 / 8 tiles: ids walk the 7 rows, column by column.
  int const n = (INT_MAX / 8) - 5;
  auto const q = params_of<GroupedTileOrder<8>>(7, n);
  for (int id : {0, 6, 7, 7 * n - 1}) {
    TileCoord const t = GroupedTileOrder<8>::tile(q, id);
    CHECK((t.m == id % 7 && t.n == id / 7));
  }
}

}  // namespace
