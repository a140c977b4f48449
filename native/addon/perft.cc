// Node-API glue for native/core/perft.h's perftParallel: perft and perftStats on several native
// threads, synchronous (the caller waits) and asynchronous (an OwnedAsyncWork, async_work.h: a libuv
// worker drives the threads; the promise settles on the main thread).
//   perftThreads(pos, depth, threads) -> number
//   perftStatsThreads(pos, depth, out: Float64Array(9), threads) -> undefined
//   perftAsync(pos, depth, threads, stats: boolean, cancel: Int32Array(1)) -> Promise<Float64Array | null>
// The async form copies the packed words into addon memory before queueing (JS may drop or change
// its array at once) and resolves with a new Float64Array the addon makes on completion: [nodes]
// (stats false) or the nine perftStats columns; or with null when `cancel[0]` became non-zero before
// the promise settled (the facade turns that into the signal's reason). The threads ask the work
// between subtrees whether it was cancelled (the mechanism's poll() / cancelled()).
#include <cstring>

#include "args.h"
#include "async_work.h"

namespace bbp::addon {
namespace {

constexpr int kMaxThreads = 256;  // the facade's bound

int threadsArg(Args& args, std::size_t i) {
  const int threads = args.count(i, "threads", kMaxThreads, "an integer 1..256");
  if (args.ok() && threads < 1) args.fail("threads must be an integer 1..256, got 0");
  return threads;
}

Napi::Value perftThreadsCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const U64* pos = args.position(0, "pos");
  const int depth = args.depth(1, "depth");
  const int threads = threadsArg(args, 2);
  if (!args.ok()) return args.undefined();
  U64 nodes = 0;
  kernelsOf(info).perftParallel(pos, depth, static_cast<unsigned>(threads), false, nullptr, nullptr, &nodes);
  return Napi::Number::New(info.Env(), static_cast<double>(nodes));
}

Napi::Value perftStatsThreadsCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const U64* pos = args.position(0, "pos");
  const int depth = args.depth(1, "depth");
  const auto out = args.array<double>(2, "out");
  const int threads = threadsArg(args, 3);
  if (!args.ok()) return args.undefined();
  if (out.length != static_cast<std::size_t>(kPerftStatsColumns))
    return args.fail("out must have length " + std::to_string(kPerftStatsColumns) + ", got " +
                     std::to_string(out.length)),
           args.undefined();
  U64 columns[kPerftStatsColumns];
  kernelsOf(info).perftParallel(pos, depth, static_cast<unsigned>(threads), true, nullptr, nullptr, columns);
  for (int c = 0; c < kPerftStatsColumns; ++c) out.data[c] = static_cast<double>(columns[c]);
  return args.undefined();
}

// An OwnedAsyncWork: the position is copied into the work object and the result columns allocated
// in addon memory on the main thread; the threads read and write only those.
class PerftWork : public OwnedAsyncWork {
 public:
  PerftWork(const Napi::CallbackInfo& info, const U64* pos, int depth, unsigned threads, bool stats,
            OwnedArray<double>&& out)
      : OwnedAsyncWork(info.Env(), "bitboard-patterns:perftAsync"),
        kernels_(kernelsOf(info)), depth_(depth), threads_(threads), stats_(stats), out_(std::move(out)) {
    std::memcpy(pos_, pos, sizeof pos_);
    watchCancelFlag(info[4]);
  }

 private:
  void run() override {
    U64 columns[kPerftStatsColumns] = {};
    done_ = kernels_.perftParallel(pos_, depth_, threads_, stats_, &PerftWork::stop, this, columns);
    for (std::size_t c = 0; c < out_.length(); ++c) out_.data()[c] = static_cast<double>(columns[c]);
  }

  // On any of the perft threads, between subtrees: wakes the main thread to read the JS flag.
  static bool stop(void* self) {
    PerftWork* work = static_cast<PerftWork*>(self);
    work->poll();
    return work->cancelled();
  }

  void settle(napi_env env, napi_value* value, napi_value*) override {
    if (!done_ || cancelled()) {
      napi_get_null(env, value);
      return;
    }
    *value = deliver(env, nullptr, out_);
  }

  const Kernels& kernels_;
  U64 pos_[kPackedPositionWords];
  int depth_;
  unsigned threads_;
  bool stats_;
  OwnedArray<double> out_;
  bool done_ = false;
};

Napi::Value perftAsyncCall(const Napi::CallbackInfo& info) {
  Args args(info, 5);
  const U64* pos = args.position(0, "pos");
  const int depth = args.depth(1, "depth");
  const int threads = threadsArg(args, 2);
  if (args.ok() && !info[3].IsBoolean()) args.failType("stats must be a boolean");
  const auto cancel = args.array<std::int32_t>(4, "cancel");
  if (!args.ok()) return args.undefined();
  if (cancel.length != 1) return args.fail("cancel must be an Int32Array of length 1"), args.undefined();
  const bool stats = info[3].As<Napi::Boolean>().Value();
  OwnedArray<double> out;
  if (!out.allocate(stats ? kPerftStatsColumns : 1)) return args.fail("cannot allocate the result"), args.undefined();
  auto* work = new PerftWork(info, pos, depth, static_cast<unsigned>(threads), stats, std::move(out));
  napi_value promise = OwnedAsyncWork::start(work, "perftAsync");
  return promise ? Napi::Value(info.Env(), promise) : args.undefined();
}

}  // namespace

void exportPerft(Napi::Env env, Napi::Object exports) {
  exportFunction<perftThreadsCall>(env, exports, "perftThreads(pos, depth, threads)");
  exportFunction<perftStatsThreadsCall>(env, exports, "perftStatsThreads(pos, depth, out, threads)");
  exportFunction<perftAsyncCall>(env, exports, "perftAsync(pos, depth, threads, stats, cancel)");
}

}  // namespace bbp::addon
