#pragma once
// TunedOperator: an operator over a list of compile-time configurations (the candidates: one
// (Over 400 lines: find mode's four modes, the tuning database's reading and writing and the
// timed search are one state machine over one cache; apart they would share every member.)
// operation with the same element types, layouts and output functor) that picks one per problem
// at run time, as find mode says (find_mode.hpp), and remembers the pick. TunedGemm
// (tuned_gemm.hpp) and TunedConvolution (tuned_convolution.hpp) are its two uses; an Operation
// policy (GemmTuning, ConvolutionTuning, beside them) says what is particular to each: the
// problem's key and text, the heuristic, where the output goes, the MI300 timing model's
// prediction.
//
//   Tuned op;                                  // or Tuned op({.mode = FindMode::kHybrid});
//   args.workspace_bytes = op.get_workspace_size(args);   // chooses (and may time) here
//   args.workspace = ...;
//   op.initialize(args, stream); op.run(stream);
//   std::cout << op.choice();                  // which candidate, how it was chosen, its time
//
// For a problem this process has not seen (the key: find mode, device, and the policy's words:
// extents, leading dimensions, pointer alignments, split-K settings, ...):
//   1. the candidates whose can_implement accepts the problem (the workspace aside) are eligible;
//   2. heuristic: the policy's documented rule;
//      db: the database's winner if it names an eligible candidate, else the heuristic;
//      hybrid: the same, but on a miss every eligible candidate is timed and the fastest stored;
//      search: every eligible candidate is timed and the fastest stored, whatever the database says;
//      (hybrid and search time nothing when one candidate, with one slice count, is eligible: it runs)
//   3. the pick is kept in the process's cache, so the next call with the same key costs a lookup.
// The workspace the arguments give is an input to the choice (none counts as 0 bytes): when the
// candidate chosen as above needs more, the operator runs the best one that fits instead — the
// fastest timed one that fits where candidates were timed, else the heuristic's pick among those
// that fit — and logs a hint (category hints) naming the size that would run the first and its
// measured or predicted gain. get_workspace_size(args) is the first choice's need, whatever the
// arguments give. Only when no candidate fits is the problem refused, with the first choice's
// workspace Status.
// Timing runs each eligible candidate (a split-K candidate with 2, 4, ..., 64 slices, or the
// arguments' slices) on the device with events, all of them interleaved (tune/interleaved_timing.hpp:
// `warmup` runs each, then `repetitions` rounds of a batch of every candidate, the median of its
// batches counting), writing the output to a scratch buffer (the caller's output is not touched;
// C, when read, is read). In the simulator there is no device clock: the MI300 timing model's predicted time on
// the simulated device stands in (sim/timing_model.hpp); a candidate it has no timing for is not
// timed, and when none is, the heuristic decides, as the log says.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "hiptile/core/byte_range.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/core/visit_index.hpp"
#include "hiptile/gemm/device/selecting_operator.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/device_memory.hpp"
#include "hiptile/platform/event_timer.hpp"
#include "hiptile/platform/stream.hpp"
#include "hiptile/tune/choice_cache.hpp"
#include "hiptile/tune/find_mode.hpp"
#include "hiptile/tune/interleaved_timing.hpp"
#include "hiptile/tune/model_timing.hpp"
#include "hiptile/tune/tuning_database.hpp"
#include "hiptile/version.hpp"

namespace hiptile::tune {

// Settings of one tuned operator; what is unset comes from the environment.
struct TuningOptions {
  std::optional<FindMode> mode;         // unset: HIPTILE_FIND_MODE, else db
  std::optional<std::string> database;  // unset: default_database_path(); empty: no database
  // Device timing (tune/interleaved_timing.hpp): warm-up runs per candidate (their time discarded),
  // then rounds of one batch of every candidate, interleaved (the median of a candidate's batches
  // counts); a batch is as many runs as last min_batch_microseconds, at most max_batch_runs.
  int warmup = 3;
  int repetitions = 10;  // rounds
  double min_batch_microseconds = 200;
  int max_batch_runs = 200;
};

enum class ChoiceSource { kHeuristic, kDatabase, kTimed };

constexpr char const* to_string(ChoiceSource s) noexcept {
  switch (s) {
    case ChoiceSource::kHeuristic:
      return "heuristic";
    case ChoiceSource::kDatabase:
      return "tuning database";
    case ChoiceSource::kTimed:
      return "timing";
  }
  return "unknown";
}

struct TunedChoice {
  int candidate = -1;
  std::string name;  // the candidate's configuration name
  int split_k_slices = 1;
  ChoiceSource source = ChoiceSource::kHeuristic;
  FindMode mode = kDefaultFindMode;
  double microseconds = 0;   // timed or from the database: the winner's time; 0 for the heuristic
  bool predicted = false;    // the time is the MI300 timing model's (simulator), not a measurement
  std::string reason;        // the heuristic's rule, when it chose
  int timed_candidates = 0;  // how many (candidate, slices) pairs were timed
  bool cached = false;       // this process had chosen it before
  // When the arguments' workspace was too small for the candidate chosen first: that candidate, the
  // bytes it needs and its time (measured, or predicted by the MI300 timing model; 0 when neither)
  // beside this choice's; -1 otherwise.
  int preferred = -1;
  std::size_t preferred_workspace_bytes = 0;
  double preferred_microseconds = 0;
};

inline std::ostream& operator<<(std::ostream& os, TunedChoice const& c) {
  if (c.candidate < 0) return os << "no candidate";
  os << "candidate " << c.candidate << " (" << c.name << ")";
  if (c.split_k_slices > 1) os << " over " << c.split_k_slices << " K slices";
  os << ", by " << to_string(c.source) << " in find mode " << to_string(c.mode);
  if (c.source == ChoiceSource::kHeuristic) os << ": " << c.reason;
  if (c.source != ChoiceSource::kHeuristic) {
    os << ", " << c.microseconds << (c.predicted ? " us predicted by the MI300 timing model" : " us");
  }
  if (c.timed_candidates > 0) {
    os << " (fastest of " << c.timed_candidates << " timed" << (c.preferred >= 0 ? " that fits the workspace)" : ")");
  }
  if (c.cached) os << " [cached]";
  if (c.preferred >= 0) {
    os << "; candidate " << c.preferred << " would run with " << c.preferred_workspace_bytes << " bytes of workspace";
  }
  return os;
}

namespace detail {
// The largest power of two up to 16 that divides the address (0 for null): what decides vector widths.
inline int alignment(void const* p) noexcept {
  if (p == nullptr) return 0;
  auto const a = reinterpret_cast<std::uintptr_t>(p);
  int bytes = 1;
  while (bytes < 16 && a % std::uintptr_t(2 * bytes) == 0) bytes *= 2;
  return bytes;
}

}  // namespace detail

// What the heuristic picked: a candidate, its K slices and the rule's words.
struct HeuristicPick {
  int candidate = -1;
  int split_k_slices = 1;
  std::string reason;
};

template <class Operation>
class TunedOperator {
 public:
  using Arguments = typename Operation::Arguments;
  using CandidateList = typename Operation::CandidateList;
  static constexpr int kCandidates = int(std::tuple_size_v<CandidateList>);
  static_assert(kCandidates <= 64, "at most 64 candidates: the choice excludes candidates by the bits of a 64-bit mask");
  template <int I>
  using Candidate = std::tuple_element_t<I, CandidateList>;
  // The K slices a split-K candidate is timed with when the arguments leave them to the tuner. Up
  // to 64: a Wgrad over 100,352 pixels into a 64 × 576 filter gradient (5 tiles) wants about 50
  // (docs/performance.md); counts a candidate cannot take are not eligible.
  static constexpr std::array<int, 6> kTimedSlices{2, 4, 8, 16, 32, 64};

  explicit TunedOperator(TuningOptions options = {})
      : options_(std::move(options)),
        database_key_(options_.database ? std::int64_t(std::hash<std::string>{}(*options_.database)) : -1) {}

  static std::string candidate_name(int i) {
    static std::vector<std::string> const names = [] {
      std::vector<std::string> all;
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (all.push_back(Operation::template configuration_name<Candidate<I>>()), ...);
      }
      (std::make_integer_sequence<int, kCandidates>{});
      return all;
    }();
    return i >= 0 && i < kCandidates ? names[std::size_t(i)] : std::string();
  }

  // The candidate list's identity in the tuning database: a hash of the operation's name (its output functor
  // included) and the candidates' names, so that another list (or order) never reads this one's winners.
  static std::string candidate_list_id() {
    static std::string const id = [] {
      std::string all = Operation::list_name();
      for (int i = 0; i < kCandidates; ++i) all += "|" + candidate_name(i);
      std::uint64_t h = 1469598103934665603ull;  // FNV-1a
      for (unsigned char ch : all) {
        h ^= ch;
        h *= 1099511628211ull;
      }
      char text[17];
      std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
      return std::string(text);
    }();
    return id;
  }

  // The problem's text in the database: what the key holds, the device aside.
  static std::string problem_key_text(Arguments const& args) { return Operation::problem_text(args); }

  FindMode mode() const { return options_.mode ? *options_.mode : find_mode_from_environment(); }
  std::string database_path() const { return options_.database ? *options_.database : default_database_path(); }

  // The choice for these arguments within their workspace: the first choice (the cache's, or made
  // now as the find mode says, and cached) if it fits, else the best that fits (top of this file).
  Status select(Arguments const& args, TunedChoice& choice, Stream stream = nullptr) const noexcept {
    return guarded([&] { return select_or_throw(args, choice, stream, true, false); });
  }
  // The first choice, whatever workspace the arguments give.
  Status select_preferred(Arguments const& args, TunedChoice& choice, Stream stream = nullptr) const noexcept {
    return guarded([&] { return select_or_throw(args, choice, stream, false, false); });
  }

  // The first choice's workspace for these arguments, whatever they give: with that many bytes the
  // best choice runs (0 when no candidate takes them).
  std::size_t get_workspace_size(Arguments const& args, Stream stream = nullptr) const noexcept {
    std::size_t bytes = 0;
    return ok(get_workspace_size(args, bytes, stream)) ? bytes : 0;
  }
  // The same, with the choice's Status: why no candidate takes the arguments (`bytes` is then 0),
  // where the one-argument form's 0 cannot tell "none needed" from "refused".
  Status get_workspace_size(Arguments const& args, std::size_t& bytes, Stream stream = nullptr) const noexcept {
    bytes = 0;
    TunedChoice choice;
    if (Status const s = select_preferred(args, choice, stream); !ok(s)) return s;
    bytes = workspace_of(args, choice.candidate, choice.split_k_slices);
    return Status::kSuccess;
  }

  // Chooses (see the top of this file), then initialises the chosen candidate with the arguments (its K slices
  // set). On failure the operator is uninitialised.
  Status initialize(Arguments const& args, Stream stream = nullptr) noexcept {
    chosen_ = false;
    TunedChoice choice;
    if (Status const s = guarded([&] { return select_or_throw(args, choice, stream, true, true); }); !ok(s)) return s;
    Arguments const a = Operation::with_slices(args, choice.split_k_slices);
    if (Status const s =
            visit_index<kCandidates>(choice.candidate, [&]<int I>() { return std::get<I>(operators_).initialize(a); });
        !ok(s)) {
      return s;
    }
    choice_ = std::move(choice);
    chosen_ = true;
    return Status::kSuccess;
  }

  Status run(Stream stream = nullptr) const noexcept {
    if (!chosen_) return Status::kErrorNotInitialized;
    return visit_index<kCandidates>(choice_.candidate, [&]<int I>() { return std::get<I>(operators_).run(stream); });
  }

  Status operator()(Arguments const& args, Stream stream = nullptr) noexcept {
    Status const s = initialize(args, stream);
    return ok(s) ? run(stream) : s;
  }

  TunedChoice const& choice() const noexcept { return choice_; }
  bool initialized() const noexcept { return chosen_; }
  template <int I>
  Candidate<I> const& candidate() const noexcept {
    return std::get<I>(operators_);
  }

  // Forgets every choice this process made for this candidate list (the database is untouched).
  static void clear_cache() { cache().clear(); }

 private:
  static constexpr std::size_t kKeyWords = Operation::kKeyWords + 3;  // + find mode, device, database
  using Key = CacheKey<kKeyWords>;

  // What the cache keeps of a problem: the first choice, and every (candidate, slices) timed for it
  // with its time, fastest first (empty unless timed), from which a smaller workspace picks.
  struct Timed {
    int candidate = -1;
    int split_k_slices = 1;
    double seconds = 0;
  };
  struct Entry {
    TunedChoice choice;
    std::vector<Timed> timed;
  };
  static ChoiceCache<kKeyWords, Entry>& cache() {
    static ChoiceCache<kKeyWords, Entry> c;
    return c;
  }

  template <class F>
  static Status guarded(F&& f) noexcept {
    try {
      return f();
    } catch (...) {  // (memory for keys and names; a tuning run never throws)
      return Status::kErrorMemoryAllocation;
    }
  }

  // Bytes of workspace candidate i needs with these slices, and whether the arguments give them.
  static std::size_t workspace_of(Arguments const& args, int i, int slices) noexcept {
    std::size_t bytes = 0;
    Arguments const chosen = Operation::with_slices(args, slices);
    visit_index<kCandidates>(i, [&]<int I>() {
      bytes = Candidate<I>::get_workspace_size(chosen);
      return Status::kSuccess;
    });
    return bytes;
  }
  static std::size_t given_bytes(Arguments const& args) noexcept {
    return args.workspace == nullptr ? 0 : args.workspace_bytes;
  }

  Key key_of(Arguments const& a, FindMode mode, DeviceInfo const* device) const noexcept {
    Key key{};
    auto const words = Operation::key_words(a);
    key[0] = std::int64_t(mode);
    key[1] = std::int64_t(reinterpret_cast<std::uintptr_t>(device));  // one per device reading
    key[2] = database_key_;  // operators with other databases may have other winners
    std::copy(words.begin(), words.end(), key.begin() + 3);
    return key;
  }

  template <int I>
  static bool eligible(Arguments const& args, int slices) noexcept {
    return gemm::device::takes_problem<Candidate<I>>(args, slices);
  }

  // How many (candidate, K slices) pairs timing would run.
  static int eligible_pairs(Arguments const& args, HeuristicPick const& rule) {
    int pairs = 0;
    [&]<int... I>(std::integer_sequence<int, I...>) {
      ((pairs += count_eligible<I>(args, rule)), ...);
    }(std::make_integer_sequence<int, kCandidates>{});
    return pairs;
  }
  template <int I>
  static int count_eligible(Arguments const& args, HeuristicPick const& rule) {
    int n = 0;
    for (int slices : slices_to_time<I>(args, rule)) n += eligible<I>(args, slices) ? 1 : 0;
    return n;
  }

  // The slice counts candidate I is timed with: the arguments' own, or (a split-K candidate left
  // to choose) kTimedSlices and the heuristic's count where it picks this candidate (`rule`) with
  // another (a depthwise Wgrad's slices for the device's slots, often hundreds), so that search
  // never loses to the rule it could have timed.
  template <int I>
  static std::vector<int> slices_to_time(Arguments const& args, HeuristicPick const& rule) {
    using C = Candidate<I>;
    if (!gemm::kernel::splits_k(C::kSplitK) || args.split_k_slices > 1) {
      return {args.split_k_slices};
    }
    std::vector<int> slices(kTimedSlices.begin(), kTimedSlices.end());
    if (rule.candidate == I && rule.split_k_slices > 1 &&
        std::find(slices.begin(), slices.end(), rule.split_k_slices) == slices.end()) {
      slices.push_back(rule.split_k_slices);
    }
    return slices;
  }

  // (hint: log the workspace hint when the choice falls back: initialize() does, select() not.)
  Status select_or_throw(Arguments const& args, TunedChoice& choice, Stream stream, bool within_workspace,
                         bool hint) const {
    DeviceInfo const* device = nullptr;
    if (Status const q = current_device_info(device); !ok(q)) return q;
    FindMode const m = mode();
    Key const key = key_of(args, m, device);
    Entry entry;
    if (std::optional<Entry> hit = cache().find(key)) {
      entry = std::move(*hit);
      entry.choice.cached = true;
    } else {
      if (Status const s = choose(args, *device, m, stream, entry); !ok(s)) return s;
      cache().insert(key, entry);
    }
    std::size_t const need = workspace_of(args, entry.choice.candidate, entry.choice.split_k_slices);
    if (!within_workspace || need <= given_bytes(args)) {
      choice = std::move(entry.choice);
      return Status::kSuccess;
    }
    return fit_workspace(args, *device, entry, need, hint, choice);
  }

  // The first choice for a problem not in the cache, as the find mode says.
  Status choose(Arguments const& args, DeviceInfo const& device, FindMode m, Stream stream, Entry& entry) const {
    TunedChoice& c = entry.choice;
    c.mode = m;
    std::string const path = m == FindMode::kHeuristic ? std::string() : database_path();
    std::optional<TuningKey> db_key;  // (built only where a database is used: the heuristic's first call stays cheap)
    if (!path.empty()) {
      db_key = TuningKey{device.name, device.compute_units, kVersion, candidate_list_id(), problem_key_text(args)};
    }
    bool found = false;
    if ((m == FindMode::kDatabase || m == FindMode::kHybrid) && db_key) {
      found = from_database(args, database_at(path).find(*db_key), c);
    }
    // The heuristic's pick: its slice count is among those timed, and it decides what is not timed.
    HeuristicPick rule;
    Status const rule_status = found ? Status::kSuccess : Operation::heuristic(args, rule);
    // Nothing to rank when one candidate, with one slice count, takes the problem: it runs untimed.
    bool const searching = !found && (m == FindMode::kHybrid || m == FindMode::kSearch);
    bool const untimed = searching && eligible_pairs(args, rule) == 1;
    if (searching && !untimed) {
      found = timed(args, device, stream, rule, entry);
      if (found && db_key) {
        database_at(path).store({*db_key, candidate_name(c.candidate), c.split_k_slices, c.microseconds});
      }
    }
    if (!found) {
      if (!ok(rule_status)) return rule_status;
      c.candidate = rule.candidate;
      c.split_k_slices = rule.split_k_slices;
      c.reason = untimed ? "the only candidate that takes the problem, not timed" : std::move(rule.reason);
      c.source = ChoiceSource::kHeuristic;
    }
    c.name = candidate_name(c.candidate);
    logging::write(logging::Category::kInfo, [&](std::ostream& os) {
      os << Operation::kName << " chose " << c << " among " << kCandidates << " for " << problem_key_text(args)
         << " on " << device.name;
      if (!path.empty()) os << " (tuning database " << path << ")";
    });
    return Status::kSuccess;
  }

  // The best choice that fits the arguments' workspace when the first (entry's) needs `need` bytes
  // more than they give: the fastest timed pair that fits, else the heuristic's pick among the
  // candidates that fit; the first choice's workspace Status when none does.
  Status fit_workspace(Arguments const& args, DeviceInfo const& device, Entry const& entry, std::size_t need,
                       bool hint, TunedChoice& choice) const {
    TunedChoice const& first = entry.choice;
    TunedChoice fit;
    fit.mode = first.mode;
    fit.timed_candidates = first.timed_candidates;
    for (Timed const& t : entry.timed) {
      if (workspace_of(args, t.candidate, t.split_k_slices) > given_bytes(args)) continue;
      fit.candidate = t.candidate;
      fit.split_k_slices = t.split_k_slices;
      fit.source = ChoiceSource::kTimed;
      fit.microseconds = t.seconds * 1e6;
      fit.predicted = first.predicted;
      break;
    }
    std::uint64_t excluded = 0;
    for (int tries = 0; fit.candidate == -1 && kCandidates > tries; ++tries) {
      HeuristicPick pick;
      if (!ok(Operation::heuristic(args, pick, excluded)) || pick.candidate < 0) break;
      if (workspace_of(args, pick.candidate, pick.split_k_slices) <= given_bytes(args)) {
        fit.candidate = pick.candidate;
        fit.split_k_slices = pick.split_k_slices;
        fit.reason = std::move(pick.reason);
        fit.source = ChoiceSource::kHeuristic;
      }
      excluded |= std::uint64_t{1} << pick.candidate;
    }
    if (fit.candidate < 0) {  // the first choice's own verdict on the workspace given
      Arguments const a = Operation::with_slices(args, first.split_k_slices);
      return visit_index<kCandidates>(first.candidate, [&]<int I>() { return Candidate<I>::can_implement(a); });
    }
    fit.name = candidate_name(fit.candidate);
    fit.cached = first.cached;
    fit.preferred = first.candidate;
    fit.preferred_workspace_bytes = need;
    fit.preferred_microseconds = first.source == ChoiceSource::kHeuristic ? 0.0 : first.microseconds;
    double fit_microseconds = fit.source == ChoiceSource::kTimed ? fit.microseconds : 0.0;
    if (fit.preferred_microseconds == 0 || fit_microseconds == 0) {  // the timing model's, where it has them
      std::optional<double> const a = predicted(args, device, first.candidate, first.split_k_slices);
      std::optional<double> const b = predicted(args, device, fit.candidate, fit.split_k_slices);
      if (a && b) fit.preferred_microseconds = *a * 1e6, fit_microseconds = *b * 1e6;
    }
    if (hint) logging::write(logging::Category::kHints, [&](std::ostream& os) {
      os << Operation::kName << ": a workspace of " << need << " bytes (" << given_bytes(args)
         << " given) would run candidate " << first.candidate << " (" << first.name << ") instead of candidate "
         << fit.candidate << " (" << fit.name << ")";
      if (fit.preferred_microseconds > 0 && fit_microseconds > 0) {
        os << ": " << fit.preferred_microseconds << " us against " << fit_microseconds
           << (kBackend == Backend::kSim || first.source == ChoiceSource::kHeuristic
                   ? " us, predicted by the MI300 timing model"
                   : " us, measured");
      } else {
        os << ": its gain is not predicted on this device (find mode search times both)";
      }
      os << "; allocate get_workspace_size(args) bytes";
    });
    choice = std::move(fit);
    return Status::kSuccess;
  }

  // Candidate i's time with these slices as the MI300 timing model predicts it (model_device), or nothing.
  static std::optional<double> predicted(Arguments const& args, DeviceInfo const& device, int i, int slices) {
    std::optional<double> seconds;
    visit_index<kCandidates>(i, [&]<int I>() {
      seconds = Operation::template predicted_seconds<Candidate<I>>(Operation::with_slices(args, slices),
                                                                     model_device(device));
      return Status::kSuccess;
    });
    return seconds;
  }

  // The database's entry, if it names an eligible candidate of this list.
  static bool from_database(Arguments const& args, std::optional<TuningEntry> const& entry, TunedChoice& c) {
    if (!entry) return false;
    for (int i = 0; i < kCandidates; ++i) {
      if (candidate_name(i) != entry->winner) continue;
      bool take = false;
      visit_index<kCandidates>(i, [&]<int I>() {
        take = eligible<I>(args, entry->split_k_slices);
        return Status::kSuccess;
      });
      if (!take) break;
      c.candidate = i;
      c.split_k_slices = entry->split_k_slices;
      c.microseconds = entry->microseconds;
      c.source = ChoiceSource::kDatabase;
      return true;
    }
    logging::write(logging::Category::kInfo, [&](std::ostream& os) {
      os << "tuning database entry for " << entry->key.problem << " names " << entry->winner
         << ", which this candidate list cannot run for the problem: not used";
    });
    return false;
  }

  // Device memory for timing: the output's span and the largest workspace any candidate needs.
  struct Scratch {
    void* output = nullptr;
    void* workspace = nullptr;
    std::size_t workspace_bytes = 0;
    std::ptrdiff_t output_offset = 0;  // from the output's first byte to its pointer in the arguments
    Scratch() = default;
    Scratch(Scratch const&) = delete;
    Scratch& operator=(Scratch const&) = delete;
    ~Scratch() {
      device_free(output);
      device_free(workspace);
    }
    Status make(Arguments const& args, HeuristicPick const& rule) {
      ByteRange const range = Operation::output_range(args);
      output_offset = std::ptrdiff_t(ByteRange::Int128(reinterpret_cast<std::uintptr_t>(Operation::output(args))) -
                                     range.first_address());
      if (Status const s = device_allocate(&output, std::size_t(range.bytes())); !ok(s)) return s;
      std::size_t most = 0;
      [&]<int... I>(std::integer_sequence<int, I...>) { ((most = std::max(most, workspace_for<I>(args, rule))), ...); }
      (std::make_integer_sequence<int, kCandidates>{});
      workspace_bytes = most;
      return device_allocate(&workspace, most);
    }
    template <int I>
    static std::size_t workspace_for(Arguments const& args, HeuristicPick const& rule) {
      std::size_t most = 0;
      for (int slices : slices_to_time<I>(args, rule)) {
        most = std::max(most, Candidate<I>::get_workspace_size(Operation::with_slices(args, slices)));
      }
      return most;
    }
  };

  // Times every eligible candidate, keeping each time in entry.timed (fastest first); false when
  // none could be timed. On a device the (candidate, slices) pairs are timed together, interleaved
  // (tune/interleaved_timing.hpp); in the simulator each is predicted.
  bool timed(Arguments const& args, DeviceInfo const& device, Stream stream, HeuristicPick const& rule,
             Entry& entry) const {
    TunedChoice& c = entry.choice;
    double best = std::numeric_limits<double>::infinity();
    if constexpr (kBackend == Backend::kSim) {
      (void)stream;
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (predict_candidate<I>(args, device, rule, best, entry), ...);
      }
      (std::make_integer_sequence<int, kCandidates>{});
    } else {
      (void)device;
      Scratch scratch;
      if (!ok(scratch.make(args, rule))) return false;
      std::vector<Contender> contenders;
      [&]<int... I>(std::integer_sequence<int, I...>) {
        (add_contenders<I>(args, rule, stream, scratch, contenders), ...);
      }
      (std::make_integer_sequence<int, kCandidates>{});
      EventTimer timer;
      InterleavedTiming const plan{options_.warmup, options_.repetitions, options_.min_batch_microseconds * 1e-6,
                                   options_.max_batch_runs};
      std::vector<std::optional<double>> const seconds =
          interleaved_medians(int(contenders.size()), plan, [&](int i, int runs) -> std::optional<double> {
            double t = 0;
            if (!ok(timer.time(stream, contenders[std::size_t(i)].launch, runs, t))) return std::nullopt;
            return t;
          });
      for (std::size_t i = 0; i < contenders.size(); ++i) {
        record_time(contenders[i].candidate, contenders[i].slices, seconds[i], best, entry);
      }
    }
    if (c.timed_candidates == 0) {
      logging::write(logging::Category::kInfo, [&](std::ostream& os) {
        os << "no candidate could be timed for " << problem_key_text(args)
           << (kBackend == Backend::kSim ? " (the MI300 timing model has no entry for these candidates, or does not "
                                           "model the problem: batched GEMMs)"
                                         : "")
           << ": the heuristic decides";
      });
      return false;
    }
    c.source = ChoiceSource::kTimed;
    c.microseconds = best * 1e6;
    c.predicted = kBackend == Backend::kSim;
    std::sort(entry.timed.begin(), entry.timed.end(), [](Timed const& x, Timed const& y) {
      return x.seconds != y.seconds ? x.seconds < y.seconds
                                    : (x.candidate != y.candidate ? x.candidate < y.candidate
                                                                  : x.split_k_slices < y.split_k_slices);
    });
    return true;
  }

  // One (candidate, slices) pair's time, or nothing: logged (category profile) and kept.
  void record_time(int candidate, int slices, std::optional<double> seconds, double& best, Entry& entry) const {
    TunedChoice& c = entry.choice;
    logging::write(logging::Category::kProfile, [&](std::ostream& os) {
      os << "candidate " << candidate << " (" << candidate_name(candidate) << "), " << slices << " K slices: ";
      if (seconds) {
        os << *seconds * 1e6 << (kBackend == Backend::kSim ? " us predicted" : " us");
      } else {
        os << "not timed";
      }
    });
    if (!seconds) return;
    ++c.timed_candidates;
    entry.timed.push_back({candidate, slices, *seconds});
    if (*seconds < best) {
      best = *seconds;
      c.candidate = candidate;
      c.split_k_slices = slices;
    }
  }

  // The simulator: candidate I's eligible slice counts as the MI300 timing model predicts them.
  template <int I>
  void predict_candidate(Arguments const& args, DeviceInfo const& device, HeuristicPick const& rule, double& best,
                         Entry& entry) const {
    for (int slices : slices_to_time<I>(args, rule)) {
      if (!eligible<I>(args, slices)) continue;
      record_time(I, slices,
                  Operation::template predicted_seconds<Candidate<I>>(Operation::with_slices(args, slices),
                                                                     model_device(device)),
                  best, entry);
    }
  }

  // A (candidate, slices) pair to time on the device: its operator, initialized to write the
  // scratch output, and its launch.
  struct Contender {
    int candidate = 0;
    int slices = 1;
    std::shared_ptr<void> op;
    std::function<Status()> launch;
  };
  template <int I>
  void add_contenders(Arguments const& args, HeuristicPick const& rule, Stream stream, Scratch& scratch,
                      std::vector<Contender>& out) const {
    for (int slices : slices_to_time<I>(args, rule)) {
      if (!eligible<I>(args, slices)) continue;
      Arguments t = Operation::with_output(Operation::with_slices(args, slices),
                                           static_cast<std::byte*>(scratch.output) + scratch.output_offset);
      t.workspace = scratch.workspace;
      t.workspace_bytes = scratch.workspace_bytes;
      auto op = std::make_shared<Candidate<I>>();
      if (!ok(op->initialize(t))) {
        record_not_initialized(I, slices);
        continue;
      }
      out.push_back({I, slices, op, [op, stream] { return op->run(stream); }});
    }
  }
  void record_not_initialized(int candidate, int slices) const {
    logging::write(logging::Category::kProfile, [&](std::ostream& os) {
      os << "candidate " << candidate << " (" << candidate_name(candidate) << "), " << slices
         << " K slices: not timed (initialize failed)";
    });
  }

  TuningOptions options_;
  std::int64_t database_key_ = -1;  // a hash of options_.database; -1: the environment's database
  CandidateList operators_{};
  TunedChoice choice_{};
  bool chosen_ = false;
};

}  // namespace hiptile::tune
