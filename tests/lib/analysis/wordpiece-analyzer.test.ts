/**
 * The WordPiece analyzer (src/lib/analysis/wordpiece-analyzer.ts): hand-checked pieces on a tiny
 * vocabulary, and parity with transformers.js's BertTokenizer built from all-MiniLM-L6-v2's tokenizer.json
 * (read in place from SHARED_DIR) on every SciFact document and query.
 */
import { readFileSync } from 'node:fs';
import { BertTokenizer } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { indexedText } from '../../../src/lib/bm25/bm25-corpus.ts';
import { loadableAnalyzers } from '../../../src/lib/analysis/analyzers.ts';
import { parseVocab, wordPieceAnalyzer } from '../../../src/lib/analysis/wordpiece-analyzer.ts';
import { ensureModels } from '../dense/models-fixture.ts';
import { repoRoot, shared } from '../../shared-dir.ts';

const TINY_VOCAB = ['[PAD]', '[UNK]', 'un', '##aff', '##able', 'aff', 'cafe', 'run', '##ning', ',', '!', '北'].join('\n') + '\n';

describe('wordpiece analyzer on a tiny vocabulary', () => {
  const analyzer = wordPieceAnalyzer(TINY_VOCAB);

  it('takes the longest piece first, then ## continuations', () => {
    // "unaffable": "un" (no longer prefix in the vocabulary), then "##aff", then "##able".
    expect(analyzer.analyze('unaffable')).toEqual(['un', '##aff', '##able']);
    expect(analyzer.analyze('Running, AFF!')).toEqual(['run', '##ning', ',', 'aff', '!']);
  });

  it('strips accents, lower-cases, isolates CJK and drops [UNK] unless asked to keep it', () => {
    expect(analyzer.analyze('CAFÉ 北 xyz')).toEqual(['cafe', '北']);
    expect(wordPieceAnalyzer(TINY_VOCAB, { keepUnknown: true }).analyze('CAFÉ 北 xyz')).toEqual(['cafe', '北', '[UNK]']);
    // A word that cannot be covered is one [UNK], even when a prefix matched ("run" + "##x" fails).
    expect(wordPieceAnalyzer(TINY_VOCAB, { keepUnknown: true }).analyze('runx')).toEqual(['[UNK]']);
  });

  it('removes control characters without splitting the word, and gives each piece its word span', () => {
    expect(analyzer.analyze('un\u0001affable')).toEqual(['un', '##aff', '##able']);
    expect(analyzer.analyzeWithOffsets('  unaffable,')).toEqual([
      { term: 'un', start: 2, end: 11 },
      { term: '##aff', start: 2, end: 11 },
      { term: '##able', start: 2, end: 11 },
      { term: ',', start: 11, end: 12 },
    ]);
  });

  it('reads vocab.txt lines, with or without a final newline or \\r', () => {
    expect(parseVocab('a\r\nb\n')).toEqual(['a', 'b']);
    expect(parseVocab('a\nb')).toEqual(['a', 'b']);
    expect(() => wordPieceAnalyzer('')).toThrow(RangeError);
  });
});

describe('wordpiece analyzer against transformers.js BertTokenizer (all-MiniLM-L6-v2)', () => {
  it('gives the same tokens for every SciFact document and query', async () => {
    const dir = shared('tokenizers', 'all-MiniLM-L6-v2');
    const reference = new BertTokenizer(
      JSON.parse(readFileSync(`${dir}/tokenizer.json`, 'utf8')) as object,
      JSON.parse(readFileSync(`${dir}/tokenizer_config.json`, 'utf8')) as object,
    );
    const analyzer = wordPieceAnalyzer(readFileSync(`${dir}/vocab.txt`, 'utf8'), { keepUnknown: true });
    const scifact = await loadDataset(shared('beir', 'scifact'));
    const texts = [...scifact.docs.map(indexedText), ...[...scifact.queries.values()].map((q) => q.text)];
    let differing = 0;
    let firstDifference = '';
    let tokens = 0;
    for (const text of texts) {
      const expected = reference.tokenize(text);
      const actual = analyzer.analyze(text);
      tokens += actual.length;
      if (JSON.stringify(expected) !== JSON.stringify(actual)) {
        differing++;
        firstDifference ||= text.slice(0, 200);
      }
    }
    expect(texts.length).toBe(5183 + 1109);
    expect(tokens).toBeGreaterThan(1_000_000);
    expect({ differing, firstDifference }).toEqual({ differing: 0, firstDifference: '' });
  }, 300_000);
});

describe('the wordpiece entry of the loadable analyzers', () => {
  it('names a vocabulary file the app serves (built by npm run models) and builds the analyzer from it', () => {
    ensureModels('tiny-bert');
    const info = loadableAnalyzers.wordpiece;
    const vocab = readFileSync(`${repoRoot}/public/${info.file}`, 'utf8');
    expect(parseVocab(vocab)).toHaveLength(30522);
    const analyzer = info.create(vocab);
    expect(analyzer.name).toBe('wordpiece');
    expect(analyzer.analyze('MicroRNA-33b, naïve')).toEqual(['micro', '##rna', '-', '33', '##b', ',', 'naive']);
  });
});
