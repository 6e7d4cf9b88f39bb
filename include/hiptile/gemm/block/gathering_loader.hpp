#pragma once
// GatheringLoader: the base of every loader whose operand tile is gathered — its addresses are not
// those of a matrix (the convolution iterators). It turns the derived loader's one description of
// a K tile into the GlobalTileLoader interface (global_tile_loader.hpp) of its tile kind:
//
//   GatheredTile       (register-staged, gfx9 and NVIDIA):  load(k_tile), store(stage)
//   AsyncGatheredTile  (cp.async, NVIDIA sm_80+):           copy(stage, k_tile)
//
// so each loader is written once for both. Derived provides
//   template <class Sink> void gather(int k_tile, Sink const& sink)
// which calls sink(buffer, offset) once, with the buffer resource of K tile k_tile and its offset
// function offset(slot, mn, k) (the byte offset of an access, or kInvalidOffset; the tiles' headers
// say which access each (slot, mn, k) is). Tiles come in order within a block (the mainloops'
// contract), so gather may advance state kept from the tile before.
#include <type_traits>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/gemm/block/gathered_tile.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::block {

// How a loader moves its tiles from global memory into the LDS stages.
enum class TileTransfer {
  kRegisterStaged,  // global → registers → LDS (GatheredTile, register_staged_lds_layout.hpp)
  kAsyncCopy,       // cp.async global → shared (AsyncGatheredTile, swizzled layouts; NVIDIA only)
};

// The gathered tile of a transfer kind: GatheredTile here; AsyncGatheredTile for kAsyncCopy, which
// NVIDIA's builder specialises (collective/nvidia/builder.hpp), the only place that includes it.
template <TileTransfer Transfer, class Element, OperandMajor Major, int TileMN, int TileK, int Threads,
          int AccessElements>
struct GatheredTileOf : std::type_identity<GatheredTile<Element, Major, TileMN, TileK, Threads, AccessElements>> {};
template <TileTransfer Transfer, class Element, OperandMajor Major, int TileMN, int TileK, int Threads,
          int AccessElements>
using GatheredTileFor = typename GatheredTileOf<Transfer, Element, Major, TileMN, TileK, Threads, AccessElements>::type;

template <class Derived, class Tile>
class GatheringLoader {
 public:
  using Element = typename Tile::ElementType;
  using LdsLayout = typename Tile::LdsLayout;

  HIPTILE_DEVICE HIPTILE_INLINE void load(int k_tile)
    requires(!Tile::kAsyncCopy)
  {
    static_cast<Derived*>(this)->gather(
        k_tile, [this](arch::BufferResource const& buffer, auto const& offset) { tile_.load(buffer, thread_, offset); });
  }
  HIPTILE_DEVICE HIPTILE_INLINE void store(Element* stage)
    requires(!Tile::kAsyncCopy)
  {
    tile_.store(stage, thread_);
  }

  HIPTILE_DEVICE HIPTILE_INLINE void copy(Element* stage, int k_tile)
    requires Tile::kAsyncCopy
  {
    static_cast<Derived*>(this)->gather(k_tile, [this, stage](arch::BufferResource const& buffer, auto const& offset) {
      tile_.copy(stage, buffer, thread_, offset);
    });
  }

 protected:
  HIPTILE_DEVICE HIPTILE_INLINE explicit GatheringLoader(int thread) : thread_(thread) {}

 private:
  int thread_;
  Tile tile_;
};

}  // namespace hiptile::gemm::block
