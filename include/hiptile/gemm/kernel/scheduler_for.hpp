#pragma once
// SchedulerFor: the tile scheduler (tile_scheduler.hpp) of a K decomposition — what a device
// operator's SplitKMode parameter selects. kBatched: whether grid rows are sub-problems (not for
// stream-K, which shares the tiles of one problem).
#include <type_traits>

#include "hiptile/gemm/kernel/data_parallel_scheduler.hpp"
#include "hiptile/gemm/kernel/persistent_scheduler.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/split_k_scheduler.hpp"
#include "hiptile/gemm/kernel/stream_k_scheduler.hpp"

namespace hiptile::gemm::kernel {

namespace detail {
template <SplitKMode Mode, class TileOrder, class Accumulators, int Threads, bool kBatched>
struct SchedulerOf : std::type_identity<SplitKScheduler<TileOrder, Mode, Accumulators, Threads>> {};
template <class TileOrder, class Accumulators, int Threads, bool kBatched>
struct SchedulerOf<SplitKMode::kNone, TileOrder, Accumulators, Threads, kBatched>
    : std::type_identity<DataParallelScheduler<TileOrder, kBatched>> {};
template <class TileOrder, class Accumulators, int Threads, bool kBatched>
struct SchedulerOf<SplitKMode::kStreamK, TileOrder, Accumulators, Threads, kBatched>
    : std::type_identity<StreamKScheduler<TileOrder, Accumulators, Threads>> {};
template <class TileOrder, class Accumulators, int Threads, bool kBatched>
struct SchedulerOf<SplitKMode::kPersistent, TileOrder, Accumulators, Threads, kBatched>
    : std::type_identity<PersistentScheduler<TileOrder>> {};
}  // namespace detail

template <SplitKMode Mode, class TileOrder, class Accumulators, int Threads, bool kBatched>
using SchedulerFor = typename detail::SchedulerOf<Mode, TileOrder, Accumulators, Threads, kBatched>::type;

}  // namespace hiptile::gemm::kernel
