// Node-API glue for native/core/kbnk.h: the KBNK Endgame page's corner distance, the mop-up evaluation, and the
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
// Everything that touches JS after the call returns uses plain Node-API calls whose failures are
// ignored: when a worker thread is terminated these callbacks still run during the environment's
// teardown, where calling into JS fails, and node-addon-api would turn that failure into a fatal error
// (C++ exceptions are off). Node waits for the queued work before it frees the environment.
class KbnkWorker : public Napi::AsyncProgressWorker<Progress> {
 public:
  KbnkWorker(Napi::Env env, napi_deferred deferred, Napi::Uint8Array table, unsigned threads,
             Napi::Function onProgress, const Kernels& kernels)
      : Napi::AsyncProgressWorker<Progress>(env, "bitboard-patterns:kbnkGenerate"),
        deferred_(deferred),
        data_(table.Data()),
        threads_(threads),
        kernels_(kernels) {
    napi_create_reference(env, table, 1, &table_);
    if (!onProgress.IsEmpty()) napi_create_reference(env, onProgress, 1, &onProgress_);
  }

  ~KbnkWorker() override {
    for (napi_ref ref : {table_, onProgress_, thrown_})
      if (ref) napi_delete_reference(Env(), ref);
  }

 protected:
  void Execute(const ExecutionProgress& progress) override {
    Channel channel{this, progress};
    kernels_.kbnkGenerate(data_, threads_, &KbnkWorker::step, &channel);
  }

  void OnProgress(const Progress* data, size_t count) override {
    if (count > 0) deliver(data[count - 1]);
  }

  void OnOK() override {
    // sent_ was last written by the finished worker thread; libuv orders that before this callback.
    if (last_.done != sent_.done || last_.total != sent_.total) deliver(sent_);
    napi_env env = Env();
    napi_value value = nullptr;
    if (!failed_) {
      if (napi_get_undefined(env, &value) == napi_ok) napi_resolve_deferred(env, deferred_, value);
      return;
    }
    napi_value holder = nullptr;
    if (thrown_ && napi_get_reference_value(env, thrown_, &holder) == napi_ok && holder)
      napi_get_element(env, holder, 0, &value);
    if (!value) value = errorValue("kbnkGenerateAsync: onProgress failed");
    if (value) napi_reject_deferred(env, deferred_, value);
  }

  void OnError(const Napi::Error&) override {  // not reached: Execute never sets an error
    napi_value value = errorValue("kbnkGenerateAsync: generation failed");
    if (value) napi_reject_deferred(Env(), deferred_, value);
  }

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

  napi_value errorValue(const char* text) {
    napi_env env = Env();
    napi_value message = nullptr, error = nullptr;
    if (napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) != napi_ok) return nullptr;
    return napi_create_error(env, nullptr, message, &error) == napi_ok ? error : nullptr;
  }

  // On the main thread.
  void deliver(Progress p) {
    if (!onProgress_ || failed_) return;
    last_ = p;
    napi_env env = Env();
    napi_value fn = nullptr, recv = nullptr, argv[2] = {}, result = nullptr;
    if (napi_get_reference_value(env, onProgress_, &fn) != napi_ok || !fn ||
        napi_get_undefined(env, &recv) != napi_ok || napi_create_uint32(env, p.done, &argv[0]) != napi_ok ||
        napi_create_uint32(env, p.total, &argv[1]) != napi_ok)
      return;
    if (napi_call_function(env, recv, fn, 2, argv, &result) == napi_ok) return;
    failed_ = true;
    // Keep what was thrown, inside an array: Node-API 8 cannot reference a primitive directly.
    bool pending = false;
    napi_value thrown = nullptr, holder = nullptr;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
        napi_get_and_clear_last_exception(env, &thrown) == napi_ok && napi_create_array(env, &holder) == napi_ok &&
        napi_set_element(env, holder, 0, thrown) == napi_ok)
      napi_create_reference(env, holder, 1, &thrown_);
  }

  napi_deferred deferred_;
  napi_ref table_ = nullptr;
  napi_ref onProgress_ = nullptr;
  napi_ref thrown_ = nullptr;  // [what onProgress threw]
  bool failed_ = false;
  std::uint8_t* data_;
  unsigned threads_;
  const Kernels& kernels_;
  Progress sent_{0, 0};  // written by the worker thread only while it runs
  Progress last_{0, 0};  // main thread: the last step passed to onProgress
};

Napi::Value kbnkGenerateAsyncCall(const Napi::CallbackInfo& info) {
  Args args(info, 2, 3);
  args.arrayOfLength<std::uint8_t>(0, "table", kKbnkTableSize);  // checked here, held by the worker
  const int threads = args.count(1, "threads", kMaxThreads, "an integer 0..1024 (0 = one per core)");
  const Napi::Function onProgress = args.optionalFunction(2, "onProgress");
  if (!args.ok()) return args.undefined();
  napi_deferred deferred = nullptr;
  napi_value promise = nullptr;
  if (napi_create_promise(info.Env(), &deferred, &promise) != napi_ok) {
    throwError(info.Env(), napi_create_error, "kbnkGenerateAsync: cannot create a promise");
    return args.undefined();
  }
  auto* worker = new KbnkWorker(info.Env(), deferred, info[0].As<Napi::Uint8Array>(),
                                threads == 0 ? allCores() : static_cast<unsigned>(threads), onProgress,
                                kernelsOf(info));
  worker->Queue();  // the worker deletes itself after OnOK / OnError
  return Napi::Value(info.Env(), promise);
}

}  // namespace

void exportKbnk(Napi::Env env, Napi::Object exports) {
  exportFunction<cornerDistanceCall>(env, exports, "cornerDistance");
  exportFunction<kbnkEvalCall>(env, exports, "kbnkEval");
  exportFunction<kbnkGenerateCall>(env, exports, "kbnkGenerate");
  exportFunction<kbnkGenerateAsyncCall>(env, exports, "kbnkGenerateAsync");
}

}  // namespace bbp::addon
