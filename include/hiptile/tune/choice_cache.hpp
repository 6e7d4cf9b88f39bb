#pragma once
// ChoiceCache: the choices an operator already made in this process, by problem key, so that a
// repeated call costs a hash lookup under a shared lock (docs/tuning.md has the measured cost)
// instead of the heuristic's device queries, a database read or a timing run.
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>

namespace hiptile::tune {

// A problem key: the integers that decide a choice (find mode, device, extents, leading dimensions,
// alignments, settings), compared whole.
template <std::size_t N>
using CacheKey = std::array<std::int64_t, N>;

struct CacheKeyHash {
  template <std::size_t N>
  std::size_t operator()(CacheKey<N> const& key) const noexcept {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the words
    for (std::int64_t v : key) {
      h ^= std::uint64_t(v);
      h *= 1099511628211ull;
    }
    return std::size_t(h ^ (h >> 29));
  }
};

template <std::size_t N, class Choice>
class ChoiceCache {
 public:
  std::optional<Choice> find(CacheKey<N> const& key) const {
    std::shared_lock lock(mutex_);
    auto const it = choices_.find(key);
    if (it == choices_.end()) return std::nullopt;
    return it->second;
  }
  void insert(CacheKey<N> const& key, Choice const& choice) {
    std::unique_lock lock(mutex_);
    choices_.insert_or_assign(key, choice);
  }
  void clear() {
    std::unique_lock lock(mutex_);
    choices_.clear();
  }
  std::size_t size() const {
    std::shared_lock lock(mutex_);
    return choices_.size();
  }

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<CacheKey<N>, Choice, CacheKeyHash> choices_;
};

}  // namespace hiptile::tune
