#pragma once
// Tile orders: which output tile (tile_m, tile_n) a workgroup computes, from its linear id.
// Built on the host (Params), evaluated once per workgroup on the device.
//
//   RowMajorTileOrder        id → (id / tiles_n, id % tiles_n)
//   GroupedTileOrder<G>      ids walk G tile-rows column by column before moving on, so the
//                            workgroups running together share rows of A and columns of B in L2
//   XcdRemap<Order, X>       MI300 dispatches workgroup i to XCD i mod X (FACTS.md); this remaps
//                            ids so each XCD gets one contiguous range of Order's ids, i.e. a
//                            compact block of tiles sharing its own 4 MB L2
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

struct TileCoord {
  int m = 0;
  int n = 0;
};

struct RowMajorTileOrder {
  struct Params {
    int tiles_m = 1;
    int tiles_n = 1;
    FastDivmod divide_n;
  };
  static Params make_params(int tiles_m, int tiles_n) { return {tiles_m, tiles_n, FastDivmod(tiles_n)}; }
  HIPTILE_HOST_DEVICE static TileCoord tile(Params const& p, int id) {
    auto const [q, r] = p.divide_n.divmod(id);
    return {q, r};
  }
};

template <int GroupM>
struct GroupedTileOrder {
  static_assert(GroupM >= 1, "GroupedTileOrder needs a group of at least one tile-row");
  struct Params {
    int tiles_m = 1;
    int tiles_n = 1;
    FastDivmod divide_group;  // by GroupM · tiles_n: which group of tile-rows
  };
  static Params make_params(int tiles_m, int tiles_n) {
    return {tiles_m, tiles_n, FastDivmod(std::int64_t(GroupM) * tiles_n)};
  }
  HIPTILE_HOST_DEVICE static TileCoord tile(Params const& p, int id) {
    auto const [group, in_group] = p.divide_group.divmod(id);
    int const first_m = group * GroupM;
    int const rows = p.tiles_m - first_m < GroupM ? p.tiles_m - first_m : GroupM;  // last group may be short
    return {first_m + in_group % rows, in_group / rows};
  }
};

template <class Order, int Xcds = 8>
struct XcdRemap {
  static_assert(Xcds >= 1, "XcdRemap needs at least one XCD");
  struct Params {
    typename Order::Params order;
    int per_xcd = 0;  // tiles every XCD gets; the first `extra` XCDs get one more
    int extra = 0;
  };
  static Params make_params(int tiles_m, int tiles_n) {
    int const tiles = tiles_m * tiles_n;
    return {Order::make_params(tiles_m, tiles_n), tiles / Xcds, tiles % Xcds};
  }
  HIPTILE_HOST_DEVICE static int remap(Params const& p, int id) {
    int const xcd = id % Xcds;    // where the hardware sends workgroup `id`
    int const local = id / Xcds;  // its position among that XCD's workgroups
    int const start = xcd < p.extra ? xcd * (p.per_xcd + 1) : p.extra * (p.per_xcd + 1) + (xcd - p.extra) * p.per_xcd;
    return start + local;
  }
  HIPTILE_HOST_DEVICE static TileCoord tile(Params const& p, int id) { return Order::tile(p.order, remap(p, id)); }
};

}  // namespace hiptile::gemm::kernel
