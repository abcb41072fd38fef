/**
 * The lookup side of Egothor's stemming tries, as Lucene's `org.egothor.stemmer.Trie` and `MultiTrie2` do it
 * in `getLastOnPath` (the only lookup StempelStemmer uses).
 *
 * A trie maps a word, read from its end (tables for Polish are "backward"), to a patch command: walking the
 * word character by character, every cell passed may carry a command, and the last one seen wins. A
 * MultiTrie2 splits each command into parts at its `-` (skip) instructions and keeps part i in trie i; the
 * lookup asks the tries in turn, shortening the key by the characters the skips step over, and concatenates
 * the parts until a trie answers nothing or the end marker `*`.
 */

/** One trie as dense arrays: for row r and alphabet position a, `cmd[r * width + a]` and `ref[...]` (−1: none). */
export interface Trie {
  readonly forward: boolean;
  readonly root: number;
  readonly cmds: readonly string[];
  readonly width: number;
  readonly cmd: Int16Array;
  readonly ref: Int16Array;
}

export interface MultiTrie {
  readonly forward: boolean;
  readonly tries: readonly Trie[];
  /** UTF-16 code unit → alphabet position, −1 for a character no cell is labelled with. */
  readonly positionOf: (unit: number) => number;
}

/** Marks the end of a command in a MultiTrie (`MultiTrie.EOM`). */
const END_OF_COMMAND = '*';

/**
 * Thrown where Lucene's code throws an IndexOutOfBoundsException that MultiTrie2 catches: the lookup then
 * returns the command parts gathered so far.
 */
class OutOfBounds extends Error {}

/** `Trie.getLastOnPath`: the command of the last cell with one on the key's path, or null. */
function lastOnPath(trie: Trie, positionOf: (unit: number) => number, key: string): string | null {
  const n = key.length;
  // Reading the key's first character (backward: its last) fails on an empty key, as charAt(-1) does.
  if (n === 0) throw new OutOfBounds();
  let index = trie.forward ? 0 : n - 1;
  const step = trie.forward ? 1 : -1;
  let row = trie.root;
  let last: string | null = null;
  for (let i = 0; i < n - 1; i++) {
    const a = positionOf(key.charCodeAt(index));
    index += step;
    if (a < 0) return last;
    const cell = row * trie.width + a;
    const cmd = trie.cmd[cell]!;
    if (cmd >= 0) last = trie.cmds[cmd]!;
    const ref = trie.ref[cell]!;
    if (ref < 0) return last;
    row = ref;
  }
  const a = positionOf(key.charCodeAt(index));
  if (a < 0) return last;
  const cmd = trie.cmd[row * trie.width + a]!;
  return cmd >= 0 ? trie.cmds[cmd]! : last;
}

/** How many characters of the word a command part steps over (`MultiTrie2.lengthPP`). */
function coveredLength(part: string): number {
  let length = 0;
  for (let i = 0; i < part.length; i++) {
    const op = part[i++];
    if (op === '-' || op === 'D') {
      if (i >= part.length) throw new OutOfBounds();
      length += part.charCodeAt(i) - 0x61 + 1;
    } else if (op === 'R') {
      length++;
    }
  }
  return length;
}

/** `MultiTrie2.skip`: the key without `count` characters at its reading start. */
function skip(key: string, count: number, forward: boolean): string {
  if (count < 0 || count > key.length) throw new OutOfBounds();
  return forward ? key.slice(count) : key.slice(0, key.length - count);
}

/** The instructions `after` and `next` (first characters of two parts) may not be two skips or two deletes. */
function cannotFollow(after: string, next: string): boolean {
  return (after === '-' || after === 'D') && after === next;
}

/** `MultiTrie2.getLastOnPath`: the patch command for `word` (possibly empty, never null). */
export function multiTrieLastOnPath(multi: MultiTrie, word: string): string {
  let result = '';
  let key = word;
  let lastKey = word;
  let lastInstruction = ' ';
  let previous = '';
  try {
    for (let i = 0; i < multi.tries.length; i++) {
      const part = lastOnPath(multi.tries[i]!, multi.positionOf, lastKey);
      if (part === null || part === END_OF_COMMAND) return result;
      if (cannotFollow(lastInstruction, part[0]!)) return result;
      if (part.length < 2) throw new OutOfBounds();
      lastInstruction = part[part.length - 2]!;
      if (part[0] === '-') {
        if (i > 0) key = skip(key, coveredLength(previous), multi.forward);
        key = skip(key, coveredLength(part), multi.forward);
      }
      previous = part;
      result += part;
      if (key.length !== 0) lastKey = key;
    }
  } catch (e) {
    if (!(e instanceof OutOfBounds)) throw e;
  }
  return result;
}
