// Node-API glue for native/core/syzygy.h: maps the table files (on first use, each table once,
// guarded for the batch threads), and probes single positions or batches on all cores.
//
// A damaged file is reported as an Error with code "BBP_SYZYGY_FILE" and the fields `problem` and
// `path`; lib/tablebases/syzygy.ts turns it into a SyzygyFileError.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#if defined(_WIN32)
#include <cstdio>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "../core/syzygy.h"
#include "args.h"
#include "async_work.h"

namespace bbp::addon {
namespace {

namespace sz = bbp::syzygy;

using sz::kDtzNone;
using sz::kWdlNone;

// One table file: mapped and parsed on first use (syzygy.h's TableEntry, with the file's path, the
// mapping and a lock: several threads may ask for it at once).
struct TableEntry : sz::TableEntry {
  std::string path;
  std::mutex lock;
  std::atomic<int> state{0};  // 0 not loaded, 1 loaded, 2 failed
#if defined(_WIN32)
  std::vector<std::uint8_t> bytes;
#else
  void* map = nullptr;
  std::size_t mapSize = 0;
#endif

  ~TableEntry() { unmap(); }

  void unmap() {
#if !defined(_WIN32)
    if (map) munmap(map, mapSize);
    map = nullptr;
#else
    bytes.clear();
#endif
  }

  bool load() {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
#if defined(_WIN32)
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return failIo("cannot open the file");
    std::fseek(f, 0, SEEK_END);
    const long n = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    bytes.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    const bool ok = n >= 0 && std::fread(bytes.data(), 1, bytes.size(), f) == bytes.size();
    std::fclose(f);
    if (!ok) return failIo("cannot read the file");
    data = bytes.data();
    size = bytes.size();
#else
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return failIo("cannot open the file");
    struct stat st{};
    if (fstat(fd, &st) != 0) {
      ::close(fd);
      return failIo("cannot stat the file");
    }
    size = static_cast<std::size_t>(st.st_size);
    if (size > 0) {
      void* m = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
      if (m == MAP_FAILED) {
        ::close(fd);
        return failIo("cannot map the file");
      }
      madvise(m, size, MADV_RANDOM);
      map = m;
      mapSize = size;
      data = static_cast<const std::uint8_t*>(m);
    }
    ::close(fd);
#endif
    if (!parse(data, size)) {
      unmap();
      return false;
    }
    return true;
  }

  bool failIo(const char* text) {
    problem = sz::kSize;  // reported as 'io' below
    message = text;
    io = true;
    return false;
  }
  bool io = false;
};

struct TableSet : sz::TableEntries<TableEntry> {
  bool closed = false;
  int activeWorkers = 0;  // async batches running (main thread only): close() unmaps after the last

  void unmapAll() {
    for (auto& e : entries) e->unmap();
  }

  // The loaded table for the key or its mirror, or nullptr with the status (kMissing or the file's problem).
  // Each entry is loaded once, by the first thread to ask for it.
  const sz::Table* get(bool isDtz, sz::MaterialKey key, sz::Status& status) {
    return sz::loadedTable(isDtz ? dtz : wdl, key, status, lastFailed, [](TableEntry& e) {
      int state = e.state.load(std::memory_order_acquire);
      if (state == 0) {
        std::lock_guard<std::mutex> guard(e.lock);
        state = e.state.load(std::memory_order_relaxed);
        if (state == 0) {
          state = e.load() ? 1 : 2;
          e.state.store(state, std::memory_order_release);
        }
      }
      return state == 1;
    });
  }

  TableEntry* entryOf(const sz::Table* t) const {
    const int i = indexOfTable(t);
    return i < 0 ? nullptr : entries[static_cast<std::size_t>(i)].get();
  }

  static thread_local TableEntry* lastFailed;
};

thread_local TableEntry* TableSet::lastFailed = nullptr;

// A damaged file met by a probe: the entry and what is wrong (for decoding problems the entry's own
// load succeeded, so the problem comes from the probe).
struct Failure {
  TableEntry* entry = nullptr;
  sz::Status problem = sz::kOk;
};

void finalizeSet(Napi::Env, TableSet* set) { delete set; }

TableSet* setOf(const Napi::CallbackInfo& info, std::size_t i) {
  if (info.Length() <= i || !info[i].IsExternal()) {
    throwTypeError(info.Env(), std::string(functionName(info)) + ": handle must come from syzygyOpen");
    return nullptr;
  }
  TableSet* set = info[i].As<Napi::External<TableSet>>().Data();
  if (set->closed) {
    throwError(info.Env(), napi_create_error, std::string(functionName(info)) + ": the tablebase is closed");
    return nullptr;
  }
  return set;
}

// The Error for a damaged file: code "BBP_SYZYGY_FILE", the message, and the fields `problem` and
// `path` (lib/tablebases/syzygy.ts makes it a SyzygyFileError); nullptr when it cannot be made.
napi_value makeFileError(napi_env env, const Failure& f) {
  const TableEntry& e = *f.entry;
  const bool loadFailed = e.state.load() == 2;
  const std::string problem = loadFailed && e.io ? "io" : sz::problemName(loadFailed ? e.problem : f.problem);
  const std::string text = loadFailed ? e.message : "damaged table data (an index, block or value out of range)";
  napi_value code = nullptr, message = nullptr, error = nullptr, problemValue = nullptr, pathValue = nullptr;
  static constexpr char kCode[] = "BBP_SYZYGY_FILE";
  if (napi_create_string_utf8(env, kCode, sizeof kCode - 1, &code) != napi_ok ||
      napi_create_string_utf8(env, text.data(), text.size(), &message) != napi_ok ||
      napi_create_error(env, code, message, &error) != napi_ok ||
      napi_create_string_utf8(env, problem.data(), problem.size(), &problemValue) != napi_ok ||
      napi_create_string_utf8(env, e.path.data(), e.path.size(), &pathValue) != napi_ok ||
      napi_set_named_property(env, error, "problem", problemValue) != napi_ok ||
      napi_set_named_property(env, error, "path", pathValue) != napi_ok) {
    return nullptr;
  }
  return error;
}

void throwFileError(Napi::Env env, const Failure& f) {
  if (napi_value error = makeFileError(env, f)) napi_throw(env, error);
}

// syzygyOpen(paths: string[]) -> handle
Napi::Value openCall(const Napi::CallbackInfo& info) {
  if (info.Length() != 1 || !info[0].IsArray()) {
    throwTypeError(info.Env(), "syzygyOpen: paths must be an array of strings");
    return info.Env().Undefined();
  }
  auto paths = info[0].As<Napi::Array>();
  auto set = std::make_unique<TableSet>();
  for (std::uint32_t i = 0; i < paths.Length(); ++i) {
    Napi::Value v = paths.Get(i);
    if (!v.IsString()) {
      throwTypeError(info.Env(), "syzygyOpen: paths must be an array of strings");
      return info.Env().Undefined();
    }
    std::string path = v.As<Napi::String>().Utf8Value();
    sz::MaterialKey key;
    bool isDtz;
    if (!sz::tableFromFileName(path.data(), path.size(), key, isDtz)) continue;
    if (TableEntry* e = set->add(key, isDtz)) e->path = std::move(path);
  }
  return Napi::External<TableSet>::New(info.Env(), set.release(), finalizeSet);
}

// The slider lookup of the probe search (movegen.h's generator), made once.
const MagicSliders& sliders() {
  static const MagicSliders s{magicTables()};
  return s;
}

// After a probe: false when it has no answer; `failure` set for a damaged file.
bool answered(TableSet& set, const sz::Prober<TableSet>& prober, Failure& failure) {
  if (prober.status == sz::kOk) return true;
  if (prober.status != sz::kMissing) {
    failure.entry = prober.failedTable ? set.entryOf(prober.failedTable) : TableSet::lastFailed;
    failure.problem = prober.status;
    if (!failure.entry) failure.entry = set.entries.empty() ? nullptr : set.entries.front().get();
  }
  return false;
}

// The board of packed words the tables can answer (legal, no castling rights, few enough pieces).
bool tableBoard(const TableSet& set, const std::uint64_t* words, sz::Board& b) {
  int castling, count;
  return sz::boardFromPacked(sliders(), words, b, castling, count) && !castling && count <= set.maxPieces;
}

// One probe; kWdlNone / kDtzNone when unanswerable; `failure` set for a damaged file.
int probeOne(TableSet& set, const std::uint64_t* words, bool dtz, Failure& failure) {
  sz::Board b;
  const int none = dtz ? kDtzNone : kWdlNone;
  if (!tableBoard(set, words, b)) return none;
  TableSet::lastFailed = nullptr;
  sz::Prober<TableSet> prober(set, sliders());
  const int v = dtz ? prober.dtz(b) : prober.wdl(b);
  return answered(set, prober, failure) ? v : none;
}

// The packed words of one position (argument 1), or nullptr after throwing.
const std::uint64_t* onePosition(const Napi::CallbackInfo& info, std::size_t argc) {
  Args args(info, argc);
  const auto words = args.array<std::uint64_t>(1, "packed");
  if (!args.ok()) return nullptr;
  if (words.length != sz::kMaxPieces + 3) {  // PACKED_POSITION_WORDS
    throwRangeError(info.Env(), std::string(functionName(info)) + ": packed must have 10 words");
    return nullptr;
  }
  return words.data;
}

// syzygyProbe(handle, packed, dtz) -> number
Napi::Value probeCall(const Napi::CallbackInfo& info) {
  TableSet* set = setOf(info, 0);
  if (!set) return info.Env().Undefined();
  const std::uint64_t* words = onePosition(info, 3);
  if (!words) return info.Env().Undefined();
  const bool dtz = info[2].ToBoolean().Value();
  Failure failure;
  const int v = probeOne(*set, words, dtz, failure);
  if (failure.entry) {
    throwFileError(info.Env(), failure);
    return info.Env().Undefined();
  }
  return number(info, v);
}

// syzygyProbeRoot(handle, packed) -> Int32Array [wdl, dtz, n, then per move: move, wdl, dtz,
// zeroing | mate << 1], the moves best first (Prober::root); null when the tables cannot answer.
Napi::Value probeRootCall(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  TableSet* set = setOf(info, 0);
  if (!set) return env.Undefined();
  const std::uint64_t* words = onePosition(info, 2);
  if (!words) return env.Undefined();
  sz::Board b;
  if (!tableBoard(*set, words, b)) return env.Null();
  TableSet::lastFailed = nullptr;
  sz::Prober<TableSet> prober(*set, sliders());
  sz::RootMove moves[sz::kMaxMoves];
  const int n = prober.root(b, moves);
  const int wdl = prober.status ? 0 : prober.wdl(b);
  const int dtz = prober.status ? 0 : prober.dtz(b);
  Failure failure;
  if (!answered(*set, prober, failure)) {
    if (failure.entry) {
      throwFileError(env, failure);
      return env.Undefined();
    }
    return env.Null();
  }
  Napi::Int32Array out = Napi::Int32Array::New(env, 3 + 4 * static_cast<std::size_t>(n));
  sz::writeRootAnswer(out, wdl, dtz, moves, n);
  return out;
}

// Probes n positions into out (int8 WDL or int16 DTZ) on `threads` threads (0 = all cores), in
// chunks taken dynamically (positions differ a lot in cost); the first damaged file stops the batch.
Failure runBatch(TableSet& set, const std::uint64_t* in, const std::uint8_t* valid, std::size_t n, bool dtz, void* out,
                 unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  constexpr std::size_t kChunk = 256;
  if (n < kChunk * 2) threads = 1;
  std::atomic<std::size_t> next{0};
  std::mutex failureLock;
  Failure first;
  auto work = [&]() {
    Failure failure;
    for (;;) {
      const std::size_t from = next.fetch_add(kChunk);
      if (from >= n) return;
      const std::size_t to = std::min(n, from + kChunk);
      for (std::size_t i = from; i < to; ++i) {
        int v;
        if (valid && !valid[i]) v = dtz ? kDtzNone : kWdlNone;
        else v = probeOne(set, in + 10 * i, dtz, failure);
        if (failure.entry) {
          std::lock_guard<std::mutex> guard(failureLock);
          if (!first.entry) first = failure;
          next.store(n);  // stop every thread: the batch fails
          return;
        }
        if (dtz) static_cast<std::int16_t*>(out)[i] = static_cast<std::int16_t>(v);
        else static_cast<std::int8_t*>(out)[i] = static_cast<std::int8_t>(v);
      }
    }
  };
  if (threads <= 1) work();
  else {
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }
  return first;
}

// An OwnedAsyncWork (async_work.h): the positions (and flags) are copied into OwnedArrays before the
// work is queued and the results are written to an OwnedArray, delivered to JS as a new Int8Array /
// Int16Array when it completes, so JS can free, transfer or detach its buffers meanwhile. The handle
// is held by a reference and close() defers unmapping until the last running batch has finished.
template <typename Out>
class BatchWork : public OwnedAsyncWork {
 public:
  BatchWork(Napi::Env env, napi_value handle, TableSet* set, OwnedArray<std::uint64_t>&& words,
            OwnedArray<std::uint8_t>&& valid, OwnedArray<Out>&& out, unsigned threads)
      : OwnedAsyncWork(env, "bitboard-patterns:syzygyProbeBatch"), set_(set), words_(std::move(words)),
        valid_(std::move(valid)), out_(std::move(out)), threads_(threads) {
    napi_create_reference(env, handle, 1, &handle_);
    ++set_->activeWorkers;
  }

  // Main thread, after the promise settled: the last batch of a closed tablebase unmaps its files.
  ~BatchWork() override {
    if (--set_->activeWorkers == 0 && set_->closed) set_->unmapAll();
    if (handle_) napi_delete_reference(Env(), handle_);
  }

 private:
  static constexpr bool kDtz = sizeof(Out) == 2;

  void run() override {
    failure_ = runBatch(*set_, words_.data(), valid_.empty() ? nullptr : valid_.data(), out_.length(), kDtz,
                        out_.data(), threads_);
  }

  void settle(napi_env env, napi_value* value, napi_value* error) override {
    if (failure_.entry) {
      *error = makeFileError(env, failure_);
      return;
    }
    *value = deliver(env, nullptr, out_);
  }

  TableSet* set_;
  napi_ref handle_ = nullptr;
  OwnedArray<std::uint64_t> words_;
  OwnedArray<std::uint8_t> valid_;
  OwnedArray<Out> out_;
  unsigned threads_;
  Failure failure_;
};

// Main thread: copies the inputs, allocates the output and queues the batch.
template <typename Out>
Napi::Value startBatch(const Napi::CallbackInfo& info, TableSet* set, const std::uint64_t* words, std::size_t n,
                       const std::uint8_t* valid, unsigned threads) {
  const Napi::Env env = info.Env();
  OwnedArray<std::uint64_t> ownedWords;
  OwnedArray<std::uint8_t> ownedValid;
  OwnedArray<Out> out;
  if (!ownedWords.copyOf(words, n * 10) || (valid && !ownedValid.copyOf(valid, n)) || !out.allocate(n)) {
    throwRangeError(env, "syzygyProbeBatchAsync: cannot allocate the batch");
    return env.Undefined();
  }
  auto* work = new BatchWork<Out>(env, info[0], set, std::move(ownedWords), std::move(ownedValid), std::move(out), threads);
  napi_value promise = OwnedAsyncWork::start(work, "syzygyProbeBatchAsync");
  return promise ? Napi::Value(env, promise) : env.Undefined();
}

// The batch arguments `valid` (null or one Uint8Array flag per position) at argument `validAt`
// and `threads` (0 = all cores .. 1024) after it; false after throwing.
bool batchOptions(const Napi::CallbackInfo& info, std::size_t validAt, std::size_t n, const std::uint8_t*& valid,
                  unsigned& threads) {
  const Napi::Env env = info.Env();
  const Napi::Value v = info[validAt];
  valid = nullptr;
  if (!v.IsNull() && !v.IsUndefined()) {
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
        v.As<Napi::TypedArray>().ElementLength() != n) {
      throwTypeError(env, std::string(functionName(info)) + ": valid must be null or a Uint8Array of one flag per position");
      return false;
    }
    valid = v.As<Napi::Uint8Array>().Data();
  }
  const double requested = info[validAt + 1].IsNumber() ? info[validAt + 1].As<Napi::Number>().DoubleValue() : -1;
  if (!(requested >= 0 && requested <= 1024)) {
    throwRangeError(env, std::string(functionName(info)) + ": threads must be 0 (all cores) .. 1024");
    return false;
  }
  threads = static_cast<unsigned>(requested);
  return true;
}

// What both batch calls check first: the handle, the argument count, the positions' words (argument
// 1). nullptr when one fails (an exception is pending).
TableSet* batchStart(const Napi::CallbackInfo& info, std::size_t count, Span<std::uint64_t>& words) {
  TableSet* set = setOf(info, 0);
  if (!set) return nullptr;
  if (info.Length() != count) {
    throwTypeError(info.Env(), std::string(functionName(info)) + ": expected " + std::to_string(count) + " arguments");
    return nullptr;
  }
  Args args(info, count);
  words = args.array<std::uint64_t>(1, "positions");
  return args.ok() ? set : nullptr;
}

// syzygyProbeBatch(handle, words, dtz, out: Int8Array | Int16Array, valid: Uint8Array | null, threads)
Napi::Value probeBatchCall(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  Span<std::uint64_t> words;
  TableSet* set = batchStart(info, 6, words);
  if (!set) return env.Undefined();
  const bool dtz = info[2].ToBoolean().Value();
  if (!info[3].IsTypedArray()) {
    throwTypeError(env, "syzygyProbeBatch: out must be an Int8Array or Int16Array");
    return env.Undefined();
  }
  auto outArray = info[3].As<Napi::TypedArray>();
  const napi_typedarray_type want = dtz ? napi_int16_array : napi_int8_array;
  if (outArray.TypedArrayType() != want) {
    throwTypeError(env, std::string("syzygyProbeBatch: out must be ") + (dtz ? "an Int16Array" : "an Int8Array"));
    return env.Undefined();
  }
  const std::size_t n = outArray.ElementLength();
  if (words.length != n * 10) {
    throwRangeError(env, "syzygyProbeBatch: positions must have 10 words per output element");
    return env.Undefined();
  }
  const std::uint8_t* valid;
  unsigned threads;
  if (!batchOptions(info, 4, n, valid, threads)) return env.Undefined();
  void* out = static_cast<std::uint8_t*>(outArray.ArrayBuffer().Data()) + outArray.ByteOffset();
  const Failure first = runBatch(*set, words.data, valid, n, dtz, out, threads);
  if (first.entry) throwFileError(env, first);
  return env.Undefined();
}

// syzygyProbeBatchAsync(handle, words, dtz, valid: Uint8Array | null, threads) -> Promise<Int8Array | Int16Array>
Napi::Value probeBatchAsyncCall(const Napi::CallbackInfo& info) {
  const Napi::Env env = info.Env();
  Span<std::uint64_t> words;
  TableSet* set = batchStart(info, 5, words);
  if (!set) return env.Undefined();
  if (words.length % 10 != 0) {
    throwRangeError(env, "syzygyProbeBatchAsync: positions must have 10 words per position");
    return env.Undefined();
  }
  const std::size_t n = words.length / 10;
  const bool dtz = info[2].ToBoolean().Value();
  const std::uint8_t* valid;
  unsigned threads;
  if (!batchOptions(info, 3, n, valid, threads)) return env.Undefined();
  return dtz ? startBatch<std::int16_t>(info, set, words.data, n, valid, threads)
             : startBatch<std::int8_t>(info, set, words.data, n, valid, threads);
}

// syzygyVerify(handle): maps and parses every table now; the first damaged one is thrown.
Napi::Value verifyCall(const Napi::CallbackInfo& info) {
  TableSet* set = setOf(info, 0);
  if (!set) return info.Env().Undefined();
  for (auto& e : set->entries) {
    sz::Status status = sz::kOk;
    if (!set->get(e->dtz, e->key, status)) {
      Failure f;
      f.entry = e.get();
      f.problem = status;
      throwFileError(info.Env(), f);
      return info.Env().Undefined();
    }
  }
  return info.Env().Undefined();
}

// syzygyClose(handle): unmaps every file now, or after the last running async batch.
Napi::Value closeCall(const Napi::CallbackInfo& info) {
  if (info.Length() != 1 || !info[0].IsExternal()) {
    throwTypeError(info.Env(), "syzygyClose: handle must come from syzygyOpen");
    return info.Env().Undefined();
  }
  TableSet* set = info[0].As<Napi::External<TableSet>>().Data();
  if (!set->closed) {
    set->closed = true;
    if (set->activeWorkers == 0) set->unmapAll();
  }
  return info.Env().Undefined();
}

}  // namespace

void exportSyzygy(Napi::Env env, Napi::Object exports) {
  exportFunctions<openCall, probeCall, probeRootCall, probeBatchCall, probeBatchAsyncCall, closeCall, verifyCall>(env, exports,
      {"syzygyOpen", "syzygyProbe", "syzygyProbeRoot", "syzygyProbeBatch", "syzygyProbeBatchAsync", "syzygyClose", "syzygyVerify"});
}

}  // namespace bbp::addon
