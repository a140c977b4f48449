// Argument checking for the Node-API glue (C++ exceptions are off: errors are thrown as pending JS
// exceptions). Never trust JS: every argument is checked again here even though the facade checks
// too. After the first failure an Args object touches no more JS values and reports !ok().
// Each exported function carries its API name as callback data, so messages need no name argument.
#pragma once

#include <napi.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "../kernels/kernels.h"

namespace bbp::addon {

// Per-environment state (worker threads each get their own).
struct AddonState {
  const Kernels* kernels;
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

inline const char* functionName(const Napi::CallbackInfo& info) {
  return static_cast<const char*>(info.Data());
}

template <typename T>
struct ArrayKind;
template <>
struct ArrayKind<std::uint64_t> {
  static constexpr napi_typedarray_type type = napi_biguint64_array;
  static constexpr const char* name = "a BigUint64Array";
};
template <>
struct ArrayKind<std::uint8_t> {
  static constexpr napi_typedarray_type type = napi_uint8_array;
  static constexpr const char* name = "a Uint8Array";
};
template <>
struct ArrayKind<std::uint32_t> {
  static constexpr napi_typedarray_type type = napi_uint32_array;
  static constexpr const char* name = "a Uint32Array";
};
template <>
struct ArrayKind<std::int32_t> {
  static constexpr napi_typedarray_type type = napi_int32_array;
  static constexpr const char* name = "an Int32Array";
};
template <>
struct ArrayKind<std::uint16_t> {
  static constexpr napi_typedarray_type type = napi_uint16_array;
  static constexpr const char* name = "a Uint16Array";
};
template <>
struct ArrayKind<double> {
  static constexpr napi_typedarray_type type = napi_float64_array;
  static constexpr const char* name = "a Float64Array";
};
template <>
struct ArrayKind<std::int8_t> {
  static constexpr napi_typedarray_type type = napi_int8_array;
  static constexpr const char* name = "an Int8Array";
};

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

  // One packed position (lib/backend.ts PACKED_POSITION_WORDS): exactly 10 words, consistent.
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
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != ArrayKind<T>::type) {
      typeError(std::string(name) + " must be " + ArrayKind<T>::name + ", got " + describe(v));
      return span;
    }
    auto typed = v.As<Napi::TypedArrayOf<T>>();
    span.data = typed.Data();
    span.length = typed.ElementLength();
    return span;
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
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != ArrayKind<T>::type) {
      typeError(name + " must be " + ArrayKind<T>::name + ", got " + describe(v));
      return span;
    }
    auto typed = v.As<Napi::TypedArrayOf<T>>();
    span.data = typed.Data();
    span.length = typed.ElementLength();
    return span;
  }

  void fail(const std::string& msg) { rangeError(msg); }
  void failType(const std::string& msg) { typeError(msg); }

 private:
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
      const std::size_t bad = kernelsOf(info_).firstBadSquare(in.data, in.length);
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
    switch (v.As<Napi::TypedArray>().TypedArrayType()) {
      case napi_int8_array: return "Int8Array";
      case napi_uint8_array: return "Uint8Array";
      case napi_uint8_clamped_array: return "Uint8ClampedArray";
      case napi_int16_array: return "Int16Array";
      case napi_uint16_array: return "Uint16Array";
      case napi_int32_array: return "Int32Array";
      case napi_uint32_array: return "Uint32Array";
      case napi_float32_array: return "Float32Array";
      case napi_float64_array: return "Float64Array";
      case napi_bigint64_array: return "BigInt64Array";
      case napi_biguint64_array: return "BigUint64Array";
      default: return "typed array";
    }
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

template <Napi::Function::Callback Cb>
void exportFunction(Napi::Env env, Napi::Object target, const char* name) {
  target.Set(name, Napi::Function::New<Cb>(env, name, const_cast<char*>(name)));
}

inline Napi::Value bigint(const Napi::CallbackInfo& info, std::uint64_t bits) {
  return Napi::BigInt::New(info.Env(), bits);
}
inline Napi::Value number(const Napi::CallbackInfo& info, int value) {
  return Napi::Number::New(info.Env(), value);
}

// Set -> set (bitboard in, bitboard out): one template for all of them, single and batch.
template <std::uint64_t (*F)(std::uint64_t)>
Napi::Value setSingle(const Napi::CallbackInfo& info) {
  Args args(info, 1);
  const std::uint64_t set = args.bitboard(0, "set");
  return args.ok() ? bigint(info, F(set)) : args.undefined();
}

template <unsigned I>
Napi::Value setBatch(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto sets = args.array<std::uint64_t>(0, "sets");
  const auto out = args.array<std::uint64_t>(1, "out");
  if (args.batch(out, sets)) kernelsOf(info).setBatch[I](sets.data, out.data, out.length);
  return args.undefined();
}

// Square -> set lookups.
template <std::uint64_t (*F)(int)>
Napi::Value squareSingle(const Napi::CallbackInfo& info) {
  Args args(info, 1);
  const int sq = args.square(0, "square");
  return args.ok() ? bigint(info, F(sq)) : args.undefined();
}

template <unsigned I>
Napi::Value squareBatch(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const auto squares = args.squares(0, "squares");
  const auto out = args.array<std::uint64_t>(1, "out");
  if (args.batch(out, squares)) kernelsOf(info).squareBatch[I](squares.data, out.data, out.length);
  return args.undefined();
}

// Path distances (kingDistance, knightDistance): squares and a path in, steps or -1 out.
template <int (*Distance)(int, int, std::uint64_t)>
Napi::Value distanceSingle(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const int from = args.square(0, "from");
  const int to = args.square(1, "to");
  const std::uint64_t path = args.bitboard(2, "path");
  return args.ok() ? number(info, Distance(from, to, path)) : args.undefined();
}

template <auto Loop>  // a Kernels member: &Kernels::kingDistanceBatch, ...
Napi::Value distanceBatch(const Napi::CallbackInfo& info) {
  Args args(info, 4);
  const auto from = args.squares(0, "from");
  const auto to = args.squares(1, "to");
  const auto path = args.array<std::uint64_t>(2, "path");
  const auto out = args.array<std::int8_t>(3, "out");
  if (args.batch(out, from, to, path)) (kernelsOf(info).*Loop)(from.data, to.data, path.data, out.data, out.length);
  return args.undefined();
}

template <const auto& Table, unsigned... I>
void exportTable(Napi::Env env, Napi::Object target, std::integer_sequence<unsigned, I...>) {
  using Entry = std::decay_t<decltype(Table[0])>;
  constexpr bool isSet = std::is_same_v<Entry, kernels::SetFunction>;
  if constexpr (isSet) {
    (exportFunction<setSingle<Table[I].fn>>(env, target, Table[I].name), ...);
    (exportFunction<setBatch<I>>(env, target, Table[I].batchName), ...);
  } else {
    (exportFunction<squareSingle<Table[I].fn>>(env, target, Table[I].name), ...);
    (exportFunction<squareBatch<I>>(env, target, Table[I].batchName), ...);
  }
}

void exportKing(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportKnight(Napi::Env env, Napi::Object exports, Napi::Object variants);
void exportSliders(Napi::Env env, Napi::Object exports, Napi::Object checkVariants);
void exportChecks(Napi::Env env, Napi::Object exports, Napi::Object checkVariants);
void exportBatch(Napi::Env env, Napi::Object exports);
void exportMoves(Napi::Env env, Napi::Object exports);
void exportKbnk(Napi::Env env, Napi::Object exports);
void exportPgn(Napi::Env env, Napi::Object exports);
void exportSyzygy(Napi::Env env, Napi::Object exports);
void exportPerft(Napi::Env env, Napi::Object exports);
void exportTbgen(Napi::Env env, Napi::Object exports);

}  // namespace bbp::addon
