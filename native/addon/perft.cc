// Node-API glue for native/core/perft.h's perftParallel: perft and perftStats on several native
// threads, synchronous (the caller waits) and asynchronous (a libuv worker drives the threads; the
// promise settles on the main thread).
//   perftThreads(pos, depth, threads) -> number
//   perftStatsThreads(pos, depth, out: Float64Array(9), threads) -> undefined
//   perftAsync(pos, depth, threads, stats: boolean) -> [Promise<number | Float64Array | null>, cancel()]
// The async form copies the 10 packed words into the worker before queueing (JS may drop or change
// its array at once), allocates its result on completion, and resolves with null when cancel() was
// called first (the facade turns that into an AbortError). cancel() sets a flag the threads read
// between work items; the flag lives in a block owned jointly by the worker and the cancel function
// (whichever is released last frees it), so calling cancel() at any time is safe.
#include <atomic>
#include <cstring>

#include "args.h"

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
  kernelsOf(info).perftParallel(pos, depth, static_cast<unsigned>(threads), false, nullptr, &nodes);
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
  kernelsOf(info).perftParallel(pos, depth, static_cast<unsigned>(threads), true, nullptr, columns);
  for (int c = 0; c < kPerftStatsColumns; ++c) out.data[c] = static_cast<double>(columns[c]);
  return args.undefined();
}

// The stop flag shared by a worker and its cancel function.
struct CancelBlock {
  std::atomic<int> stop{0};
  std::atomic<int> owners{2};
  void release() {
    if (owners.fetch_sub(1) == 1) delete this;
  }
};

class PerftWorker : public Napi::AsyncWorker {
 public:
  PerftWorker(Napi::Env env, napi_deferred deferred, const Kernels& kernels, const U64* pos, int depth,
              unsigned threads, bool stats, CancelBlock* cancel)
      : Napi::AsyncWorker(env, "bitboard-patterns:perftAsync"),
        deferred_(deferred), kernels_(kernels), depth_(depth), threads_(threads), stats_(stats), cancel_(cancel) {
    std::memcpy(pos_, pos, sizeof pos_);
  }
  ~PerftWorker() override { cancel_->release(); }

 protected:
  void Execute() override {
    done_ = kernels_.perftParallel(pos_, depth_, threads_, stats_, &cancel_->stop, out_);
  }

  // Plain Node-API calls whose failures are ignored (see kbnk.cc: during a worker thread's teardown
  // they fail, and node-addon-api would make that fatal).
  void OnOK() override {
    napi_env env = Env();
    napi_value value = nullptr;
    if (!done_) {
      if (napi_get_null(env, &value) != napi_ok) return;
    } else if (!stats_) {
      if (napi_create_double(env, static_cast<double>(out_[0]), &value) != napi_ok) return;
    } else {
      napi_value buffer = nullptr;
      void* data = nullptr;
      if (napi_create_arraybuffer(env, sizeof(double) * kPerftStatsColumns, &data, &buffer) != napi_ok ||
          napi_create_typedarray(env, napi_float64_array, kPerftStatsColumns, buffer, 0, &value) != napi_ok)
        return;
      double* columns = static_cast<double*>(data);
      for (int c = 0; c < kPerftStatsColumns; ++c) columns[c] = static_cast<double>(out_[c]);
    }
    napi_resolve_deferred(env, deferred_, value);
  }

  void OnError(const Napi::Error&) override {  // not reached: Execute never sets an error
    if (napi_value error = makeError(Env(), napi_create_error, "perftAsync: failed"))
      napi_reject_deferred(Env(), deferred_, error);
  }

 private:
  napi_deferred deferred_;
  const Kernels& kernels_;
  U64 pos_[kPackedPositionWords];
  int depth_;
  unsigned threads_;
  bool stats_;
  CancelBlock* cancel_;
  U64 out_[kPerftStatsColumns] = {};
  bool done_ = false;
};

napi_value cancelCall(napi_env env, napi_callback_info info) {
  void* data = nullptr;
  if (napi_get_cb_info(env, info, nullptr, nullptr, nullptr, &data) == napi_ok && data)
    static_cast<CancelBlock*>(data)->stop.store(1);
  napi_value undefined = nullptr;
  napi_get_undefined(env, &undefined);
  return undefined;
}

void releaseCancel(napi_env, void* data, void*) { static_cast<CancelBlock*>(data)->release(); }

Napi::Value perftAsyncCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const U64* pos = args.position(0, "pos");
  const int depth = args.depth(1, "depth");
  const int threads = threadsArg(args, 2);
  if (args.ok() && !info[3].IsBoolean()) args.failType("stats must be a boolean");
  if (!args.ok()) return args.undefined();
  const bool stats = info[3].As<Napi::Boolean>().Value();
  napi_env env = info.Env();
  napi_deferred deferred = nullptr;
  napi_value promise = nullptr, cancel = nullptr, pair = nullptr;
  auto* block = new CancelBlock;
  if (napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancelCall, block, &cancel) != napi_ok ||
      napi_add_finalizer(env, cancel, block, releaseCancel, nullptr, nullptr) != napi_ok) {
    delete block;
    throwError(env, napi_create_error, "perftAsync: cannot create the cancel function");
    return args.undefined();
  }
  if (napi_create_promise(env, &deferred, &promise) != napi_ok || napi_create_array_with_length(env, 2, &pair) != napi_ok ||
      napi_set_element(env, pair, 0, promise) != napi_ok || napi_set_element(env, pair, 1, cancel) != napi_ok) {
    block->release();  // the worker's share; the function's finalizer releases the other
    throwError(env, napi_create_error, "perftAsync: cannot create a promise");
    return args.undefined();
  }
  auto* worker = new PerftWorker(env, deferred, kernelsOf(info), pos, depth, static_cast<unsigned>(threads), stats, block);
  worker->Queue();  // deletes itself after OnOK / OnError
  return Napi::Value(env, pair);
}

}  // namespace

void exportPerft(Napi::Env env, Napi::Object exports) {
  exportFunction<perftThreadsCall>(env, exports, "perftThreads");
  exportFunction<perftStatsThreadsCall>(env, exports, "perftStatsThreads");
  exportFunction<perftAsyncCall>(env, exports, "perftAsync");
}

}  // namespace bbp::addon
