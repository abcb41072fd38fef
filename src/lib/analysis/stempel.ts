/**
 * Lucene's Stempel stemmer for Polish (`StempelStemmer` with PolishAnalyzer's default table
 * `stemmer_20000.tbl`, and `StempelFilter`'s length rule). The table is data generated from Lucene's jar
 * (tables/stempel-table.ts, scripts/analysis/generate-stempel-table.mts); this module loads it on demand
 * (`loadStempelTables`), decodes it on first use and runs the Egothor lookup and patch.
 *
 * Parity: the stems of 20,000 corpus words equal Lucene 8.7 PolishAnalyzer's
 * (tests/lib/analysis/polish-analyzer.parity.test.ts against shared/reference/polish/wordlist-stems.tsv.gz).
 */
import { applyPatch } from './egothor-patch.ts';
import { multiTrieLastOnPath, type MultiTrie, type Trie } from './egothor-trie.ts';
import type * as StempelTableModule from './tables/stempel-table.ts';

/** The generated data: tries, alphabet and the Polish stop list. */
export type StempelTables = typeof StempelTableModule;

let tables: StempelTables | undefined;
let loading: Promise<StempelTables> | undefined;

/**
 * Loads the generated table (0.4 MB of data) on first use: in the app it is a chunk of its own, so the page
 * and the BM25 worker start without it and only a Polish analyzer fetches it (`prepareAnalyzer('polish')`).
 */
export function loadStempelTables(): Promise<StempelTables> {
  loading ??= import('./tables/stempel-table.ts').then((module) => (tables = module));
  return loading;
}

/** The loaded table; throws when `loadStempelTables` has not finished. */
export function stempelTables(): StempelTables {
  if (tables === undefined) throw new Error("the Polish analyzer's Stempel table is not loaded: await prepareAnalyzer('polish') first");
  return tables;
}

/** StempelFilter.DEFAULT_MIN_LENGTH: terms of this many UTF-16 units or fewer are left as they are. */
const STEMPEL_MIN_LENGTH = 3;

function base64Bytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Decodes the generator's row layout (see scripts/analysis/generate-stempel-table.mts). */
function decodeTable(): MultiTrie {
  const { STEMPEL_ALPHABET, STEMPEL_FORWARD, STEMPEL_ROWS_BASE64, STEMPEL_TRIES } = stempelTables();
  const bytes = base64Bytes(STEMPEL_ROWS_BASE64.join(''));
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[at++];
      if (b === undefined) throw new Error('Stempel table: data ends inside a row');
      value += (b & 127) * scale;
      if (b < 128) return value;
      scale *= 128;
    }
  };
  const width = STEMPEL_ALPHABET.length;
  const tries: Trie[] = STEMPEL_TRIES.map((meta) => {
    const cmd = new Int16Array(meta.rows * width).fill(-1);
    const ref = new Int16Array(meta.rows * width).fill(-1);
    for (let r = 0; r < meta.rows; r++) {
      // The bitmap has up to `width` bits: read it as 7-bit groups rather than one number past 2^53.
      const present: number[] = [];
      let bit = 0;
      for (;;) {
        const b = bytes[at++];
        if (b === undefined) throw new Error('Stempel table: data ends inside a row');
        for (let k = 0; k < 7; k++) if (b & (1 << k)) present.push(bit + k);
        bit += 7;
        if (b < 128) break;
      }
      for (const a of present) {
        const c = varint();
        const d = varint();
        cmd[r * width + a] = c - 1;
        if (d > 0) {
          const zigzag = d - 1;
          ref[r * width + a] = r + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
        }
      }
    }
    return { forward: meta.forward, root: meta.root, cmds: meta.cmds, width, cmd, ref };
  });
  if (at !== bytes.length) throw new Error('Stempel table: trailing bytes');
  const positions = new Map<number, number>();
  for (let i = 0; i < width; i++) positions.set(STEMPEL_ALPHABET.charCodeAt(i), i);
  return { forward: STEMPEL_FORWARD, tries, positionOf: (unit) => positions.get(unit) ?? -1 };
}

let table: MultiTrie | undefined;

/**
 * `StempelStemmer.stem`: the word with the table's patch applied, or the word itself where Lucene's stemmer
 * returns null (an empty result) — which is what StempelFilter then keeps.
 */
export function stempelStem(word: string): string {
  table ??= decodeTable();
  const stem = applyPatch(word, multiTrieLastOnPath(table, word));
  return stem.length > 0 ? stem : word;
}

/** StempelFilter on one lower-cased term: stems only terms longer than STEMPEL_MIN_LENGTH. */
export function stempelFilter(term: string): string {
  return term.length > STEMPEL_MIN_LENGTH ? stempelStem(term) : term;
}
