// Argument checking for the Node-API glue (C++ exceptions are off: errors are thrown as pending JS
// exceptions). Never trust JS: every argument is checked again here even though the facade checks
// too. After the first failure an Args object touches no more JS values and reports !ok().
// Each exported function carries its signature ("name(arg, ...)", see exportFunction) as callback
// data, so messages need no name argument. glue.h builds Node-API functions from core functions on
// top of this.
#pragma once

#include <napi.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../kernels/kernels.h"

namespace bbp::addon {

// An exported function's API name and argument names, from "name(a, b)" (or just "name").
struct Signature {
  std::string name;
  std::vector<std::string> args;

  explicit Signature(const char* text) {
    const std::string s(text);
    const std::size_t open = s.find('(');
    name = s.substr(0, open);
    if (open == std::string::npos) return;
    std::string arg;
    for (std::size_t i = open + 1; i < s.size(); ++i) {
      if (s[i] == ',' || s[i] == ')') {
        if (!arg.empty()) args.push_back(arg);
        arg.clear();
      } else if (s[i] != ' ') {
        arg += s[i];
      }
    }
  }
};

// Per-environment state (worker threads each get their own).
struct AddonState {
  const Kernels* kernels;
  std::deque<Signature> signatures;  // the callback data of this environment's functions (stable addresses)
};

inline const Kernels& kernelsOf(const Napi::CallbackInfo& info) {
  return *info.Env().GetInstanceData<AddonState>()->kernels;
}

// ---- Throwing ----
//
// JS errors are built with plain Node-API calls whose failures are checked: while a worker thread is
// being terminated no JS can run, the calls fail, and the error is dropped (the caller's return value
// is ignored anyway). node-addon-api's Error::New / ThrowAsJavaScriptException abort the process in
// that case instead.

using MakeError = napi_status (*)(napi_env, napi_value, napi_value, napi_value*);

// The error object, or nullptr when it cannot be made.
inline napi_value makeError(napi_env env, MakeError make, const std::string& text) {
  napi_value message = nullptr;
  napi_value error = nullptr;
  if (napi_create_string_utf8(env, text.data(), text.size(), &message) != napi_ok) return nullptr;
  if (make(env, nullptr, message, &error) != napi_ok) return nullptr;
  return error;
}

inline void throwError(napi_env env, MakeError make, const std::string& text) {
  if (napi_value error = makeError(env, make, text)) napi_throw(env, error);
}
inline void throwRangeError(napi_env env, const std::string& text) { throwError(env, napi_create_range_error, text); }
inline void throwTypeError(napi_env env, const std::string& text) { throwError(env, napi_create_type_error, text); }

inline const Signature& signatureOf(const Napi::CallbackInfo& info) {
  return *static_cast<const Signature*>(info.Data());
}
inline const char* functionName(const Napi::CallbackInfo& info) { return signatureOf(info).name.c_str(); }
// The name of argument i as the signature gives it.
inline const char* argName(const Napi::CallbackInfo& info, std::size_t i) {
  const Signature& sig = signatureOf(info);
  return i < sig.args.size() ? sig.args[i].c_str() : "argument";
}

// ---- Typed arrays: the element type of each kind, and its JS name ----

template <typename T>
constexpr napi_typedarray_type kTypedArray =
    std::is_same_v<T, std::int8_t> ? napi_int8_array : std::is_same_v<T, std::uint8_t> ? napi_uint8_array
  : std::is_same_v<T, std::int16_t> ? napi_int16_array : std::is_same_v<T, std::uint16_t> ? napi_uint16_array
  : std::is_same_v<T, std::int32_t> ? napi_int32_array : std::is_same_v<T, std::uint32_t> ? napi_uint32_array
  : std::is_same_v<T, double> ? napi_float64_array : napi_biguint64_array;
static_assert(kTypedArray<std::uint64_t> == napi_biguint64_array && kTypedArray<float> != napi_float32_array);

// Indexed by napi_typedarray_type (Node-API's order).
inline constexpr const char* kTypedArrayNames[] = {
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
};

// "a Uint8Array", "an Int32Array".
template <typename T>
std::string typedArrayWithArticle() {
  const char* name = kTypedArrayNames[kTypedArray<T>];
  return std::string(name[0] == 'I' ? "an " : "a ") + name;
}

// Index of the first element >= 64, or n when all are squares.
inline std::size_t firstBadSquare(const std::uint8_t* squares, std::size_t n) {
  std::uint8_t any = 0;
  for (std::size_t i = 0; i < n; ++i) any |= squares[i];  // vectorises; the common case is all good
  if (any < 64) return n;
  for (std::size_t i = 0; i < n; ++i)
    if (squares[i] >= 64) return i;
  return n;
}

template <typename T>
struct Span {
  T* data = nullptr;
  std::size_t length = 0;
  const char* name = "";
  bool squares = false;  // elements must be < 64
};

class Args {
 public:
  Args(const Napi::CallbackInfo& info, std::size_t expected) : info_(info) {
    if (info.Length() != expected)
      typeError("expected " + std::to_string(expected) + " argument" + (expected == 1 ? "" : "s") +
                ", got " + std::to_string(info.Length()));
  }

  // Between `min` and `max` arguments (trailing optional ones).
  Args(const Napi::CallbackInfo& info, std::size_t min, std::size_t max) : info_(info) {
    if (info.Length() < min || info.Length() > max)
      typeError("expected " + std::to_string(min) + " to " + std::to_string(max) + " arguments, got " +
                std::to_string(info.Length()));
  }

  bool ok() const { return ok_; }
  Napi::Value undefined() const { return info_.Env().Undefined(); }

  int square(std::size_t i, const char* name) { return integer(i, name, 63, "an integer 0..63"); }
  int color(std::size_t i, const char* name) { return integer(i, name, 1, "0 (white) or 1 (black)"); }
  // Batch forms over positions: 2 = each position's side to move.
  int colorOrSideToMove(std::size_t i, const char* name) {
    return integer(i, name, 2, "0 (white), 1 (black) or 2 (side to move)");
  }
  int direction(std::size_t i, const char* name) { return integer(i, name, 7, "a direction 0..7"); }
  int depth(std::size_t i, const char* name) { return integer(i, name, kMaxPerftDepth, "an integer 0..20"); }
  int promotion(std::size_t i, const char* name) {
    return integer(i, name, 4, "0 (none), 1 (knight), 2 (bishop), 3 (rook) or 4 (queen)");
  }

  // One packed position (lib/core/types.ts PACKED_POSITION_WORDS): exactly 10 words, consistent.
  const std::uint64_t* position(std::size_t i, const char* name) {
    const Span<std::uint64_t> words = array<std::uint64_t>(i, name);
    if (!ok_) return nullptr;
    if (words.length != kPackedPositionWords)
      return rangeError(std::string(name) + " must have " + std::to_string(kPackedPositionWords) +
                        " words, got " + std::to_string(words.length)), nullptr;
    if (const char* problem = validatePacked(words.data))
      return rangeError(std::string(name) + " is not a valid position: " + problem), nullptr;
    return words.data;
  }

  // Packed positions for a batch with `out`: out.length * 10 words, each position valid.
  Span<std::uint64_t> positions(std::size_t i, const char* name, std::size_t count) {
    Span<std::uint64_t> words = array<std::uint64_t>(i, name);
    if (!ok_) return words;
    if (words.length != count * kPackedPositionWords) {
      rangeError(std::string(name) + " has length " + std::to_string(words.length) + ", expected " +
                 std::to_string(count * kPackedPositionWords) + " (" + std::to_string(kPackedPositionWords) +
                 " words per output element)");
      return words;
    }
    for (std::size_t p = 0; p < count; ++p)
      if (!packedIsValid(words.data + p * kPackedPositionWords)) {
        invalidPosition(words, p);
        return words;
      }
    return words;
  }

  // Packed positions whose count the array itself gives (a multiple of 10 words); `out` must hold
  // `wordsPerPosition` words per position. The positions' contents are the kernel's to check.
  Span<std::uint64_t> positionsFor(std::size_t i, const char* name, const Span<std::uint64_t>& out,
                                   std::size_t wordsPerPosition) {
    Span<std::uint64_t> words = array<std::uint64_t>(i, name);
    if (!ok_) return words;
    if (words.length % kPackedPositionWords != 0) {
      rangeError(std::string(name) + " has length " + std::to_string(words.length) + ", not a multiple of " +
                 std::to_string(kPackedPositionWords) + " (words per position)");
    } else if (out.length != words.length / kPackedPositionWords * wordsPerPosition) {
      rangeError(std::string(out.name) + " has length " + std::to_string(out.length) + ", expected " +
                 std::to_string(words.length / kPackedPositionWords * wordsPerPosition) + " (" +
                 std::to_string(wordsPerPosition) + " words per position)");
    }
    return words;
  }

  // The RangeError for position p of a batch, saying what is wrong with it (the JS backend's words).
  void invalidPosition(const Span<std::uint64_t>& words, std::size_t p) {
    const char* problem = validatePacked(words.data + p * kPackedPositionWords);
    rangeError("position " + std::to_string(p) + ": " + (problem ? problem : "inconsistent words"));
  }

  std::uint64_t bitboard(std::size_t i, const char* name) {
    if (!ok_) return 0;
    const Napi::Value v = info_[i];
    if (!v.IsBigInt()) return typeError(std::string(name) + " must be a bigint, got " + typeName(v)), 0;
    bool lossless = false;
    const std::uint64_t bits = v.As<Napi::BigInt>().Uint64Value(&lossless);
    if (!lossless) return rangeError(std::string(name) + " must be a bigint 0..2^64-1, got " + show(v)), 0;
    return bits;
  }

  template <typename T>
  Span<T> array(std::size_t i, const char* name) {
    Span<T> span;
    span.name = name;
    if (!ok_) return span;
    const Napi::Value v = info_[i];
    return typedArray(v, name, span);
  }

  // A typed array of exactly `length` elements.
  template <typename T>
  Span<T> arrayOfLength(std::size_t i, const char* name, std::size_t length) {
    Span<T> span = array<T>(i, name);
    if (ok_ && span.length != length)
      rangeError(std::string(name) + " must have length " + std::to_string(length) + ", got " +
                 std::to_string(span.length));
    return span;
  }

  // An integer 0..max; `what` describes the accepted values for the message.
  int count(std::size_t i, const char* name, int max, const char* what) { return integer(i, name, max, what); }

  // A function, or an empty one when the argument is undefined or missing.
  Napi::Function optionalFunction(std::size_t i, const char* name) {
    if (!ok_ || i >= info_.Length() || info_[i].IsUndefined()) return Napi::Function();
    if (!info_[i].IsFunction()) {
      typeError(std::string(name) + " must be a function or undefined, got " + typeName(info_[i]));
      return Napi::Function();
    }
    return info_[i].As<Napi::Function>();
  }

  Span<std::uint8_t> squares(std::size_t i, const char* name) {
    Span<std::uint8_t> span = array<std::uint8_t>(i, name);
    span.squares = true;
    return span;
  }

  // Every input as long as `out`, then every square array free of elements >= 64.
  template <typename Out, typename... In>
  bool batch(const Span<Out>& out, const Span<In>&... in) {
    if (!ok_) return false;
    (sameLength(out, in), ...);
    (squaresInRange(in), ...);
    return ok_;
  }

  // An integer lo..hi that may be negative (a centipawn threshold).
  int signedInteger(std::size_t i, const char* name, int lo, int hi, const char* what) {
    if (!ok_) return 0;
    const Napi::Value v = info_[i];
    if (!v.IsNumber()) return typeError(std::string(name) + " must be " + what + ", got " + typeName(v)), 0;
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= lo && d <= hi && std::floor(d) == d))
      return rangeError(std::string(name) + " must be " + what + ", got " + show(v)), 0;
    return static_cast<int>(d);
  }

  // An integer 0..max (counts, bit masks, line numbers).
  double count(std::size_t i, const char* name, double max) {
    if (!ok_) return 0;
    const Napi::Value v = info_[i];
    if (!v.IsNumber()) return typeError(std::string(name) + " must be a number, got " + typeName(v)), 0;
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= max && std::floor(d) == d))
      return rangeError(std::string(name) + " must be an integer 0.." + show(Napi::Number::New(info_.Env(), max)) +
                        ", got " + show(v)), 0;
    return d;
  }

  bool boolean(std::size_t i, const char* name) {
    if (!ok_) return false;
    const Napi::Value v = info_[i];
    if (!v.IsBoolean()) return typeError(std::string(name) + " must be a boolean, got " + typeName(v)), false;
    return v.As<Napi::Boolean>().Value();
  }

  // A typed array, or null / undefined (data == nullptr).
  template <typename T>
  Span<T> optionalArray(std::size_t i, const char* name) {
    if (ok_ && (info_[i].IsNull() || info_[i].IsUndefined())) {
      Span<T> span;
      span.name = name;
      return span;
    }
    return array<T>(i, name);
  }

  // An element of a JS array argument (an Array of typed arrays), checked like an argument.
  template <typename T>
  Span<T> arrayElement(const Napi::Value& v, const std::string& name) {
    Span<T> span;
    if (!ok_) return span;
    return typedArray(v, name, span);
  }

  void fail(const std::string& msg) { rangeError(msg); }
  void failType(const std::string& msg) { typeError(msg); }

 private:
  template <typename T>
  Span<T>& typedArray(const Napi::Value& v, const std::string& name, Span<T>& span) {
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != kTypedArray<T>) {
      typeError(name + " must be " + typedArrayWithArticle<T>() + ", got " + describe(v));
      return span;
    }
    auto typed = v.As<Napi::TypedArrayOf<T>>();
    span.data = typed.Data();
    span.length = typed.ElementLength();
    return span;
  }

  int integer(std::size_t i, const char* name, int max, const char* what) {
    if (!ok_) return 0;
    const Napi::Value v = info_[i];
    if (!v.IsNumber()) return typeError(std::string(name) + " must be " + what + ", got " + typeName(v)), 0;
    const double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= max && std::floor(d) == d))
      return rangeError(std::string(name) + " must be " + what + ", got " + show(v)), 0;
    return static_cast<int>(d);
  }

  template <typename Out, typename In>
  void sameLength(const Span<Out>& out, const Span<In>& in) {
    if (ok_ && in.length != out.length)
      rangeError(std::string(in.name) + " has length " + std::to_string(in.length) + ", expected " +
                 std::to_string(out.length) + " (" + out.name + ".length)");
  }

  template <typename In>
  void squaresInRange(const Span<In>& in) {
    if constexpr (std::is_same_v<In, std::uint8_t>) {
      if (!ok_ || !in.squares) return;
      const std::size_t bad = firstBadSquare(in.data, in.length);
      if (bad != in.length)
        rangeError(std::string(in.name) + "[" + std::to_string(bad) + "] must be a square 0..63, got " +
                   std::to_string(in.data[bad]));
    }
  }

  static const char* typeName(const Napi::Value& v) {
    switch (v.Type()) {
      case napi_undefined: return "undefined";
      case napi_null: return "null";
      case napi_boolean: return "boolean";
      case napi_number: return "number";
      case napi_string: return "string";
      case napi_symbol: return "symbol";
      case napi_function: return "function";
      case napi_external: return "external";
      case napi_bigint: return "bigint";
      default: return "object";
    }
  }

  static std::string describe(const Napi::Value& v) {
    if (!v.IsTypedArray()) return typeName(v);
    const unsigned type = v.As<Napi::TypedArray>().TypedArrayType();
    return type < std::size(kTypedArrayNames) ? kTypedArrayNames[type] : "typed array";
  }

  // Numbers and bigints only: their string conversion has no side effects.
  // Plain Node-API with checked statuses, like the throwing above: "?" when JS cannot run.
  static std::string show(const Napi::Value& v) {
    napi_value text = nullptr;
    char buf[64];
    std::size_t length = 0;
    if (napi_coerce_to_string(v.Env(), v, &text) != napi_ok ||
        napi_get_value_string_utf8(v.Env(), text, buf, sizeof buf, &length) != napi_ok)
      return "?";
    return std::string(buf, length);
  }

  void typeError(const std::string& msg) { fail(msg, true); }
  void rangeError(const std::string& msg) { fail(msg, false); }
  void fail(const std::string& msg, bool isTypeError) {
    if (!ok_) return;
    ok_ = false;
    const std::string text = std::string(functionName(info_)) + ": " + msg;
    if (isTypeError)
      throwTypeError(info_.Env(), text);
    else
      throwRangeError(info_.Env(), text);
  }

  const Napi::CallbackInfo& info_;
  bool ok_ = true;
};

// ---- Exporting ----

// target[name] = the function Cb; `signature` is "name(arg, ...)" (or just "name"): the name the
// messages start with and, for glue.h's templates, the argument names they use. A function whose
// first argument is "pos" takes a packed position there: it carries `positionArity` (its argument
// count), from which the JS adapter (lib/backends/native.ts) knows to pass a Position's words.
//
// Plain Node-API calls whose failure is ignored (see Throwing above): node-addon-api's Function::New
// and Set abort the process when a worker thread that loads the addon is terminated meanwhile; then
// no JS can run and the half-made exports are never read.
template <Napi::Function::Callback Cb>
void exportFunction(Napi::Env env, Napi::Object target, const char* signature) {
  Signature& sig = env.GetInstanceData<AddonState>()->signatures.emplace_back(signature);
  napi_value fn = nullptr;
  if (napi_create_function(env, sig.name.c_str(), NAPI_AUTO_LENGTH, Napi::details::TemplatedCallback<Cb>, &sig, &fn) !=
      napi_ok) {
    return;
  }
  if (!sig.args.empty() && sig.args[0] == "pos") {
    napi_value arity = nullptr;
    if (napi_create_double(env, static_cast<double>(sig.args.size()), &arity) == napi_ok) {
      napi_set_named_property(env, fn, "positionArity", arity);
    }
  }
  napi_set_named_property(env, target, sig.name.c_str(), fn);
}

// target[name] = value, or nothing when the environment is going away (see exportFunction).
inline void setProperty(napi_env env, napi_value target, const char* name, napi_value value) {
  if (value) napi_set_named_property(env, target, name, value);
}
inline void setNumber(napi_env env, napi_value target, const char* name, double v) {
  napi_value value = nullptr;
  napi_create_double(env, v, &value);
  setProperty(env, target, name, value);
}
inline void setString(napi_env env, napi_value target, const char* name, const char* text) {
  napi_value value = nullptr;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &value);
  setProperty(env, target, name, value);
}
// A new empty object, or an empty handle when it cannot be made (see exportFunction).
inline Napi::Object newObject(napi_env env) {
  napi_value o = nullptr;
  napi_create_object(env, &o);
  return Napi::Object(env, o);
}

// Several at once, in order: exportFunctions<a, b>(env, target, {"a", "b"}).
template <Napi::Function::Callback... Cbs>
void exportFunctions(Napi::Env env, Napi::Object target, const char* const (&signatures)[sizeof...(Cbs)]) {
  std::size_t i = 0;
  (exportFunction<Cbs>(env, target, signatures[i++]), ...);
}

inline Napi::Value number(const Napi::CallbackInfo& info, int value) {
  return Napi::Number::New(info.Env(), value);
}

// The registrations made from lib/api/declarations.ts (generated/registrations.cc, by
// scripts/gen-registrations.mjs).
void exportDeclared(Napi::Env env, Napi::Object exports);
void exportKing(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportKnight(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportSliders(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportChecks(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportBatchAnalysis(Napi::Env env, Napi::Object exports);
void exportMotifs(Napi::Env env, Napi::Object exports);
void exportAnalyzeFile(Napi::Env env, Napi::Object batch);
void exportZstd(Napi::Env env, Napi::Object exports);
void exportMoves(Napi::Env env, Napi::Object exports);
void exportKbnk(Napi::Env env, Napi::Object exports);
void exportPgn(Napi::Env env, Napi::Object exports);
void exportSan(Napi::Env env, Napi::Object exports);
void exportSyzygy(Napi::Env env, Napi::Object exports);
void exportPerft(Napi::Env env, Napi::Object exports);
void exportTbgen(Napi::Env env, Napi::Object exports);

}  // namespace bbp::addon
