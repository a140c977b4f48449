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
#include "async_work.h"
#include "records.h"
#include "../core/pgn.h"
#include "../core/polyglot.h"
#include "text_lines.h"

namespace bbp::addon {
namespace {

using U8 = std::uint8_t;

constexpr unsigned kAllFeatures = (1u << kFeatureCount) - 1;
constexpr std::size_t kChunk = 4096;  // positions per unit of threaded work and per cancel check

// ---- parseFenText(text: Uint8Array, epd: boolean, into?, chess960?) -> [words, status, lineStarts] | n ----

template <typename A, typename B>
bool overlaps(const Span<A>& a, const Span<B>& b) {
  const auto* a0 = reinterpret_cast<const char*>(a.data);
  const auto* b0 = reinterpret_cast<const char*>(b.data);
  return a.length > 0 && b.length > 0 && a0 < b0 + b.length * sizeof(B) && b0 < a0 + a.length * sizeof(A);
}

// Lines end at '\n'; a last line without one counts too. lineStarts has n + 1 entries: line i is
// text[lineStarts[i], lineStarts[i + 1] - 1). `into` ({ words, status, starts }): arrays to write to
// when they are long enough for the n lines; the result is then n, the count of lines written to
// their starts (a caller that parses chunk after chunk reuses them instead of fresh memory).
// chess960 (optional boolean): castling fields read as X-FEN, as parseFen's { chess960: true }.
Napi::Value parseFenText(const Napi::CallbackInfo& info) {
  Args args(info, 2, 4);
  const auto text = args.array<U8>(0, "text");
  const bool epd = args.boolean(1, "epd");
  const bool chess960 = info.Length() == 4 && !info[3].IsUndefined() && args.boolean(3, "chess960");
  const bool hasInto = info.Length() >= 3 && !info[2].IsUndefined();
  Span<std::uint64_t> intoWords;
  Span<U8> intoStatus;
  Span<std::uint32_t> intoStarts;
  if (hasInto && args.ok()) {
    if (!info[2].IsObject()) return args.failType("into must be an object { words, status, starts }"), args.undefined();
    const Napi::Object into = info[2].As<Napi::Object>();
    intoWords = args.arrayElement<std::uint64_t>(into.Get("words"), "into.words");
    intoStatus = args.arrayElement<U8>(into.Get("status"), "into.status");
    intoStarts = args.arrayElement<std::uint32_t>(into.Get("starts"), "into.starts");
  }
  if (!args.ok()) return args.undefined();
  if (hasInto && (overlaps(text, intoWords) || overlaps(text, intoStatus) || overlaps(text, intoStarts)))
    return args.fail("into must not share memory with text"), args.undefined();
  if (text.length > 0xfffffff0u) return args.fail("text must be shorter than 4 GiB"), args.undefined();
  const char* data = reinterpret_cast<const char*>(text.data);
  const std::size_t lines = countLines(data, text.length);

  Napi::Env env = info.Env();
  const bool fits = hasInto && intoWords.length >= lines * kPackedPositionWords && intoStatus.length >= lines &&
                    intoStarts.length >= lines + 1;
  Napi::BigUint64Array words;
  Napi::Uint8Array status;
  Napi::Uint32Array starts;
  if (!fits) {
    words = Napi::BigUint64Array::New(env, lines * kPackedPositionWords);
    status = Napi::Uint8Array::New(env, lines);
    starts = Napi::Uint32Array::New(env, lines + 1);
  }
  std::uint64_t* const wordsOut = fits ? intoWords.data : words.Data();
  U8* const statusOut = fits ? intoStatus.data : status.Data();
  std::uint32_t* const startsOut = fits ? intoStarts.data : starts.Data();
  parseLines(kernelsOf(info), data, text.length, lines, epd, wordsOut, statusOut, startsOut, chess960);
  if (fits) return Napi::Number::New(env, static_cast<double>(lines));
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
    throwRangeError(info.Env(), invalidMessage(functionName(info), b.words, bad));
  }
  return args.undefined();
}

// ---- analyzeBatchAsync(words, valid, features, outs, threads, cancel: Int32Array(1)) -> Promise<boolean> ----

// An OwnedAsyncWork (async_work.h): the words and valid flags are copied and the outputs allocated
// in addon memory here, on the main thread; a libuv pool thread splits the positions over `threads`
// native threads (itself one of them) that take chunks from a shared counter and stop taking when
// the work is cancelled; on completion the results are copied into `outs` (an entry that is no longer
// a usable array is replaced by a new one). Resolves false when cancelled first.
// The owned copies and outputs, made before the work object (a work object must be queued once made).
struct AnalyzeData {
  std::size_t count = 0;
  unsigned features = 0;
  OwnedArray<U64> words;
  OwnedArray<U8> valid;
  OwnedArray<U64> wide[kFeatureCount];
  OwnedArray<U8> narrow[kFeatureCount];

  // False when the memory cannot be had.
  bool take(const BatchArgs& b) {
    count = b.count;
    features = b.features;
    if (!words.copyOf(b.words, b.count * kPackedPositionWords) || (b.valid && !valid.copyOf(b.valid, b.count))) return false;
    for (unsigned f = 0; f < kFeatureCount; ++f) {
      if (!(features & (1u << f))) continue;
      const std::size_t length = count * featureWidth(f);
      if (!(isU64Feature(f) ? wide[f].allocate(length) : narrow[f].allocate(length))) return false;
    }
    return true;
  }
};

class AnalyzeWork : public OwnedAsyncWork {
 public:
  AnalyzeWork(const Napi::CallbackInfo& info, unsigned threads, std::unique_ptr<AnalyzeData> data)
      : OwnedAsyncWork(info.Env(), "bitboard-patterns:analyzeBatchAsync"),
        kernels_(kernelsOf(info)), threads_(threads), d_(std::move(data)) {
    for (unsigned f = 0; f < kFeatureCount; ++f)
      outs_[f] = isU64Feature(f) ? static_cast<void*>(d_->wide[f].data()) : static_cast<void*>(d_->narrow[f].data());
    napi_create_reference(info.Env(), info[3], 1, &outsRef_);
    watchCancelFlag(info[5]);
  }
  ~AnalyzeWork() override {
    if (outsRef_) napi_delete_reference(Env(), outsRef_);
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};

  void run() override {
    const std::size_t chunks = (d_->count + kChunk - 1) / kChunk;
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(threads_, chunks > 0 ? chunks : 1)) - 1;
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (unsigned t = 0; t < helpers; ++t) pool.emplace_back([this, chunks] { drain(chunks); });
    drain(chunks);
    for (std::thread& t : pool) t.join();
  }

  void drain(std::size_t chunks) {
    for (;;) {
      poll();
      if (cancelled()) return;
      if (firstBad_.load(std::memory_order_relaxed) != kNone) return;
      const std::size_t c = next_.fetch_add(1);
      if (c >= chunks) return;
      const std::size_t begin = c * kChunk, end = std::min(d_->count, begin + kChunk);
      const std::size_t bad =
          kernels_.analyzeRange(d_->words.data(), d_->valid.empty() ? nullptr : d_->valid.data(), begin, end, d_->features, outs_);
      if (bad != end) {
        std::size_t seen = firstBad_.load();
        while (bad < seen && !firstBad_.compare_exchange_weak(seen, bad)) {
        }
      }
    }
  }

  void settle(napi_env env, napi_value* value, napi_value* error) override {
    // A cancel seen before settling wins over an invalid position (as on the JS backend, which
    // checks the flag before each chunk).
    const bool done = !cancelled();
    const std::size_t bad = firstBad_.load();
    if (done && bad != kNone) {
      *error = makeError(env, napi_create_range_error, invalidMessage("analyzeBatchAsync", d_->words.data(), bad));
      return;
    }
    napi_value outs = nullptr;
    if (done && (napi_get_reference_value(env, outsRef_, &outs) != napi_ok || !outs)) return;
    for (unsigned f = 0; done && f < kFeatureCount; ++f) {
      if (!(d_->features & (1u << f))) continue;
      napi_value target = nullptr;
      if (napi_get_element(env, outs, f, &target) != napi_ok) return;
      napi_value holder = isU64Feature(f) ? deliver(env, target, d_->wide[f]) : deliver(env, target, d_->narrow[f]);
      if (!holder) return;
      if (holder != target && napi_set_element(env, outs, f, holder) != napi_ok) return;
    }
    napi_get_boolean(env, done, value);
  }

  const Kernels& kernels_;
  unsigned threads_;
  std::unique_ptr<AnalyzeData> d_;
  void* outs_[kFeatureCount] = {};
  napi_ref outsRef_ = nullptr;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> firstBad_{kNone};
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
  auto data = std::make_unique<AnalyzeData>();
  if (!data->take(b))
    return args.fail("cannot allocate memory for " + std::to_string(b.count) + " positions"), args.undefined();
  auto* work = new AnalyzeWork(info, threads, std::move(data));
  napi_value promise = OwnedAsyncWork::start(work, "analyzeBatchAsync");
  return promise ? Napi::Value(info.Env(), promise) : args.undefined();
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
      throwRangeError(info.Env(), invalidMessage("toPlanes", words.data, i));
      return args.undefined();
    }
    writePlanes(w, out.data + i * kPlaneBytes);
  }
  return args.undefined();
}

// The feature outputs of `order` from `outsValue` (an Array of FEATURES planes, n positions each),
// checked; false with a pending exception when they are not that.
bool featureOutputs(Args& args, const Napi::Value& outsValue, const Span<U8>& order, std::size_t n, const void* (&outs)[kFeatureCount]) {
  if (!outsValue.IsArray()) return args.failType("outs must be an Array of typed arrays"), false;
  const Napi::Array outsArray = outsValue.As<Napi::Array>();
  if (outsArray.Length() != kFeatureCount) return args.fail("outs has the wrong length"), false;
  for (std::size_t j = 0; j < order.length; ++j) {
    const unsigned f = order.data[j];
    if (f >= kFeatureCount) return args.fail("order holds a feature id >= " + std::to_string(kFeatureCount)), false;
    const std::string name = "outs[" + std::to_string(f) + "]";
    std::size_t got = 0;
    if (isU64Feature(f)) {
      const auto a = args.arrayElement<U64>(outsArray.Get(f), name);
      outs[f] = a.data, got = a.length;
    } else {
      const auto a = args.arrayElement<U8>(outsArray.Get(f), name);
      outs[f] = a.data, got = a.length;
    }
    if (!args.ok()) return false;
    if (got != n * featureWidth(f)) return args.fail(name + " has the wrong length"), false;
  }
  return true;
}

// What a writer made: copied to the start of `into` when it was given and has room (the result is
// then the byte count: the caller makes the view, as `into` may be over a SharedArrayBuffer, which
// Node-API cannot make a typed array of), else a new Buffer.
Napi::Value bytesOrCount(Napi::Env env, Writer& w, bool hasInto, const Span<U8>& into) {
  if (hasInto && into.length >= w.size()) {
    if (w.size() > 0) std::memcpy(into.data, w.data(), w.size());
    return Napi::Number::New(env, static_cast<double>(w.size()));
  }
  return Napi::Buffer<char>::Copy(env, w.data(), w.size());
}

// ---- formatRecords(text, lineStarts, valid, order, outs, format, firstLine) -> [Buffer, recordStarts] ----

Napi::Value formatRecords(const Napi::CallbackInfo& info) {
  Args args(info, 7, 8);
  const auto text = args.array<U8>(0, "text");
  const auto starts = args.array<std::uint32_t>(1, "lineStarts");
  const auto valid = args.array<U8>(2, "valid");
  const auto order = args.array<U8>(3, "order");
  const int format = static_cast<int>(args.count(5, "format", 1));
  const double firstLine = args.count(6, "firstLine", 9007199254740991.0);
  // `into`: where the bytes go when they fit (the result is then their count, not a buffer); a caller
  // that formats chunk after chunk keeps one such buffer instead of fresh memory for every chunk.
  const bool hasInto = info.Length() == 8 && !info[7].IsUndefined();
  const Span<U8> into = hasInto ? args.array<U8>(7, "into") : Span<U8>{};
  if (!args.ok()) return args.undefined();
  const std::size_t n = valid.length;
  if (starts.length != n + 1) return args.fail("lineStarts must have valid.length + 1 entries"), args.undefined();
  for (std::size_t i = 0; i < n; ++i)
    if (starts.data[i] >= starts.data[i + 1] || starts.data[i + 1] - 1 > text.length)
      return args.fail("lineStarts[" + std::to_string(i) + "] is out of order or past the text"), args.undefined();
  const void* outs[kFeatureCount] = {};
  if (!featureOutputs(args, info[4], order, n, outs)) return args.undefined();

  Writer w;
  auto recordStarts = Napi::Uint32Array::New(info.Env(), n + 1);
  formatRecordLines(w, reinterpret_cast<const char*>(text.data), starts.data, valid.data, n, order.data, order.length, outs,
                    format, static_cast<std::uint64_t>(firstLine), recordStarts.Data());
  if (w.size() > 0xffffffffu) return args.fail("output larger than 4 GiB: format fewer lines at a time"), args.undefined();
  Napi::Array result = Napi::Array::New(info.Env(), 2);
  result.Set(0u, bytesOrCount(info.Env(), w, hasInto, into));
  result.Set(1u, recordStarts);
  return result;
}

// ---- fenTexts(words[, into[, prefixed]]) -> [Buffer of the FENs one after another | their byte count, ends (n entries)] ----
// For the analyze command's PGN records: every position's FEN in one call (putFen, records.h).
// `into`: where the bytes go when they fit (the result is then their count), so that a caller that
// writes chunk after chunk keeps one buffer whose pages stay mapped instead of fresh memory.
// `prefixed`: each FEN preceded by its length (4 bytes, little-endian), the PLAIN encoding of a
// Parquet BYTE_ARRAY value; ends[i] is then the end of FEN i, its length word included in its span.
Napi::Value fenTexts(const Napi::CallbackInfo& info) {
  Args args(info, 1, 3);
  const auto words = args.array<U64>(0, "words");
  const bool hasInto = info.Length() >= 2 && !info[1].IsUndefined();
  const Span<U8> into = hasInto ? args.array<U8>(1, "into") : Span<U8>{};
  const bool prefixed = info.Length() == 3 && !info[2].IsUndefined() && args.boolean(2, "prefixed");
  if (!args.ok()) return args.undefined();
  if (words.length % kPackedPositionWords) return args.fail("words must hold whole positions (10 words each)"), args.undefined();
  const std::size_t n = words.length / kPackedPositionWords;
  Writer w;
  auto ends = Napi::Uint32Array::New(info.Env(), n);
  for (std::size_t i = 0; i < n; ++i) {
    w.room(kFenRoom + 4);
    if (prefixed) {
      char* length = w.cursor();
      w.advance(4);
      const std::size_t start = w.size();
      putFen(w, words.data + i * kPackedPositionWords);
      const std::uint32_t n = static_cast<std::uint32_t>(w.size() - start);
      const unsigned char le[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8), static_cast<unsigned char>(n >> 16),
                                   static_cast<unsigned char>(n >> 24)};
      std::memcpy(length, le, 4);
    } else {
      putFen(w, words.data + i * kPackedPositionWords);
    }
    if (w.size() > 0xffffffffu) return args.fail("output larger than 4 GiB: write fewer positions at a time"), args.undefined();
    ends[i] = static_cast<std::uint32_t>(w.size());
  }
  Napi::Array result = Napi::Array::New(info.Env(), 2);
  result.Set(0u, bytesOrCount(info.Env(), w, hasInto, into));
  result.Set(1u, ends);
  return result;
}

// ---- openingRows(words, valid, occupancy, keys, rows, out) ----
// The opening-name row of each packed position (lib/games/openings.ts openingsOfBatch): a position
// whose occupied squares hash into the bit set `occupancy` (the names' occupancies, the hash of
// openings.ts) is looked up by its Polyglot key in `keys` (ascending), and out[i] is the matching
// entry of `rows`; -1 where the position is invalid (valid[i] == 0), filtered out or not found.
Napi::Value openingRows(const Napi::CallbackInfo& info) {
  Args args(info, 6, 6);
  const auto words = args.array<U64>(0, "words");
  const auto valid = args.optionalArray<U8>(1, "valid");
  const auto occupancy = args.arrayOfLength<std::uint32_t>(2, "occupancy", 2048);
  const auto keys = args.array<U64>(3, "keys");
  const auto rows = args.array<std::int32_t>(4, "rows");
  const auto out = args.array<std::int32_t>(5, "out");
  if (!args.ok()) return args.undefined();
  if (words.length % kPackedPositionWords) return args.fail("words must hold whole positions (10 words each)"), args.undefined();
  const std::size_t n = words.length / kPackedPositionWords;
  if (out.length != n || (valid.data && valid.length != n) || rows.length != keys.length)
    return args.fail("out (and valid) must have one element per position, rows one per key"), args.undefined();
  const U64* const kb = keys.data;
  const U64* const ke = keys.data + keys.length;
  for (std::size_t i = 0; i < n; ++i) {
    out.data[i] = -1;
    if (valid.data && !valid.data[i]) continue;
    const U64* w = words.data + i * kPackedPositionWords;
    const U64 occupied = w[0] | w[1];
    const std::uint32_t lo = static_cast<std::uint32_t>(occupied), hi = static_cast<std::uint32_t>(occupied >> 32);
    const std::uint32_t h = ((lo ^ (hi * 0x9e3779b1u)) * 0x85ebca6bu) >> 16;
    if (!(occupancy.data[h >> 5] & (1u << (h & 31)))) continue;
    const U64 key = polyglotKey(w);
    const U64* at = std::lower_bound(kb, ke, key);
    if (at != ke && *at == key) out.data[i] = rows.data[at - kb];
  }
  return info.Env().Undefined();
}

// ---- pgnRecords(words, game, ply, from, to, san, games, firstGame, gameOffset, outs, order, format, into, at) ----
// The analyze command's records of PGN positions from..to-1 (lib/cli/pgn-input.ts formatChunk writes
// the same bytes in JS): NDJSON {"game":G,"ply":P,"san":"SAN" or null,"fen":"FEN",features...} or CSV
// G,P,SAN,FEN,features..., (the error column empty). words, game and ply: the reader's positions and
// their game numbers (from firstGame) and plies; san and games: its SAN text and game records
// (native/core/pgn.h Output), whose SAN of ply p is the p-th space-ended word of the game's SAN
// range; a record's game number is its position's plus gameOffset; outs and order as for
// formatRecords, indexed by position. Written to into[at..]; the result is the byte count, or minus
// the count when it does not fit (into[at..] may then hold part of the records: the caller makes
// room and calls again).
Napi::Value pgnRecords(const Napi::CallbackInfo& info) {
  Args args(info, 14, 14);
  const auto words = args.array<U64>(0, "words");
  const auto game = args.array<std::uint32_t>(1, "game");
  const auto ply = args.array<std::uint32_t>(2, "ply");
  const double from = args.count(3, "from", 4294967295.0);
  const double to = args.count(4, "to", 4294967295.0);
  const auto san = args.array<U8>(5, "san");
  const auto games = args.array<std::int32_t>(6, "games");
  const double firstGame = args.count(7, "firstGame", 4294967295.0);
  const double gameOffset = args.count(8, "gameOffset", 9007199254740991.0);
  const auto order = args.array<U8>(10, "order");
  const int format = static_cast<int>(args.count(11, "format", 1));
  const auto into = args.array<U8>(12, "into");
  const double at = args.count(13, "at", 4294967295.0);
  if (!args.ok()) return args.undefined();
  const std::size_t n = game.length;
  if (ply.length != n || words.length != n * kPackedPositionWords) return args.fail("words, game and ply must hold the same positions"), args.undefined();
  if (from > to || to > static_cast<double>(n)) return args.fail("from..to must be a range of the positions"), args.undefined();
  if (games.length % pgn::kGameFields) return args.fail("games must hold whole game records"), args.undefined();
  if (at > static_cast<double>(into.length)) return args.fail("at is past the end of into"), args.undefined();
  const void* outs[kFeatureCount] = {};
  if (!featureOutputs(args, info[9], order, n, outs)) return args.undefined();

  const FeatureColumns columns(order.data, order.length, format);
  const std::size_t recordBound = 2 * 20 + 32 + kFenRoom + columns.bound;  // numbers, punctuation, FEN, values
  const std::size_t gameCount = games.length / pgn::kGameFields;
  const char* const sanText = reinterpret_cast<const char*>(san.data);
  // Straight into `into` while the records fit (no copy); past that into the scratch, to be counted.
  const std::size_t room = into.length - static_cast<std::size_t>(at);
  Writer w(reinterpret_cast<char*>(into.data) + static_cast<std::size_t>(at), room);
  // Where the current game's SAN words are, and the ply whose word starts at `word`.
  std::uint32_t current = 0;
  bool inGame = false;
  std::size_t word = 0, sanEnd = 0;
  std::uint32_t wordPly = 1;
  for (std::size_t k = static_cast<std::size_t>(from); k < static_cast<std::size_t>(to); ++k) {
    const std::uint32_t g = game.data[k], p = ply.data[k];
    const double index = static_cast<double>(g) - firstGame;
    if (index < 0 || index >= static_cast<double>(gameCount)) return args.fail("game[" + std::to_string(k) + "] has no game record"), args.undefined();
    if (!inGame || g != current || p < wordPly) {
      const std::int32_t* rec = games.data + static_cast<std::size_t>(index) * pgn::kGameFields;
      const std::int32_t a = rec[pgn::gSanStart], e = rec[pgn::gSanEnd];
      if (a < 0 || e < a || static_cast<std::size_t>(e) > san.length) return args.fail("a game record's SAN range is past the SAN text"), args.undefined();
      inGame = true, current = g, word = static_cast<std::size_t>(a), sanEnd = static_cast<std::size_t>(e), wordPly = 1;
    }
    // The SAN of the move that led here: the word of ply p.
    const char* sanWord = nullptr;
    std::size_t sanLength = 0;
    if (p > 0) {
      for (; wordPly < p && word < sanEnd; ++wordPly) {
        const void* space = std::memchr(sanText + word, ' ', sanEnd - word);
        word = space ? static_cast<std::size_t>(static_cast<const char*>(space) - sanText) + 1 : sanEnd;
      }
      const void* space = word < sanEnd ? std::memchr(sanText + word, ' ', sanEnd - word) : nullptr;
      if (wordPly != p || !space) return args.fail("position " + std::to_string(k) + " has no SAN in its game record"), args.undefined();
      sanWord = sanText + word;
      sanLength = static_cast<std::size_t>(static_cast<const char*>(space) - sanWord);
    }
    w.room(recordBound + sanLength);
    const std::uint64_t number = static_cast<std::uint64_t>(gameOffset) + g;
    if (format == 0) {
      w.lit("{\"game\":");
      w.number(number);
      w.lit(",\"ply\":");
      w.number(p);
      if (sanWord) {
        w.lit(",\"san\":\"");
        w.put(sanWord, sanLength);
        w.lit("\",\"fen\":\"");
      } else {
        w.lit(",\"san\":null,\"fen\":\"");
      }
      putFen(w, words.data + k * kPackedPositionWords);
      w.put('"');
    } else {
      w.number(number);
      w.put(',');
      w.number(p);
      w.put(',');
      if (sanWord) w.put(sanWord, sanLength);
      w.put(',');
      putFen(w, words.data + k * kPackedPositionWords);
    }
    columns.put(w, outs, k);
    if (format == 0) w.lit("}\n");
    else w.lit(",\n");
  }
  if (w.spilled()) {
    if (w.size() > room) return Napi::Number::New(info.Env(), -static_cast<double>(w.size()));
    if (w.size() > 0) std::memcpy(into.data + static_cast<std::size_t>(at), w.data(), w.size());
  }
  return Napi::Number::New(info.Env(), static_cast<double>(w.size()));
}

}  // namespace

void exportBatchAnalysis(Napi::Env env, Napi::Object exports) {
  Napi::Object batch = newObject(env);
  if (batch.IsEmpty()) return;
  exportFunction<parseFenText>(env, batch, "parseFenText");
  exportFunction<analyzeBatch>(env, batch, "analyzeBatch");
  exportFunction<analyzeBatchAsync>(env, batch, "analyzeBatchAsync");
  exportFunction<toPlanes>(env, batch, "toPlanes");
  exportFunction<formatRecords>(env, batch, "formatRecords");
  exportFunction<fenTexts>(env, batch, "fenTexts");
  exportFunction<pgnRecords>(env, batch, "pgnRecords");
  exportFunction<openingRows>(env, batch, "openingRows");
  exportAnalyzeFile(env, batch);
  setNumber(env, batch, "featureCount", kFeatureCount);
  setNumber(env, batch, "planeBytes", static_cast<double>(kPlaneBytes));
  setNumber(env, batch, "hardwareThreads", std::max(1u, std::thread::hardware_concurrency()));
  setProperty(env, exports, "batch", batch);
}

}  // namespace bbp::addon
