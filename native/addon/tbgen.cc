// Node-API glue for native/core/tbgen.h: the general tablebase generator, synchronous (blocks the
// caller) and asynchronous (an OwnedAsyncWork, async_work.h: the generator's threads run on memory
// the addon owns; the sub-tables are copied before queueing and the table is delivered on completion).
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../core/tbgen.h"
#include "args.h"
#include "async_work.h"

namespace bbp::addon {
namespace {

constexpr int kMaxThreads = 1024;

unsigned allCores() { return std::max(1u, std::thread::hardware_concurrency()); }

const char* statusText(TbStatus s) {
  switch (s) {
    case TbStatus::cancelled: return "generation cancelled";
    case TbStatus::missingSubTable: return "a sub-ending table is missing";
    case TbStatus::tooLong: return "a distance exceeds what the table holds (DTM: 253 plies, DTZ: 65535)";
    default: return "ok";
  }
}

// Reads material (string), subNames (string, comma-separated) and subTables (array of Uint8Array of
// the right sizes) into `m` and `subs`; false with a pending exception otherwise. With `copies` the
// sub-tables are copied into it and `subs` points there.
bool readInputs(const Napi::CallbackInfo& info, TbMaterial& m, std::vector<TbSubTable>& subs,
                std::vector<OwnedArray<std::uint8_t>>* copies) {
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
      if (!(*copies)[i].copyOf(a.Data(), a.ElementLength())) {
        throwRangeError(env, fn + ": cannot allocate a copy of sub-table " + parts[i]);
        return false;
      }
      sub.data = (*copies)[i].data();
    } else {
      sub.data = a.Data();
    }
    subs.push_back(sub);
  }
  return true;
}

// The metric argument at i: undefined or 1 = DTM, 2 = DTZ.
bool readMetric(const Napi::CallbackInfo& info, std::size_t i, TbMetric& metric) {
  metric = TbMetric::dtm;
  if (i >= info.Length() || info[i].IsUndefined()) return true;
  const double d = info[i].IsNumber() ? info[i].As<Napi::Number>().DoubleValue() : -1;
  if (d != 1 && d != 2) {
    throwRangeError(info.Env(), std::string(functionName(info)) + ": metric must be 1 (DTM) or 2 (DTZ)");
    return false;
  }
  metric = d == 2 ? TbMetric::dtz : TbMetric::dtm;
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

// The long DTZ values as a Uint32Array of (index, plies) pairs, sorted by index.
OwnedArray<std::uint32_t> longPairs(const std::vector<TbLongValue>& longs, bool& ok) {
  OwnedArray<std::uint32_t> pairs;
  ok = pairs.allocate(2 * longs.size());
  for (std::size_t i = 0; ok && i < longs.size(); ++i) {
    pairs.data()[2 * i] = longs[i].index;
    pairs.data()[2 * i + 1] = longs[i].plies;
  }
  return pairs;
}

// tbGenerate(material, subNames, subTables, table, threads?, metric?): fills table; returns the long
// values (longPairs).
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
  TbMetric metric;
  if (!readMetric(info, 5, metric)) return info.Env().Undefined();
  std::vector<TbLongValue> longs;
  const TbStatus s = tbGenerate(MagicSliders{magicTables()}, m, info[3].As<Napi::Uint8Array>().Data(), subs.data(),
                                static_cast<int>(subs.size()), threads, nullptr, nullptr, nullptr, metric, &longs);
  if (s != TbStatus::ok) {
    throwRangeError(info.Env(), std::string(functionName(info)) + ": " + statusText(s));
    return info.Env().Undefined();
  }
  OwnedArray<std::uint32_t> pairs = longPairs(longs, ok);
  if (!ok) {
    throwRangeError(info.Env(), std::string(functionName(info)) + ": cannot allocate the long values");
    return info.Env().Undefined();
  }
  napi_value out = deliver(info.Env(), nullptr, pairs);
  return out ? Napi::Value(info.Env(), out) : info.Env().Undefined();
}

// An OwnedAsyncWork (async_work.h): the generator fills a table the addon owns from owned copies of
// the sub-tables, on a libuv worker thread driving `threads` native threads. Progress goes through
// the mechanism (the latest step reaches onProgress; the last one always does, before the promise
// settles). The JS cancel flag is read on the main thread at each step and raises the work's atomic
// flag, which the generator tests between plies. On completion the table is delivered as a new
// Uint8Array over the addon's own table (an external ArrayBuffer, handOver: no copy); a cancelled,
// failed generation rejects with an Error naming the reason.
class TbWork : public OwnedAsyncWork {
 public:
  TbWork(Napi::Env env, const TbMaterial& m, std::vector<TbSubTable> subs, std::vector<OwnedArray<std::uint8_t>>&& copies,
         OwnedArray<std::uint8_t>&& table, unsigned threads, TbMetric metric, napi_value onProgress, napi_value cancel)
      : OwnedAsyncWork(env, "bitboard-patterns:tbGenerate"), m_(m), subs_(std::move(subs)), copies_(std::move(copies)),
        table_(std::move(table)), threads_(threads), metric_(metric) {
    if (onProgress) setOnProgress(onProgress);
    watchCancelFlag(cancel);
  }

 private:
  void run() override {
    status_ = tbGenerate(MagicSliders{magicTables()}, m_, table_.data(), subs_.data(), static_cast<int>(subs_.size()),
                         threads_, &TbWork::step, this, cancelledFlag(), metric_, &longs_);
    bool ok = true;
    if (status_ == TbStatus::ok) pairs_ = longPairs(longs_, ok);
    if (!ok) status_ = TbStatus::tooLong;
    std::vector<TbLongValue>().swap(longs_);
  }

  // On the generator's calling thread.
  static void step(void* self, unsigned done, unsigned total) { static_cast<TbWork*>(self)->progress(done, total); }

  void settle(napi_env env, napi_value* value, napi_value* error) override {
    // A cancel seen before settling wins (as on the JS backend, which checks the signal last).
    const TbStatus s = cancelled() ? TbStatus::cancelled : status_;
    if (s != TbStatus::ok) {
      *error = makeError(env, napi_create_error, std::string("tbGenerateAsync: ") + statusText(s));
      return;
    }
    // [table, long values]: the table itself, not a copy (peak memory is one table)
    napi_value pair = nullptr, table = handOver(env, table_), pairs = deliver(env, nullptr, pairs_);
    if (!table || !pairs || napi_create_array_with_length(env, 2, &pair) != napi_ok ||
        napi_set_element(env, pair, 0, table) != napi_ok || napi_set_element(env, pair, 1, pairs) != napi_ok) {
      *error = makeError(env, napi_create_error, "tbGenerateAsync: cannot deliver the table");
      return;
    }
    *value = pair;
  }

  TbMaterial m_;
  std::vector<TbSubTable> subs_;                // point into copies_
  std::vector<OwnedArray<std::uint8_t>> copies_;
  OwnedArray<std::uint8_t> table_;
  std::vector<TbLongValue> longs_;
  OwnedArray<std::uint32_t> pairs_;
  unsigned threads_;
  TbMetric metric_;
  TbStatus status_ = TbStatus::ok;
};

// tbGenerateAsync(material, subNames, subTables, threads, onProgress: function | undefined,
// cancel: Int32Array(1), metric?) -> Promise<[Uint8Array table, Uint32Array long values]>; cancel[0]
// set non-zero cancels.
Napi::Value tbGenerateAsyncCall(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  TbMaterial m;
  std::vector<TbSubTable> subs;
  std::vector<OwnedArray<std::uint8_t>> copies;
  if (!readInputs(info, m, subs, &copies)) return env.Undefined();
  bool ok = false;
  const unsigned threads = readThreads(info, 3, ok);
  if (!ok) return env.Undefined();
  napi_value onProgress = nullptr;
  if (info.Length() > 4 && !info[4].IsUndefined()) {
    if (!info[4].IsFunction()) {
      throwTypeError(env, "tbGenerateAsync: onProgress must be a function");
      return env.Undefined();
    }
    onProgress = info[4];
  }
  if (info.Length() < 6 || !info[5].IsTypedArray() || info[5].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
      info[5].As<Napi::TypedArray>().ElementLength() != 1) {
    throwTypeError(env, "tbGenerateAsync: cancel must be an Int32Array of length 1");
    return env.Undefined();
  }
  TbMetric metric;
  if (!readMetric(info, 6, metric)) return env.Undefined();
  OwnedArray<std::uint8_t> table;
  if (!table.allocate(m.tableSize())) {
    throwRangeError(env, "tbGenerateAsync: cannot allocate the table");
    return env.Undefined();
  }
  auto* work = new TbWork(env, m, std::move(subs), std::move(copies), std::move(table), threads, metric, onProgress, info[5]);
  napi_value promise = OwnedAsyncWork::start(work, "tbGenerateAsync");
  return promise ? Napi::Value(env, promise) : env.Undefined();
}

}  // namespace

void exportTbgen(Napi::Env env, Napi::Object exports) {
  exportFunction<tbGenerateCall>(env, exports, "tbGenerate");
  exportFunction<tbGenerateAsyncCall>(env, exports, "tbGenerateAsync");
}

}  // namespace bbp::addon
