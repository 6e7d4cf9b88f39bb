#pragma once
// What a GEMM operator writes to the log (log/logger.hpp; docs/logging.md shows each line):
//
//   configuration_name<G>()    "f16, A row, B col, C row; tile 128x128x32, wave 64x64x32,
//                               v_mfma_f32_32x32x8_f16, 1 stage, data-parallel"
//   problem_text(args)          "4096x4096x4096, batch 1, ld 4096/4096/4096/4096, 1 K slice"
//   bench_command<G>(args)      the hiptile_tune command line that times the same call
//   write_hints<G>(args, …)     trace-independent advice: leading dimensions that are multiples of
//                               512 bytes on gfx942, a grid that fills under half the device
//
// Only formatting: each is called behind a logging::enabled test, so a launch with logging off never
// builds a string.
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/numeric/element_name.hpp"
#include "hiptile/platform/device_info.hpp"

namespace hiptile::gemm::device {

namespace detail {

template <class Layout>
constexpr char const* layout_name() {
  return Layout::kRowMajor ? "row" : "col";
}

// The atom's instruction: an MFMA's mnemonic, mma.sync's shape, wgmma's K, or SIMT FMA.
template <class Atom>
std::string atom_text() {
  if constexpr (requires { Atom::kMnemonic; }) {
    return Atom::kMnemonic;
  } else if constexpr (requires { Atom::kIsMmaSync; }) {
    return "mma.sync m" + std::to_string(Atom::kM) + "n" + std::to_string(Atom::kN) + "k" + std::to_string(Atom::kK);
  } else if constexpr (requires { Atom::kIsWarpgroupMma; }) {
    return "wgmma m64k" + std::to_string(Atom::kK);
  } else {
    return "SIMT FMA";
  }
}

}  // namespace detail

// The element types' names ("f16" when A, B and C agree, else "f16*f16->f32").
template <class G>
std::string element_text() {
  std::string const a(element_name<typename G::ElementA>()), b(element_name<typename G::ElementB>()),
      c(element_name<typename G::ElementC>());
  return a == b && b == c ? a : a + "*" + b + "->" + c;
}

template <class G>
std::string layout_text() {
  return std::string("A ") + detail::layout_name<typename G::LayoutA>() + ", B " +
         detail::layout_name<typename G::LayoutB>() + ", C " + detail::layout_name<typename G::LayoutC>();
}

// "tile 128x128x32, wave 64x64x32, v_mfma_f32_32x32x8_f16, 1 stage, data-parallel": the shapes,
// atom, stages and schedule of a configuration (a GEMM's, or a convolution's).
template <class C>
std::string tile_text() {
  using T = typename C::TileShapeType;
  using W = typename C::WaveShapeType;
  std::ostringstream os;
  os << "tile " << T::kM << "x" << T::kN << "x" << T::kK << ", wave " << W::kM << "x" << W::kN << "x" << W::kK << ", "
     << detail::atom_text<typename C::MmaAtomType>() << ", " << C::kStages << (C::kStages == 1 ? " stage, " : " stages, ")
     << kernel::to_string(C::kSplitK);
  return os.str();
}

template <class G>
std::string configuration_name() {
  return element_text<G>() + ", " + layout_text<G>() + "; " + tile_text<G>();
}

template <class Arguments>
std::string problem_text(Arguments const& args) {
  std::ostringstream os;
  os << args.problem.m << "x" << args.problem.n << "x" << args.problem.k << ", batch " << args.batch_count << ", ld "
     << args.a.ld << "/" << args.b.ld << "/" << args.c.ld << "/" << args.d.ld << ", " << args.split_k_slices
     << (args.split_k_slices == 1 ? " K slice" : " K slices");
  return os.str();
}

// "rcr": A's, B's and C's layouts as hiptile_tune's --layouts takes them.
template <class G>
std::string layout_letters() {
  return std::string(G::LayoutA::kRowMajor ? "r" : "c") + (G::LayoutB::kRowMajor ? "r" : "c") +
         (G::LayoutC::kRowMajor ? "r" : "c");
}

// The hiptile_tune command line (examples/20_find_mode) that times this call's shape among the
// default candidates for its types and layouts.
template <class G, class Arguments>
std::string bench_command(Arguments const& args) {
  std::ostringstream os;
  os << "hiptile_tune --types " << element_name<typename G::ElementA>() << " --layouts " << layout_letters<G>()
     << " --mode search " << args.problem.m << "x" << args.problem.n << "x" << args.problem.k;
  if (args.batch_count > 1) os << "x" << args.batch_count;
  return os.str();
}

// Advice for this call on `device`, one hint line each: a leading dimension that is a multiple of
// 512 bytes on gfx942 (its channel hot spots: docs/mi300_facts.md, "Workgroups and XCDs"), and
// `tiles` that fill under half of the `slots` (workgroups the device holds at once).
template <class G, class Arguments>
void write_hints(Arguments const& args, DeviceInfo const& device, std::int64_t tiles, std::int64_t slots) {
  if (!logging::enabled(logging::Category::kHints)) return;
  if (device.arch == "gfx942") {
    auto check = [&](char const* name, std::int64_t ld, std::size_t element_bytes) {
      if (ld > 0 && (std::int64_t(element_bytes) * ld) % 512 == 0) {
        logging::write(logging::Category::kHints, [&](std::ostream& os) {
          os << "leading dimension of " << name << " is " << ld << " elements = " << ld * std::int64_t(element_bytes)
             << " bytes, a multiple of 512 bytes: on MI300 such rows fall on the same memory channels (the MI300X "
                "tuning guide); padding it by 64 or 128 bytes spreads them";
        });
      }
    };
    check("A", args.a.ld, sizeof(typename G::ElementA));
    check("B", args.b.ld, sizeof(typename G::ElementB));
    check("D", args.d.ld, sizeof(typename G::ElementC));
  }
  if (slots > 0 && 2 * tiles < slots && G::kSplitK == kernel::SplitKMode::kNone) {
    logging::write(logging::Category::kHints, [&](std::ostream& os) {
      os << tiles << " tiles fill " << (100 * tiles + slots / 2) / slots << "% of the " << slots
         << " workgroups the device holds at once (" << device.compute_units
         << " CUs): a stream-K or split-K configuration shares K among idle CUs (DefaultGemm or TunedGemm picks one)";
    });
  }
}

}  // namespace hiptile::gemm::device
