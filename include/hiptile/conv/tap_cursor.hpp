#pragma once
// TapCursor: where a precomputed loader's next K tile is in the taps-innermost K order
// (conv_geometry.hpp) — its tap in each dimension and its first channel — kept by counting, so the
// steady-state K loop divides nothing. Tiles come in order (the mainloop's contract); only the first
// tile of a split-K slice that does not start at 0 is found by division.
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::conv {

template <int TileK>
class TapCursor {
 public:
  TapCursor() = default;
  // Taps per dimension: the filter's (Fprop) or the row class's (Dgrad).
  HIPTILE_DEVICE HIPTILE_INLINE TapCursor(int taps_d, int taps_h, int taps_w)
      : extent_{taps_d, taps_h, taps_w}, taps_(taps_d * taps_h * taps_w) {}

  // Positions the cursor at K tile kt (a no-op when kt follows the last tile visited).
  HIPTILE_DEVICE HIPTILE_INLINE void go_to(int kt) {
    if (__builtin_expect(kt != next_, 0)) {  // out of the steady-state loop
      int const t = kt % taps_;
      channel0_ = (kt / taps_) * TileK;
      tap_[2] = t % extent_[2];
      tap_[1] = (t / extent_[2]) % extent_[1];
      tap_[0] = t / (extent_[2] * extent_[1]);
    }
    next_ = kt + 1;
  }

  // The next tile: W fastest, then H, then D, then the next channel block.
  HIPTILE_DEVICE HIPTILE_INLINE void step() {
    if (++tap_[2] == extent_[2]) {
      tap_[2] = 0;
      if (++tap_[1] == extent_[1]) {
        tap_[1] = 0;
        if (++tap_[0] == extent_[0]) {
          tap_[0] = 0;
          channel0_ += TileK;
        }
      }
    }
  }

  HIPTILE_DEVICE HIPTILE_INLINE int tap(int i) const { return tap_[i]; }
  HIPTILE_DEVICE HIPTILE_INLINE int channel0() const { return channel0_; }

 private:
  int extent_[3] = {1, 1, 1};
  int taps_ = 1;
  int tap_[3] = {0, 0, 0};
  int channel0_ = 0;
  int next_ = 0;
};

}  // namespace hiptile::conv
