// Shared-memory layouts of an operand tile, checked by brute force over every (row, k) of every
// tile shape below: each is one to one and keeps 16-byte chunks whole; the swizzled layout repeats
// every 8 rows, serves ldmatrix without bank conflicts (32 banks of 4 bytes; 8 lanes read one
// 16-byte chunk each from 8 consecutive rows at one k) and lets a warp's cp.async of 32
// consecutive row-major chunks fill 4 whole 128-byte lines; the packed layout serves the same
// reads and both register-staged loaders' stores without bank conflicts, with no spare byte.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_lds_layout.hpp"
#include "hiptile/gemm/block/swizzled_mn_lds_layout.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"

namespace {

using hiptile::gemm::block::PackedLdsLayout;
using hiptile::gemm::block::SwizzledLdsLayout;
using hiptile::gemm::block::SwizzledMnLdsLayout;

static_assert(sizeof(hiptile::half_t) == 2);
static_assert(sizeof(hiptile::float8_e4m3fn) == 1);
static_assert(sizeof(float) == 4);

constexpr int kChunkBytes = 16;  // one cp.async / ldmatrix row / ds_read_b128
constexpr int kLineBytes = 128;  // one shared-memory wavefront
constexpr int kBanks = 32;       // NVIDIA shared memory: 32 banks of 4 bytes
constexpr int kBankBytes = 4;

// A layout as the checks read it: its extents and its offset function. Each check is one function
// over this, not a template per tile shape (which made this test take minutes to compile).
struct Layout {
  std::string name;
  int tile_mn = 0;
  int tile_k = 0;
  int element_bytes = 0;
  int pack_elements = 0;  // elements of one 16-byte chunk
  int elements = 0;
  std::size_t bytes = 0;        // 0 where the layout does not say
  int row_group_elements = 0;   // offset(row + 8, k) - offset(row, k); 0 where not constant
  int (*offset)(int row, int k) = nullptr;
};

template <class L>
Layout layout_of() {
  int const element_bytes = static_cast<int>(sizeof(typename L::ElementType));
  std::ostringstream name;
  name << L::kTileMN << " x " << L::kTileK << " of " << element_bytes << "-byte elements";
  Layout l{name.str(), L::kTileMN, L::kTileK, element_bytes, L::kPackElements, L::kElements, 0, 0, &L::offset};
  if constexpr (requires { L::kBytes; }) l.bytes = L::kBytes;
  if constexpr (requires { L::kRowGroupElements; }) l.row_group_elements = L::kRowGroupElements;
  return l;
}

// Layout<Element, MN, TileK> for TileMN in {8, 64, 128, 256}.
template <template <class, int, int> class L, class Element, int TileK>
void add_tile_mns(std::vector<Layout>& out) {
  for (Layout const& l : {layout_of<L<Element, 8, TileK>>(), layout_of<L<Element, 64, TileK>>(),
                          layout_of<L<Element, 128, TileK>>(), layout_of<L<Element, 256, TileK>>()}) {
    out.push_back(l);
  }
}

// Every shape of the tests: rows of 32, 64, 128 and 256 bytes (2 to 16 chunks) for 2-byte,
// 4-byte and 1-byte elements, each with 8 to 256 rows.
template <template <class, int, int> class L>
std::vector<Layout> shapes() {
  std::vector<Layout> out;
  add_tile_mns<L, hiptile::half_t, 16>(out);
  add_tile_mns<L, hiptile::half_t, 32>(out);
  add_tile_mns<L, hiptile::half_t, 64>(out);
  add_tile_mns<L, hiptile::half_t, 128>(out);
  add_tile_mns<L, float, 8>(out);
  add_tile_mns<L, float, 16>(out);
  add_tile_mns<L, float, 32>(out);
  add_tile_mns<L, float, 64>(out);
  add_tile_mns<L, hiptile::float8_e4m3fn, 32>(out);
  add_tile_mns<L, hiptile::float8_e4m3fn, 64>(out);
  add_tile_mns<L, hiptile::float8_e4m3fn, 128>(out);
  add_tile_mns<L, hiptile::float8_e4m3fn, 256>(out);
  return out;
}

// The checks below return "" when the property holds, else the first violation found.

// Offsets of distinct (row, k) are distinct and lie in [0, kElements).
std::string first_collision(Layout const& l) {
  std::vector<int> owner(l.elements, -1);  // row * TileK + k of the element stored there
  for (int row = 0; row < l.tile_mn; ++row) {
    for (int k = 0; k < l.tile_k; ++k) {
      int const o = l.offset(row, k);
      std::ostringstream s;
      if (o < 0 || o >= l.elements) {
        s << "(" << row << ", " << k << ") -> " << o << ", outside [0, " << l.elements << ")";
        return s.str();
      }
      if (owner[o] >= 0) {
        s << "(" << row << ", " << k << ") and (" << owner[o] / l.tile_k << ", " << owner[o] % l.tile_k
          << ") both -> " << o;
        return s.str();
      }
      owner[o] = row * l.tile_k + k;
    }
  }
  return "";
}

// The elements of each 16-byte chunk of a row (k = c·kPackElements ... + kPackElements - 1) sit
// at consecutive offsets starting on a 16-byte boundary.
std::string first_split_chunk(Layout const& l) {
  if (l.pack_elements * l.element_bytes != kChunkBytes) return "chunks of " + std::to_string(l.pack_elements) + " elements";
  for (int row = 0; row < l.tile_mn; ++row) {
    for (int k = 0; k < l.tile_k; k += l.pack_elements) {
      int const first = l.offset(row, k);
      std::ostringstream s;
      if (first % l.pack_elements != 0) {
        s << "(" << row << ", " << k << ") -> " << first << ", not a multiple of " << l.pack_elements;
        return s.str();
      }
      for (int e = 1; e < l.pack_elements; ++e) {
        if (l.offset(row, k + e) != first + e) {
          s << "(" << row << ", " << k + e << ") -> " << l.offset(row, k + e) << ", expected " << first + e;
          return s.str();
        }
      }
    }
  }
  return "";
}

// offset(row + 8·j, k) == offset(row, k) + j·kRowGroupElements for every row + 8·j in the tile.
std::string first_aperiodic_row(Layout const& l) {
  if (l.row_group_elements == 0) return "no constant distance between rows 8 apart";
  for (int row = 0; row < l.tile_mn; ++row) {
    for (int j = 1; row + 8 * j < l.tile_mn; ++j) {
      for (int k = 0; k < l.tile_k; ++k) {
        int const expected = l.offset(row, k) + j * l.row_group_elements;
        if (l.offset(row + 8 * j, k) != expected) {
          std::ostringstream s;
          s << "(" << row + 8 * j << ", " << k << ") -> " << l.offset(row + 8 * j, k) << ", expected (" << row
            << ", " << k << ") + " << j << " x " << l.row_group_elements << " = " << expected;
          return s.str();
        }
      }
    }
  }
  return "";
}

// One 8-lane phase of ldmatrix: lane i reads the 16-byte chunk (r0 + i, k), i.e. the four banks
// byte/4 .. byte/4 + 3. Together the 8 lanes must touch each of the 32 banks exactly once.
std::string first_ldmatrix_conflict(Layout const& l) {
  for (int r0 = 0; r0 < l.tile_mn; r0 += 8) {
    for (int k = 0; k < l.tile_k; k += l.pack_elements) {
      std::array<int, kBanks> hits{};
      std::ostringstream s;
      s << "rows " << r0 << ".." << r0 + 7 << ", k " << k << ": byte offsets";
      bool misaligned = false;
      for (int lane = 0; lane < 8; ++lane) {
        int const byte = l.offset(r0 + lane, k) * l.element_bytes;
        s << " " << byte;
        misaligned = misaligned || byte % kChunkBytes != 0;  // ldmatrix needs 16-byte aligned rows
        for (int b = 0; b < kChunkBytes / kBankBytes; ++b) ++hits[(byte / kBankBytes + b) % kBanks];
      }
      if (misaligned) return s.str() + " (not all 16-byte aligned)";
      for (int bank = 0; bank < kBanks; ++bank) {
        if (hits[bank] != 1) {
          s << " hit bank " << bank << " " << hits[bank] << " times";
          return s.str();
        }
      }
    }
  }
  return "";
}

// cp.async of a K-contiguous tile: thread t of warp w copies chunk c = 32·w + t of the tile in
// row-major order (row c / packs, k = (c % packs)·kPackElements). The chunks a warp writes must
// fill whole 128-byte lines, each of the 8 slots of a line once: 4 lines for a full warp.
std::string first_partial_line(Layout const& l) {
  int const packs = l.tile_k * l.element_bytes / kChunkBytes;
  int const chunks = l.tile_mn * packs;
  for (int w = 0; w * 32 < chunks; ++w) {
    std::map<int, unsigned> slots_of_line;  // line -> bit mask of the 16-byte slots written
    int threads = 0;
    std::ostringstream s;
    s << "warp " << w << ":";
    for (int t = 0; t < 32 && w * 32 + t < chunks; ++t, ++threads) {
      int const c = w * 32 + t;
      int const row = c / packs;
      int const k = (c % packs) * l.pack_elements;
      int const byte = l.offset(row, k) * l.element_bytes;
      if (byte % kChunkBytes != 0) {
        s << " thread " << t << " (" << row << ", " << k << ") -> byte " << byte << ", not 16-byte aligned";
        return s.str();
      }
      unsigned const slot = 1u << (byte % kLineBytes / kChunkBytes);
      unsigned& mask = slots_of_line[byte / kLineBytes];
      if (mask & slot) {
        s << " thread " << t << " (" << row << ", " << k << ") -> byte " << byte << ", written twice";
        return s.str();
      }
      mask |= slot;
    }
    for (auto const& [line, mask] : slots_of_line) {
      if (mask != 0xffu) {
        s << " line " << line << " gets only slot mask 0x" << std::hex << mask;
        return s.str();
      }
    }
    int const lines = static_cast<int>(slots_of_line.size());
    if (lines * (kLineBytes / kChunkBytes) != threads) {
      s << " " << threads << " threads touch " << lines << " lines";
      return s.str();
    }
  }
  return "";
}

// The stores of the register-staged loaders (tile_loader.hpp, gathered_tile.hpp), one phase of
// the LDS at a time; in each, the chunks written must lie at 8 different positions of their
// 128-byte lines (so the lanes' words fall in different banks).
//  K-contiguous: 8 lanes store one 16-byte vector each, lane i vector v0 + i: row v / packs,
//  pack v % packs.
//  MN-contiguous: the transposing loader's lanes hold V = 16 / sizeof(Element) rows of one k
//  (rows V·u .. V·u + V - 1 for 8 consecutive u, u aligned to 8) and store row V·u + j of every
//  lane together, one word of the chunk (row, pack) each.
std::string first_spread_failure(Layout const& l, std::array<int, 8> const& rows, std::array<int, 8> const& ks) {
  unsigned positions = 0;
  std::ostringstream s;
  for (int i = 0; i < 8; ++i) {
    int const position = l.offset(rows[i], ks[i]) * l.element_bytes % kLineBytes / kChunkBytes;
    s << " (" << rows[i] << ", " << ks[i] << ") at slot " << position;
    positions |= 1u << position;
  }
  return positions == 0xffu ? "" : s.str();
}

std::string first_k_store_conflict(Layout const& l) {
  int const packs = l.tile_k / l.pack_elements;
  for (int v0 = 0; v0 + 8 <= l.tile_mn * packs; v0 += 8) {
    std::array<int, 8> rows{}, ks{};
    for (int i = 0; i < 8; ++i) {
      rows[i] = (v0 + i) / packs;
      ks[i] = (v0 + i) % packs * l.pack_elements;
    }
    std::string const f = first_spread_failure(l, rows, ks);
    if (!f.empty()) return "vectors from " + std::to_string(v0) + ":" + f;
  }
  return "";
}

std::string first_transposed_store_conflict(Layout const& l) {
  int const kRowsPerVector = kChunkBytes / l.element_bytes;
  for (int u0 = 0; (u0 + 8) * kRowsPerVector <= l.tile_mn; u0 += 8) {
    for (int j = 0; j < kRowsPerVector; ++j) {
      for (int k = 0; k < l.tile_k; k += l.pack_elements) {
        std::array<int, 8> rows{}, ks{};
        for (int i = 0; i < 8; ++i) {
          rows[i] = (u0 + i) * kRowsPerVector + j;
          ks[i] = k;
        }
        if (std::string const f = first_spread_failure(l, rows, ks); !f.empty()) return f;
      }
    }
  }
  return "";
}

// Controls for the hardware checks: plain row-major storage (one to one, but without the swizzle)
// must fail the ldmatrix check and the transposed stores, and rows padded by a chunk must fail the
// cp.async check.
template <class Element, int TileMN, int TileK>
struct RowMajorLdsLayout {
  using ElementType = Element;
  static constexpr int kTileMN = TileMN;
  static constexpr int kTileK = TileK;
  static constexpr int kPackElements = kChunkBytes / static_cast<int>(sizeof(Element));
  static constexpr int kElements = TileMN * TileK;
  static constexpr int kRowGroupElements = 8 * TileK;
  static constexpr int offset(int row, int k) { return row * TileK + k; }
};

template <class Element, int TileMN, int TileK>
struct RowPaddedLdsLayout : RowMajorLdsLayout<Element, TileMN, TileK> {
  static constexpr int kRowElements = TileK + kChunkBytes / static_cast<int>(sizeof(Element));
  static constexpr int kElements = TileMN * kRowElements;
  static constexpr int offset(int row, int k) { return row * kRowElements + k; }
};

TEST_CASE("the bank and line checks reject layouts that conflict") {
  for (Layout const& l : shapes<RowMajorLdsLayout>()) {
    INFO(l.name);
    CHECK(first_collision(l) == "");
    CHECK(first_ldmatrix_conflict(l) != "");
    if (l.tile_mn >= 8 * kChunkBytes / l.element_bytes) CHECK(first_transposed_store_conflict(l) != "");
  }
  for (Layout const& l : shapes<RowPaddedLdsLayout>()) {
    INFO(l.name);
    CHECK(first_collision(l) == "");
    CHECK(first_partial_line(l) != "");
  }
}

TEST_CASE("the swizzled layout stores every element of the tile at its own offset, with no gaps") {
  for (Layout const& l : shapes<SwizzledLdsLayout>()) {
    INFO(l.name);
    CHECK(l.elements == l.tile_mn * l.tile_k);
    CHECK(l.bytes == std::size_t(l.elements) * std::size_t(l.element_bytes));
    CHECK(first_collision(l) == "");
  }
}

TEST_CASE("the swizzled layout keeps every 16-byte chunk of a row whole and aligned") {
  for (Layout const& l : shapes<SwizzledLdsLayout>()) {
    INFO(l.name);
    CHECK(first_split_chunk(l) == "");
  }
}

TEST_CASE("the swizzled layout repeats every 8 rows") {
  for (Layout const& l : shapes<SwizzledLdsLayout>()) {
    INFO(l.name);
    CHECK(first_aperiodic_row(l) == "");
  }
}

TEST_CASE("ldmatrix reads 8 rows of the swizzled layout from all 32 banks once") {
  for (Layout const& l : shapes<SwizzledLdsLayout>()) {
    INFO(l.name);
    CHECK(first_ldmatrix_conflict(l) == "");
  }
}

TEST_CASE("a warp's cp.async writes into the swizzled layout fill whole 128-byte lines") {
  for (Layout const& l : shapes<SwizzledLdsLayout>()) {
    INFO(l.name);
    CHECK(first_partial_line(l) == "");
  }
}

TEST_CASE("the packed layout stores every element of the tile at its own offset, with no gaps") {
  for (Layout const& l : shapes<PackedLdsLayout>()) {
    INFO(l.name);
    CHECK(l.elements == l.tile_mn * l.tile_k);
    CHECK(l.bytes == std::size_t(l.elements) * std::size_t(l.element_bytes));
    CHECK(first_collision(l) == "");
  }
}

TEST_CASE("the packed layout keeps every 16-byte chunk of a row whole and aligned") {
  for (Layout const& l : shapes<PackedLdsLayout>()) {
    INFO(l.name);
    CHECK(first_split_chunk(l) == "");
  }
}

TEST_CASE("fragment reads of 8 rows of the packed layout hit all 32 banks once") {
  for (Layout const& l : shapes<PackedLdsLayout>()) {
    INFO(l.name);
    CHECK(first_ldmatrix_conflict(l) == "");
  }
}

TEST_CASE("the register-staged loaders' stores into the packed layout spread over all 8 chunk slots") {
  for (Layout const& l : shapes<PackedLdsLayout>()) {
    INFO(l.name);
    CHECK(first_k_store_conflict(l) == "");
    CHECK(first_transposed_store_conflict(l) == "");
  }
}

// An MN-contiguous layout seen with the roles of MN and K exchanged — rows are k, each holding the
// tile's MN extent — so the checks above state its claims: ldmatrix.trans reads 8 consecutive k at
// one MN chunk, and AsyncGatheredTile's warps copy consecutive MN chunks of consecutive k.
template <class Mn>
struct KRowsView {
  using ElementType = typename Mn::ElementType;
  static constexpr int kTileMN = Mn::kTileK;
  static constexpr int kTileK = Mn::kTileMN;
  static constexpr int kPackElements = Mn::kPackElements;
  static constexpr int kElements = Mn::kElements;
  static constexpr int offset(int k, int mn) { return Mn::offset(mn, k); }
};

template <int K>
void add_mn_shapes(std::vector<Layout>& out) {
  for (Layout const& l :
       {layout_of<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 32, K>>>(),
        layout_of<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 64, K>>>(),
        layout_of<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 128, K>>>(),
        layout_of<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 256, K>>>(),
        layout_of<KRowsView<SwizzledMnLdsLayout<float, 64, K>>>(), layout_of<KRowsView<SwizzledMnLdsLayout<float, 128, K>>>()}) {
    out.push_back(l);
  }
}

// Every MN-contiguous shape of the tests, as k rows of MN: MN rows of 64 to 512 bytes, 8 to 128 k,
// 2- and 4-byte elements (the layout needs a power-of-two number of 16-byte chunks, at least 2,
// along MN).
std::vector<Layout> mn_shapes() {
  std::vector<Layout> out;
  add_mn_shapes<8>(out);
  add_mn_shapes<16>(out);
  add_mn_shapes<32>(out);
  add_mn_shapes<64>(out);
  add_mn_shapes<128>(out);
  return out;
}

TEST_CASE("the MN-contiguous swizzled layout stores every element of the tile at its own offset") {
  for (Layout const& v : mn_shapes()) {
    INFO("k rows of MN: " << v.name);
    CHECK(v.elements == v.tile_mn * v.tile_k);
    CHECK(first_collision(v) == "");
    CHECK(first_split_chunk(v) == "");
  }
}

TEST_CASE("ldmatrix.trans reads 8 k of the MN-contiguous swizzled layout from all 32 banks once") {
  for (Layout const& v : mn_shapes()) {
    INFO("k rows of MN: " << v.name);
    CHECK(first_ldmatrix_conflict(v) == "");
  }
}

TEST_CASE("a warp's cp.async of MN vectors into the MN-contiguous swizzled layout fills whole 128-byte lines") {
  for (Layout const& v : mn_shapes()) {
    INFO("k rows of MN: " << v.name);
    CHECK(first_partial_line(v) == "");
  }
}

// Warpgroup MMAs read an MN-major 16-bit operand in the 128-byte swizzle (PTX ISA, "Shared Memory
// Matrix Layout"): 64-element MN blocks a fixed distance apart, each a column of K rows of 128
// bytes, whose byte address has bits 4–6 XORed with bits 7–9 (the row within its 8-row group).
template <int TileMN, int TileK>
void check_warpgroup_mn_layout() {
  using L = SwizzledMnLdsLayout<hiptile::half_t, TileMN, TileK>;
  constexpr int kBlockBytes = 128 * TileK;
  CHECK(L::kBlockBytes == std::size_t(kBlockBytes));
  for (int mn = 0; mn < TileMN; ++mn) {
    for (int k = 0; k < TileK; ++k) {
      int const logical = (mn / 64) * kBlockBytes + k * 128 + (mn % 64) * 2;
      int const swizzled = logical ^ (((logical >> 7) & 7) << 4);
      INFO("TileMN " << TileMN << ", TileK " << TileK << ", mn " << mn << ", k " << k);
      REQUIRE(L::offset(mn, k) * 2 == swizzled);
    }
  }
}

TEST_CASE("the MN-contiguous layout of 16-bit tiles 64 wide or more is wgmma's MN-major 128-byte swizzle") {
  check_warpgroup_mn_layout<64, 16>();
  check_warpgroup_mn_layout<64, 64>();
  check_warpgroup_mn_layout<128, 64>();
  check_warpgroup_mn_layout<256, 64>();
  check_warpgroup_mn_layout<256, 32>();
}

}  // namespace
