#pragma once
// LdsRaceDetector: finds the LDS accesses of one workgroup that hardware may order either way.
//
// Waves run independently between barriers; only a barrier orders one wave's LDS accesses before
// another's. So two accesses to the same 4-byte word by different waves within one barrier
// interval, at least one a store, race: hardware may run them in either order. The simulator's
// lanes take turns in a fixed order (a wave reaches its next wave-collective instruction before
// the next wave starts), which can hide such a race from the results (a wave that reads a whole
// stage into registers before its first MFMA is never overtaken by a store it races with). This
// detector does not depend on that order: it reports the second access of every racing pair.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hiptile::sim {

class LdsRaceDetector {
 public:
  // For a workgroup's `bytes` of LDS, before its first access.
  void reset(std::size_t bytes) {
    words_.assign((bytes + 3) / 4, Word{});
    interval_ = 1;
  }

  // A barrier released every wave: what came before is ordered before what comes after.
  void barrier() { ++interval_; }

  // Wave `wave` (0..63) reads or stores `bytes` at byte `offset`. Returns "" or, for a race, what
  // the earlier access was.
  std::string access(std::size_t offset, int bytes, int wave, bool store) {
    std::uint64_t const bit = std::uint64_t{1} << wave;
    for (std::size_t w = offset / 4; w < (offset + std::size_t(bytes) + 3) / 4; ++w) {
      Word& word = words_[w];
      if (word.store_interval == interval_ && word.store_wave != wave) {
        return "a store by wave " + std::to_string(word.store_wave) + " to byte " + std::to_string(4 * w);
      }
      if (word.read_interval != interval_) {
        word.read_interval = interval_;
        word.readers = 0;
      }
      if (store) {
        if ((word.readers & ~bit) != 0) {
          return "a read by wave " + std::to_string(std::countr_zero(word.readers & ~bit)) + " of byte " +
                 std::to_string(4 * w);
        }
        word.store_interval = interval_;
        word.store_wave = wave;
      } else {
        word.readers |= bit;
      }
    }
    return "";
  }

 private:
  struct Word {
    std::uint32_t store_interval = 0;  // the barrier interval of the last store, 0 for none
    std::uint32_t read_interval = 0;   // the interval `readers` belongs to
    std::uint64_t readers = 0;         // waves that read the word in read_interval
    int store_wave = -1;
  };

  std::vector<Word> words_;
  std::uint32_t interval_ = 1;
};

}  // namespace hiptile::sim
