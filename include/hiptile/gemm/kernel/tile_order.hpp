#pragma once
// Tile orders: which output tile (tile_m, tile_n) a workgroup computes, from its linear id.
// Built on the host (Params), evaluated once per workgroup on the device.
//
//   RowMajorTileOrder        id → (id / tiles_n, id % tiles_n)
//   GroupedTileOrder<G>      ids walk G tile-rows column by column before moving on, so the
//                            workgroups running together share rows of A and columns of B in L2
//   XcdRemap<Order, X>       MI300 dispatches workgroup i to XCD i mod X (docs/mi300_facts.md,
//                            "Workgroups and XCDs"); this remaps ids so each XCD gets one
//                            contiguous range of Order's ids, i.e. a
//                            compact block of tiles sharing its own 4 MB L2
//
// A user's own order is any type with the same three members (the TileOrderType concept).
#include <concepts>
#include <cstdint>

#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

struct TileCoord {
  int m = 0;
  int n = 0;
};

// The most tiles one grid may have: ids are ints on the device.
inline constexpr std::int64_t kMaxTiles = (std::int64_t{1} << 31) - 1;

// What a tile order provides:
//  - Params, trivially copyable, passed to the kernel;
//  - static Status make_params(int tiles_m, int tiles_n, Params&) noexcept: host only, kSuccess for
//    every tiles_m, tiles_n >= 1 with tiles_m · tiles_n <= kMaxTiles, a Status otherwise (and the
//    Params left as they were);
//  - static TileCoord tile(Params const&, int id): device, a bijection of [0, tiles_m · tiles_n)
//    onto the tiles.
template <class O>
concept TileOrderType = requires(typename O::Params& p, int i) {
  { O::make_params(i, i, p) } noexcept -> std::same_as<Status>;
  { O::tile(p, i) } -> std::same_as<TileCoord>;
};

// The check every make_params starts with.
inline constexpr Status check_tile_counts(int tiles_m, int tiles_n) noexcept {
  if (tiles_m < 1 || tiles_n < 1) return Status::kErrorInvalidProblem;
  if (std::int64_t{tiles_m} * tiles_n > kMaxTiles) return Status::kErrorIndexOverflow;
  return Status::kSuccess;
}

struct RowMajorTileOrder {
  struct Params {
    int tiles_m = 1;
    int tiles_n = 1;
    FastDivmod divide_n;
  };
  static Status make_params(int tiles_m, int tiles_n, Params& params) noexcept {
    Params p{tiles_m, tiles_n, {}};
    Status s = check_tile_counts(tiles_m, tiles_n);
    if (ok(s)) s = FastDivmod::make(tiles_n, p.divide_n);
    if (ok(s)) params = p;
    return s;
  }
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
  static Status make_params(int tiles_m, int tiles_n, Params& params) noexcept {
    Params p{tiles_m, tiles_n, {}};
    Status s = check_tile_counts(tiles_m, tiles_n);
    // A group larger than any id (GroupM · tiles_n > kMaxTiles) is one group holding every id:
    // dividing by kMaxTiles gives the same quotient 0 and remainder id for every id < kMaxTiles.
    std::int64_t const group = std::int64_t{GroupM} * tiles_n;
    if (ok(s)) s = FastDivmod::make(group < kMaxTiles ? group : kMaxTiles, p.divide_group);
    if (ok(s)) params = p;
    return s;
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
  static Status make_params(int tiles_m, int tiles_n, Params& params) noexcept {
    Params p{};
    Status s = check_tile_counts(tiles_m, tiles_n);
    if (ok(s)) s = Order::make_params(tiles_m, tiles_n, p.order);
    if (!ok(s)) return s;
    int const tiles = tiles_m * tiles_n;  // <= kMaxTiles, checked above
    p.per_xcd = tiles / Xcds;
    p.extra = tiles % Xcds;
    params = p;
    return s;
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
