#pragma once
// ChainedOperand<Producer, Consumer, kTransposed>: a chained GEMM's second product, E = op(A·B)·C,
// takes its A operand P = op(A·B) from the registers the first product left it in, with no trip
// through memory and no data moving between lanes: the consumer wave MMA's A fragment of K-step
// `step` is gathered from the producer wave MMA's accumulators of the same lane, converted (the
// first epilogue's op, then the element type) on the way.
//
// Whether that works is a fact of the two atoms' lane layouts, which this header checks at compile
// time for every lane, so a mismatch is one static_assert rather than a wrong answer:
//  - NVIDIA mma.sync (m16n8k16): P's m16n8 C fragments of two neighbouring column atoms are, lane for
//    lane, an A fragment of k16 (the register reuse of FlashAttention-2): kTransposed = false.
//  - gfx9 MFMA (32×32×8, 16×16×16): the C layout spreads columns over lanes and rows over registers,
//    A's rows over lanes and K over registers — P's layout is A's only for Pᵀ. So the first product
//    is computed transposed (Pᵀ = Bᵀ·Aᵀ: its wave MMA takes B's stage as its A operand), and
//    kTransposed = true: then register group 4s.. of a 32×32 accumulator is A's K-step s (AMD matrix
//    instruction calculator, CDNA3 layouts; docs/mi300_facts.md).
//
// Producer: the first product's wave MMA (its accumulators, accumulator_row / accumulator_col).
// Consumer: the second's, a FragmentWaveMma whose FragmentsA are an atom fragment per atom row in the
// atom's register order (a_row / a_k), K in natural order within each step (MmaSyncWaveMma,
// ChainedMfmaWaveMma).
#include <utility>

#include "hiptile/core/array.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Producer, class Consumer, bool kTransposed>
struct ChainedOperand {
  using Atom = typename Consumer::AtomType;
  static constexpr int kWaveSize = Atom::kM * Atom::kK / Atom::kAPerLane;  // lanes sharing the atom
  static constexpr int kAtomsM = Consumer::kAtomsM;
  static constexpr int kPerAtom = Atom::kAPerLane;
  // The chained K: the producer's columns (rows when transposed), all of them.
  static constexpr bool kTransposedProducer = kTransposed;  // the first product computed Pᵀ
  static constexpr int kK = kTransposed ? Producer::kWaveM : Producer::kWaveN;
  static constexpr int kSteps = kK / Atom::kK;
  static_assert(kK % Atom::kK == 0, "the first product's N must be whole K-steps of the second's atom");
  static_assert((kTransposed ? Producer::kWaveN : Producer::kWaveM) == Consumer::kWaveM,
                "a chained GEMM's two wave tiles must cover the same rows");

  // Where the consumer's A element (atom row mi, step, register i) lies in the producer's
  // accumulators: fragment and register, the same for every lane.
  struct Source {
    int fragment = -1;
    int reg = -1;
  };
  // P's element (row m, column k) in the producer's accumulators of `lane`, or none. The atom
  // holding it is known from the element's place; only its registers are searched (compile time
  // stays small for wide wave tiles).
  static constexpr Source find(int lane, int m, int k) {
    using ProducerAtom = typename Producer::AtomType;
    int const row = kTransposed ? k : m, col = kTransposed ? m : k;
    int const pm = row / ProducerAtom::kM, pn = col / ProducerAtom::kN;
    for (int r = 0; r < Producer::kAccumulatorsPerAtom; ++r) {
      if (Producer::accumulator_row(lane, pm, r) == row && Producer::accumulator_col(lane, pn, r) == col) {
        return {pm * Producer::kAtomsN + pn, r};
      }
    }
    return {};
  }
  static constexpr auto map() {
    Array<Source, kSteps * kAtomsM * kPerAtom> sources{};
    for (int step = 0; step < kSteps; ++step) {
      for (int mi = 0; mi < kAtomsM; ++mi) {
        for (int i = 0; i < kPerAtom; ++i) {
          Source const s = find(0, mi * Atom::kM + Atom::a_row(0, i), step * Atom::kK + Atom::a_k(0, i));
          sources[(step * kAtomsM + mi) * kPerAtom + i] = s;
        }
      }
    }
    return sources;
  }
  static constexpr auto kMap = map();
  // The chained K (P's column) of a lane's column slot (see a_fragments).
  HIPTILE_HOST_DEVICE static constexpr int column(int lane, int slot) {
    return slot / kPerAtom * Atom::kK + Atom::a_k(lane, slot % kPerAtom);
  }
  // Every lane finds its A element in the same register of its own accumulators.
  static constexpr bool lane_for_lane() {
    for (int step = 0; step < kSteps; ++step) {
      for (int mi = 0; mi < kAtomsM; ++mi) {
        for (int i = 0; i < kPerAtom; ++i) {
          Source const want = kMap[(step * kAtomsM + mi) * kPerAtom + i];
          if (want.fragment < 0) return false;
          for (int lane = 1; lane < kWaveSize; ++lane) {
            Source const s = find(lane, mi * Atom::kM + Atom::a_row(lane, i), step * Atom::kK + Atom::a_k(lane, i));
            if (s.fragment != want.fragment || s.reg != want.reg) return false;
          }
        }
      }
    }
    return true;
  }
  static_assert(lane_for_lane(),
                "the first product's accumulators are not the second's A operand lane for lane: on gfx9 compute the "
                "first product transposed (kTransposed, its wave MMA reading B's stage as A), on NVIDIA as it is");

  // a = op(P) of K-step Step: convert(value, row, k, slot) gives the consumer's element from the
  // producer's accumulator of P's row `row` (in the wave tile) and column k (the first epilogue:
  // scale, bias, activation, the type); slot = Step · kPerAtom + register numbers the lane's
  // columns, 0 .. kSteps · kPerAtom - 1 (column(lane, slot) is k). Every index is a template constant, so that the
  // accumulators are named registers, never an array in scratch memory.
  template <int Step, class Convert>
  HIPTILE_DEVICE HIPTILE_INLINE static void a_fragments(typename Consumer::FragmentsA& a,
                                                        typename Producer::Accumulators const& p,
                                                        Convert const& convert, int lane) {
    static_assert(Step >= 0 && Step < kSteps, "the chained K has kSteps steps");
    [&]<int... E>(std::integer_sequence<int, E...>) {
      (gather<Step, E / kPerAtom, E % kPerAtom>(a, p, convert, lane), ...);
    }(std::make_integer_sequence<int, kAtomsM * kPerAtom>{});
  }

 private:
  template <int Step, int Mi, int I, class Convert>
  HIPTILE_DEVICE HIPTILE_INLINE static void gather(typename Consumer::FragmentsA& a,
                                                   typename Producer::Accumulators const& p, Convert const& convert,
                                                   int lane) {
    constexpr Source s = kMap[(Step * kAtomsM + Mi) * kPerAtom + I];
    a[Mi][I] = convert(p[s.fragment][s.reg], Mi * Atom::kM + Atom::a_row(lane, I), column(lane, Step * kPerAtom + I),
                       Step * kPerAtom + I);
  }
};

}  // namespace hiptile::gemm::wave
