#pragma once
// A simulated stream. Launches on it run synchronously; it keeps the counters of every launch
// made on it, so a test or benchmark can read what a kernel did (counters(), reset_counters()).
#include <string>

#include "hiptile/sim/counters.hpp"

namespace hiptile::sim {

struct StreamState {
  Counters counters;
};

// The stream a null Stream handle stands for.
inline StreamState& default_stream() {
  static StreamState state;
  return state;
}

inline StreamState& resolve(StreamState* stream) { return stream ? *stream : default_stream(); }

inline Counters const& counters(StreamState* stream = nullptr) { return resolve(stream).counters; }
inline void reset_counters(StreamState* stream = nullptr) { resolve(stream).counters = Counters{}; }

}  // namespace hiptile::sim
