// Node-API glue for batch analysis (native/core/analysis.h, fen.h): FEN/EPD text to packed words,
// analyzeBatch (synchronous, this thread), analyzeBatchAsync (a Node-API async work item that splits
// the positions over native threads, cancellable through a flag the JS side sets), toPlanes, and the
// NDJSON/CSV record formatter of the CLI. Every argument is checked here again; a bad position is a
// RangeError (or a rejected promise) naming its index.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "args.h"

namespace bbp::addon {
namespace {

using U8 = std::uint8_t;

constexpr unsigned kAllFeatures = (1u << kFeatureCount) - 1;
constexpr std::size_t kChunk = 4096;  // positions per unit of threaded work and per cancel check

// ---- parseFenText(text: Uint8Array, epd: boolean) -> [words, status, lineStarts] ----

// Lines end at '\n'; a last line without one counts too. lineStarts has n + 1 entries: line i is
// text[lineStarts[i], lineStarts[i + 1] - 1).
Napi::Value parseFenText(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto text = args.array<U8>(0, "text");
  const bool epd = args.boolean(1, "epd");
  if (!args.ok()) return args.undefined();
  if (text.length > 0xfffffff0u) return args.fail("text must be shorter than 4 GiB"), args.undefined();
  const char* data = reinterpret_cast<const char*>(text.data);
  std::size_t lines = 0;
  for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', text.length - (p - data)))); ++p) ++lines;
  if (text.length > 0 && data[text.length - 1] != '\n') ++lines;

  Napi::Env env = info.Env();
  auto words = Napi::BigUint64Array::New(env, lines * kPackedPositionWords);
  auto status = Napi::Uint8Array::New(env, lines);
  auto starts = Napi::Uint32Array::New(env, lines + 1);
  const Kernels& k = kernelsOf(info);
  std::size_t at = 0;
  for (std::size_t i = 0; i < lines; ++i) {
    const char* nl = static_cast<const char*>(std::memchr(data + at, '\n', text.length - at));
    const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : text.length;
    starts[i] = static_cast<std::uint32_t>(at);
    status[i] = k.parseFenLine(data + at, end - at, epd, words.Data() + i * kPackedPositionWords);
    at = end + 1;
  }
  starts[lines] = static_cast<std::uint32_t>(at);
  Napi::Array result = Napi::Array::New(env, 3);
  result.Set(0u, words);
  result.Set(1u, status);
  result.Set(2u, starts);
  return result;
}

// ---- The common arguments of the analysis calls ----

struct BatchArgs {
  const U64* words = nullptr;
  const U8* valid = nullptr;
  std::size_t count = 0;
  unsigned features = 0;
  void* outs[kFeatureCount] = {};
};

// (words, valid | null, features, outs: Array) at argument positions 0..3.
bool readBatchArgs(Args& args, const Napi::CallbackInfo& info, BatchArgs& b) {
  const auto words = args.array<U64>(0, "words");
  const auto valid = args.optionalArray<U8>(1, "valid");
  b.features = static_cast<unsigned>(args.count(2, "features", kAllFeatures));
  if (!args.ok()) return false;
  if (words.length % kPackedPositionWords)
    return args.fail("words must hold " + std::to_string(kPackedPositionWords) + " words per position, got " +
                     std::to_string(words.length)), false;
  b.words = words.data;
  b.count = words.length / kPackedPositionWords;
  if (valid.data) {
    if (valid.length != b.count)
      return args.fail("valid has length " + std::to_string(valid.length) + ", expected " + std::to_string(b.count)), false;
    b.valid = valid.data;
  }
  if (!info[3].IsArray()) return args.failType("outs must be an Array of typed arrays"), false;
  const Napi::Array outs = info[3].As<Napi::Array>();
  if (outs.Length() != kFeatureCount)
    return args.fail("outs must have " + std::to_string(kFeatureCount) + " entries, got " + std::to_string(outs.Length())), false;
  for (unsigned f = 0; f < kFeatureCount; ++f) {
    if (!(b.features & (1u << f))) continue;
    const std::string name = "outs[" + std::to_string(f) + "]";
    const std::size_t want = b.count * featureWidth(f);
    std::size_t got = 0;
    if (isU64Feature(f)) {
      const auto a = args.arrayElement<U64>(outs.Get(f), name);
      b.outs[f] = a.data, got = a.length;
    } else {
      const auto a = args.arrayElement<U8>(outs.Get(f), name);
      b.outs[f] = a.data, got = a.length;
    }
    if (!args.ok()) return false;
    if (got != want)
      return args.fail(name + " has length " + std::to_string(got) + ", expected " + std::to_string(want)), false;
  }
  return true;
}

std::string invalidMessage(const char* fn, const U64* words, std::size_t i) {
  const char* problem = validatePacked(words + i * kPackedPositionWords);
  return std::string(fn) + ": position " + std::to_string(i) + " is not valid: " + (problem ? problem : "?");
}

// ---- analyzeBatch(words, valid, features, outs) ----

Napi::Value analyzeBatch(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  BatchArgs b;
  if (!readBatchArgs(args, info, b)) return args.undefined();
  const std::size_t bad = kernelsOf(info).analyzeRange(b.words, b.valid, 0, b.count, b.features, b.outs);
  if (bad != b.count) {
    Napi::RangeError::New(info.Env(), invalidMessage(functionName(info), b.words, bad)).ThrowAsJavaScriptException();
  }
  return args.undefined();
}

// ---- analyzeBatchAsync(words, valid, features, outs, threads, cancel: Int32Array(1)) -> Promise<boolean> ----

// Runs on a libuv pool thread; splits the positions over `threads` native threads (itself one of
// them) that take chunks from a shared counter and stop taking when the cancel flag is set.
class AnalyzeWork : public Napi::AsyncWorker {
 public:
  AnalyzeWork(Napi::Env env, const Kernels& kernels, const BatchArgs& batch, unsigned threads, const std::int32_t* cancel,
              std::vector<Napi::Reference<Napi::Value>>&& keep)
      : Napi::AsyncWorker(env, "bitboard-patterns:analyzeBatchAsync"),
        deferred_(Napi::Promise::Deferred::New(env)),
        kernels_(kernels), batch_(batch), threads_(threads), cancel_(cancel), keep_(std::move(keep)) {}

  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    const std::size_t chunks = (batch_.count + kChunk - 1) / kChunk;
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(threads_, chunks > 0 ? chunks : 1)) - 1;
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (unsigned t = 0; t < helpers; ++t) pool.emplace_back([this, chunks] { drain(chunks); });
    drain(chunks);
    for (std::thread& t : pool) t.join();
  }

  void OnOK() override {
    Napi::Env env = Env();
    const std::size_t bad = firstBad_.load();
    if (bad != kNone) {
      deferred_.Reject(Napi::RangeError::New(env, invalidMessage("analyzeBatchAsync", batch_.words, bad)).Value());
    } else {
      deferred_.Resolve(Napi::Boolean::New(env, !cancelled_.load()));
    }
  }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};

  void drain(std::size_t chunks) {
    for (;;) {
      if (__atomic_load_n(cancel_, __ATOMIC_RELAXED) != 0) {
        cancelled_.store(true);
        return;
      }
      if (firstBad_.load(std::memory_order_relaxed) != kNone) return;
      const std::size_t c = next_.fetch_add(1);
      if (c >= chunks) return;
      const std::size_t begin = c * kChunk, end = std::min(batch_.count, begin + kChunk);
      const std::size_t bad = kernels_.analyzeRange(batch_.words, batch_.valid, begin, end, batch_.features, batch_.outs);
      if (bad != end) {
        std::size_t seen = firstBad_.load();
        while (bad < seen && !firstBad_.compare_exchange_weak(seen, bad)) {
        }
      }
    }
  }

  Napi::Promise::Deferred deferred_;
  const Kernels& kernels_;
  BatchArgs batch_;
  unsigned threads_;
  const std::int32_t* cancel_;
  std::vector<Napi::Reference<Napi::Value>> keep_;  // the arrays stay alive while the threads use them
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> firstBad_{kNone};
  std::atomic<bool> cancelled_{false};
};

Napi::Value analyzeBatchAsync(const Napi::CallbackInfo& info) {
  Args args(info, 6);
  BatchArgs b;
  if (!readBatchArgs(args, info, b)) return args.undefined();
  const unsigned threads = static_cast<unsigned>(args.count(4, "threads", 256));
  const auto cancel = args.array<std::int32_t>(5, "cancel");
  if (!args.ok()) return args.undefined();
  if (threads < 1) return args.fail("threads must be 1..256"), args.undefined();
  if (cancel.length != 1) return args.fail("cancel must be an Int32Array of length 1"), args.undefined();
  std::vector<Napi::Reference<Napi::Value>> keep;
  for (std::size_t i : {0, 1, 3, 5})  // references hold objects only (valid may be null)
    if (info[i].IsObject()) keep.push_back(Napi::Persistent(info[i]));
  auto* work = new AnalyzeWork(info.Env(), kernelsOf(info), b, threads, cancel.data, std::move(keep));
  const Napi::Promise promise = work->promise();
  work->Queue();
  return promise;
}

// ---- toPlanes(words, valid, out) ----

Napi::Value toPlanes(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const auto words = args.array<U64>(0, "words");
  const auto valid = args.optionalArray<U8>(1, "valid");
  const auto out = args.array<U8>(2, "out");
  if (!args.ok()) return args.undefined();
  if (words.length % kPackedPositionWords) return args.fail("words must hold 10 words per position"), args.undefined();
  const std::size_t n = words.length / kPackedPositionWords;
  if (valid.data && valid.length != n) return args.fail("valid has the wrong length"), args.undefined();
  if (out.length != n * kPlaneBytes)
    return args.fail("out has length " + std::to_string(out.length) + ", expected " + std::to_string(n * kPlaneBytes)),
           args.undefined();
  for (std::size_t i = 0; i < n; ++i) {
    const U64* w = words.data + i * kPackedPositionWords;
    if (valid.data && !valid.data[i]) {
      std::memset(out.data + i * kPlaneBytes, 0, kPlaneBytes);
      continue;
    }
    if (validatePacked(w)) {
      Napi::RangeError::New(info.Env(), invalidMessage("toPlanes", words.data, i)).ThrowAsJavaScriptException();
      return args.undefined();
    }
    writePlanes(w, out.data + i * kPlaneBytes);
  }
  return args.undefined();
}

// ---- formatRecords(text, lineStarts, valid, order, outs, format, firstLine) -> [Buffer, recordStarts] ----

class Writer {
 public:
  void reserve(std::size_t n) { buf_.reserve(n); }
  void put(char c) { buf_.push_back(c); }
  void put(const char* s) { buf_.insert(buf_.end(), s, s + std::strlen(s)); }
  void put(const char* s, std::size_t n) { buf_.insert(buf_.end(), s, s + n); }
  void number(std::uint64_t v) {
    char tmp[24];
    int n = 0;
    do tmp[n++] = static_cast<char>('0' + v % 10);
    while ((v /= 10));
    while (n) buf_.push_back(tmp[--n]);
  }
  void hex(std::uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    put("0x");
    char tmp[16];
    int n = 0;
    do tmp[n++] = digits[v & 15];
    while ((v >>= 4));
    while (n) buf_.push_back(tmp[--n]);
  }
  // JSON.stringify's escapes: \" \\ \b \f \n \r \t, other controls as \u00xx.
  void jsonString(const char* s, std::size_t n) {
    put('"');
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      switch (c) {
        case '"': put("\\\""); break;
        case '\\': put("\\\\"); break;
        case '\b': put("\\b"); break;
        case '\f': put("\\f"); break;
        case '\n': put("\\n"); break;
        case '\r': put("\\r"); break;
        case '\t': put("\\t"); break;
        default:
          if (c < 0x20) {
            static const char digits[] = "0123456789abcdef";
            put("\\u00");
            put(digits[c >> 4]);
            put(digits[c & 15]);
          } else {
            put(static_cast<char>(c));
          }
      }
    }
    put('"');
  }
  void csvString(const char* s, std::size_t n) {
    put('"');
    for (std::size_t i = 0; i < n; ++i) {
      if (s[i] == '"') put('"');
      put(s[i]);
    }
    put('"');
  }
  std::size_t size() const { return buf_.size(); }
  const char* data() const { return buf_.data(); }

 private:
  std::vector<char> buf_;
};

// FEATURES names, in FeatureId order (lib/batch.ts keeps the same list).
const char* const kFeatureNames[kFeatureCount] = {
  "checkers", "pinned", "discoveredCheckCandidates", "attacked", "kingZoneAttacks", "distantCheckLines",
  "pawnShieldIndex", "uncatchablePassers", "knightForkSquares", "inCheck", "legalMoveCount", "checkmate",
  "stalemate",
};

Napi::Value formatRecords(const Napi::CallbackInfo& info) {
  Args args(info, 7);
  const auto text = args.array<U8>(0, "text");
  const auto starts = args.array<std::uint32_t>(1, "lineStarts");
  const auto valid = args.array<U8>(2, "valid");
  const auto order = args.array<U8>(3, "order");
  const int format = static_cast<int>(args.count(5, "format", 1));
  const double firstLine = args.count(6, "firstLine", 9007199254740991.0);
  if (!args.ok()) return args.undefined();
  const std::size_t n = valid.length;
  if (starts.length != n + 1) return args.fail("lineStarts must have valid.length + 1 entries"), args.undefined();
  for (std::size_t i = 0; i < n; ++i)
    if (starts.data[i] >= starts.data[i + 1] || starts.data[i + 1] - 1 > text.length)
      return args.fail("lineStarts[" + std::to_string(i) + "] is out of order or past the text"), args.undefined();
  if (!info[4].IsArray()) return args.failType("outs must be an Array of typed arrays"), args.undefined();
  const Napi::Array outsArray = info[4].As<Napi::Array>();
  if (outsArray.Length() != kFeatureCount) return args.fail("outs has the wrong length"), args.undefined();
  const void* outs[kFeatureCount] = {};
  for (std::size_t j = 0; j < order.length; ++j) {
    const unsigned f = order.data[j];
    if (f >= kFeatureCount) return args.fail("order holds a feature id >= " + std::to_string(kFeatureCount)), args.undefined();
    const std::string name = "outs[" + std::to_string(f) + "]";
    std::size_t got = 0;
    if (isU64Feature(f)) {
      const auto a = args.arrayElement<U64>(outsArray.Get(f), name);
      outs[f] = a.data, got = a.length;
    } else {
      const auto a = args.arrayElement<U8>(outsArray.Get(f), name);
      outs[f] = a.data, got = a.length;
    }
    if (!args.ok()) return args.undefined();
    if (got != n * featureWidth(f)) return args.fail(name + " has the wrong length"), args.undefined();
  }

  Writer w;
  w.reserve(n * (64 + 40 * order.length));
  auto recordStarts = Napi::Uint32Array::New(info.Env(), n + 1);
  const char* data = reinterpret_cast<const char*>(text.data);
  for (std::size_t i = 0; i < n; ++i) {
    recordStarts[i] = static_cast<std::uint32_t>(w.size());
    if (!valid.data[i]) continue;  // error records are written by the caller
    // The input echo: the line with ASCII white space trimmed at both ends.
    std::size_t a = starts.data[i], e = starts.data[i + 1] - 1;
    while (a < e && (data[a] == ' ' || (data[a] >= 9 && data[a] <= 13))) ++a;
    while (e > a && (data[e - 1] == ' ' || (data[e - 1] >= 9 && data[e - 1] <= 13))) --e;
    const std::uint64_t line = static_cast<std::uint64_t>(firstLine) + i;
    if (format == 0) {
      w.put("{\"line\":");
      w.number(line);
      w.put(",\"input\":");
      w.jsonString(data + a, e - a);
    } else {
      w.number(line);
      w.put(',');
      w.csvString(data + a, e - a);
    }
    for (std::size_t j = 0; j < order.length; ++j) {
      const unsigned f = order.data[j];
      const unsigned width = featureWidth(f);
      if (format == 0) {
        w.put(",\"");
        w.put(kFeatureNames[f]);
        w.put("\":");
        if (width == 2) w.put('[');
      }
      for (unsigned k = 0; k < width; ++k) {
        if (k || format == 1) w.put(',');
        if (isU64Feature(f)) {  // JSON numbers cannot hold 64 bits: hex strings
          if (format == 0) w.put('"');
          w.hex(static_cast<const U64*>(outs[f])[i * width + k]);
          if (format == 0) w.put('"');
        }
        else if (isFlagFeature(f) && format == 0) w.put(static_cast<const U8*>(outs[f])[i] ? "true" : "false");
        else w.number(static_cast<const U8*>(outs[f])[i * width + k]);
      }
      if (format == 0 && width == 2) w.put(']');
    }
    w.put(format == 0 ? "}\n" : ",\n");  // CSV: the empty error column
  }
  if (w.size() > 0xffffffffu) return args.fail("output larger than 4 GiB: format fewer lines at a time"), args.undefined();
  recordStarts[n] = static_cast<std::uint32_t>(w.size());
  Napi::Array result = Napi::Array::New(info.Env(), 2);
  result.Set(0u, Napi::Buffer<char>::Copy(info.Env(), w.data(), w.size()));
  result.Set(1u, recordStarts);
  return result;
}

}  // namespace

void exportBatch(Napi::Env env, Napi::Object exports) {
  Napi::Object batch = Napi::Object::New(env);
  exportFunction<parseFenText>(env, batch, "parseFenText");
  exportFunction<analyzeBatch>(env, batch, "analyzeBatch");
  exportFunction<analyzeBatchAsync>(env, batch, "analyzeBatchAsync");
  exportFunction<toPlanes>(env, batch, "toPlanes");
  exportFunction<formatRecords>(env, batch, "formatRecords");
  batch.Set("featureCount", Napi::Number::New(env, kFeatureCount));
  batch.Set("planeBytes", Napi::Number::New(env, static_cast<double>(kPlaneBytes)));
  batch.Set("hardwareThreads", Napi::Number::New(env, std::max(1u, std::thread::hardware_concurrency())));
  exports.Set("batch", batch);
}

}  // namespace bbp::addon
