// wink-bm25-text-search ships no type declarations; bench/bm25-systems.ts types the engine it uses.
declare module 'wink-bm25-text-search' {
  const createEngine: () => unknown;
  export default createEngine;
}
