// A user's tile order written against the older interface, whose make_params returned the Params
// (and could throw): it must report a Status instead.
// expect-error: TileOrder must satisfy kernel::TileOrderType
#include "gemm_config.hpp"

namespace gemm_config_test {

struct ColumnFirstOrder {
  struct Params {
    int tiles_m = 1;
  };
  static Params make_params(int tiles_m, int) { return {tiles_m}; }
  static hiptile::gemm::kernel::TileCoord tile(Params const& p, int id) { return {id % p.tiles_m, id / p.tiles_m}; }
};

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, ColumnFirstOrder, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
