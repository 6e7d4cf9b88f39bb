#pragma once
// The simulator's runtime: how one kernel launch runs on the CPU.
// (Over 400 lines: the simulator's fibers, waves, barriers, memory checks and launch are one
// execution model whose parts call each other.)
//
// Every thread of a workgroup is a lane: a cooperative fiber (Boost.Context) that runs the kernel
// body natively until it reaches a workgroup barrier or a wave-collective instruction, where it
// suspends. Lanes are grouped into waves of 64 by linear thread id (x fastest), as on gfx942.
// A workgroup's lanes all run on one host thread; workgroups are spread over host threads.
//
// What the runtime checks, because hardware would hang or corrupt silently:
//   - every barrier must be reached by every thread of the workgroup;
//   - a wave-collective instruction needs all 64 lanes of its wave;
//   - LDS accesses made through the arch layer must fall inside the requested LDS size.
//   - a workgroup waiting for a flag in global memory (wait_until) must be waiting for something
//     another workgroup can still write: when every running workgroup waits, none can start (none
//     is left, or every host thread is taken), and nothing has moved for a second, the launch would
//     hang on hardware.
// Any violation ends the launch with a Status and a message naming kernel, workgroup and barrier.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/dim3.hpp"
#include "hiptile/sim/counters.hpp"
#include "hiptile/sim/device_limits.hpp"
#include "hiptile/sim/lds_bank_model.hpp"
#include "hiptile/sim/lds_race_detector.hpp"
#include "hiptile/sim/simulated_device.hpp"

#if defined(__SANITIZE_ADDRESS__)  // gcc and clang both define it under -fsanitize=address
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace hiptile::sim::detail {

// AddressSanitizer must be told about every stack switch, or it reports false errors on the lane
// stacks (compiler-rt's <sanitizer/common_interface_defs.h>: __sanitizer_start_switch_fiber and
// __sanitizer_finish_switch_fiber). These wrap that interface and do nothing without ASan.
struct StackBounds {
  void const* bottom = nullptr;
  std::size_t size = 0;
};

// Call just before switching to the stack `to`; `save` keeps the leaving context's fake stack
// (null when the leaving context ends for good).
inline void before_switch([[maybe_unused]] void** save, [[maybe_unused]] StackBounds to) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(save, to.bottom, to.size);
#endif
}

// Call first thing after arriving on a stack; `from` receives the bounds of the stack we came from.
inline void after_switch([[maybe_unused]] void* saved, [[maybe_unused]] StackBounds* from) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(saved, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
#endif
}

// Call on a stack given out again: a lane that ended left its frames' shadow behind (locals
// poisoned when their scope closed), which the next lane's frames at the same addresses would
// trip over (a false stack-use-after-scope report, seen intermittently in the sanitize tests).
inline void clear_stack_shadow([[maybe_unused]] boost::context::stack_context const& s) {
#if defined(__SANITIZE_ADDRESS__)
  ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(s.sp) - s.size, s.size);
#endif
}

}  // namespace hiptile::sim::detail

namespace hiptile::sim {

class Workgroup;
struct Wave;

// Thrown inside a lane to unwind its stack once the launch has failed.
struct LaunchAbort {};

enum class LaneState { kRunnable, kAtBarrier, kAtCollective, kDone };

struct Lane {
  Workgroup* group = nullptr;
  Wave* wave = nullptr;
  Dim3 thread_idx;
  int linear_id = 0;
  int lane_id = 0;  // position in its wave, 0..63
  LaneState state = LaneState::kRunnable;
  boost::context::fiber context;  // the lane, while suspended
  boost::context::fiber resumer;  // the scheduler, while the lane runs
  std::uint64_t lds_issued = 0;     // LDS instructions this lane has executed
  std::uint64_t global_issued = 0;  // global/buffer memory instructions likewise
  detail::StackBounds stack;           // for AddressSanitizer's stack-switch annotations
  void* fake_stack = nullptr;

  // Give control back to the scheduler until it resumes this lane.
  void suspend(LaneState why);
};

// One LDS wave-instruction whose lanes are still arriving.
struct PendingLds {
  LdsWaveAccess access;
  int arrived = 0;
};

struct Wave {
  int index = 0;
  int first_lane = 0;  // linear id of lane 0
  int size = 0;        // < 64 only for the last wave of a workgroup whose size is not a multiple
  int finished = 0;    // lanes that have returned from the kernel

  // The wave-collective instruction being gathered, if any.
  void const* collective_tag = nullptr;
  char const* collective_name = nullptr;
  int arrived = 0;
  std::array<void*, kWaveSize> slots{};

  // Instruction counting: the wave has issued instruction n once its first lane executed it.
  std::uint64_t lds_issued = 0;
  std::uint64_t global_issued = 0;
  std::deque<PendingLds> pending_lds;  // front holds instruction lds_issued - size() + 1

};

// The state shared by every workgroup of one launch.
struct LaunchState {
  Dim3 grid;
  Dim3 block;
  std::size_t lds_bytes = 0;
  std::string kernel_name;
  std::atomic<bool> failed{false};
  // Workgroups are started in linear order (next) by `host_threads` host threads; `running` have
  // started and not finished, `waiting` of them are inside wait_until. `progress` counts what can
  // end a wait: flag stores, waits ended, workgroups started and finished.
  unsigned long long groups = 0;
  std::atomic<unsigned long long> next{0};
  int host_threads = 1;
  std::atomic<int> running{0};
  std::atomic<int> waiting{0};
  std::atomic<std::uint64_t> progress{0};
  std::mutex error_mutex;
  Status status = Status::kSuccess;
  std::string message;

  void record_error(Status s, std::string text) {
    std::lock_guard lock(error_mutex);
    if (status == Status::kSuccess) {
      status = s;
      message = std::move(text);
    }
    failed = true;
  }
};

inline std::string to_string(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

namespace detail {
// The lane running on this host thread, or null outside a simulated kernel.
inline thread_local Lane* current_lane = nullptr;

// Reuses fiber stacks across the workgroups one host thread runs; each stack has a guard page.
class StackPool {
 public:
  explicit StackPool(std::size_t bytes) : make_(bytes) {}
  StackPool(StackPool const&) = delete;
  StackPool& operator=(StackPool const&) = delete;
  ~StackPool() {
    for (auto& s : free_) make_.deallocate(s);
  }
  boost::context::stack_context take() {
    if (free_.empty()) return make_.allocate();
    auto s = free_.back();
    free_.pop_back();
    clear_stack_shadow(s);
    return s;
  }
  void give(boost::context::stack_context s) { free_.push_back(s); }

 private:
  boost::context::protected_fixedsize_stack make_;
  std::vector<boost::context::stack_context> free_;
};

// The StackAllocator concept of Boost.Context, drawing from a StackPool.
struct PooledStack {
  StackPool* pool;
  StackBounds* bounds;  // where to record the stack given out
  boost::context::stack_context allocate() {
    boost::context::stack_context s = pool->take();
    *bounds = {static_cast<char const*>(s.sp) - s.size, s.size};
    return s;
  }
  void deallocate(boost::context::stack_context& s) { pool->give(s); }
};

inline int env_int(char const* name, int fallback) {
  char const* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  int const n = std::atoi(v);
  return n > 0 ? n : fallback;
}
}  // namespace detail

// Host threads that run workgroups: HIPTILE_SIM_THREADS, else every core.
inline std::atomic<int>& host_threads_setting() {
  static std::atomic<int> n{detail::env_int(
      "HIPTILE_SIM_THREADS", static_cast<int>(std::max(1u, std::thread::hardware_concurrency())))};
  return n;
}
inline void set_host_threads(int n) { host_threads_setting() = n > 0 ? n : 1; }
inline int host_threads() { return host_threads_setting(); }

// Bytes of stack per lane: HIPTILE_SIM_STACK_KIB, else 256 KiB (kernels keep whole register
// fragments on it; unoptimised and sanitizer builds need the room).
inline std::size_t lane_stack_bytes() {
  static std::size_t const bytes = std::size_t(detail::env_int("HIPTILE_SIM_STACK_KIB", 256)) * 1024;
  return bytes;
}

namespace detail {
// Stack pools outlive launches: each host thread of a launch borrows one and gives it back, so
// the next launch reuses stacks that are already mapped and touched. (A fresh pool per launch
// mapped and faulted in 256 stacks per host thread each time, which dominated small launches.)
class IdleStackPools {
 public:
  static IdleStackPools& instance() {
    static IdleStackPools pools;
    return pools;
  }
  std::unique_ptr<StackPool> borrow() {
    std::lock_guard lock(mutex_);
    if (idle_.empty()) return std::make_unique<StackPool>(lane_stack_bytes());
    std::unique_ptr<StackPool> pool = std::move(idle_.back());
    idle_.pop_back();
    return pool;
  }
  void give_back(std::unique_ptr<StackPool> pool) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(pool));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<StackPool>> idle_;
};

}  // namespace detail

inline Lane& this_lane() {
  Lane* lane = detail::current_lane;
  if (lane == nullptr) {
    // Device code called from plain host code: there is no thread to ask.
    std::fputs("hiptile::sim: a device function ran outside a simulated kernel launch\n", stderr);
    std::abort();
  }
  return *lane;
}

class Workgroup {
 public:
  Workgroup(LaunchState& launch, Counters& counters, detail::StackPool& stacks)
      : launch_(launch), counters_(counters), stacks_(stacks) {
    Dim3 const b = launch.block;
    int const threads = static_cast<int>(b.volume());
    lanes_.resize(threads);
    int const waves = (threads + kWaveSize - 1) / kWaveSize;
    waves_.resize(waves);
    for (int w = 0; w < waves; ++w) {
      waves_[w].index = w;
      waves_[w].first_lane = w * kWaveSize;
      waves_[w].size = std::min(kWaveSize, threads - w * kWaveSize);
    }
    for (int i = 0; i < threads; ++i) {
      Lane& lane = lanes_[i];
      lane.group = this;
      lane.wave = &waves_[i / kWaveSize];
      lane.linear_id = i;
      lane.lane_id = i % kWaveSize;
      lane.thread_idx = Dim3{unsigned(i % b.x), unsigned((i / b.x) % b.y), unsigned(i / (b.x * b.y))};
    }
    if (launch.lds_bytes > 0) lds_ = std::make_unique<std::byte[]>(launch.lds_bytes);
  }

  Dim3 block_idx() const { return block_idx_; }
  Dim3 block_dim() const { return launch_.block; }
  Dim3 grid_dim() const { return launch_.grid; }
  std::byte* lds() const { return lds_.get(); }
  std::size_t lds_bytes() const { return launch_.lds_bytes; }
  Counters& counters() { return counters_; }
  bool aborting() const { return aborting_; }

  // Run every thread of workgroup `block_idx` to completion. Returns false if the launch failed.
  template <class Body>
  bool run(Dim3 block_idx, Body const& body) {
    block_idx_ = block_idx;
    lds_races_.reset(launch_.lds_bytes);
    barrier_count_ = 0;
    at_barrier_ = 0;
    aborting_ = false;
    for (Wave& w : waves_) {
      w.finished = 0;
      w.arrived = 0;
      w.collective_tag = nullptr;
      w.lds_issued = 0;
      w.global_issued = 0;
      w.pending_lds.clear();
    }
    for (Lane& lane : lanes_) {
      lane.state = LaneState::kRunnable;
      lane.lds_issued = 0;
      lane.global_issued = 0;
      lane.context = boost::context::fiber(
          std::allocator_arg, detail::PooledStack{&stacks_, &lane.stack},
          [&lane, &body](boost::context::fiber&& scheduler) {
            detail::after_switch(nullptr, &lane.group->scheduler_stack);
            lane.resumer = std::move(scheduler);
            try {
              if (!lane.group->aborting()) body();
            } catch (LaunchAbort const&) {
            } catch (std::exception const& e) {
              lane.group->record_escape(lane, e.what());
            } catch (...) {
              lane.group->record_escape(lane, "unknown exception");
            }
            lane.group->finish(lane);
            detail::before_switch(nullptr, lane.group->scheduler_stack);
            return std::move(lane.resumer);
          });
    }
    schedule();
    for (Wave& w : waves_) flush_lds(w);
    ++counters_.workgroups;
    return !aborting_;
  }

  // Called by a lane at a workgroup barrier.
  void arrive_at_barrier(Lane& lane) {
    if (++at_barrier_ == static_cast<int>(lanes_.size())) {
      release_barrier();  // the last thread to arrive goes on without suspending
      return;
    }
    lane.suspend(LaneState::kAtBarrier);
  }

  // Called by a lane at a wave-collective instruction. `tag` identifies the instruction kind;
  // `compute` runs once, in the last lane to arrive, over the 64 lanes' slots.
  template <class Compute>
  void arrive_at_collective(Lane& lane, void const* tag, char const* name, void* slot, Compute&& compute) {
    Wave& w = *lane.wave;
    if (w.size != kWaveSize) {
      fail(Status::kErrorPartialWave,
           std::string(name) + " issued by wave " + std::to_string(w.index) + ", which has only " +
               std::to_string(w.size) + " threads (the workgroup size is not a multiple of 64)");
    }
    if (w.arrived == 0) {
      w.collective_tag = tag;
      w.collective_name = name;
    } else if (w.collective_tag != tag) {
      fail(Status::kErrorPartialWave, "lanes of wave " + std::to_string(w.index) + " issued " +
                                          std::string(w.collective_name) + " and " + name +
                                          " together (divergent wave-collective instructions)");
    }
    w.slots[lane.lane_id] = slot;
    if (++w.arrived == kWaveSize) {
      compute(w.slots);
      w.arrived = 0;
      w.collective_tag = nullptr;
      for (int i = 0; i < w.size; ++i) {
        Lane& other = lanes_[w.first_lane + i];
        if (&other != &lane) other.state = LaneState::kRunnable;
      }
      return;
    }
    lane.suspend(LaneState::kAtCollective);
  }

  // Called by a lane for each LDS access it makes through the arch layer (a store or a read).
  void record_lds_access(Lane& lane, void const* address, int bytes, bool store) {
    auto const* p = static_cast<std::byte const*>(address);
    if (lds_ == nullptr || p < lds_.get() || p + bytes > lds_.get() + launch_.lds_bytes) {
      std::ptrdiff_t const offset = lds_ ? p - lds_.get() : 0;
      fail(Status::kErrorOutOfBoundsAccess,
           "LDS access of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
               " by thread " + std::to_string(lane.linear_id) + " is outside the workgroup's " +
               std::to_string(launch_.lds_bytes) + " bytes of LDS");
    }
    Wave& w = *lane.wave;
    std::size_t const offset = static_cast<std::size_t>(p - lds_.get());
    if (std::string const earlier = lds_races_.access(offset, bytes, w.index, store); !earlier.empty()) {
      fail(Status::kErrorLdsRace, "thread " + std::to_string(lane.linear_id) + " (wave " + std::to_string(w.index) +
                                      (store ? ") stores " : ") reads ") + std::to_string(bytes) +
                                      " bytes at LDS byte " + std::to_string(offset) + " after " + earlier +
                                      " with no barrier between (hardware may order the two either way)");
    }
    std::uint64_t const seq = ++lane.lds_issued;
    if (seq > w.lds_issued) {
      w.lds_issued = seq;
      ++counters_.lds_instructions;
      ++counters_.wave_instructions;
      w.pending_lds.emplace_back();
      w.pending_lds.back().access.bytes_per_lane = bytes;
    }
    std::uint64_t const front_seq = w.lds_issued - w.pending_lds.size() + 1;
    if (seq < front_seq) return;  // that instruction was already retired at a barrier
    PendingLds& entry = w.pending_lds[seq - front_seq];
    entry.access.offset[lane.lane_id] = static_cast<std::uint32_t>(offset);
    entry.access.active_mask |= std::uint64_t(1) << lane.lane_id;
    ++entry.arrived;
    // Retired when every lane of the wave has executed it; instructions some lanes skipped are
    // retired at the next barrier or at the end of the workgroup.
    while (!w.pending_lds.empty() && w.pending_lds.front().arrived == w.size) retire_front(w);
  }

  // Called by a lane for each global or buffer memory instruction it executes.
  void record_global_access(Lane& lane, std::size_t bytes, bool write) {
    Wave& w = *lane.wave;
    if (++lane.global_issued > w.global_issued) {
      w.global_issued = lane.global_issued;
      ++counters_.global_instructions;
      ++counters_.wave_instructions;
    }
    (write ? counters_.global_bytes_written : counters_.global_bytes_read) += bytes;
  }

  // Called by a lane that waits for `done()` to become true through another workgroup's writes to
  // global memory. The whole host thread waits (no other lane of this workgroup runs meanwhile), as
  // a wave spinning on a flag does. Ends the launch when no other workgroup can ever end the wait:
  // every running one waits, none can start, and nothing has moved for a second (a waiter whose
  // flag is already set counts as waiting until it looks again).
  template <class Done>
  void wait_until(Lane& lane, char const* what, Done const& done) {
    if (done()) return;
    ++launch_.waiting;
    std::uint64_t seen = launch_.progress;
    auto still_since = std::chrono::steady_clock::now();
    for (;;) {
      bool const stuck = launch_.waiting == launch_.running &&
                         (launch_.next >= launch_.groups || launch_.running >= launch_.host_threads);
      std::uint64_t const progress = launch_.progress;
      if (done()) break;  // after reading the counts: a workgroup's writes precede its leaving
      auto const now = std::chrono::steady_clock::now();
      if (!stuck || progress != seen) {
        seen = progress;
        still_since = now;
      }
      if (launch_.failed || now - still_since > std::chrono::seconds(1)) {
        --launch_.waiting;
        if (launch_.failed) {
          aborting_ = true;
          throw LaunchAbort{};
        }
        fail(Status::kErrorDeadlock, "thread " + std::to_string(lane.linear_id) + " waits in " + what +
                                         " for a flag that no running or unstarted workgroup can set");
      }
      std::this_thread::yield();
    }
    --launch_.waiting;
    ++launch_.progress;
  }

  // Called after a store that may end another workgroup's wait.
  void note_progress() { ++launch_.progress; }

  // End the launch with an error, from inside a lane.
  [[noreturn]] void fail(Status s, std::string const& what) {
    launch_.record_error(s, describe() + ": " + what);
    aborting_ = true;
    throw LaunchAbort{};
  }

  void record_escape(Lane& lane, char const* what) {
    launch_.record_error(Status::kErrorInternal, describe() + ": thread " + std::to_string(lane.linear_id) +
                                                     " threw an exception: " + what);
    aborting_ = true;
  }

  void finish(Lane& lane) {
    lane.state = LaneState::kDone;
    ++lane.wave->finished;
  }

 private:
  std::string describe() const {
    return "kernel " + launch_.kernel_name + ", workgroup " + to_string(block_idx_) + ", after barrier " +
           std::to_string(barrier_count_);
  }

  void release_barrier() {
    ++barrier_count_;
    lds_races_.barrier();
    ++counters_.barriers;
    counters_.wave_instructions += waves_.size();
    at_barrier_ = 0;
    for (Wave& w : waves_) flush_lds(w);
    for (Lane& lane : lanes_) {
      if (lane.state == LaneState::kAtBarrier) lane.state = LaneState::kRunnable;
    }
  }

  void retire_front(Wave& w) {
    counters_.lds_conflict_cycles += lds_conflict_cycles(w.pending_lds.front().access);
    w.pending_lds.pop_front();
  }

  // Instructions some lanes skipped (divergent LDS access) are costed with the lanes that ran them.
  void flush_lds(Wave& w) {
    while (!w.pending_lds.empty()) retire_front(w);
  }

  void resume(Lane& lane) {
    detail::current_lane = &lane;
    void* fake_stack = nullptr;
    detail::before_switch(&fake_stack, lane.stack);
    lane.context = std::move(lane.context).resume();
    detail::after_switch(fake_stack, nullptr);
    detail::current_lane = nullptr;
  }

  void schedule() {
    int const total = static_cast<int>(lanes_.size());
    for (;;) {
      bool ran = false;
      for (Lane& lane : lanes_) {
        if (lane.state != LaneState::kRunnable) continue;
        if (launch_.failed && !aborting_) aborting_ = true;  // another workgroup failed
        resume(lane);
        ran = true;
        if (aborting_) return abandon();
      }
      if (!ran) break;
    }
    int done = 0;
    int at_collective = 0;
    for (Lane const& lane : lanes_) {
      done += lane.state == LaneState::kDone;
      at_collective += lane.state == LaneState::kAtCollective;
    }
    if (done == total) return;
    // Nothing can run, yet some threads wait: on hardware this launch would hang.
    diagnose_deadlock(done, at_collective);
    abandon();
  }

  void diagnose_deadlock(int done, int at_collective) {
    int const total = static_cast<int>(lanes_.size());
    std::string const where = describe() + ": ";
    if (at_collective > 0) {
      for (Wave const& w : waves_) {
        if (w.arrived == 0) continue;
        std::string const head = where + "wave " + std::to_string(w.index) + " issued " + w.collective_name +
                                 " with " + std::to_string(w.arrived) + " of 64 lanes";
        if (w.finished > 0) {
          launch_.record_error(Status::kErrorPartialWave,
                               head + "; " + std::to_string(w.finished) + " lanes had returned (partial wave)");
        } else {
          launch_.record_error(Status::kErrorDivergentBarrier,
                               head + "; the other lanes wait at barrier " + std::to_string(barrier_count_ + 1));
        }
        return;
      }
    }
    launch_.record_error(Status::kErrorDivergentBarrier,
                         where + "barrier " + std::to_string(barrier_count_ + 1) + " was reached by " +
                             std::to_string(at_barrier_) + " of " + std::to_string(total) + " threads; " +
                             std::to_string(done) + " returned without reaching it");
  }

  // Unwind every suspended lane so its stack is released.
  void abandon() {
    aborting_ = true;
    for (Lane& lane : lanes_) {
      if (lane.state != LaneState::kDone && lane.context) resume(lane);
    }
  }

  LaunchState& launch_;
  Counters& counters_;
  detail::StackPool& stacks_;
  std::vector<Lane> lanes_;
  std::vector<Wave> waves_;
  std::unique_ptr<std::byte[]> lds_;
  LdsRaceDetector lds_races_;
  Dim3 block_idx_;
  int barrier_count_ = 0;
  int at_barrier_ = 0;
  bool aborting_ = false;

 public:
  detail::StackBounds scheduler_stack;  // the host thread's stack, which lanes switch back to
};

inline void Lane::suspend(LaneState why) {
  state = why;
  detail::before_switch(&fake_stack, group->scheduler_stack);
  resumer = std::move(resumer).resume();
  detail::after_switch(fake_stack, nullptr);
  if (group->aborting()) throw LaunchAbort{};
}

// The message of the last failed launch made from this host thread.
inline std::string& last_error_message() {
  static thread_local std::string message;
  return message;
}

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  std::size_t lds_bytes = 0;
};

// Run `body` once per thread of the grid; each call sees its own thread and block indices.
// Launches are synchronous. Counters of the launch are added to `counters`.
template <class Body>
Status launch(LaunchShape const& shape, std::string_view kernel_name, Body const& body, Counters& counters) {
  std::string& message = last_error_message();
  message.clear();
  auto reject = [&](Status s, std::string text) {
    message = "kernel " + std::string(kernel_name) + ": " + std::move(text);
    return s;
  };
  if (shape.grid.volume() == 0 || shape.block.volume() == 0) {
    return reject(Status::kErrorInvalidLaunch,
                  "empty grid " + to_string(shape.grid) + " or workgroup " + to_string(shape.block));
  }
  if (shape.block.volume() > kMaxThreadsPerWorkgroup) {
    return reject(Status::kErrorInvalidLaunch, "workgroup " + to_string(shape.block) + " has more than " +
                                                   std::to_string(kMaxThreadsPerWorkgroup) + " threads");
  }
  if (shape.lds_bytes > kMaxLdsBytesPerWorkgroup) {
    return reject(Status::kErrorLdsOverflow, "requests " + std::to_string(shape.lds_bytes) +
                                                 " bytes of LDS; a gfx942 workgroup has at most " +
                                                 std::to_string(kMaxLdsBytesPerWorkgroup));
  }

  LaunchState state;
  state.grid = shape.grid;
  state.block = shape.block;
  state.lds_bytes = shape.lds_bytes;
  state.kernel_name = std::string(kernel_name);

  unsigned long long const groups = shape.grid.volume();
  state.groups = groups;
  std::mutex counters_mutex;
  auto worker = [&] {
    Counters local;
    std::unique_ptr<detail::StackPool> stacks = detail::IdleStackPools::instance().borrow();
    {
      Workgroup group(state, local, *stacks);
      for (;;) {
        ++state.running;  // before taking a workgroup, so a waiter never sees it neither started nor running
        ++state.progress;
        unsigned long long const g = state.next++;
        if (g >= groups || state.failed) {
          --state.running;
          break;
        }
        Dim3 const idx{unsigned(g % shape.grid.x), unsigned((g / shape.grid.x) % shape.grid.y),
                       unsigned(g / (std::uint64_t(shape.grid.x) * shape.grid.y))};
        bool const good = group.run(idx, body);
        --state.running;
        ++state.progress;
        if (!good) break;
      }
    }
    detail::IdleStackPools::instance().give_back(std::move(stacks));
    std::lock_guard lock(counters_mutex);
    counters += local;
  };
  int const threads = static_cast<int>(std::min<unsigned long long>(host_threads(), groups));
  state.host_threads = threads;
  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  if (state.status != Status::kSuccess) message = state.message;
  return state.status;
}

}  // namespace hiptile::sim
