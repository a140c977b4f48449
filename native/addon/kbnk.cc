// Node-API glue for native/core/kbnk.h: the seed's corner distance, the mop-up evaluation, and the
// table generator, synchronous (blocks the caller, all cores) and asynchronous (a libuv worker drives
// the generator's threads; progress comes back through the worker's thread-safe channel).
#include <algorithm>
#include <thread>

#include "args.h"

namespace bbp::addon {
namespace {

// The contract's bound (lib/backend.ts); the generator itself uses at most one thread per work block.
constexpr int kMaxThreads = 1024;

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

Napi::Value cornerDistanceCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const int bishopSq = args.square(0, "bishopSq");
  const int kingSq = args.square(1, "kingSq");
  return args.ok() ? number(info, cornerDistance(bishopSq, kingSq)) : args.undefined();
}

Napi::Value kbnkEvalCall(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const int strongKing = args.square(0, "strongKing");
  const int bishop = args.square(1, "bishop");
  const int knight = args.square(2, "knight");
  const int weakKing = args.square(3, "weakKing");
  return args.ok() ? number(info, kbnkEval(strongKing, bishop, knight, weakKing)) : args.undefined();
}

Napi::Value kbnkGenerateCall(const Napi::CallbackInfo& info) {
  Args args(info, 1);
  const auto table = args.arrayOfLength<std::uint8_t>(0, "table", kKbnkTableSize);
  if (args.ok()) kernelsOf(info).kbnkGenerate(table.data, allCores(), nullptr, nullptr);
  return args.undefined();
}

struct Progress {
  unsigned done;
  unsigned total;
};

// Runs the generator on a libuv worker thread. The table's Uint8Array is held by a reference until
// the worker is destroyed (on the main thread, after the promise settles), so the garbage collector
// cannot free the memory the generator writes. Progress is coalesced by AsyncProgressWorker (only the
// latest step reaches JS); the final (total, total) is always delivered before the promise resolves.
// An exception thrown by onProgress stops further calls and rejects the promise once generation ends
// (the generator itself runs to completion: it owns no JS state and cannot be interrupted midway).
class KbnkWorker : public Napi::AsyncProgressWorker<Progress> {
 public:
  KbnkWorker(Napi::Env env, Napi::Uint8Array table, unsigned threads, Napi::Function onProgress,
             const Kernels& kernels)
      : Napi::AsyncProgressWorker<Progress>(env, "bitboard-patterns:kbnkGenerate"),
        deferred_(Napi::Promise::Deferred::New(env)),
        table_(Napi::Persistent(table)),
        data_(table.Data()),
        threads_(threads),
        kernels_(kernels) {
    if (!onProgress.IsEmpty()) onProgress_ = Napi::Persistent(onProgress);
  }

  Napi::Promise promise() const { return deferred_.Promise(); }

 protected:
  void Execute(const ExecutionProgress& progress) override {
    Channel channel{this, progress};
    kernels_.kbnkGenerate(data_, threads_, &KbnkWorker::step, &channel);
  }

  void OnProgress(const Progress* data, size_t count) override {
    if (count > 0) deliver(data[count - 1]);
  }

  void OnOK() override {
    Napi::HandleScope scope(Env());
    // sent_ was last written by the finished worker thread; libuv orders that before this callback.
    if (last_.done != sent_.done || last_.total != sent_.total) deliver(sent_);
    if (!failure_.IsEmpty()) {
      deferred_.Reject(failure_.Value());
    } else {
      deferred_.Resolve(Env().Undefined());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  struct Channel {
    KbnkWorker* self;
    const ExecutionProgress& progress;
  };

  // On the generator's calling thread (the libuv worker): hand the step to the main thread.
  static void step(void* context, unsigned done, unsigned total) {
    const Channel& channel = *static_cast<const Channel*>(context);
    channel.self->sent_ = Progress{done, total};
    channel.progress.Send(&channel.self->sent_, 1);
  }

  // On the main thread.
  void deliver(Progress p) {
    if (onProgress_.IsEmpty() || !failure_.IsEmpty()) return;
    last_ = p;
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    onProgress_.Call({Napi::Number::New(env, p.done), Napi::Number::New(env, p.total)});
    if (env.IsExceptionPending()) failure_ = env.GetAndClearPendingException();
  }

  Napi::Promise::Deferred deferred_;
  Napi::Reference<Napi::Uint8Array> table_;
  std::uint8_t* data_;
  unsigned threads_;
  const Kernels& kernels_;
  Napi::FunctionReference onProgress_;
  Napi::Error failure_;  // what onProgress threw (a primitive stays wrapped until Value())
  Progress sent_{0, 0};  // written by the worker thread only while it runs
  Progress last_{0, 0};  // main thread: the last step passed to onProgress
};

Napi::Value kbnkGenerateAsyncCall(const Napi::CallbackInfo& info) {
  Args args(info, 2, 3);
  args.arrayOfLength<std::uint8_t>(0, "table", kKbnkTableSize);  // checked here, held by the worker
  const int threads = args.count(1, "threads", kMaxThreads, "an integer 0..1024 (0 = one per core)");
  const Napi::Function onProgress = args.optionalFunction(2, "onProgress");
  if (!args.ok()) return args.undefined();
  auto* worker = new KbnkWorker(info.Env(), info[0].As<Napi::Uint8Array>(),
                                threads == 0 ? allCores() : static_cast<unsigned>(threads), onProgress,
                                kernelsOf(info));
  const Napi::Promise promise = worker->promise();
  worker->Queue();  // the worker deletes itself after OnOK / OnError
  return promise;
}

}  // namespace

void exportKbnk(Napi::Env env, Napi::Object exports) {
  exportFunction<cornerDistanceCall>(env, exports, "cornerDistance");
  exportFunction<kbnkEvalCall>(env, exports, "kbnkEval");
  exportFunction<kbnkGenerateCall>(env, exports, "kbnkGenerate");
  exportFunction<kbnkGenerateAsyncCall>(env, exports, "kbnkGenerateAsync");
}

}  // namespace bbp::addon
