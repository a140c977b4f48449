/** A .wasm file imported by the browser bundle: its bytes (esbuild's binary loader). */
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
