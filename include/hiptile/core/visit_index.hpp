#pragma once
// visit_index<N>(i, f): f.template operator()<i>() for a run-time index i < N, the Status it returns
// (kErrorInternal for an i out of range). How an operator that holds several compile-time
// configurations calls the one it chose.
#include <utility>

#include "hiptile/core/status.hpp"

namespace hiptile {

template <int N, class F>
Status visit_index(int i, F&& f) {
  Status s = Status::kErrorInternal;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (void)((I == i ? (s = f.template operator()<I>(), true) : false) || ...);
  }(std::make_integer_sequence<int, N>{});
  return s;
}

}  // namespace hiptile
