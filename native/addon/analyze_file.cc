// The analyze command's native pipeline on a plain file (lib/cli/analyze-native.ts drives it when the
// native backend analyses a file without --syzygy or a progress bar): native threads read the file in
// byte ranges, split, parse, analyse and format each chunk's lines, and write the records to stdout in
// input order. No JS worker thread is started, so a run pays neither a worker's start-up nor its
// memory.
//
// analyzeFile(path, order, format, strict, threads, bounds, maxLineBytes, onChunk)
//   -> Promise<[stop, message, lines, errors, bytes]>
//   bounds: chunk k is the lines that start in the byte range [bounds[k], bounds[k + 1]) (the JS
//   side's chunk plan); order: the feature ids; format 0 NDJSON, 1 CSV.
//
// The same steps as the worker threads' (lib/cli/analyze-chunks.ts), which are the reference:
//   - a chunk's first line starts after the first line end at or after its range's first byte - 1;
//     its last line may run on past the range, and is passed over (tooLong) when longer than
//     maxLineBytes; a UTF-8 byte order mark at the file's start is dropped;
//   - each chunk's lines are numbered once chunk k - 1 has published the number after its own
//     (counted_, lineBase_), blank and comment lines included;
//   - a finished chunk waits in one of its thread's two output slots; whoever publishes the chunk
//     whose turn it is writes every finished chunk from there on, in order (publish).
// A chunk the native parser cannot finish alone (a line to report as an error record, a line that is
// not ASCII, a line over the length limit) is handed to the main thread, which makes its records with
// the worker threads' own JS code (onChunk(text, firstLine, tooLong) -> { out, lines, errors,
// firstError?, firstErrorEnd? }), so both pipelines give the same bytes. The thread waits for that
// answer; the text stays in the thread's memory, which JS never holds.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <uv.h>

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

namespace bbp::addon {
namespace {

using U8 = std::uint8_t;

// The stop codes lib/cli/analyze-control.ts names (RUNNING .. WRITE_FAILED), and FAILED: the input
// could not be read, or onChunk threw (the promise rejects).
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

// A chunk for the main thread: its text (in the asking thread's memory), and the answer.
struct Request {
  const char* text = nullptr;
  std::size_t length = 0;
  std::uint64_t firstLine = 0;
  bool hasTooLong = false;
  std::string tooLong;  // the first 64 bytes of a line over the limit, as latin1
  std::vector<char>* out = nullptr;
  std::size_t outLength = 0;
  std::uint64_t lines = 0, errors = 0;
  bool hasFirstError = false;
  std::string firstError;
  std::size_t firstErrorEnd = 0;
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
  std::vector<char> slot[2];
  bool busy[2] = {false, false};  // guarded by the work's mutex
  int nextSlot = 0;
};

// A line the analyze command passes over without a record: only white space, or '#' first.
bool skippedLine(const char* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '#';
  }
  return true;
}

// Node's message for a failed write ("EBADF: bad file descriptor, write"), as fs.writeSync gives it.
std::string writeError(int err) { return std::string(uv_err_name(-err)) + ": " + uv_strerror(-err) + ", write"; }

class AnalyzeFileWork : public OwnedAsyncWork {
 public:
  AnalyzeFileWork(const Napi::CallbackInfo& info, std::string path, std::vector<U8> order, int format, bool strict,
                  unsigned threads, std::vector<double> bounds, std::size_t maxLine)
      : OwnedAsyncWork(info.Env(), "bitboard-patterns:analyzeFile"), kernels_(kernelsOf(info)), path_(std::move(path)),
        order_(std::move(order)), format_(format), strict_(strict), threads_(threads), bounds_(std::move(bounds)),
        maxLine_(maxLine) {
    for (U8 f : order_) features_ |= 1u << f;
    napi_create_reference(info.Env(), info[7], 1, &onChunk_);
  }
  ~AnalyzeFileWork() override {
    if (onChunk_) napi_delete_reference(Env(), onChunk_);
  }

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
    std::size_t n = 0;
    for (const char* p = text; length && (p = static_cast<const char*>(std::memchr(p, '\n', length - (p - text)))); ++p) ++n;
    if (length > 0 && text[length - 1] != '\n') ++n;
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
    bool hard = hasTooLong;
    std::uint64_t skipped = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const char* nl = static_cast<const char*>(std::memchr(text + at, '\n', length - at));
      const std::size_t e = nl ? static_cast<std::size_t>(nl - text) : length;
      ts.starts[i] = static_cast<std::uint32_t>(at);
      std::uint64_t* w = ts.words.data() + i * kPackedPositionWords;
      const U8 st = kernels_.parseFenLine(text + at, e - at, true, w);
      ts.status[i] = st;
      ts.valid[i] = st == 0;
      if (st != 0) {
        std::memset(w, 0, kPackedPositionWords * 8);
        if (skippedLine(text + at, e - at)) ++skipped;
        else hard = true;
      }
      at = e + 1;
    }
    ts.starts[n] = static_cast<std::uint32_t>(at);

    Finished f;
    f.bytes = &ts.slot[slot];
    f.busy = &ts.busy[slot];
    f.textBytes = length;
    if (!hard) {
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
      // A parsed position the analysis refuses is left to the JS code, which reports it as the
      // worker threads do.
      hard = kernels_.analyzeRange(ts.words.data(), ts.valid.data(), 0, n, features_, outs) != n;
      if (!hard) {
        Writer w(ts.slot[slot]);
        formatRecordLines(w, text, ts.starts.data(), ts.valid.data(), n, order_.data(), order_.size(), outs, format_,
                          firstLine, nullptr);
        f.length = w.size();
        f.lines = n - skipped;
      }
    }
    if (hard) {
      Request r;
      r.text = text;
      r.length = length;
      r.firstLine = firstLine;
      r.hasTooLong = hasTooLong;
      r.tooLong = std::move(tooLong);
      r.out = &ts.slot[slot];
      {
        std::unique_lock<std::mutex> lock(m_);
        requests_.push_back(&r);
      }
      wakeMainThread();
      {
        // Always answered (the main thread serves every request, whatever the run's state).
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return r.done; });
      }
      if (r.failed) {
        fail(kFailed, r.failure);
        return false;
      }
      f.length = r.outLength;
      f.lines = r.lines;
      f.errors = r.errors;
      if (strict_ && r.errors > 0) {
        f.strictEnd = r.hasFirstError ? std::min(r.firstErrorEnd, r.outLength) : r.outLength;
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
        if (stop_.compare_exchange_strong(expected, err == EPIPE ? kEpipe : kWriteFailed)) message_ = writeError(err);
      } else if (strictStop) {
        errors_ += 1;
        int expected = kRunning;
        if (stop_.compare_exchange_strong(expected, kStrict)) message_ = d.message;
      } else {
        lines_ += d.lines;
        errors_ += d.errors;
        bytes_ += d.textBytes;
      }
      *d.busy = false;
      ++turn_;
      cv_.notify_all();
    }
    writing_ = false;
    cv_.notify_all();
  }

  // Main thread: answers every queued request with onChunk.
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

  void answer(napi_env env, Request& r) {
    napi_value fn = nullptr, recv = nullptr, argv[3] = {}, result = nullptr;
    void* copy = nullptr;
    auto failed = [&](const char* what) {
      r.failed = true;
      r.failure = what;
      bool pending = false;
      napi_value thrown = nullptr, text = nullptr;
      if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
          napi_get_and_clear_last_exception(env, &thrown) == napi_ok && napi_coerce_to_string(env, thrown, &text) == napi_ok) {
        std::size_t len = 0;
        if (napi_get_value_string_utf8(env, text, nullptr, 0, &len) == napi_ok) {
          std::string s(len, '\0');
          napi_get_value_string_utf8(env, text, s.data(), len + 1, &len);
          r.failure = s;
        }
      }
    };
    if (napi_get_reference_value(env, onChunk_, &fn) != napi_ok || !fn || napi_get_undefined(env, &recv) != napi_ok ||
        napi_create_buffer_copy(env, r.length, r.length ? r.text : "", &copy, &argv[0]) != napi_ok ||
        napi_create_double(env, static_cast<double>(r.firstLine), &argv[1]) != napi_ok)
      return failed("analyzeFile: cannot call onChunk");
    if (r.hasTooLong) {
      if (napi_create_string_latin1(env, r.tooLong.data(), r.tooLong.size(), &argv[2]) != napi_ok)
        return failed("analyzeFile: cannot call onChunk");
    } else if (napi_get_undefined(env, &argv[2]) != napi_ok) {
      return failed("analyzeFile: cannot call onChunk");
    }
    if (napi_call_function(env, recv, fn, 3, argv, &result) != napi_ok) return failed("analyzeFile: onChunk threw");
    napi_value out = nullptr, v = nullptr;
    bool isTyped = false;
    napi_typedarray_type type;
    std::size_t length = 0;
    void* data = nullptr;
    if (napi_get_named_property(env, result, "out", &out) != napi_ok || napi_is_typedarray(env, out, &isTyped) != napi_ok ||
        !isTyped || napi_get_typedarray_info(env, out, &type, &length, &data, nullptr, nullptr) != napi_ok ||
        type != napi_uint8_array)
      return failed("analyzeFile: onChunk must return { out: Uint8Array, ... }");
    r.out->resize(std::max(r.out->size(), length));
    if (length) std::memcpy(r.out->data(), data, length);
    r.outLength = length;
    double d = 0;
    auto number = [&](const char* name, double& into) {
      return napi_get_named_property(env, result, name, &v) == napi_ok && napi_get_value_double(env, v, &into) == napi_ok;
    };
    if (!number("lines", d)) return failed("analyzeFile: onChunk must return lines");
    r.lines = static_cast<std::uint64_t>(d);
    if (!number("errors", d)) return failed("analyzeFile: onChunk must return errors");
    r.errors = static_cast<std::uint64_t>(d);
    if (number("firstErrorEnd", d)) {
      r.hasFirstError = true;
      r.firstErrorEnd = static_cast<std::size_t>(d);
      napi_value s = nullptr;
      std::size_t len = 0;
      if (napi_get_named_property(env, result, "firstError", &s) == napi_ok &&
          napi_get_value_string_utf8(env, s, nullptr, 0, &len) == napi_ok) {
        r.firstError.assign(len, '\0');
        napi_get_value_string_utf8(env, s, r.firstError.data(), len + 1, &len);
      }
    } else {
      bool pending = false;
      napi_value ignored = nullptr;
      if (napi_is_exception_pending(env, &pending) == napi_ok && pending) napi_get_and_clear_last_exception(env, &ignored);
    }
  }

  void settle(napi_env env, napi_value* value, napi_value* error) override {
    const int stop = stop_.load();
    if (stop == kFailed) {
      *error = makeError(env, napi_create_error, message_);
      return;
    }
    napi_value result = nullptr, e = nullptr;
    if (napi_create_array_with_length(env, 5, &result) != napi_ok) return;
    const double fields[] = {static_cast<double>(stop), 0, static_cast<double>(lines_), static_cast<double>(errors_),
                             static_cast<double>(bytes_)};
    for (unsigned i = 0; i < 5; ++i) {
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
  unsigned features_ = 0;
  napi_ref onChunk_ = nullptr;
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
};

Napi::Value analyzeFile(const Napi::CallbackInfo& info) {
  Args args(info, 8);
  if (!info[0].IsString()) return args.failType("path must be a string"), args.undefined();
  const auto order = args.array<U8>(1, "order");
  const int format = static_cast<int>(args.count(2, "format", 1));
  const bool strict = args.boolean(3, "strict");
  const unsigned threads = static_cast<unsigned>(args.count(4, "threads", 256));
  const auto bounds = args.array<double>(5, "bounds");
  const double maxLine = args.count(6, "maxLineBytes", kMaxRange);
  if (!args.ok()) return args.undefined();
  if (!info[7].IsFunction()) return args.failType("onChunk must be a function"), args.undefined();
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
                                   std::move(offsets), static_cast<std::size_t>(maxLine));
  napi_value promise = OwnedAsyncWork::start(work, "analyzeFile");
  return promise ? Napi::Value(info.Env(), promise) : args.undefined();
}

}  // namespace

void exportAnalyzeFile(Napi::Env env, Napi::Object batch) {
  exportFunction<analyzeFile>(env, batch, "analyzeFile(path, order, format, strict, threads, bounds, maxLineBytes, onChunk)");
}

}  // namespace bbp::addon
