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

// Calls fn.template operator()<Layout<Element, MN, TileK>>() for TileMN in {8, 64, 128, 256}.
template <template <class, int, int> class Layout, class Element, int TileK, class Fn>
void for_each_tile_mn(Fn& fn) {
  [&]<int... MNs>(std::integer_sequence<int, MNs...>) {
    (fn.template operator()<Layout<Element, MNs, TileK>>(), ...);
  }(std::integer_sequence<int, 8, 64, 128, 256>{});
}

// Every shape of the tests: rows of 32, 64, 128 and 256 bytes (2 to 16 chunks) for 2-byte,
// 4-byte and 1-byte elements, each with 8 to 256 rows.
template <template <class, int, int> class Layout, class Fn>
void for_each_shape(Fn fn) {
  for_each_tile_mn<Layout, hiptile::half_t, 16>(fn);
  for_each_tile_mn<Layout, hiptile::half_t, 32>(fn);
  for_each_tile_mn<Layout, hiptile::half_t, 64>(fn);
  for_each_tile_mn<Layout, hiptile::half_t, 128>(fn);
  for_each_tile_mn<Layout, float, 8>(fn);
  for_each_tile_mn<Layout, float, 16>(fn);
  for_each_tile_mn<Layout, float, 32>(fn);
  for_each_tile_mn<Layout, float, 64>(fn);
  for_each_tile_mn<Layout, hiptile::float8_e4m3fn, 32>(fn);
  for_each_tile_mn<Layout, hiptile::float8_e4m3fn, 64>(fn);
  for_each_tile_mn<Layout, hiptile::float8_e4m3fn, 128>(fn);
  for_each_tile_mn<Layout, hiptile::float8_e4m3fn, 256>(fn);
}

template <class L>
constexpr int kElementBytes = static_cast<int>(sizeof(typename L::ElementType));

template <class L>
std::string shape() {
  std::ostringstream s;
  s << L::kTileMN << " x " << L::kTileK << " of " << kElementBytes<L> << "-byte elements";
  return s.str();
}

// The checks below return "" when the property holds, else the first violation found.

// Offsets of distinct (row, k) are distinct and lie in [0, kElements).
template <class L>
std::string first_collision() {
  std::vector<int> owner(L::kElements, -1);  // row * TileK + k of the element stored there
  for (int row = 0; row < L::kTileMN; ++row) {
    for (int k = 0; k < L::kTileK; ++k) {
      int const o = L::offset(row, k);
      std::ostringstream s;
      if (o < 0 || o >= L::kElements) {
        s << "(" << row << ", " << k << ") -> " << o << ", outside [0, " << L::kElements << ")";
        return s.str();
      }
      if (owner[o] >= 0) {
        s << "(" << row << ", " << k << ") and (" << owner[o] / L::kTileK << ", " << owner[o] % L::kTileK
          << ") both -> " << o;
        return s.str();
      }
      owner[o] = row * L::kTileK + k;
    }
  }
  return "";
}

// The elements of each 16-byte chunk of a row (k = c·kPackElements ... + kPackElements - 1) sit
// at consecutive offsets starting on a 16-byte boundary.
template <class L>
std::string first_split_chunk() {
  static_assert(L::kPackElements * sizeof(typename L::ElementType) == kChunkBytes);
  for (int row = 0; row < L::kTileMN; ++row) {
    for (int k = 0; k < L::kTileK; k += L::kPackElements) {
      int const first = L::offset(row, k);
      std::ostringstream s;
      if (first % L::kPackElements != 0) {
        s << "(" << row << ", " << k << ") -> " << first << ", not a multiple of " << L::kPackElements;
        return s.str();
      }
      for (int e = 1; e < L::kPackElements; ++e) {
        if (L::offset(row, k + e) != first + e) {
          s << "(" << row << ", " << k + e << ") -> " << L::offset(row, k + e) << ", expected " << first + e;
          return s.str();
        }
      }
    }
  }
  return "";
}

// offset(row + 8·j, k) == offset(row, k) + j·kRowGroupElements for every row + 8·j in the tile.
template <class L>
std::string first_aperiodic_row() {
  for (int row = 0; row < L::kTileMN; ++row) {
    for (int j = 1; row + 8 * j < L::kTileMN; ++j) {
      for (int k = 0; k < L::kTileK; ++k) {
        int const expected = L::offset(row, k) + j * L::kRowGroupElements;
        if (L::offset(row + 8 * j, k) != expected) {
          std::ostringstream s;
          s << "(" << row + 8 * j << ", " << k << ") -> " << L::offset(row + 8 * j, k) << ", expected (" << row
            << ", " << k << ") + " << j << " x " << L::kRowGroupElements << " = " << expected;
          return s.str();
        }
      }
    }
  }
  return "";
}

// One 8-lane phase of ldmatrix: lane i reads the 16-byte chunk (r0 + i, k), i.e. the four banks
// byte/4 .. byte/4 + 3. Together the 8 lanes must touch each of the 32 banks exactly once.
template <class L>
std::string first_ldmatrix_conflict() {
  for (int r0 = 0; r0 < L::kTileMN; r0 += 8) {
    for (int k = 0; k < L::kTileK; k += L::kPackElements) {
      std::array<int, kBanks> hits{};
      std::ostringstream s;
      s << "rows " << r0 << ".." << r0 + 7 << ", k " << k << ": byte offsets";
      bool misaligned = false;
      for (int lane = 0; lane < 8; ++lane) {
        int const byte = L::offset(r0 + lane, k) * kElementBytes<L>;
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
template <class L>
std::string first_partial_line() {
  int const packs = L::kTileK * kElementBytes<L> / kChunkBytes;
  int const chunks = L::kTileMN * packs;
  for (int w = 0; w * 32 < chunks; ++w) {
    std::map<int, unsigned> slots_of_line;  // line -> bit mask of the 16-byte slots written
    int threads = 0;
    std::ostringstream s;
    s << "warp " << w << ":";
    for (int t = 0; t < 32 && w * 32 + t < chunks; ++t, ++threads) {
      int const c = w * 32 + t;
      int const row = c / packs;
      int const k = (c % packs) * L::kPackElements;
      int const byte = L::offset(row, k) * kElementBytes<L>;
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
template <class L>
std::string first_spread_failure(std::array<int, 8> const& rows, std::array<int, 8> const& ks) {
  unsigned positions = 0;
  std::ostringstream s;
  for (int i = 0; i < 8; ++i) {
    int const position = L::offset(rows[i], ks[i]) * kElementBytes<L> % kLineBytes / kChunkBytes;
    s << " (" << rows[i] << ", " << ks[i] << ") at slot " << position;
    positions |= 1u << position;
  }
  return positions == 0xffu ? "" : s.str();
}

template <class L>
std::string first_k_store_conflict() {
  int const packs = L::kTileK / L::kPackElements;
  for (int v0 = 0; v0 + 8 <= L::kTileMN * packs; v0 += 8) {
    std::array<int, 8> rows{}, ks{};
    for (int i = 0; i < 8; ++i) {
      rows[i] = (v0 + i) / packs;
      ks[i] = (v0 + i) % packs * L::kPackElements;
    }
    std::string const f = first_spread_failure<L>(rows, ks);
    if (!f.empty()) return "vectors from " + std::to_string(v0) + ":" + f;
  }
  return "";
}

template <class L>
std::string first_transposed_store_conflict() {
  constexpr int kRowsPerVector = kChunkBytes / kElementBytes<L>;
  for (int u0 = 0; (u0 + 8) * kRowsPerVector <= L::kTileMN; u0 += 8) {
    for (int j = 0; j < kRowsPerVector; ++j) {
      for (int k = 0; k < L::kTileK; k += L::kPackElements) {
        std::array<int, 8> rows{}, ks{};
        for (int i = 0; i < 8; ++i) {
          rows[i] = (u0 + i) * kRowsPerVector + j;
          ks[i] = k;
        }
        if (std::string const f = first_spread_failure<L>(rows, ks); !f.empty()) return f;
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
  for_each_shape<RowMajorLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_collision<L>() == "");
    CHECK(first_ldmatrix_conflict<L>() != "");
    if (L::kTileMN >= 8 * kChunkBytes / kElementBytes<L>) CHECK(first_transposed_store_conflict<L>() != "");
  });
  for_each_shape<RowPaddedLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_collision<L>() == "");
    CHECK(first_partial_line<L>() != "");
  });
}

TEST_CASE("the swizzled layout stores every element of the tile at its own offset, with no gaps") {
  for_each_shape<SwizzledLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(L::kElements == L::kTileMN * L::kTileK);
    CHECK(L::kBytes == std::size_t(L::kElements) * sizeof(typename L::ElementType));
    CHECK(first_collision<L>() == "");
  });
}

TEST_CASE("the swizzled layout keeps every 16-byte chunk of a row whole and aligned") {
  for_each_shape<SwizzledLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_split_chunk<L>() == "");
  });
}

TEST_CASE("the swizzled layout repeats every 8 rows") {
  for_each_shape<SwizzledLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_aperiodic_row<L>() == "");
  });
}

TEST_CASE("ldmatrix reads 8 rows of the swizzled layout from all 32 banks once") {
  for_each_shape<SwizzledLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_ldmatrix_conflict<L>() == "");
  });
}

TEST_CASE("a warp's cp.async writes into the swizzled layout fill whole 128-byte lines") {
  for_each_shape<SwizzledLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_partial_line<L>() == "");
  });
}

TEST_CASE("the packed layout stores every element of the tile at its own offset, with no gaps") {
  for_each_shape<PackedLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(L::kElements == L::kTileMN * L::kTileK);
    CHECK(L::kBytes == std::size_t(L::kElements) * sizeof(typename L::ElementType));
    CHECK(first_collision<L>() == "");
  });
}

TEST_CASE("the packed layout keeps every 16-byte chunk of a row whole and aligned") {
  for_each_shape<PackedLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_split_chunk<L>() == "");
  });
}

TEST_CASE("fragment reads of 8 rows of the packed layout hit all 32 banks once") {
  for_each_shape<PackedLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_ldmatrix_conflict<L>() == "");
  });
}

TEST_CASE("the register-staged loaders' stores into the packed layout spread over all 8 chunk slots") {
  for_each_shape<PackedLdsLayout>([]<class L>() {
    INFO(shape<L>());
    CHECK(first_k_store_conflict<L>() == "");
    CHECK(first_transposed_store_conflict<L>() == "");
  });
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

// Every MN-contiguous shape of the tests: MN rows of 64 to 512 bytes, 8 to 128 k, 2- and 4-byte
// elements (the layout needs a power-of-two number of 16-byte chunks, at least 2, along MN).
template <class Fn>
void for_each_mn_shape(Fn fn) {
  [&]<int... Ks>(std::integer_sequence<int, Ks...>) {
    auto const with_k = [&]<int K>() {
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 32, K>>>();
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 64, K>>>();
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 128, K>>>();
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<hiptile::half_t, 256, K>>>();
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<float, 64, K>>>();
      fn.template operator()<KRowsView<SwizzledMnLdsLayout<float, 128, K>>>();
    };
    (with_k.template operator()<Ks>(), ...);
  }(std::integer_sequence<int, 8, 16, 32, 64, 128>{});
}

TEST_CASE("the MN-contiguous swizzled layout stores every element of the tile at its own offset") {
  for_each_mn_shape([]<class V>() {
    INFO("k rows of MN: " << shape<V>());
    CHECK(V::kElements == V::kTileMN * V::kTileK);
    CHECK(first_collision<V>() == "");
    CHECK(first_split_chunk<V>() == "");
  });
}

TEST_CASE("ldmatrix.trans reads 8 k of the MN-contiguous swizzled layout from all 32 banks once") {
  for_each_mn_shape([]<class V>() {
    INFO("k rows of MN: " << shape<V>());
    CHECK(first_ldmatrix_conflict<V>() == "");
  });
}

TEST_CASE("a warp's cp.async of MN vectors into the MN-contiguous swizzled layout fills whole 128-byte lines") {
  for_each_mn_shape([]<class V>() {
    INFO("k rows of MN: " << shape<V>());
    CHECK(first_partial_line<V>() == "");
  });
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
