/**
 * Regenerates src/lib/analysis/tables/stempel-table.ts from the jar that Lucene's PolishAnalyzer loads its
 * defaults from: Debian bookworm's liblucene8-java 8.8.1-4 (jars named *-8.7.0.jar; the stempel module and
 * its two resources are unchanged between 8.7 and 8.8).
 *
 *   org/apache/lucene/analysis/pl/stemmer_20000.tbl   the Egothor MultiTrie2 PolishAnalyzer stems with
 *   org/apache/lucene/analysis/pl/stopwords.txt       the Carrot2 Polish stop list
 *
 * Usage (Debian: apt-get install liblucene8-java unzip; no Java needed):
 *   npx tsx scripts/analysis/generate-stempel-table.mts [/usr/share/java/lucene-analyzers-stempel-8.7.0.jar]
 *
 * The table file is Java DataOutput: writeUTF(method), then MultiTrie's boolean forward, int BY, int tries,
 * then per Trie: boolean forward, int root, int #cmds, #cmds × writeUTF(cmd), int #rows, and per row
 * int #cells and per cell char key, int cmd, int cnt, int ref, int skip. Stemming only reads a cell's cmd and
 * ref (cnt counts merged entries of the build, skip is 0 everywhere and only used by getFully), so the module
 * keeps those two, in a compact form decoded by src/lib/analysis/stempel.ts:
 *
 *   - every trie's commands reordered by how many cells use them (ids are internal to a trie);
 *   - one alphabet (the keys of all cells, sorted); per row a varint bitmap of the alphabet positions that
 *     have a cell, then for each set bit, in order, varint (cmd + 1) and varint ref code
 *     (0 = no ref, else zigzag(ref − row) + 1);
 *   - the bytes of all rows of all tries, base64.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const JAR = process.argv[2] ?? '/usr/share/java/lucene-analyzers-stempel-8.7.0.jar';
const TABLE = 'org/apache/lucene/analysis/pl/stemmer_20000.tbl';
const STOPS = 'org/apache/lucene/analysis/pl/stopwords.txt';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '../../src/lib/analysis/tables/stempel-table.ts');

const readEntry = (entry: string): Buffer => execFileSync('unzip', ['-p', JAR, entry], { maxBuffer: 1 << 28 });

/** java.io.DataInput over a buffer. */
class DataInput {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos === this.buf.length;
  }
  readBoolean(): boolean {
    return this.buf[this.pos++] !== 0;
  }
  readInt(): number {
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  readChar(): number {
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  /** Modified UTF-8 with a two-byte length, decoded to UTF-16 code units as Java does. */
  readUTF(): string {
    const end = this.pos + 2 + this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    let s = '';
    while (this.pos < end) {
      const a = this.buf[this.pos++]!;
      if (a < 0x80) s += String.fromCharCode(a);
      else if ((a & 0xe0) === 0xc0) s += String.fromCharCode(((a & 0x1f) << 6) | (this.buf[this.pos++]! & 0x3f));
      else {
        const b = this.buf[this.pos++]!;
        const c = this.buf[this.pos++]!;
        s += String.fromCharCode(((a & 0x0f) << 12) | ((b & 0x3f) << 6) | (c & 0x3f));
      }
    }
    return s;
  }
}

interface Cell { key: number; cmd: number; ref: number }
interface RawTrie { forward: boolean; root: number; cmds: string[]; rows: Cell[][] }

const input = new DataInput(readEntry(TABLE));
const method = input.readUTF();
if (!method.toUpperCase().includes('M')) throw new Error(`expected a MultiTrie2 table, got method ${method}`);
const multiForward = input.readBoolean();
input.readInt(); // BY: MultiTrie's fixed command width, unused by MultiTrie2
const tries: RawTrie[] = [];
for (let t = input.readInt(); t > 0; t--) {
  const forward = input.readBoolean();
  const root = input.readInt();
  const cmds: string[] = [];
  for (let i = input.readInt(); i > 0; i--) cmds.push(input.readUTF());
  const rows: Cell[][] = [];
  for (let r = input.readInt(); r > 0; r--) {
    const cells: Cell[] = [];
    for (let c = input.readInt(); c > 0; c--) {
      const key = input.readChar();
      const cmd = input.readInt();
      input.readInt(); // cnt
      const ref = input.readInt();
      if (input.readInt() !== 0) throw new Error('a cell with skip ≠ 0: getLastOnPath would still ignore it, but check');
      cells.push({ key, cmd, ref });
    }
    rows.push(cells);
  }
  tries.push({ forward, root, cmds, rows });
}
if (!input.done) throw new Error('trailing bytes after the last trie');

const alphabet = [...new Set(tries.flatMap((t) => t.rows.flatMap((r) => r.map((c) => c.key))))].sort((a, b) => a - b);
const position = new Map(alphabet.map((k, i) => [k, i]));

const bytes: number[] = [];
const varint = (n: number): void => {
  if (n < 0) throw new Error('negative varint');
  while (n >= 128) {
    bytes.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
};
const trieMeta: { forward: boolean; root: number; rows: number; cmds: string[] }[] = [];
for (const trie of tries) {
  const uses = new Map<number, number>();
  for (const row of trie.rows) for (const c of row) if (c.cmd >= 0) uses.set(c.cmd, (uses.get(c.cmd) ?? 0) + 1);
  const order = trie.cmds.map((_, i) => i).sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0) || a - b);
  const newId = new Map(order.map((old, i) => [old, i]));
  trie.rows.forEach((row, r) => {
    const sorted = [...row].sort((a, b) => position.get(a.key)! - position.get(b.key)!);
    let bitmap = 0n;
    for (const c of sorted) bitmap |= 1n << BigInt(position.get(c.key)!);
    // The bitmap may exceed 2^53, so it gets its own BigInt varint.
    while (bitmap >= 128n) {
      bytes.push(Number(bitmap & 127n) | 128);
      bitmap >>= 7n;
    }
    bytes.push(Number(bitmap));
    for (const c of sorted) {
      varint(c.cmd < 0 ? 0 : newId.get(c.cmd)! + 1);
      const d = c.ref - r;
      varint(c.ref < 0 ? 0 : (d >= 0 ? 2 * d : -2 * d - 1) + 1);
    }
  });
  trieMeta.push({ forward: trie.forward, root: trie.root, rows: trie.rows.length, cmds: order.map((i) => trie.cmds[i]!) });
}

// WordlistLoader.getWordSet(reader, "#"): every line not starting with '#', trimmed.
const stopWords = [
  ...new Set(
    readEntry(STOPS)
      .toString('utf8')
      .split(/\r?\n/)
      .filter((l) => !l.startsWith('#'))
      .map((l) => l.replace(/^[\0- ]+|[\0- ]+$/g, ''))
      .filter((w) => w.length > 0),
  ),
];

const wrap = (s: string, width: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += width) out.push(s.slice(i, i + width));
  return out;
};
const base64 = Buffer.from(bytes).toString('base64');
const cells = tries.reduce((n, t) => n + t.rows.reduce((m, r) => m + r.length, 0), 0);
const module = `// GENERATED by scripts/analysis/generate-stempel-table.mts from Lucene's lucene-analyzers-stempel 8.8.1
// (Debian liblucene8-java; Apache License 2.0): PolishAnalyzer's stemmer_20000.tbl (Egothor project, BSD) and
// stopwords.txt (Carrot2 project, BSD). Do not edit; rerun the generator.
// ${tries.length} tries, ${tries.reduce((n, t) => n + t.rows.length, 0)} rows, ${cells} cells; layout described in the generator.

/** Lucene's PolishAnalyzer default stop set (${stopWords.length} words). */
export const POLISH_STOP_WORDS: readonly string[] = ${JSON.stringify(stopWords)};

/** MultiTrie2's own read direction (false: keys are read from the last character). */
export const STEMPEL_FORWARD = ${multiForward};

/** The characters that label trie cells, in the order of the row bitmaps. */
export const STEMPEL_ALPHABET = ${JSON.stringify(String.fromCharCode(...alphabet))};

export interface StempelTrieMeta {
  readonly forward: boolean;
  readonly root: number;
  readonly rows: number;
  /** Patch commands, most used first (cell cmd k + 1 in the row data means cmds[k]). */
  readonly cmds: readonly string[];
}

export const STEMPEL_TRIES: readonly StempelTrieMeta[] = [
${trieMeta.map((t) => `  ${JSON.stringify(t)},`).join('\n')}
];

/** Rows of all tries in order, base64 (as lines, joined on use). */
export const STEMPEL_ROWS_BASE64: readonly string[] = [
${wrap(base64, 110).map((l) => `  '${l}',`).join('\n')}
];
`;
writeFileSync(OUT, module);
console.log(`wrote ${OUT}: ${tries.length} tries, ${cells} cells, ${bytes.length} bytes of rows, ${stopWords.length} stop words`);
