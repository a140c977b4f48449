/**
 * The PGN reader of the WebAssembly backend: native/core/pgn.h compiled into the module
 * (native/wasm/bbp_wasm_pgn.cc). The text is copied into the module's memory in one piece, read
 * there, and each record array copied out once (the positions into the caller's arrays when it
 * offers them and they have room, as the other readers do).
 */
import type { PgnBackend, PgnRecords } from '../contract.js';
import type { WasmCore } from './core.js';

type View = Int32Array | Uint16Array | Uint8Array | BigUint64Array | Uint32Array;
type ViewClass = { new (buffer: ArrayBuffer, offset: number, length: number): View; BYTES_PER_ELEMENT: number };

/** Backend.pgn over an instantiated core. */
export function wasmPgnBackend(core: WasmCore): PgnBackend {
  let text = 0;
  let textBytes = 0;
  const copy = <T extends View>(type: ViewClass, ptr: number, length: number, into?: T): T => {
    const view = new type(core.x.memory.buffer, ptr, length) as T;
    if (into !== undefined && (into.buffer.byteLength - into.byteOffset) / type.BYTES_PER_ELEMENT >= length) {
      const target = new type(into.buffer as ArrayBuffer, into.byteOffset, length) as T;
      target.set(view as never);
      return target;
    }
    return view.slice() as T;
  };
  return Object.freeze({
    read(bytes: Uint8Array, flags: number, every: number, fromPly: number, firstLine: number, gameBase = 0,
      into?: readonly [BigUint64Array, Uint32Array, Uint32Array]): PgnRecords {
      if (bytes.length + 1 > textBytes) {
        if (text) core.x.bbp_free(text);
        text = 0;
        textBytes = 0;
        text = core.alloc(bytes.length + 1);
        textBytes = bytes.length + 1;
      }
      core.u8.set(bytes, text);
      const at = core.x.bbp_pgn_read(text, bytes.length, flags, every, fromPly, firstLine, gameBase) >> 2;
      const t = core.u32.slice(at, at + 23);
      if (t[22] === 1) throw new RangeError('pgn read: out of WebAssembly memory reading the games');
      return {
        games: copy(Int32Array, t[0]!, t[1]!),
        moves: copy(Uint16Array, t[2]!, t[3]!),
        san: copy(Uint8Array, t[4]!, t[5]!),
        tags: copy(Int32Array, t[6]!, t[7]!),
        comments: copy(Int32Array, t[8]!, t[9]!),
        nags: copy(Int32Array, t[10]!, t[11]!),
        positions: copy(BigUint64Array, t[12]!, t[13]!, into?.[0]),
        positionGame: copy(Uint32Array, t[14]!, t[15]!, into?.[1]),
        positionPly: copy(Uint32Array, t[16]!, t[17]!, into?.[2]),
        annotations: copy(Int32Array, t[18]!, t[19]!),
        consumed: t[20]!,
        consumedLine: t[21]!,
      };
    },
  });
}
