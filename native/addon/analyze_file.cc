// The analyze command's native pipeline on a plain file (lib/cli/analyze-native.ts drives it when the
// native backend analyses a file without --syzygy): native threads read the file in byte ranges,
// split, parse, analyse and format each chunk's lines, and write the records to stdout in input
// order. No JS worker thread is started, so a run pays neither a worker's start-up nor its memory.
//
// analyzeFile(path, order, format, strict, threads, bounds, maxLineBytes, onLines, onProgress?, chess960?)
//   -> Promise<[stop, message, lines, errors, bytes, errno]> (errno: of a failed write to stdout, else 0)
//   bounds: chunk k is the lines that start in the byte range [bounds[k], bounds[k + 1]) (the JS
//   side's chunk plan); order: the feature ids; format 0 NDJSON, 1 CSV.
//   onLines(text, starts, lineNumbers, tooLong) -> { words, ok, records, ends, firstError? }: see
//   Request. onProgress(lines, kib): the lines and KiB of input written so far (each at most
//   2^32 - 1), after chunks are written (steps may be coalesced). chess960: castling fields read as
//   X-FEN (parseFen's { chess960: true }; onLines then parses the same way).
//
// The same steps as the worker threads' (lib/cli/analyze-chunks.ts), which are the reference:
//   - a chunk's first line starts after the first line end at or after its range's first byte - 1;
//     its last line may run on past the range, and is passed over (tooLong) when longer than
//     maxLineBytes; a UTF-8 byte order mark at the file's start is dropped;
//   - each chunk's lines are numbered once chunk k - 1 has published the number after its own
//     (counted_, lineBase_), blank and comment lines included;
//   - a finished chunk waits in one of its thread's two output slots; whoever publishes the chunk
//     whose turn it is writes every finished chunk from there on, in order (publish).
// The lines the native parser cannot finish alone (a line that is not ASCII, a line to report as an
// error record) and a line over the length limit are handed to the main thread, which parses them and
// makes their error records with the JS code the worker threads run (lineRecords in
// lib/cli/analyze-chunks.ts), so both pipelines give the same bytes; the thread waits for that answer
// and goes on with the chunk. The main thread gets copies: a native thread's memory is never JS's.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "args.h"
#include "async_work.h"
#include "records.h"
#include "text_lines.h"

namespace bbp::addon {
namespace {

using U8 = std::uint8_t;

// The stop codes lib/cli/analyze-control.ts names (RUNNING .. WRITE_FAILED), and FAILED: the input
// could not be read, or onLines failed (the promise rejects).
constexpr int kRunning = 0, kStrict = 1, kEpipe = 2, kWriteFailed = 3, kFailed = 4;
constexpr std::size_t kReadStep = std::size_t{1} << 16;
constexpr std::size_t kNoEnd = ~std::size_t{0};
// The longest byte range and line limit a call may ask for: a thread's memory grows with both.
constexpr double kMaxRange = 1 << 24;

// What a chunk hands to the writer: its records in one of its thread's slots, and its counts.
struct Finished {
  std::vector<char>* bytes = nullptr;
  bool* busy = nullptr;  // the slot's flag, cleared once written
  std::size_t length = 0;
  std::uint64_t lines = 0, errors = 0, textBytes = 0;
  std::size_t strictEnd = kNoEnd;  // --strict and a bad line: write this much, then stop
  std::string message;
};

// The lines of a chunk the native parser cannot finish (not ASCII, or to be reported as an error
// record), for the main thread, and its answer. The lines are copied, each with a '\n', into `text`
// (line i is text[starts[i], starts[i + 1] - 1)); `tooLong`: the first 64 bytes of a last line over
// the limit, as latin1, numbered lineNumbers[count].
struct Request {
  std::vector<char> text;
  std::vector<std::uint32_t> starts;
  std::vector<double> lineNumbers;
  bool hasTooLong = false;
  std::string tooLong;
  // The answer: packed words (10 per line) and ok[i] for the lines JS parsed; the error records of
  // the others, then of the long line, concatenated (record i ends at ends[i], empty for an ok line);
  // the first error's "line N: message".
  std::vector<std::uint64_t> words;
  std::vector<U8> ok;
  std::vector<U8> records;
  std::vector<std::uint32_t> ends;
  std::string firstError;
  bool failed = false;
  std::string failure;
  bool done = false;
};

// One thread's memory, reused from chunk to chunk.
struct ThreadState {
  std::vector<char> buf;
  std::vector<std::uint64_t> words;
  std::vector<U8> status, valid;
  std::vector<std::uint32_t> starts;
  std::vector<std::uint64_t> wide[kFeatureCount];
  std::vector<U8> narrow[kFeatureCount];
  std::vector<std::uint32_t> recordStarts;
  std::vector<char> formatted;  // a chunk's records before the error records go in between
  std::vector<std::size_t> hard;  // the lines for the main thread
  std::vector<char> slot[2];
  bool busy[2] = {false, false};  // guarded by the work's mutex
  int nextSlot = 0;
};

// Copies n bytes to out[size..] (room made before) and moves size on.
void append(std::vector<char>& out, std::size_t& size, const char* from, std::size_t n) {
  if (n == 0) return;  // an empty vector's data() may be null
  std::memcpy(out.data() + size, from, n);
  size += n;
}

// A line the analyze command passes over without a record: only white space, or '#' first.
bool skippedLine(const char* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '#';
  }
  return true;
}


class AnalyzeFileWork : public OwnedAsyncWork {
 public:
  AnalyzeFileWork(const Napi::CallbackInfo& info, std::string path, std::vector<U8> order, int format, bool strict,
                  unsigned threads, std::vector<double> bounds, std::size_t maxLine, bool chess960 = false)
      : OwnedAsyncWork(info.Env(), "bitboard-patterns:analyzeFile"), kernels_(kernelsOf(info)), path_(std::move(path)),
        order_(std::move(order)), format_(format), strict_(strict), threads_(threads), bounds_(std::move(bounds)),
        maxLine_(maxLine), chess960_(chess960) {
    for (U8 f : order_) features_ |= 1u << f;
    napi_create_reference(info.Env(), info[7], 1, &onLines_);
  }
  ~AnalyzeFileWork() override {
    if (onLines_) napi_delete_reference(Env(), onLines_);
  }
  void watchProgress(napi_value fn) { setOnProgress(fn); }

 private:
  void run() override {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      fail(kFailed, "cannot read " + path_ + ": " + std::strerror(errno));
      return;
    }
    std::size_t widest = 0;
    for (std::size_t k = 0; k + 1 < bounds_.size(); ++k)
      widest = std::max(widest, static_cast<std::size_t>(bounds_[k + 1] - bounds_[k]));
    bufferBytes_ = widest + 1 + maxLine_ + kReadStep + 2;
    const std::size_t chunks = bounds_.size() - 1;
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(threads_, std::max<std::size_t>(chunks, 1))) - 1;
    std::vector<std::unique_ptr<ThreadState>> states;
    for (unsigned t = 0; t <= helpers; ++t) states.push_back(std::make_unique<ThreadState>());
    std::vector<std::thread> pool;
    pool.reserve(helpers);
    for (unsigned t = 0; t < helpers; ++t) pool.emplace_back([this, chunks, ts = states[t + 1].get()] { loop(chunks, *ts); });
    loop(chunks, *states[0]);
    for (std::thread& t : pool) t.join();
    ::close(fd_);
  }

  // `ts` lives until every thread has stopped: the chunks parked in its slots may be written by
  // another thread after this one has run out of chunks.
  void loop(std::size_t chunks, ThreadState& ts) {
    ts.buf.resize(bufferBytes_);
    for (;;) {
      if (stop_.load() != kRunning) break;
      const std::size_t k = next_.fetch_add(1);
      if (k >= chunks || !chunk(ts, k)) break;
    }
  }

  // Until pred() or the run stops (false then). Holds `lock` on return.
  template <typename Pred>
  bool waitUntil(std::unique_lock<std::mutex>& lock, Pred pred) {
    cv_.wait(lock, [&] { return pred() || stop_.load() != kRunning; });
    return pred();
  }

  void fail(int why, const std::string& message) {
    std::lock_guard<std::mutex> lock(m_);
    int expected = kRunning;
    if (stop_.compare_exchange_strong(expected, why)) message_ = message;
    cv_.notify_all();
  }

  // Reads up to `length` bytes at `position` into buf[at..] (fewer at the end of the file); -1 when
  // the read fails (the run then stops).
  long readAt(ThreadState& ts, std::size_t at, std::size_t length, std::size_t position) {
    std::size_t got = 0;
    while (got < length) {
      const ssize_t n = ::pread(fd_, ts.buf.data() + at + got, length - got, static_cast<off_t>(position + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        fail(kFailed, "cannot read " + path_ + ": " + std::strerror(errno));
        return -1;
      }
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    return static_cast<long>(got);
  }

  // Chunk k: read, number, analyse and format, then hand to the writer. False when the run stopped.
  bool chunk(ThreadState& ts, std::size_t k) {
    const std::size_t size = static_cast<std::size_t>(bounds_.back());
    const std::size_t lo = static_cast<std::size_t>(bounds_[k]), hi = static_cast<std::size_t>(bounds_[k + 1]);
    const std::size_t from = k == 0 ? 0 : lo - 1;
    char* const buf = ts.buf.data();
    long got = readAt(ts, 0, hi - from, from);
    if (got < 0) return false;
    std::size_t have = static_cast<std::size_t>(got);
    std::size_t start = 0, end = 0;
    bool empty = false;
    if (k == 0) {
      start = have >= 3 && buf[0] == '\xef' && buf[1] == '\xbb' && buf[2] == '\xbf' ? 3 : 0;
    } else {
      const char* nl = have ? static_cast<const char*>(std::memchr(buf, '\n', have)) : nullptr;
      if (!nl || static_cast<std::size_t>(nl - buf) + 1 >= have) empty = true;  // inside one long line
      else start = static_cast<std::size_t>(nl - buf) + 1;
    }
    if (start >= have) empty = true;
    bool hasTooLong = false;
    std::string tooLong;
    if (!empty) {
      end = have;
      if (buf[have - 1] != '\n' && from + have < size) {
        // The last line runs on: where it starts, then read on to its line end.
        std::size_t lastStart = start;
        for (std::size_t i = have; i > start; --i)
          if (buf[i - 1] == '\n') {
            lastStart = i;
            break;
          }
        for (;;) {
          const std::size_t want = std::min(kReadStep, size - (from + have));
          long more = want > 0 ? readAt(ts, have, want, from + have) : 0;
          if (more < 0) return false;
          const char* nl = more > 0 ? static_cast<const char*>(std::memchr(buf + have, '\n', static_cast<std::size_t>(more))) : nullptr;
          if (nl) {
            end = static_cast<std::size_t>(nl - buf) + 1;
            break;
          }
          have += static_cast<std::size_t>(more);
          end = have;
          if (more == 0 || have - lastStart > maxLine_) break;
        }
        const std::size_t content = end - lastStart - (buf[end - 1] == '\n' ? 1 : 0);
        if (content > maxLine_) {
          hasTooLong = true;
          tooLong.assign(buf + lastStart, 64);
          end = lastStart;
        }
      }
    } else {
      start = end = 0;
    }
    const char* text = buf + start;
    const std::size_t length = end - start;

    // An output slot of this thread, once the chunk parked in it has been written.
    int slot;
    {
      std::unique_lock<std::mutex> lock(m_);
      slot = ts.nextSlot;
      if (!waitUntil(lock, [&] { return !ts.busy[slot]; })) return false;
      ts.busy[slot] = true;
      ts.nextSlot ^= 1;
    }

    // Split (as parseFenText does), number, parse.
    const std::size_t n = countLines(text, length);
    // Number the lines (as soon as they are counted): chunk k - 1 publishes the number after its own.
    std::uint64_t firstLine;
    {
      std::unique_lock<std::mutex> lock(m_);
      if (!waitUntil(lock, [&] { return counted_ == k; })) return false;
      firstLine = lineBase_ + 1;
      lineBase_ += n + (hasTooLong ? 1 : 0);
      counted_ = k + 1;
      cv_.notify_all();
    }

    ts.words.resize(n * kPackedPositionWords);
    ts.status.resize(n);
    ts.valid.resize(n);
    ts.starts.resize(n + 1);
    parseLines(kernels_, text, length, n, true, ts.words.data(), ts.status.data(), ts.starts.data(), chess960_);
    std::uint64_t skipped = 0;
    ts.hard.clear();
    // Line i ends before its '\n' (the last line may have none).
    const auto lineEnd = [&](std::size_t i) { return std::min<std::size_t>(ts.starts[i + 1] - 1, length); };
    for (std::size_t i = 0; i < n; ++i) {
      ts.valid[i] = ts.status[i] == 0;
      if (ts.valid[i]) continue;
      if (skippedLine(text + ts.starts[i], lineEnd(i) - ts.starts[i])) ++skipped;
      else ts.hard.push_back(i);
    }

    Finished f;
    f.bytes = &ts.slot[slot];
    f.busy = &ts.busy[slot];
    f.textBytes = length;
    f.lines = n - skipped;
    Request r;
    const bool ask = !ts.hard.empty() || hasTooLong;
    if (ask) {
      // The main thread parses these lines as the JS code does, and makes their error records.
      r.starts.push_back(0);
      for (std::size_t i : ts.hard) {
        r.text.insert(r.text.end(), text + ts.starts[i], text + lineEnd(i));
        r.text.push_back('\n');
        r.starts.push_back(static_cast<std::uint32_t>(r.text.size()));
        r.lineNumbers.push_back(static_cast<double>(firstLine + i));
      }
      r.hasTooLong = hasTooLong;
      if (hasTooLong) {
        r.tooLong = std::move(tooLong);
        r.lineNumbers.push_back(static_cast<double>(firstLine + n));
      }
      if (!askMainThread(r)) return false;
      for (std::size_t j = 0; j < ts.hard.size(); ++j) {
        if (!r.ok[j]) continue;
        std::memcpy(ts.words.data() + ts.hard[j] * kPackedPositionWords, r.words.data() + j * kPackedPositionWords,
                    kPackedPositionWords * 8);
        ts.valid[ts.hard[j]] = 1;
      }
    }

    void* outs[kFeatureCount] = {};
    for (unsigned id = 0; id < kFeatureCount; ++id) {
      if (!(features_ & (1u << id))) continue;
      const std::size_t want = n * featureWidth(id);
      if (isU64Feature(id)) {
        if (ts.wide[id].size() < want) ts.wide[id].resize(want);
        outs[id] = ts.wide[id].data();
      } else {
        if (ts.narrow[id].size() < want) ts.narrow[id].resize(want);
        outs[id] = ts.narrow[id].data();
      }
    }
    const std::size_t bad = kernels_.analyzeRange(ts.words.data(), ts.valid.data(), 0, n, features_, outs);
    if (bad != n) {  // not reached: the parsers make valid positions only
      fail(kFailed, "analyze: line " + std::to_string(firstLine + bad) + " parsed to a position the analysis refuses");
      return false;
    }
    if (!ask) {
      Writer w(ts.slot[slot]);
      formatRecordLines(w, text, ts.starts.data(), ts.valid.data(), n, order_.data(), order_.size(), outs, format_,
                        firstLine, nullptr);
      f.length = w.size();
    } else {
      // The records, with the error records in the places of their lines.
      ts.recordStarts.resize(n + 1);
      std::size_t formattedBytes;
      {
        Writer w(ts.formatted);
        formatRecordLines(w, text, ts.starts.data(), ts.valid.data(), n, order_.data(), order_.size(), outs, format_,
                          firstLine, ts.recordStarts.data());
        formattedBytes = w.size();
      }
      std::vector<char>& out = ts.slot[slot];
      out.resize(std::max(out.size(), formattedBytes + r.records.size()));
      std::size_t size = 0, from = 0, errorEnd = kNoEnd;
      const auto putError = [&](std::size_t j) {
        const std::size_t a = j ? r.ends[j - 1] : 0, e = r.ends[j];
        append(out, size, reinterpret_cast<const char*>(r.records.data()) + a, e - a);
        ++f.errors;
        if (errorEnd == kNoEnd) errorEnd = size;
      };
      for (std::size_t j = 0; j < ts.hard.size(); ++j) {
        if (r.ok[j]) continue;
        const std::size_t upTo = ts.recordStarts[ts.hard[j]];
        append(out, size, ts.formatted.data() + from, upTo - from);
        from = upTo;  // the line's own record is empty
        putError(j);
      }
      append(out, size, ts.formatted.data() + from, formattedBytes - from);
      if (hasTooLong) {
        putError(ts.hard.size());
        ++f.lines;
      }
      f.length = size;
      if (strict_ && f.errors > 0) {
        f.strictEnd = errorEnd;
        f.message = r.firstError;
      }
    }
    publish(k, std::move(f));
    return stop_.load() == kRunning;
  }

  // Writes all of `bytes` to stdout: 0, or the errno that stopped it.
  static int writeAll(const char* bytes, std::size_t length) {
    std::size_t at = 0;
    while (at < length) {
      const ssize_t n = ::write(1, bytes + at, length - at);
      if (n >= 0) {
        at += static_cast<std::size_t>(n);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a non-blocking stdout: wait until it takes more
        pollfd p{1, POLLOUT, 0};
        ::poll(&p, 1, 100);
        continue;
      }
      return errno;
    }
    return 0;
  }

  // Chunk k is finished: writes it if it is its turn, and every finished chunk after it.
  void publish(std::size_t k, Finished f) {
    std::unique_lock<std::mutex> lock(m_);
    ready_.emplace(k, std::move(f));
    if (writing_) return;  // the writer takes it in its turn
    writing_ = true;
    while (stop_.load() == kRunning) {
      auto it = ready_.find(turn_);
      if (it == ready_.end()) break;
      Finished d = std::move(it->second);
      ready_.erase(it);
      lock.unlock();
      const bool strictStop = d.strictEnd != kNoEnd;
      const int err = writeAll(d.bytes->data(), strictStop ? d.strictEnd : d.length);
      lock.lock();
      if (err) {
        int expected = kRunning;
        // The JS side words the message from the errno, as fs.writeSync does.
        if (stop_.compare_exchange_strong(expected, err == EPIPE ? kEpipe : kWriteFailed)) writeErrno_ = err;
      } else if (strictStop) {
        errors_ += 1;
        int expected = kRunning;
        if (stop_.compare_exchange_strong(expected, kStrict)) message_ = d.message;
      } else {
        lines_ += d.lines;
        errors_ += d.errors;
        bytes_ += d.textBytes;
        progress(static_cast<unsigned>(std::min<std::uint64_t>(lines_, 0xffffffffu)),
                 static_cast<unsigned>(std::min<std::uint64_t>(bytes_ >> 10, 0xffffffffu)));
      }
      *d.busy = false;
      ++turn_;
      cv_.notify_all();
    }
    writing_ = false;
    cv_.notify_all();
  }

  // Hands `r` to the main thread and waits for its answer. False when onLines failed (the run stops).
  bool askMainThread(Request& r) {
    {
      std::lock_guard<std::mutex> lock(m_);
      requests_.push_back(&r);
    }
    wakeMainThread();
    {
      // Always answered: the main thread serves every request, whatever the run's state.
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] { return r.done; });
    }
    if (r.failed) fail(kFailed, r.failure);
    return !r.failed;
  }

  // Main thread: answers every queued request with onLines.
  void serviceMainThread(napi_env env) override {
    for (;;) {
      Request* r;
      {
        std::lock_guard<std::mutex> lock(m_);
        if (requests_.empty()) return;
        r = requests_.front();
        requests_.pop_front();
      }
      answer(env, *r);
      {
        std::lock_guard<std::mutex> lock(m_);
        r->done = true;
      }
      cv_.notify_all();
    }
  }

  // The typed array `name` of `result` with `length` elements of T, copied into `into`.
  template <typename T>
  static bool readArray(napi_env env, napi_value result, const char* name, std::size_t length, std::vector<T>& into,
                        bool exact = true) {
    napi_value v = nullptr;
    bool isTyped = false;
    napi_typedarray_type type;
    std::size_t got = 0;
    void* data = nullptr;
    if (napi_get_named_property(env, result, name, &v) != napi_ok || napi_is_typedarray(env, v, &isTyped) != napi_ok ||
        !isTyped || napi_get_typedarray_info(env, v, &type, &got, &data, nullptr, nullptr) != napi_ok ||
        type != kTypedArray<T> || (exact && got != length))
      return false;
    into.assign(static_cast<const T*>(data), static_cast<const T*>(data) + got);
    return true;
  }

  void answer(napi_env env, Request& r) {
    const auto failed = [&](const char* what) {
      r.failed = true;
      r.failure = what;
      bool pending = false;
      napi_value thrown = nullptr, text = nullptr;
      if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
          napi_get_and_clear_last_exception(env, &thrown) == napi_ok && napi_coerce_to_string(env, thrown, &text) == napi_ok) {
        std::size_t len = 0;
        if (napi_get_value_string_utf8(env, text, nullptr, 0, &len) == napi_ok) {
          r.failure.assign(len, '\0');
          napi_get_value_string_utf8(env, text, r.failure.data(), len + 1, &len);
        }
      }
    };
    const std::size_t count = r.starts.size() - 1;
    napi_value fn = nullptr, recv = nullptr, argv[4] = {}, result = nullptr, buffer = nullptr;
    void* data = nullptr;
    if (napi_get_reference_value(env, onLines_, &fn) != napi_ok || !fn || napi_get_undefined(env, &recv) != napi_ok ||
        napi_create_buffer_copy(env, r.text.size(), r.text.empty() ? "" : r.text.data(), &data, &argv[0]) != napi_ok ||
        napi_create_arraybuffer(env, r.starts.size() * 4, &data, &buffer) != napi_ok ||
        napi_create_typedarray(env, napi_uint32_array, r.starts.size(), buffer, 0, &argv[1]) != napi_ok)
      return failed("analyzeFile: cannot call onLines");
    std::memcpy(data, r.starts.data(), r.starts.size() * 4);
    if (napi_create_arraybuffer(env, r.lineNumbers.size() * 8, &data, &buffer) != napi_ok ||
        napi_create_typedarray(env, napi_float64_array, r.lineNumbers.size(), buffer, 0, &argv[2]) != napi_ok)
      return failed("analyzeFile: cannot call onLines");
    std::memcpy(data, r.lineNumbers.data(), r.lineNumbers.size() * 8);
    if (r.hasTooLong ? napi_create_string_latin1(env, r.tooLong.data(), r.tooLong.size(), &argv[3]) != napi_ok
                     : napi_get_undefined(env, &argv[3]) != napi_ok)
      return failed("analyzeFile: cannot call onLines");
    if (napi_call_function(env, recv, fn, 4, argv, &result) != napi_ok) return failed("analyzeFile: onLines threw");
    const std::size_t entries = count + (r.hasTooLong ? 1 : 0);
    if (!readArray(env, result, "words", count * kPackedPositionWords, r.words) || !readArray(env, result, "ok", count, r.ok) ||
        !readArray(env, result, "ends", entries, r.ends) || !readArray(env, result, "records", 0, r.records, false))
      return failed("analyzeFile: onLines must return { words, ok, records, ends, firstError? } of the right types and lengths");
    for (std::size_t j = 0; j < entries; ++j)
      if (r.ends[j] > r.records.size() || (j > 0 && r.ends[j] < r.ends[j - 1]) || (j < count && r.ok[j] && r.ends[j] != (j ? r.ends[j - 1] : 0)))
        return failed("analyzeFile: onLines returned ends out of order");
    napi_value s = nullptr;
    napi_valuetype type = napi_undefined;
    std::size_t len = 0;
    if (napi_get_named_property(env, result, "firstError", &s) == napi_ok && napi_typeof(env, s, &type) == napi_ok &&
        type == napi_string && napi_get_value_string_utf8(env, s, nullptr, 0, &len) == napi_ok) {
      r.firstError.assign(len, '\0');
      napi_get_value_string_utf8(env, s, r.firstError.data(), len + 1, &len);
    }
  }

  void settle(napi_env env, napi_value* value, napi_value* error) override {
    const int stop = stop_.load();
    if (stop == kFailed) {
      *error = makeError(env, napi_create_error, message_);
      return;
    }
    napi_value result = nullptr, e = nullptr;
    if (napi_create_array_with_length(env, 6, &result) != napi_ok) return;
    const double fields[] = {static_cast<double>(stop), 0, static_cast<double>(lines_), static_cast<double>(errors_),
                             static_cast<double>(bytes_), static_cast<double>(writeErrno_)};
    for (unsigned i = 0; i < 6; ++i) {
      if (i == 1) {
        if (napi_create_string_utf8(env, message_.data(), message_.size(), &e) != napi_ok) return;
      } else if (napi_create_double(env, fields[i], &e) != napi_ok) {
        return;
      }
      if (napi_set_element(env, result, i, e) != napi_ok) return;
    }
    *value = result;
  }

  const Kernels& kernels_;
  const std::string path_;
  const std::vector<U8> order_;
  const int format_;
  const bool strict_;
  const unsigned threads_;
  const std::vector<double> bounds_;
  const std::size_t maxLine_;
  const bool chess960_;
  unsigned features_ = 0;
  napi_ref onLines_ = nullptr;
  int fd_ = -1;
  std::size_t bufferBytes_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<int> stop_{kRunning};

  // Guarded by m_ (cv_: any of them changed).
  std::mutex m_;
  std::condition_variable cv_;
  std::string message_;
  std::size_t counted_ = 0;
  std::uint64_t lineBase_ = 0;
  std::size_t turn_ = 0;
  bool writing_ = false;
  std::map<std::size_t, Finished> ready_;
  std::deque<Request*> requests_;
  std::uint64_t lines_ = 0, errors_ = 0, bytes_ = 0;
  int writeErrno_ = 0;  // the errno of a failed write to stdout
};

Napi::Value analyzeFile(const Napi::CallbackInfo& info) {
  Args args(info, 8, 10);
  const Napi::Function onProgress = args.optionalFunction(8, "onProgress");
  const bool chess960 = info.Length() == 10 && !info[9].IsUndefined() && args.boolean(9, "chess960");
  if (!info[0].IsString()) return args.failType("path must be a string"), args.undefined();
  const auto order = args.array<U8>(1, "order");
  const int format = static_cast<int>(args.count(2, "format", 1));
  const bool strict = args.boolean(3, "strict");
  const unsigned threads = static_cast<unsigned>(args.count(4, "threads", 256));
  const auto bounds = args.array<double>(5, "bounds");
  const double maxLine = args.count(6, "maxLineBytes", kMaxRange);
  if (!args.ok()) return args.undefined();
  if (!info[7].IsFunction()) return args.failType("onLines must be a function"), args.undefined();
  if (threads < 1) return args.fail("threads must be 1..256"), args.undefined();
  if (maxLine < 64) return args.fail("maxLineBytes must be at least 64"), args.undefined();
  for (std::size_t j = 0; j < order.length; ++j)
    if (order.data[j] >= kFeatureCount)
      return args.fail("order holds a feature id >= " + std::to_string(kFeatureCount)), args.undefined();
  if (bounds.length < 2 || bounds.data[0] != 0) return args.fail("bounds must hold 0 and at least one more offset"), args.undefined();
  for (std::size_t k = 1; k < bounds.length; ++k) {
    const double b = bounds.data[k];
    if (!(b <= 9007199254740991.0 && b == std::floor(b) && b > bounds.data[k - 1] && b - bounds.data[k - 1] <= kMaxRange))
      return args.fail("bounds must be increasing byte offsets, each range at most 16 MiB"), args.undefined();
  }
  std::vector<U8> ids(order.data, order.data + order.length);
  std::vector<double> offsets(bounds.data, bounds.data + bounds.length);
  auto* work = new AnalyzeFileWork(info, info[0].As<Napi::String>().Utf8Value(), std::move(ids), format, strict, threads,
                                   std::move(offsets), static_cast<std::size_t>(maxLine), chess960);
  if (!onProgress.IsEmpty()) work->watchProgress(onProgress);
  napi_value promise = OwnedAsyncWork::start(work, "analyzeFile");
  return promise ? Napi::Value(info.Env(), promise) : args.undefined();
}

}  // namespace

void exportAnalyzeFile(Napi::Env env, Napi::Object batch) {
  exportFunction<analyzeFile>(env, batch,
                              "analyzeFile(path, order, format, strict, threads, bounds, maxLineBytes, onLines, onProgress, chess960)");
}

}  // namespace bbp::addon
