// Node-API glue for libzstd (Zstandard, RFC 8878): a streaming decompressor for .zst input and a
// one-shot compressor for Parquet pages. Built where zstd.h was found at build time (binding.gyp and
// CMakeLists.txt define BBP_HAVE_ZSTD); libzstd itself is opened when the addon loads (dlopen of
// libzstd.so.1, or libzstd.1.dylib), not linked: a prebuilt addon then loads on a machine without
// libzstd, and only these functions are missing there. Without them the package reads .zst with its
// pure-JS decompressor (fzstd) and writes Snappy Parquet pages.
//
//   zstdReaderNew() -> reader
//   zstdReaderPush(reader, input) -> [consumed, more, ...outputs]: decompresses from the start of
//     input (a Uint8Array) until it is consumed or about kMaxOutputPerCall bytes are out; `more` is
//     true when output may be waiting without more input (call again with the rest of the input, or
//     an empty array). Corrupt data throws an Error whose message starts with "zstd:" (when the
//     same call decoded some output first, that output is returned, with "more" set, and the next
//     call throws).
//   zstdReaderEnd(reader) -> true when the input ended at the end of a frame (false: truncated).
//   zstdCompress(input, level) -> Uint8Array: one zstd frame.
// A reader holds only memory the addon owns (its ZSTD_DCtx), freed when the reader is collected.
#include "args.h"

#if defined(BBP_HAVE_ZSTD)
#include <dlfcn.h>
#include <zstd.h>

#include <cstdlib>
#include <vector>

namespace bbp::addon {
namespace {

// The libzstd functions used here, resolved once per process (read-only afterwards).
struct Zstd {
  decltype(&::ZSTD_createDCtx) createDCtx = nullptr;
  decltype(&::ZSTD_freeDCtx) freeDCtx = nullptr;
  decltype(&::ZSTD_decompressStream) decompressStream = nullptr;
  decltype(&::ZSTD_isError) isError = nullptr;
  decltype(&::ZSTD_getErrorName) getErrorName = nullptr;
  decltype(&::ZSTD_compressBound) compressBound = nullptr;
  decltype(&::ZSTD_compress) compress = nullptr;
  decltype(&::ZSTD_versionString) versionString = nullptr;
  bool ok = false;
};

template <typename F>
bool resolve(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

const Zstd& zstd() {
  static const Zstd z = [] {
    Zstd r;
    void* lib = nullptr;
    for (const char* name : {"libzstd.so.1", "libzstd.1.dylib", "libzstd.dylib", "libzstd.so"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!lib) return r;
    r.ok = resolve(lib, "ZSTD_createDCtx", r.createDCtx) && resolve(lib, "ZSTD_freeDCtx", r.freeDCtx) &&
           resolve(lib, "ZSTD_decompressStream", r.decompressStream) && resolve(lib, "ZSTD_isError", r.isError) &&
           resolve(lib, "ZSTD_getErrorName", r.getErrorName) && resolve(lib, "ZSTD_compressBound", r.compressBound) &&
           resolve(lib, "ZSTD_compress", r.compress) && resolve(lib, "ZSTD_versionString", r.versionString);
    return r;
  }();
  return z;
}

constexpr std::size_t kOutputBytes = 1 << 17;  // ZSTD_DStreamOutSize(): one block
constexpr std::size_t kMaxOutputPerCall = 4 << 20;
constexpr std::uint32_t kReaderTag = 0x7a737464;  // "zstd": the External is one of ours

struct ZstdReader {
  std::uint32_t tag = kReaderTag;
  ZSTD_DCtx* ctx = nullptr;
  std::size_t lastHint = 0;  // ZSTD_decompressStream's last answer: 0 at the end of a frame
  bool failed = false;
  // Corrupt data met after some output of the same call: that output is returned first, and the
  // next call throws this.
  std::string pendingError;
};

void freeReader(Napi::Env, ZstdReader* r) {
  zstd().freeDCtx(r->ctx);
  delete r;
}

// The reader of argument i, or nullptr (a TypeError is thrown).
ZstdReader* readerArg(const Napi::CallbackInfo& info, std::size_t i) {
  napi_valuetype t = napi_undefined;
  void* data = nullptr;
  if (info.Length() <= i || napi_typeof(info.Env(), info[i], &t) != napi_ok || t != napi_external ||
      napi_get_value_external(info.Env(), info[i], &data) != napi_ok || data == nullptr ||
      static_cast<ZstdReader*>(data)->tag != kReaderTag) {
    throwTypeError(info.Env(), std::string(functionName(info)) + ": reader must be a zstd reader");
    return nullptr;
  }
  return static_cast<ZstdReader*>(data);
}

Napi::Value readerNewCall(const Napi::CallbackInfo& info) {
  Args args(info, 0);
  if (!args.ok()) return args.undefined();
  auto* r = new ZstdReader();
  r->ctx = zstd().createDCtx();
  if (!r->ctx) {
    delete r;
    throwError(info.Env(), napi_create_error, "zstd: cannot allocate a decompression context");
    return info.Env().Undefined();
  }
  return Napi::External<ZstdReader>::New(info.Env(), r, freeReader);
}

// A Uint8Array over `bytes` (malloc'ed, `length` of them used), freed with it.
Napi::Value ownedBytes(Napi::Env env, std::uint8_t* bytes, std::size_t length) {
  return Napi::Buffer<std::uint8_t>::New(env, bytes, length, [](Napi::Env, std::uint8_t* p) { std::free(p); });
}

Napi::Value readerPushCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto input = args.array<std::uint8_t>(1, "input");
  if (!args.ok()) return args.undefined();
  ZstdReader* r = readerArg(info, 0);
  if (!r) return info.Env().Undefined();
  Napi::Env env = info.Env();
  if (!r->pendingError.empty()) {
    const std::string message = std::move(r->pendingError);
    r->pendingError.clear();
    throwError(env, napi_create_error, message);
    return env.Undefined();
  }
  if (r->failed) {
    throwError(env, napi_create_error, "zstd: the reader already failed");
    return env.Undefined();
  }
  ZSTD_inBuffer in{input.data, input.length, 0};
  std::vector<std::pair<std::uint8_t*, std::size_t>> outputs;
  std::size_t total = 0;
  bool more = false;
  for (;;) {
    auto* bytes = static_cast<std::uint8_t*>(std::malloc(kOutputBytes));
    if (!bytes) {
      for (auto& o : outputs) std::free(o.first);
      throwError(env, napi_create_error, "zstd: out of memory");
      return env.Undefined();
    }
    ZSTD_outBuffer out{bytes, kOutputBytes, 0};
    const std::size_t hint = zstd().decompressStream(r->ctx, &out, &in);
    if (zstd().isError(hint)) {
      r->failed = true;
      const std::string message = std::string("zstd: corrupt data (") + zstd().getErrorName(hint) + ")";
      if (out.pos) outputs.emplace_back(bytes, out.pos);
      else std::free(bytes);
      if (outputs.empty()) {
        throwError(env, napi_create_error, message);
        return env.Undefined();
      }
      // What was decoded before the damage goes out; the caller's next push throws.
      r->pendingError = message;
      more = true;
      break;
    }
    r->lastHint = hint;
    if (out.pos) outputs.emplace_back(bytes, out.pos);
    else std::free(bytes);
    total += out.pos;
    const bool full = out.pos == out.size;  // more may be waiting inside the context
    if (!full && in.pos == in.size) break;
    if (total >= kMaxOutputPerCall) {
      more = full;
      break;
    }
  }
  napi_value result = nullptr;
  if (napi_create_array_with_length(env, outputs.size() + 2, &result) != napi_ok) {
    for (auto& o : outputs) std::free(o.first);
    return env.Undefined();
  }
  Napi::Array array(env, result);
  array.Set(0u, Napi::Number::New(env, static_cast<double>(in.pos)));
  array.Set(1u, Napi::Boolean::New(env, more));
  for (std::size_t k = 0; k < outputs.size(); ++k) array.Set(static_cast<std::uint32_t>(k + 2), ownedBytes(env, outputs[k].first, outputs[k].second));
  return array;
}

Napi::Value readerEndCall(const Napi::CallbackInfo& info) {
  Args args(info, 1);
  if (!args.ok()) return args.undefined();
  ZstdReader* r = readerArg(info, 0);
  if (!r) return info.Env().Undefined();
  return Napi::Boolean::New(info.Env(), !r->failed && r->lastHint == 0);
}

Napi::Value compressCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto input = args.array<std::uint8_t>(0, "input");
  const double level = args.count(1, "level", 19.0);
  if (!args.ok()) return args.undefined();
  Napi::Env env = info.Env();
  const std::size_t bound = zstd().compressBound(input.length);
  auto* bytes = static_cast<std::uint8_t*>(std::malloc(bound ? bound : 1));
  if (!bytes) {
    throwError(env, napi_create_error, "zstd: out of memory");
    return env.Undefined();
  }
  const std::size_t n = zstd().compress(bytes, bound, input.data, input.length, static_cast<int>(level));
  if (zstd().isError(n)) {
    std::free(bytes);
    throwError(env, napi_create_error, std::string("zstd: ") + zstd().getErrorName(n));
    return env.Undefined();
  }
  return ownedBytes(env, bytes, n);
}

}  // namespace

void exportZstd(Napi::Env env, Napi::Object exports) {
  if (!zstd().ok) return;
  exportFunction<readerNewCall>(env, exports, "zstdReaderNew()");
  exportFunction<readerPushCall>(env, exports, "zstdReaderPush(reader, input)");
  exportFunction<readerEndCall>(env, exports, "zstdReaderEnd(reader)");
  exportFunction<compressCall>(env, exports, "zstdCompress(input, level)");
  setString(env, exports, "zstdVersion", zstd().versionString());
}

}  // namespace bbp::addon

#else

namespace bbp::addon {
void exportZstd(Napi::Env, Napi::Object) {}
}  // namespace bbp::addon

#endif
