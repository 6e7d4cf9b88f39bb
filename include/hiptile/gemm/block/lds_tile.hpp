#pragma once
// LdsTile: what every LDS stage layout of an operand tile (TileMN rows × TileK elements, K along a
// row) shares — its extents and its cut of K into 16-byte packs, the unit of every tile copy and
// fragment read.
namespace hiptile::gemm::block {

template <class Element, int TileMN, int TileK>
struct LdsTile {
  using ElementType = Element;
  static constexpr int kTileMN = TileMN;
  static constexpr int kTileK = TileK;
  static constexpr int kPackBytes = 16;
  static constexpr int kPackElements = kPackBytes / static_cast<int>(sizeof(Element));
  static_assert(TileK % kPackElements == 0, "TileShape::kK must be a multiple of 16 bytes of elements");
  static_assert(TileMN % 8 == 0, "the tile's M and N extents must be multiples of 8");
  static constexpr int kPacks = TileK / kPackElements;  // 16-byte packs per row
};

}  // namespace hiptile::gemm::block
