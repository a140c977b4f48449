// The one way the addon runs work off the main thread (every async entry point uses it).
//
// The rule: a worker thread never reads or writes memory that JS can free. A typed array's memory
// can go away while the work runs even though the array object is referenced: its ArrayBuffer can be
// detached (transferred with postMessage / structuredClone, or ArrayBuffer.prototype.transfer) and
// the backing store freed, whatever Napi::Reference holds the object. So:
//
//   1. On the main thread, before the work is queued, the inputs are copied into OwnedArray<T>s
//      (OwnedArray::copyOf) and the outputs are allocated as OwnedArray<T>s (OwnedArray::allocate).
//   2. The worker thread(s) (OwnedAsyncWork::run) read and write only those, and the fields of the
//      work object.
//   3. On the main thread, after run has returned (OwnedAsyncWork::settle), each output is handed to
//      JS with deliver(): copied into the caller's typed array if it is still attached, of the right
//      type and length; otherwise into a new typed array (which deliver returns, so the caller can
//      put it where the result is read from). Then the promise is resolved or rejected.
//
// Whatever the caller does meanwhile (detach, transfer or drop its arrays, let the collector run),
// the work computes on its own copy and the promise settles with the same result as an undisturbed
// run. JS values the work needs after it completes (the caller's output arrays, a progress callback)
// are held by napi references and touched on the main thread only.
//
// Cancellation: the JS side owns an Int32Array(1) flag (watchCancelFlag). A worker thread never reads
// it: each poll() (and each progress step) wakes the main thread, which reads the flag, if its buffer
// is still attached, and raises the work's own atomic flag that the workers test with cancelled();
// the main thread reads the flag once more before settle(), so a cancel that came before the promise
// settles is always seen there.
// Progress: progress(done, total) from any worker thread; the main thread calls the JS callback
// (setOnProgress) with the latest step (steps may be coalesced); the last step always reaches it
// before the promise settles. A callback that throws is not called again, cancels the work (as the
// flag does) and the promise rejects with what it threw.
//
// Everything that touches JS after the entry point has returned uses plain Node-API calls whose
// failures are ignored: when a worker thread (a JS Worker) is terminated these callbacks still run
// during its environment's teardown, where calling into JS fails, and node-addon-api would turn that
// failure into a fatal error (C++ exceptions are off).
//
// A new async entry point: derive from OwnedAsyncWork, copy its inputs and allocate its outputs in
// the constructor or the entry function (report an allocation failure as a RangeError), implement
// run() and settle(), and return start(work).
#pragma once

#include <napi.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "args.h"

namespace bbp::addon {

// Elements in memory the addon owns (not zeroed by allocate: the work writes every element).
template <typename T>
class OwnedArray {
 public:
  // False when the memory cannot be had (the caller reports a RangeError).
  bool allocate(std::size_t length) {
    data_.reset(length ? new (std::nothrow) T[length] : nullptr);
    length_ = length;
    return length == 0 || data_ != nullptr;
  }
  bool copyOf(const T* from, std::size_t length) {
    if (!allocate(length)) return false;
    if (length) std::memcpy(data_.get(), from, length * sizeof(T));
    return true;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  // Gives up the memory (the caller frees it with delete[]); the array is empty afterwards.
  T* release() {
    length_ = 0;
    return data_.release();
  }
  std::size_t length() const { return length_; }
  bool empty() const { return data_ == nullptr; }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t length_ = 0;
};

// Main thread: hands `from` to JS. Copied into `target` when it is a typed array of T with exactly
// from.length() elements over an attached buffer (a detached one reports no data and length 0);
// otherwise into a new typed array. Returns the array that holds the values (target or the new one),
// or nullptr when JS cannot run.
template <typename T>
napi_value deliver(napi_env env, napi_value target, const OwnedArray<T>& from) {
  const std::size_t bytes = from.length() * sizeof(T);
  bool isTyped = false;
  if (target && napi_is_typedarray(env, target, &isTyped) == napi_ok && isTyped) {
    napi_typedarray_type type;
    std::size_t length = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(env, target, &type, &length, &data, nullptr, nullptr) == napi_ok &&
        type == kTypedArray<T> && length == from.length() && (data || length == 0)) {
      if (bytes) std::memcpy(data, from.data(), bytes);
      return target;
    }
  }
  void* data = nullptr;
  napi_value buffer = nullptr, array = nullptr;
  if (napi_create_arraybuffer(env, bytes, &data, &buffer) != napi_ok ||
      napi_create_typedarray(env, kTypedArray<T>, from.length(), buffer, 0, &array) != napi_ok)
    return nullptr;
  if (bytes) std::memcpy(data, from.data(), bytes);
  return array;
}

// Main thread: hands `from`'s memory itself to JS as a new typed array over an external ArrayBuffer
// (no copy; its finalizer frees the memory when the collector takes the buffer), so a large result
// never exists twice. Where external buffers are not allowed (napi_no_external_buffers_allowed) it
// falls back to deliver's copy. `from` is empty afterwards when handed over. nullptr when JS cannot run.
template <typename T>
napi_value handOver(napi_env env, OwnedArray<T>& from) {
  if (from.length() == 0) return deliver(env, nullptr, from);
  const std::size_t length = from.length();
  napi_value buffer = nullptr, array = nullptr;
  T* data = from.data();
  const auto finalize = [](napi_env, void* memory, void*) { delete[] static_cast<T*>(memory); };
  if (napi_create_external_arraybuffer(env, data, length * sizeof(T), finalize, nullptr, &buffer) != napi_ok) {
    bool pending = false;
    napi_value ignored = nullptr;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) napi_get_and_clear_last_exception(env, &ignored);
    return deliver(env, nullptr, from);
  }
  from.release();  // the finalizer owns it now
  if (napi_create_typedarray(env, kTypedArray<T>, length, buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

struct AsyncTick {};

class OwnedAsyncWork : public Napi::AsyncProgressWorker<AsyncTick> {
 public:
  ~OwnedAsyncWork() override {
    for (napi_ref ref : {cancelFlag_, onProgress_, thrown_})
      if (ref) napi_delete_reference(Env(), ref);
  }

  // Queues the work and returns its promise (nullptr with a pending JS error when the promise cannot
  // be made; the work is then deleted). Takes ownership of `work`.
  static napi_value start(OwnedAsyncWork* work, const char* fn) {
    napi_env env = work->Env();
    napi_value promise = nullptr;
    if (napi_create_promise(env, &work->deferred_, &promise) != napi_ok) {
      delete work;
      throwError(env, napi_create_error, std::string(fn) + ": cannot create a promise");
      return nullptr;
    }
    work->Queue();  // deleted by node-addon-api after OnOK / OnError
    return promise;
  }

 protected:
  OwnedAsyncWork(Napi::Env env, const char* resourceName) : Napi::AsyncProgressWorker<AsyncTick>(env, resourceName) {}

  // Main thread, before start(): a JS Int32Array(1) whose element 0 becoming non-zero cancels.
  void watchCancelFlag(napi_value flag) { napi_create_reference(Env(), flag, 1, &cancelFlag_); }
  // Main thread, before start(): onProgress(done, total).
  void setOnProgress(napi_value fn) { napi_create_reference(Env(), fn, 1, &onProgress_); }

  // Worker threads: the work itself. Reads and writes owned memory only.
  virtual void run() = 0;
  // Main thread, after run: set *value to what the promise resolves with, or *error to what it
  // rejects with (both may stay nullptr when JS cannot run: the promise is then left pending).
  virtual void settle(napi_env env, napi_value* value, napi_value* error) = 0;

  // Any worker thread.
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  // The same flag, for code that tests an atomic itself (it sees a cancel after the next poll() or
  // progress step has reached the main thread).
  const std::atomic<bool>* cancelledFlag() const { return &cancelled_; }
  void poll() {
    if (progress_ && cancelFlag_) progress_->Signal();
  }
  // Any worker thread: has the main thread call serviceMainThread() soon (a request for JS that the
  // work queued itself; see analyze_file.cc). Wake-ups may be coalesced: the hook serves every request
  // queued so far.
  void wakeMainThread() {
    if (progress_) progress_->Signal();
  }
  // Main thread: called at every wake-up (and progress step) while the work runs.
  virtual void serviceMainThread(napi_env) {}
  void progress(unsigned done, unsigned total) {
    step_.store((std::uint64_t{done} << 32) | total, std::memory_order_relaxed);
    if (progress_) progress_->Signal();
  }

 private:
  void Execute(const ExecutionProgress& progress) final {
    progress_ = &progress;
    run();
    progress_ = nullptr;
  }

  void OnProgress(const AsyncTick*, std::size_t) final {
    serviceMainThread(Env());
    readCancelFlag();
    deliverStep();
  }

  void OnOK() final {
    deliverStep();     // the last step, if the worker finished before the main thread saw it
    readCancelFlag();  // a cancel that came before the promise settles counts, even if the work is done
    napi_env env = Env();
    napi_value value = nullptr, error = nullptr;
    if (failed_) {
      napi_value holder = nullptr;
      if (thrown_ && napi_get_reference_value(env, thrown_, &holder) == napi_ok && holder)
        napi_get_element(env, holder, 0, &error);
      if (!error) error = makeError(env, napi_create_error, "onProgress failed");
    } else {
      settle(env, &value, &error);
    }
    if (error) napi_reject_deferred(env, deferred_, error);
    else if (value) napi_resolve_deferred(env, deferred_, value);
  }

  void OnError(const Napi::Error&) final {  // not reached: run never sets an error
    if (napi_value error = makeError(Env(), napi_create_error, "the work failed")) napi_reject_deferred(Env(), deferred_, error);
  }

  void readCancelFlag() {
    if (!cancelFlag_ || cancelled()) return;
    napi_value flag = nullptr;
    napi_typedarray_type type;
    std::size_t length = 0;
    void* data = nullptr;
    if (napi_get_reference_value(Env(), cancelFlag_, &flag) == napi_ok && flag &&
        napi_get_typedarray_info(Env(), flag, &type, &length, &data, nullptr, nullptr) == napi_ok &&
        type == napi_int32_array && length >= 1 && data && *static_cast<const std::int32_t*>(data) != 0)
      cancelled_.store(true, std::memory_order_relaxed);
  }

  void deliverStep() {
    const std::uint64_t step = step_.load(std::memory_order_relaxed);
    if (!onProgress_ || failed_ || step == delivered_) return;
    delivered_ = step;
    napi_env env = Env();
    napi_value fn = nullptr, recv = nullptr, argv[2] = {}, result = nullptr;
    if (napi_get_reference_value(env, onProgress_, &fn) != napi_ok || !fn || napi_get_undefined(env, &recv) != napi_ok ||
        napi_create_uint32(env, static_cast<std::uint32_t>(step >> 32), &argv[0]) != napi_ok ||
        napi_create_uint32(env, static_cast<std::uint32_t>(step), &argv[1]) != napi_ok)
      return;
    if (napi_call_function(env, recv, fn, 2, argv, &result) == napi_ok) return;
    failed_ = true;
    cancelled_.store(true, std::memory_order_relaxed);
    // Keep what was thrown, inside an array: Node-API 8 cannot reference a primitive directly.
    bool pending = false;
    napi_value thrown = nullptr, holder = nullptr;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
        napi_get_and_clear_last_exception(env, &thrown) == napi_ok && napi_create_array(env, &holder) == napi_ok &&
        napi_set_element(env, holder, 0, thrown) == napi_ok)
      napi_create_reference(env, holder, 1, &thrown_);
  }

  napi_deferred deferred_ = nullptr;
  napi_ref cancelFlag_ = nullptr;
  napi_ref onProgress_ = nullptr;
  napi_ref thrown_ = nullptr;  // [what onProgress threw]
  bool failed_ = false;
  const ExecutionProgress* progress_ = nullptr;  // while run() runs
  std::atomic<bool> cancelled_{false};
  std::atomic<std::uint64_t> step_{0};  // done << 32 | total, written by the workers
  std::uint64_t delivered_ = 0;         // main thread: the last step passed to onProgress
};

}  // namespace bbp::addon
