// Node-API glue for native/core/tbgen.h: the general tablebase generator, synchronous (blocks the
// caller) and asynchronous (a libuv worker drives the generator's threads on memory the addon owns:
// the sub-tables are copied before queueing and the table is handed to JS on completion).
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../core/tbgen.h"
#include "args.h"

namespace bbp::addon {
namespace {

constexpr int kMaxThreads = 1024;

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

const char* statusText(TbStatus s) {
  switch (s) {
    case TbStatus::cancelled: return "generation cancelled";
    case TbStatus::missingSubTable: return "a sub-ending table is missing";
    case TbStatus::tooLong: return "a distance exceeds 253 plies";
    default: return "ok";
  }
}

// Reads material (string), subNames (string, comma-separated) and subTables (array of Uint8Array of
// the right sizes) into `m` and `subs`; false with a pending exception otherwise. With `copies` the
// sub-tables are copied into it and `subs` points there.
bool readInputs(const Napi::CallbackInfo& info, TbMaterial& m, std::vector<TbSubTable>& subs,
                std::vector<std::vector<std::uint8_t>>* copies) {
  napi_env env = info.Env();
  const std::string fn = functionName(info);
  if (info.Length() < 3 || !info[0].IsString() || !info[1].IsString() || !info[2].IsArray()) {
    throwTypeError(env, fn + ": expects (material: string, subNames: string, subTables: Uint8Array[], ...)");
    return false;
  }
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  if (!tbParseMaterial(name, m)) {
    throwRangeError(env, fn + ": not a material of 2..5 pieces with one king a side: " + name);
    return false;
  }
  const std::string names = info[1].As<Napi::String>().Utf8Value();
  const Napi::Array tables = info[2].As<Napi::Array>();
  std::vector<std::string> parts;
  for (std::size_t start = 0; start < names.size();) {
    std::size_t comma = names.find(',', start);
    if (comma == std::string::npos) comma = names.size();
    parts.push_back(names.substr(start, comma - start));
    start = comma + 1;
  }
  if (parts.size() != tables.Length()) {
    throwRangeError(env, fn + ": subNames and subTables differ in length");
    return false;
  }
  if (copies) copies->resize(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    TbSubTable sub{};
    if (!tbParseMaterial(parts[i], sub.material)) {
      throwRangeError(env, fn + ": bad sub-table material " + parts[i]);
      return false;
    }
    const Napi::Value v = tables.Get(static_cast<uint32_t>(i));
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
        v.As<Napi::Uint8Array>().ElementLength() != sub.material.tableSize()) {
      throwRangeError(env, fn + ": sub-table " + parts[i] + " must be a Uint8Array of " +
                               std::to_string(sub.material.tableSize()) + " bytes");
      return false;
    }
    const Napi::Uint8Array a = v.As<Napi::Uint8Array>();
    if (copies) {
      (*copies)[i].assign(a.Data(), a.Data() + a.ElementLength());
      sub.data = (*copies)[i].data();
    } else {
      sub.data = a.Data();
    }
    subs.push_back(sub);
  }
  return true;
}

unsigned readThreads(const Napi::CallbackInfo& info, std::size_t i, bool& ok) {
  ok = true;
  if (i >= info.Length() || info[i].IsUndefined()) return allCores();
  const double d = info[i].IsNumber() ? info[i].As<Napi::Number>().DoubleValue() : -1;
  if (!(d >= 0 && d <= kMaxThreads && d == static_cast<int>(d))) {
    throwRangeError(info.Env(), std::string(functionName(info)) + ": threads must be an integer 0..1024 (0 = one per core)");
    ok = false;
    return 0;
  }
  return d == 0 ? allCores() : static_cast<unsigned>(d);
}

// tbGenerate(material, subNames, subTables, table, threads?): fills table; returns undefined.
Napi::Value tbGenerateCall(const Napi::CallbackInfo& info) {
  TbMaterial m;
  std::vector<TbSubTable> subs;
  if (!readInputs(info, m, subs, nullptr)) return info.Env().Undefined();
  if (info.Length() < 4 || !info[3].IsTypedArray() || info[3].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
      info[3].As<Napi::Uint8Array>().ElementLength() != m.tableSize()) {
    throwRangeError(info.Env(), std::string(functionName(info)) + ": table must be a Uint8Array of " +
                                    std::to_string(m.tableSize()) + " bytes");
    return info.Env().Undefined();
  }
  bool ok = false;
  const unsigned threads = readThreads(info, 4, ok);
  if (!ok) return info.Env().Undefined();
  const TbStatus s = tbGenerate(MagicSliders{magicTables()}, m, info[3].As<Napi::Uint8Array>().Data(), subs.data(),
                                static_cast<int>(subs.size()), threads);
  if (s != TbStatus::ok) throwRangeError(info.Env(), std::string(functionName(info)) + ": " + statusText(s));
  return info.Env().Undefined();
}

struct Progress {
  unsigned done, total;
};

// The generation on a libuv worker thread. Everything it reads or writes is owned here.
class TbWorker : public Napi::AsyncProgressWorker<Progress> {
 public:
  TbWorker(Napi::Env env, napi_deferred deferred, const TbMaterial& m, std::vector<TbSubTable> subs,
           std::vector<std::vector<std::uint8_t>> copies, unsigned threads, Napi::Function onProgress,
           std::shared_ptr<std::atomic<bool>> cancel)
      : Napi::AsyncProgressWorker<Progress>(env, "bitboard-patterns:tbGenerate"), deferred_(deferred), m_(m),
        subs_(std::move(subs)), copies_(std::move(copies)), threads_(threads), cancel_(std::move(cancel)) {
    if (!onProgress.IsEmpty()) napi_create_reference(env, onProgress, 1, &onProgress_);
  }
  ~TbWorker() override {
    if (onProgress_) napi_delete_reference(Env(), onProgress_);
  }

 protected:
  void Execute(const ExecutionProgress& progress) override {
    table_ = new (std::nothrow) std::vector<std::uint8_t>();
    if (table_) table_->resize(m_.tableSize());
    Channel channel{this, progress};
    status_ = tbGenerate(MagicSliders{magicTables()}, m_, table_->data(), subs_.data(), static_cast<int>(subs_.size()),
                         threads_, &TbWorker::step, &channel, cancel_.get());
  }

  void OnProgress(const Progress* data, size_t count) override {
    if (count > 0) deliver(data[count - 1]);
  }

  // On the main thread: calls onProgress(done, total); a throw cancels the generation.
  void deliver(Progress p) {
    delivered_ = p;
    if (!onProgress_) return;
    napi_env env = Env();
    napi_value fn = nullptr, recv = nullptr, argv[2] = {}, result = nullptr;
    if (napi_get_reference_value(env, onProgress_, &fn) != napi_ok || !fn || napi_get_undefined(env, &recv) != napi_ok ||
        napi_create_uint32(env, p.done, &argv[0]) != napi_ok || napi_create_uint32(env, p.total, &argv[1]) != napi_ok)
      return;
    if (napi_call_function(env, recv, fn, 2, argv, &result) != napi_ok) {
      bool pending = false;
      napi_value ignored = nullptr;
      if (napi_is_exception_pending(env, &pending) == napi_ok && pending) napi_get_and_clear_last_exception(env, &ignored);
      cancel_->store(true);  // a throwing onProgress cancels the generation
    }
  }

  void OnOK() override {
    // Progress is coalesced and may arrive after completion: the last step is delivered first.
    // last_ was written by the finished worker thread; libuv orders that before this callback.
    if (status_ == TbStatus::ok && (last_.done != delivered_.done || last_.total != delivered_.total)) deliver(last_);
    napi_env env = Env();
    if (status_ != TbStatus::ok) {
      delete table_;
      table_ = nullptr;
      if (napi_value e = makeError(env, napi_create_error, std::string("tbGenerateAsync: ") + statusText(status_)))
        napi_reject_deferred(env, deferred_, e);
      return;
    }
    std::vector<std::uint8_t>* owned = table_;
    table_ = nullptr;
    napi_value buffer = nullptr, array = nullptr;
    if (napi_create_external_arraybuffer(
            env, owned->data(), owned->size(),
            [](napi_env, void*, void* hint) { delete static_cast<std::vector<std::uint8_t>*>(hint); }, owned,
            &buffer) != napi_ok) {
      // external buffers unsupported: copy
      void* data = nullptr;
      if (napi_create_arraybuffer(env, owned->size(), &data, &buffer) == napi_ok)
        std::copy(owned->begin(), owned->end(), static_cast<std::uint8_t*>(data));
      delete owned;
    }
    if (buffer && napi_create_typedarray(env, napi_uint8_array, m_.tableSize(), buffer, 0, &array) == napi_ok)
      napi_resolve_deferred(env, deferred_, array);
    else if (napi_value e = makeError(env, napi_create_error, "tbGenerateAsync: out of memory"))
      napi_reject_deferred(env, deferred_, e);
  }

  void OnError(const Napi::Error&) override {
    if (napi_value e = makeError(Env(), napi_create_error, "tbGenerateAsync: generation failed"))
      napi_reject_deferred(Env(), deferred_, e);
  }

 private:
  struct Channel {
    TbWorker* self;
    const ExecutionProgress& progress;
  };
  static void step(void* context, unsigned done, unsigned total) {
    const Channel& c = *static_cast<const Channel*>(context);
    c.self->last_ = Progress{done, total};
    c.progress.Send(&c.self->last_, 1);
  }

  napi_deferred deferred_;
  napi_ref onProgress_ = nullptr;
  TbMaterial m_;
  std::vector<TbSubTable> subs_;
  std::vector<std::vector<std::uint8_t>> copies_;
  unsigned threads_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::vector<std::uint8_t>* table_ = nullptr;
  TbStatus status_ = TbStatus::ok;
  Progress last_{0, 0};       // worker thread while it runs: the last step sent
  Progress delivered_{0, 0};  // main thread: the last step passed to onProgress
};

// tbGenerateAsync(material, subNames, subTables, threads?, onProgress?) -> { promise, cancel() }.
Napi::Value tbGenerateAsyncCall(const Napi::CallbackInfo& info) {
  TbMaterial m;
  std::vector<TbSubTable> subs;
  std::vector<std::vector<std::uint8_t>> copies;
  if (!readInputs(info, m, subs, &copies)) return info.Env().Undefined();
  bool ok = false;
  const unsigned threads = readThreads(info, 3, ok);
  if (!ok) return info.Env().Undefined();
  Napi::Function onProgress;
  if (info.Length() > 4 && !info[4].IsUndefined()) {
    if (!info[4].IsFunction()) {
      throwTypeError(info.Env(), "tbGenerateAsync: onProgress must be a function");
      return info.Env().Undefined();
    }
    onProgress = info[4].As<Napi::Function>();
  }
  napi_deferred deferred = nullptr;
  napi_value promise = nullptr;
  if (napi_create_promise(info.Env(), &deferred, &promise) != napi_ok) {
    throwError(info.Env(), napi_create_error, "tbGenerateAsync: cannot create a promise");
    return info.Env().Undefined();
  }
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  auto* worker = new TbWorker(info.Env(), deferred, m, std::move(subs), std::move(copies), threads, onProgress, cancel);
  Napi::Object result = Napi::Object::New(info.Env());
  result.Set("promise", Napi::Value(info.Env(), promise));
  result.Set("cancel", Napi::Function::New(info.Env(), [cancel](const Napi::CallbackInfo& i) {
               cancel->store(true);
               return i.Env().Undefined();
             }));
  worker->Queue();
  return result;
}

}  // namespace

void exportTbgen(Napi::Env env, Napi::Object exports) {
  exportFunction<tbGenerateCall>(env, exports, "tbGenerate");
  exportFunction<tbGenerateAsyncCall>(env, exports, "tbGenerateAsync");
}

}  // namespace bbp::addon
