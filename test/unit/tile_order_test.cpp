// Tile orders: each maps workgroup ids onto the output tiles one to one, and XcdRemap gives every
// XCD (ids i ≡ x mod X, as MI300 dispatches them) one contiguous range of the inner order's ids.
#include <catch2/catch.hpp>

#include <set>
#include <utility>
#include <vector>

#include "hiptile/gemm/kernel/tile_order.hpp"

namespace {

using namespace hiptile::gemm::kernel;

template <class Order>
void check_bijection(int tiles_m, int tiles_n) {
  auto const p = Order::make_params(tiles_m, tiles_n);
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
  auto const p = RowMajorTileOrder::make_params(3, 5);
  CHECK((RowMajorTileOrder::tile(p, 0).m == 0 && RowMajorTileOrder::tile(p, 0).n == 0));
  CHECK((RowMajorTileOrder::tile(p, 4).m == 0 && RowMajorTileOrder::tile(p, 4).n == 4));
  CHECK((RowMajorTileOrder::tile(p, 5).m == 1 && RowMajorTileOrder::tile(p, 5).n == 0));
}

TEST_CASE("the grouped order walks a group of tile-rows column by column") {
  // 10 tile-rows in groups of 4 (the last group has 2), 3 tile-columns.
  auto const p = GroupedTileOrder<4>::make_params(10, 3);
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
    auto const p = XcdRemap<RowMajorTileOrder, 8>::make_params(1, tiles);
    std::vector<std::vector<int>> per_xcd(8);
    for (int id = 0; id < tiles; ++id) per_xcd[id % 8].push_back(XcdRemap<RowMajorTileOrder, 8>::remap(p, id));
    int next = 0;
    for (auto const& ids : per_xcd) {
      for (int i : ids) REQUIRE(i == next++);  // consecutive within an XCD, XCD after XCD
    }
    REQUIRE(next == tiles);
  }
}

}  // namespace
