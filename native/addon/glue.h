// Node-API functions made from core functions by the kinds of their arguments. The declared
// functions' registrations are generated (generated/registrations.cc, by
// scripts/gen-registrations.mjs); a topic's glue file registers the rest by hand the same way:
//
//   exportCall<between, Square, Square>(env, exports, "between(a, b)");
//   exportCall<&Kernels::checkers, Pos, Color>(env, exports, "checkers(pos, color)");
//   exportBatch<&Kernels::rookAttacksBatch, Squares, Sets, Out<U64>>(env, exports, "rookAttacksBatch(squares, occupied, out)");
//
// F is a core function (a function pointer) or a Kernels member (the function of the kernel table
// chosen at load, for what differs per CPU path). The signature string names the function and its
// arguments for the messages (args.h). The single call checks its arguments in order (the first bad
// one is reported), calls F and returns its result as a bigint (U64), number (int, double), boolean or undefined (void). The
// batch call checks typed arrays as long as `out` (squares < 64) and scalar kinds (colours) as the
// single call does, then runs the kernel's loop (a Kernels member: Loop(inputs..., out, n)) or
// loops F over the elements here (a core function: its set and square arguments become
// BigUint64Array / Uint8Array, scalars stay).
#pragma once

#include <tuple>
#include <type_traits>

#include "args.h"

namespace bbp::addon {

// ---- Argument kinds: what each reads from argument i (checked by Args) ----

struct Set {  // a bigint 0..2^64-1
  static U64 read(Args& a, std::size_t i, const char* name) { return a.bitboard(i, name); }
};
struct Square {  // an integer 0..63
  static int read(Args& a, std::size_t i, const char* name) { return a.square(i, name); }
};
struct Color {  // 0 | 1
  static int read(Args& a, std::size_t i, const char* name) { return a.color(i, name); }
};
struct Direction {  // 0..7
  static int read(Args& a, std::size_t i, const char* name) { return a.direction(i, name); }
};
struct Promotion {  // 0..4
  static int read(Args& a, std::size_t i, const char* name) { return a.promotion(i, name); }
};
struct Depth {  // 0..20
  static int read(Args& a, std::size_t i, const char* name) { return a.depth(i, name); }
};
struct Pos {  // a packed position, validated (validatePacked)
  static const U64* read(Args& a, std::size_t i, const char* name) { return a.position(i, name); }
};
struct Sets {  // a BigUint64Array
  static Span<U64> read(Args& a, std::size_t i, const char* name) { return a.array<U64>(i, name); }
};
struct Squares {  // a Uint8Array of squares
  static Span<std::uint8_t> read(Args& a, std::size_t i, const char* name) { return a.squares(i, name); }
};
template <typename T, std::size_t N>
struct Fixed {  // a typed array of T of exactly N elements (an output the call fills)
  static T* read(Args& a, std::size_t i, const char* name) { return a.arrayOfLength<T>(i, name, N).data; }
};
template <typename T>
struct Out {  // a batch's output, the typed array of T
  static Span<T> read(Args& a, std::size_t i, const char* name) { return a.array<T>(i, name); }
};

// ---- Reading, calling, returning ----

template <class... K, std::size_t... I>
auto readArgs(Args& args, const Napi::CallbackInfo& info, std::index_sequence<I...>) {
  // Braced initialisation: the arguments are read (and checked) in order.
  return std::tuple<decltype(K::read(args, 0, ""))...>{K::read(args, I, argName(info, I))...};
}

template <auto F, typename... A>
auto invoke(const Napi::CallbackInfo& info, A... a) {
  if constexpr (std::is_member_object_pointer_v<decltype(F)>)
    return (kernelsOf(info).*F)(a...);
  else
    return F(a...);
}

inline Napi::Value toJs(const Napi::CallbackInfo& info, U64 v) { return Napi::BigInt::New(info.Env(), v); }
inline Napi::Value toJs(const Napi::CallbackInfo& info, int v) { return Napi::Number::New(info.Env(), v); }
inline Napi::Value toJs(const Napi::CallbackInfo& info, bool v) { return Napi::Boolean::New(info.Env(), v); }
inline Napi::Value toJs(const Napi::CallbackInfo& info, double v) { return Napi::Number::New(info.Env(), v); }

template <auto F, class... K>
Napi::Value single(const Napi::CallbackInfo& info) {
  Args args(info, sizeof...(K));
  const auto values = readArgs<K...>(args, info, std::index_sequence_for<K...>{});
  if (!args.ok()) return args.undefined();
  return std::apply(
      [&info](auto... v) {
        if constexpr (std::is_void_v<decltype(invoke<F>(info, v...))>)
          return invoke<F>(info, v...), info.Env().Undefined();
        else
          return toJs(info, invoke<F>(info, v...));
      },
      values);
}

template <typename T> struct IsSpan : std::false_type {};
template <typename T> struct IsSpan<Span<T>> : std::true_type {};

// What a batch loop receives for an argument: an array's elements, or the scalar.
template <typename T> const T* dataOf(const Span<T>& s) { return s.data; }
inline int dataOf(int scalar) { return scalar; }
template <typename T> T elementAt(const T* p, std::size_t i) { return p[i]; }
inline int elementAt(int scalar, std::size_t) { return scalar; }

// out[i] = F(in[i]...), scalars passed as they are.
template <auto F, typename T, typename... In>
void zip(T* out, std::size_t n, In... in) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(F(elementAt(in, i)...));
}

template <typename V> auto spanRef(const V& v) {
  if constexpr (IsSpan<V>::value) return std::tie(v);
  else return std::tuple<>();
}

// The last kind is Out<T>.
template <auto F, class Values, std::size_t... I>
void runBatch(const Napi::CallbackInfo& info, Args& args, const Values& v, std::index_sequence<I...>) {
  const auto& out = std::get<sizeof...(I)>(v);
  const auto inputs = std::tuple_cat(spanRef(std::get<I>(v))...);
  if (!std::apply([&](const auto&... in) { return args.batch(out, in...); }, inputs)) return;
  if constexpr (std::is_member_object_pointer_v<decltype(F)>)
    (kernelsOf(info).*F)(dataOf(std::get<I>(v))..., out.data, out.length);
  else
    zip<F>(out.data, out.length, dataOf(std::get<I>(v))...);
}

template <auto F, class... K>
Napi::Value batch(const Napi::CallbackInfo& info) {
  Args args(info, sizeof...(K));
  const auto values = readArgs<K...>(args, info, std::index_sequence_for<K...>{});
  if (args.ok()) runBatch<F>(info, args, values, std::make_index_sequence<sizeof...(K) - 1>{});
  return args.undefined();
}

// ---- Registering ----

template <auto F, class... K>
void exportCall(Napi::Env env, Napi::Object target, const char* signature) {
  exportFunction<single<F, K...>>(env, target, signature);
}

template <auto F, class... K>
void exportBatch(Napi::Env env, Napi::Object target, const char* signature) {
  exportFunction<batch<F, K...>>(env, target, signature);
}

}  // namespace bbp::addon
