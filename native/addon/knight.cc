// Node-API glue for native/core/knight.h.
#include "args.h"

namespace bbp::addon {
namespace {

Napi::Value knightForkMovesCall(const Napi::CallbackInfo& info) {
  Args args(info, 5);
  const U64 knights = args.bitboard(0, "knights");
  const U64 targets = args.bitboard(1, "targets");
  const U64 ownPieces = args.bitboard(2, "ownPieces");
  const U64 enemyPawnAttacks = args.bitboard(3, "enemyPawnAttacks");
  const U64 enemyKnightAttacks = args.bitboard(4, "enemyKnightAttacks");
  if (!args.ok()) return args.undefined();
  return bigint(info, knightForkMoves(knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks));
}

Napi::Value knightForkMovesBatch(const Napi::CallbackInfo& info) {
  Args args(info, 6);
  const auto knights = args.array<U64>(0, "knights");
  const auto targets = args.array<U64>(1, "targets");
  const auto ownPieces = args.array<U64>(2, "ownPieces");
  const auto enemyPawnAttacks = args.array<U64>(3, "enemyPawnAttacks");
  const auto enemyKnightAttacks = args.array<U64>(4, "enemyKnightAttacks");
  const auto out = args.array<U64>(5, "out");
  if (args.batch(out, knights, targets, ownPieces, enemyPawnAttacks, enemyKnightAttacks))
    kernelsOf(info).knightForkMovesBatch(knights.data, targets.data, ownPieces.data, enemyPawnAttacks.data,
                                         enemyKnightAttacks.data, out.data, out.length);
  return args.undefined();
}

}  // namespace

void exportKnight(Napi::Env env, Napi::Object exports, Napi::Object variants) {
  exportFunction<distanceSingle<knightDistance>>(env, exports, "knightDistance");
  exportFunction<distanceBatch<&Kernels::knightDistanceBatch>>(env, exports, "knightDistanceBatch");
  exportFunction<knightForkMovesCall>(env, exports, "knightForkMoves");
  exportFunction<knightForkMovesBatch>(env, exports, "knightForkMovesBatch");

  exportFunction<setSingle<knightAttacksSetEastWest>>(env, variants, "knightAttacksSetEastWest");
  exportFunction<setSingle<knightAttacksSetParallel>>(env, variants, "knightAttacksSetParallel");
}

}  // namespace bbp::addon
