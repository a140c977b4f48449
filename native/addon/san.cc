// Node-API glue for native/core/san.h: sanWrite, sanParse, sanList (the Backend's `san`, adapted by
// lib/backends/native.ts). Synchronous: the input bytes are read during the call only; the outputs are
// the caller's arrays, written during the call only.
#include "../core/san.h"
#include "args.h"

namespace bbp::addon {
namespace {

// sanWrite(pos, move) -> the canonical SAN, or "" when move is no legal move of pos.
Napi::Value sanWriteCall(const Napi::CallbackInfo& info) {
  Args args(info, 2);
  const U64* pos = args.position(0, "pos");
  const int code = static_cast<int>(args.count(1, "move", 65535.0));
  if (!args.ok()) return args.undefined();
  const MagicSliders s{magicTables()};
  const Board b = unpack(pos);
  Move moves[kMaxMoves];
  const int n = legalMoves(s, b, moves, kMaxMoves);
  bool legal = false;
  for (int k = 0; k < n && k < kMaxMoves; ++k) legal = legal || moves[k] == code;
  if (!legal || n > kMaxMoves) return Napi::String::New(info.Env(), "");
  const Board child = san::play(b, static_cast<Move>(code));
  Move childMoves[kMaxMoves];
  const int childN = legalMoves(s, child, childMoves, kMaxMoves);
  char text[16];
  const int len = san::write(b, moves, n, static_cast<Move>(code), san::checkState(s, child, childN), text);
  return Napi::String::New(info.Env(), text, static_cast<std::size_t>(len));
}

// sanParse(pos, bytes, out) -> status | candidates << 8; out (Uint16Array, >= 256) gets the matching
// moves (the move itself when the status is 0).
Napi::Value sanParseCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const U64* pos = args.position(0, "pos");
  const auto text = args.array<std::uint8_t>(1, "san");
  const auto out = args.arrayOfLength<std::uint16_t>(2, "out", kMaxMoves);
  if (!args.ok()) return args.undefined();
  const MagicSliders s{magicTables()};
  const Board b = unpack(pos);
  Move moves[kMaxMoves];
  const int n = legalMoves(s, b, moves, kMaxMoves);
  san::Syntax x;
  if (!san::parseSyntax(reinterpret_cast<const char*>(text.data), text.length, x))
    return Napi::Number::New(info.Env(), san::kSanMalformed);
  const san::Resolved r = san::resolve(b, moves, n < kMaxMoves ? n : kMaxMoves, x);
  int count = 0;
  if (r.status == san::kSanOk) out.data[count++] = r.move;
  if (r.status == san::kSanAmbiguous) {
    // The same match, move by move, for the list of candidates.
    for (int k = 0; k < n && k < kMaxMoves; ++k)
      if (san::resolve(b, moves + k, 1, x).status == san::kSanOk) out.data[count++] = moves[k];
  }
  return Napi::Number::New(info.Env(), r.status | count << 8);
}

// sanList(pos, out) -> n; out (Uint8Array, >= 256 * 8) gets the moves' SAN, each followed by a space,
// in move-generation order; the moves themselves go to moves (Uint16Array, >= 256). Returns the byte length
// in the high part: n | bytes << 9.
Napi::Value sanListCall(const Napi::CallbackInfo& info) {
  Args args(info, 3);
  const U64* pos = args.position(0, "pos");
  const auto out = args.arrayOfLength<std::uint8_t>(1, "out", kMaxMoves * 9);
  const auto movesOut = args.arrayOfLength<std::uint16_t>(2, "moves", kMaxMoves);
  if (!args.ok()) return args.undefined();
  const MagicSliders s{magicTables()};
  const Board b = unpack(pos);
  Move moves[kMaxMoves];
  int n = legalMoves(s, b, moves, kMaxMoves);
  if (n > kMaxMoves) n = kMaxMoves;
  std::size_t bytes = 0;
  for (int k = 0; k < n; ++k) {
    const Board child = san::play(b, moves[k]);
    Move childMoves[kMaxMoves];
    const int childN = legalMoves(s, child, childMoves, kMaxMoves);
    char text[16];
    const int len = san::write(b, moves, n, moves[k], san::checkState(s, child, childN), text);
    std::memcpy(out.data + bytes, text, static_cast<std::size_t>(len));
    bytes += static_cast<std::size_t>(len);
    out.data[bytes++] = ' ';
    movesOut.data[k] = moves[k];
  }
  return Napi::Number::New(info.Env(), static_cast<double>(n) + static_cast<double>(bytes) * 512.0);
}

}  // namespace

void exportSan(Napi::Env env, Napi::Object exports) {
  exportFunctions<sanWriteCall, sanParseCall, sanListCall>(env, exports, {"sanWrite", "sanParse", "sanList"});
}

}  // namespace bbp::addon
