// Node-API glue for native/core/kbnk.h: the KBNK Endgame page's corner distance, the mop-up evaluation,
// and the table generator, synchronous (blocks the caller, all cores) and asynchronous (async_work.h).
#include <algorithm>
#include <thread>

#include "async_work.h"
#include "glue.h"

namespace bbp::addon {
namespace {

// The contract's bound (lib/backend.ts); the generator itself uses at most one thread per work block.
constexpr int kMaxThreads = 1024;

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

Napi::Value kbnkGenerateCall(const Napi::CallbackInfo& info) {
  Args args(info, 1);
  const auto table = args.arrayOfLength<std::uint8_t>(0, "table", kKbnkTableSize);
  if (args.ok()) kernelsOf(info).kbnkGenerate(table.data, allCores(), nullptr, nullptr);
  return args.undefined();
}

// An OwnedAsyncWork (async_work.h): the generator fills a table the addon owns, on a libuv worker
// thread driving `threads` native threads; progress comes back through the work's channel (only the
// latest step reaches JS; the final (total, total) always does, before the promise settles). On
// completion the table is copied into the caller's `table` if it is still attached (otherwise into a
// new Uint8Array) and the promise resolves with the array that holds it. If onProgress throws it is
// not called again and the promise rejects with what it threw once generation ends (the generator
// runs to completion: it cannot be interrupted midway).
class KbnkWork : public OwnedAsyncWork {
 public:
  KbnkWork(const Napi::CallbackInfo& info, OwnedArray<std::uint8_t>&& table, unsigned threads,
           const Napi::Function& onProgress)
      : OwnedAsyncWork(info.Env(), "bitboard-patterns:kbnkGenerate"),
        kernels_(kernelsOf(info)), table_(std::move(table)), threads_(threads) {
    napi_create_reference(info.Env(), info[0], 1, &target_);
    if (!onProgress.IsEmpty()) setOnProgress(onProgress);
  }
  ~KbnkWork() override {
    if (target_) napi_delete_reference(Env(), target_);
  }

 private:
  void run() override { kernels_.kbnkGenerate(table_.data(), threads_, &KbnkWork::step, this); }

  // On the generator's calling thread.
  static void step(void* self, unsigned done, unsigned total) { static_cast<KbnkWork*>(self)->progress(done, total); }

  void settle(napi_env env, napi_value* value, napi_value*) override {
    napi_value target = nullptr;
    if (napi_get_reference_value(env, target_, &target) != napi_ok) return;
    *value = deliver(env, target, table_);
  }

  const Kernels& kernels_;
  OwnedArray<std::uint8_t> table_;
  unsigned threads_;
  napi_ref target_ = nullptr;
};

Napi::Value kbnkGenerateAsyncCall(const Napi::CallbackInfo& info) {
  Args args(info, 2, 3);
  args.arrayOfLength<std::uint8_t>(0, "table", kKbnkTableSize);  // checked here; the result is copied into it
  const int threads = args.count(1, "threads", kMaxThreads, "an integer 0..1024 (0 = one per core)");
  const Napi::Function onProgress = args.optionalFunction(2, "onProgress");
  if (!args.ok()) return args.undefined();
  OwnedArray<std::uint8_t> table;
  if (!table.allocate(kKbnkTableSize)) return args.fail("cannot allocate the table"), args.undefined();
  auto* work = new KbnkWork(info, std::move(table), threads == 0 ? allCores() : static_cast<unsigned>(threads), onProgress);
  napi_value promise = OwnedAsyncWork::start(work, "kbnkGenerateAsync");
  return promise ? Napi::Value(info.Env(), promise) : args.undefined();
}

}  // namespace

void exportKbnk(Napi::Env env, Napi::Object exports) {
  exportCall<cornerDistance, Square, Square>(env, exports, "cornerDistance(bishopSq, kingSq)");
  exportCall<manhattanDistance, Square, Square>(env, exports, "manhattanDistance(a, b)");
  exportCall<kbnkEval, Square, Square, Square, Square>(env, exports, "kbnkEval(strongKing, bishop, knight, weakKing)");
  exportFunction<kbnkGenerateCall>(env, exports, "kbnkGenerate");
  exportFunction<kbnkGenerateAsyncCall>(env, exports, "kbnkGenerateAsync");
}

}  // namespace bbp::addon
