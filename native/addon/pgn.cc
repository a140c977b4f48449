// Node-API glue for native/core/pgn.h: pgnRead. Synchronous: the input bytes are read during the call
// only; the outputs are new arrays the addon fills, or, for the positions, the caller's arrays,
// written during the call only. Sliders: the magic lookups (every build has them).
#include <cstring>

#include "../core/pgn.h"
#include "../core/pgn_tree.h"
#include "args.h"

namespace bbp::addon {
namespace {

// Where the reader may write one output array of a pgnRead call: the caller's typed array `into`, from
// its offset to the end of its ArrayBuffer, when it is a typed array of `type` on a plain (not
// shared) ArrayBuffer that does not overlap the text.
template <typename T>
struct Loan {
  napi_value buffer = nullptr;
  std::size_t offset = 0;
  T* data = nullptr;
  std::size_t room = 0;  // elements
};

template <typename T>
Loan<T> loanOf(napi_env env, napi_value into, napi_typedarray_type type, const std::uint8_t* text, std::size_t textBytes) {
  Loan<T> l;
  bool typed = false, plain = false;
  napi_typedarray_type intoType;
  std::size_t length = 0, capacity = 0;
  void* view = nullptr;
  void* data = nullptr;
  if (!into || napi_is_typedarray(env, into, &typed) != napi_ok || !typed ||
      napi_get_typedarray_info(env, into, &intoType, &length, &view, &l.buffer, &l.offset) != napi_ok || intoType != type ||
      napi_is_arraybuffer(env, l.buffer, &plain) != napi_ok || !plain ||
      napi_get_arraybuffer_info(env, l.buffer, &data, &capacity) != napi_ok || !data || l.offset > capacity)
    return {};
  const auto* lo = static_cast<const std::uint8_t*>(data);
  if (textBytes && lo < text + textBytes && text < lo + capacity) return {};
  l.data = reinterpret_cast<T*>(static_cast<std::uint8_t*>(data) + l.offset);
  l.room = (capacity - l.offset) / sizeof(T);
  return l;
}

// An output array as a typed array: a view of the caller's buffer when the reader wrote it there
// (the loan held), else a copy in a new array (memory the engine owns and accounts for), with a
// quarter to spare when the caller offered memory (its next, slightly larger read then fits).
template <typename T>
napi_value arrayOf(napi_env env, const pgn::Buf<T>& v, napi_typedarray_type type, const Loan<T>* loan = nullptr,
                   bool offered = false) {
  napi_value array = nullptr;
  if (loan && loan->data && v.lent()) {
    if (napi_create_typedarray(env, type, v.size(), loan->buffer, loan->offset, &array) != napi_ok) return nullptr;
    return array;
  }
  const std::size_t bytes = v.size() * sizeof(T);
  const std::size_t size = offered ? bytes + (bytes / 4 / sizeof(T)) * sizeof(T) : bytes;
  void* data = nullptr;
  napi_value buffer = nullptr;
  if (napi_create_arraybuffer(env, size, &data, &buffer) != napi_ok) return nullptr;
  if (!v.empty()) {
    pgn::adviseHugePages(data, size);  // fresh pages: fewer faults while copying
    std::memcpy(data, v.data(), bytes);
  }
  if (napi_create_typedarray(env, type, v.size(), buffer, 0, &array) != napi_ok) return nullptr;
  return array;
}

// pgnRead(bytes, flags, every, fromPly, firstLine[, gameBase[, into]]) -> the records of
// native/core/pgn.h Output (gameBase, default 0: added to each position's game index; into: an array
// of three typed arrays, [positions, positionGame, positionPly], whose memory the reader writes those
// outputs into while it has room, see loanOf).
Napi::Value pgnReadCall(const Napi::CallbackInfo& info) {
  napi_env env = info.Env();
  // The elements of `into` first: reading them may run JS (getters), which must not happen once the
  // call holds pointers into array buffers.
  napi_value into[3] = {nullptr, nullptr, nullptr};
  const bool offered = info.Length() > 6 && info[6].IsArray();
  if (offered) {
    const Napi::Array list = info[6].As<Napi::Array>();
    for (std::uint32_t i = 0; i < 3 && i < list.Length(); ++i) {
      into[i] = list.Get(i);
      if (!into[i]) return Napi::Value();  // a getter threw: its exception is pending
    }
  }
  Args args(info, 5, 7);
  const auto text = args.array<std::uint8_t>(0, "bytes");
  const int flags = static_cast<int>(args.count(1, "flags", 511.0));
  const int every = static_cast<int>(args.count(2, "every", 1e9));
  const int fromPly = static_cast<int>(args.count(3, "fromPly", 1e9));
  const int firstLine = static_cast<int>(args.count(4, "firstLine", 2e9));
  const bool haveBase = info.Length() > 5 && !info[5].IsUndefined();
  const std::uint32_t gameBase = haveBase ? static_cast<std::uint32_t>(args.count(5, "gameBase", 2e9)) : 0;
  if (!args.ok()) return args.undefined();
  if (every < 1) {
    throwRangeError(env, std::string(functionName(info)) + ": every must be at least 1");
    return args.undefined();
  }
  if (text.length > 0x7fffffffULL) {
    throwRangeError(env, std::string(functionName(info)) + ": at most 2 GiB of text per call");
    return args.undefined();
  }
  pgn::Options o;
  o.flags = flags;
  o.every = every;
  o.fromPly = fromPly;
  o.firstLine = firstLine < 1 ? 1 : firstLine;
  o.gameBase = gameBase;
  // The reader writes into memory kept per thread from one call to the next (its pages stay
  // mapped: no page faults while writing), then the records are copied into new arrays; the
  // positions go straight into the caller's arrays when it offered them and they have room.
  static thread_local pgn::Output out;
  out.clear(std::size_t{64} << 20);
  const Loan<U64> positions = loanOf<U64>(env, into[0], napi_biguint64_array, text.data, text.length);
  const Loan<std::uint32_t> games = loanOf<std::uint32_t>(env, into[1], napi_uint32_array, text.data, text.length);
  const Loan<std::uint32_t> plies = loanOf<std::uint32_t>(env, into[2], napi_uint32_array, text.data, text.length);
  if (positions.data) out.positions.lend(positions.data, positions.room);
  if (games.data) out.positionGame.lend(games.data, games.room);
  if (plies.data) out.positionPly.lend(plies.data, plies.room);
  const MagicSliders s{magicTables()};
  readPgnGames(s, reinterpret_cast<const char*>(text.data), text.length, o, out);
  if (out.failed()) {
    out.clear(0);
    throwRangeError(env, std::string(functionName(info)) + ": out of memory reading the games");
    return args.undefined();
  }

  Napi::Object result = Napi::Object::New(env);
  const std::pair<const char*, napi_value> fields[] = {
      {"games", arrayOf(env, out.games, napi_int32_array)},
      {"moves", arrayOf(env, out.moves, napi_uint16_array)},
      {"san", arrayOf(env, out.san, napi_uint8_array)},
      {"tags", arrayOf(env, out.tags, napi_int32_array)},
      {"comments", arrayOf(env, out.comments, napi_int32_array)},
      {"nags", arrayOf(env, out.nags, napi_int32_array)},
      {"positions", arrayOf(env, out.positions, napi_biguint64_array, &positions, offered)},
      {"positionGame", arrayOf(env, out.positionGame, napi_uint32_array, &games, offered)},
      {"positionPly", arrayOf(env, out.positionPly, napi_uint32_array, &plies, offered)},
      {"annotations", arrayOf(env, out.annotations, napi_int32_array)},
  };
  // No pointer into the caller's memory outlives the call.
  out.positions.endLoan();
  out.positionGame.endLoan();
  out.positionPly.endLoan();
  for (const auto& [name, value] : fields) {
    if (!value) return args.undefined();  // out of memory: a pending exception, or nothing to do
    result.Set(name, Napi::Value(env, value));
  }
  result.Set("consumed", Napi::Number::New(env, static_cast<double>(out.consumed)));
  result.Set("consumedLine", Napi::Number::New(env, out.consumedLine));
  return result;
}

// pgnTree(bytes, start, end, words, events, at, sans, sanAt) -> count: the tree of the movetext
// bytes[start, end) from the packed position `words` (native/core/pgn_tree.h). Its events are written
// into the Int32Array `events` from index `at`, the SAN of its nodes (one after the other) into the
// Uint8Array `sans` from `sanAt`; count is the number of Int32 written, or -1 when either has no room
// (nothing written: 4 (end - start) + 4 elements of each always suffice).
Napi::Value pgnTreeCall(const Napi::CallbackInfo& info) {
  napi_env env = info.Env();
  Args args(info, 8);
  const auto text = args.array<std::uint8_t>(0, "bytes");
  const std::size_t start = static_cast<std::size_t>(args.count(1, "start", 4294967295.0));
  const std::size_t end = static_cast<std::size_t>(args.count(2, "end", 4294967295.0));
  const std::uint64_t* words = args.position(3, "words");
  const auto events = args.array<std::int32_t>(4, "events");
  const std::size_t at = static_cast<std::size_t>(args.count(5, "at", 4294967295.0));
  const auto sans = args.array<std::uint8_t>(6, "sans");
  const std::size_t sanAt = static_cast<std::size_t>(args.count(7, "sanAt", 4294967295.0));
  if (!args.ok()) return args.undefined();
  if (start > end || end > text.length || text.length > 0x7fffffffULL || at > events.length || sanAt > sans.length) {
    throwRangeError(env, std::string(functionName(info)) +
                             ": start and end must lie within bytes (start <= end), at within events and sanAt within sans");
    return args.undefined();
  }
  static thread_local pgn::TreeOutput out;
  const MagicSliders s{magicTables()};
  pgn::readTree(s, reinterpret_cast<const char*>(text.data), start, end, unpack(words), out);
  const std::size_t count = out.events.size();
  if (count > events.length - at || out.san.size() > sans.length - sanAt) return Napi::Number::New(env, -1);
  if (count) std::memcpy(events.data + at, out.events.data(), count * sizeof(std::int32_t));
  if (!out.san.empty()) std::memcpy(sans.data + sanAt, out.san.data(), out.san.size());
  return Napi::Number::New(env, static_cast<double>(count));
}

}  // namespace

void exportPgn(Napi::Env env, Napi::Object exports) {
  exportFunctions<pgnReadCall, pgnTreeCall>(env, exports, {"pgnRead", "pgnTree"});
}

}  // namespace bbp::addon
