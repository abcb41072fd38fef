/**
 * The prefix of a text that the embedder hands the tokenizer (src/lib/dense/read-prefix.ts) gives the same
 * token ids as the whole text, truncated as the model truncates it. Reference: transformers.js's own
 * BertTokenizer on the real tokenizer files of all-MiniLM-L6-v2 and gte-small (SHARED_DIR/tokenizers), on
 * every SciFact document and query and on texts made to sit on the rules' edges.
 */
import { readFileSync } from 'node:fs';
import { BertTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { passageText, queryText } from '../../../src/lib/dense/embedding-text.ts';
import { readPrefix, readsPrefixes } from '../../../src/lib/dense/read-prefix.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { shared } from '../../shared-dir.ts';

type Files = { json: Parameters<typeof readsPrefixes>[0]; tokenizer: BertTokenizer };

function tokenizerFiles(name: string): Files {
  const dir = shared('tokenizers', name);
  const json = JSON.parse(readFileSync(`${dir}/tokenizer.json`, 'utf8')) as Files['json'];
  const config = JSON.parse(readFileSync(`${dir}/tokenizer_config.json`, 'utf8')) as object;
  return { json, tokenizer: new BertTokenizer(json as object, config) };
}

function ids(tokenizer: BertTokenizer, text: string, maxLength: number): number[] {
  return (tokenizer(text, { truncation: true, max_length: maxLength, return_tensor: false }) as { input_ids: number[] }).input_ids;
}

/** The texts whose prefix gives other ids than the whole text, how many were cut, and the share of characters left out. */
function compare(files: Files, texts: readonly string[], maxLength: number): { differing: string[]; cutTexts: number; cutShare: number } {
  const differing: string[] = [];
  let cutTexts = 0;
  let cut = 0;
  let chars = 0;
  for (const text of texts) {
    const prefix = readPrefix(text, maxLength);
    chars += text.length;
    if (prefix === text) continue;
    cutTexts++;
    cut += text.length - prefix.length;
    if (ids(files.tokenizer, prefix, maxLength).join() !== ids(files.tokenizer, text, maxLength).join()) differing.push(text.slice(0, 80));
  }
  return { differing, cutTexts, cutShare: cut / chars };
}

let scifact: string[];

beforeAll(async () => {
  const collection = await loadDataset(shared('beir', 'scifact'));
  const spec = resolveModelSpec('local/tiny-bert');
  scifact = [...collection.docs.map((d) => passageText(d, spec)), ...[...collection.queries.values()].map((q) => queryText(q, spec))];
});

describe.each([
  ['all-MiniLM-L6-v2', 128],
  ['gte-small', 512],
])('%s cut at %i tokens', (name, maxLength) => {
  let files: Files;
  beforeAll(() => {
    files = tokenizerFiles(name);
  });

  test('its tokenizer.json allows prefixes', () => {
    expect(readsPrefixes(files.json)).toBe(true);
  });

  test('every SciFact document and query gives the same ids', () => {
    const { differing, cutTexts, cutShare } = compare(files, scifact, maxLength);
    expect(differing).toEqual([]);
    // Not vacuous: at 128 tokens (tiny BERT) the prefixes leave out about 40 % of SciFact's characters; at
    // 512 a few dozen of its longest abstracts are cut.
    if (maxLength === 128) expect(cutShare).toBeGreaterThan(0.3);
    expect(cutTexts).toBeGreaterThan(20);
  });

  test('texts on the edges of the rules give the same ids at every length', () => {
    const long = 'x'.repeat(150); // past WordPiece's 100 characters: one [UNK]
    const edges = [
      `alpha ${long} beta — — — ... !!! gamma`,
      'one\ttwo\nthree\r\nfour  five   six', // tabs and line breaks inside a run
      'naïve café Ångström ﬁnance ＦＵＬＬ',
      '细胞 分裂 是 生物 的 基本 过程 细胞核',
      'zero\u200bwidth soft\u00adhyphen nb\u00a0space bom\ufeffmark ctl\u0007char',
      '😀 emoji 🧬 dna 1,234.5 μm 3′-UTR IL-6/STAT3 p<0.05',
      '[CLS] [SEP] [MASK] [UNK] [PAD] added tokens as text',
      '  leading and trailing spaces  ',
      '',
      '.',
    ];
    const text = edges.join(' ');
    for (let maxLength = 3; maxLength <= 80; maxLength++) {
      expect(compare(files, [text, ...edges], maxLength).differing).toEqual([]);
    }
  });
});

test('the prefix ends at the end of the n-th run that holds a letter or digit', () => {
  expect(readPrefix('a b c d e f g h', 3)).toBe('a b c');
  expect(readPrefix('a -- b ... c d e f g h', 3)).toBe('a -- b ... c');
  expect(readPrefix('a\tb c d e f g h', 2)).toBe('a\tb c');
  expect(readPrefix('short', 3)).toBe('short');
  expect(readPrefix('a b', 5)).toBe('a b');
});

test('tokenizers whose pre-tokenizer might join across a space, or with an added token that holds one, read whole texts', () => {
  const bert = { type: 'BertPreTokenizer' };
  expect(readsPrefixes({ pre_tokenizer: bert })).toBe(true);
  expect(readsPrefixes({ pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, { type: 'Metaspace' }] } })).toBe(true);
  expect(readsPrefixes({ pre_tokenizer: { type: 'ByteLevel' } })).toBe(true);
  expect(readsPrefixes({ pre_tokenizer: null })).toBe(false);
  expect(readsPrefixes(undefined)).toBe(false);
  expect(readsPrefixes({ pre_tokenizer: { type: 'Metaspace', split: false } })).toBe(false);
  expect(readsPrefixes({ pre_tokenizer: { type: 'ByteLevel', use_regex: false } })).toBe(false);
  expect(readsPrefixes({ pre_tokenizer: { type: 'Sequence', pretokenizers: [{ type: 'Punctuation' }] } })).toBe(false);
  expect(readsPrefixes({ pre_tokenizer: { type: 'Sequence', pretokenizers: [bert, { type: 'SomethingNew' }] } })).toBe(false);
  expect(readsPrefixes({ pre_tokenizer: bert, added_tokens: [{ content: '[CLS]' }, { content: '<end of text>' }] })).toBe(false);
});
