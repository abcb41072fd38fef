/**
 * Pair templates read off a tokenizer, on fakes with BERT's and XLM-R's pair layouts, and the truncation
 * rule: the document is cut first, the query only past half the room.
 */
import { describe, expect, test } from 'vitest';
import { padBatch } from '../../../src/lib/dense/token-ids.ts';
import { encodePair, pairTemplateOf, type PairTokenizer } from '../../../src/lib/rerank/pair-encoding.ts';

/** Words → ids by a fixed table (unknown words 7), wrapped like BERT or like XLM-R. */
function fakeTokenizer(layout: 'bert' | 'xlmr'): PairTokenizer {
  const ids = (text: string) => text.split(/[\s,.]+/).filter(Boolean).map((w) => 1000 + (w.charCodeAt(0) % 50) * 10 + w.length);
  return {
    ids,
    pair(a, b) {
      const q = ids(a);
      const d = ids(b);
      if (layout === 'bert') return { ids: [101, ...q, 102, ...d, 102], typeIds: [0, ...q.map(() => 0), 0, ...d.map(() => 1), 1] };
      return { ids: [0, ...q, 2, 2, ...d, 2], typeIds: [0, ...q.map(() => 0), 0, 0, ...d.map(() => 0), 0] };
    },
  };
}

describe('pairTemplateOf', () => {
  test('BERT: [CLS] q [SEP] d [SEP], types 0 and 1', () => {
    const t = pairTemplateOf(fakeTokenizer('bert'));
    expect(t.prefix).toEqual({ ids: [101], typeIds: [0] });
    expect(t.middle).toEqual({ ids: [102], typeIds: [0] });
    expect(t.suffix).toEqual({ ids: [102], typeIds: [1] });
    expect([t.queryTypeId, t.docTypeId]).toEqual([0, 1]);
  });

  test('XLM-R: <s> q </s></s> d </s>, no segment ids', () => {
    const t = pairTemplateOf(fakeTokenizer('xlmr'));
    expect(t.prefix.ids).toEqual([0]);
    expect(t.middle.ids).toEqual([2, 2]);
    expect(t.suffix.ids).toEqual([2]);
    expect([t.queryTypeId, t.docTypeId]).toEqual([0, 0]);
  });

  test('a tokenizer whose pair does not hold the texts’ tokens is refused', () => {
    const broken: PairTokenizer = { ids: () => [5, 6], pair: () => ({ ids: [1, 2, 3], typeIds: [0, 0, 0] }) };
    expect(() => pairTemplateOf(broken)).toThrow(/does not hold/);
  });
});

describe('encodePair', () => {
  const t = pairTemplateOf(fakeTokenizer('bert'));
  const q = [11, 12, 13];
  const d = [21, 22, 23, 24, 25, 26, 27, 28];

  test('a pair that fits is not cut', () => {
    const pair = encodePair(t, q, d, 64);
    expect(pair.ids).toEqual([101, 11, 12, 13, 102, 21, 22, 23, 24, 25, 26, 27, 28, 102]);
    expect(pair.typeIds).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect([pair.docTokensCut, pair.queryTokensCut]).toEqual([0, 0]);
  });

  test('the document is cut from its end; the query and the closing [SEP] stay', () => {
    const pair = encodePair(t, q, d, 10);
    expect(pair.ids).toEqual([101, 11, 12, 13, 102, 21, 22, 23, 24, 102]);
    expect(pair.docTokensCut).toBe(4);
    expect(pair.queryTokensCut).toBe(0);
  });

  test('a query longer than half the room is cut to leave the document half', () => {
    const longQuery = Array.from({ length: 20 }, (_, i) => 300 + i);
    const pair = encodePair(t, longQuery, d, 13); // room 10: document 5, query 5
    expect(pair.ids).toEqual([101, 300, 301, 302, 303, 304, 102, 21, 22, 23, 24, 25, 102]);
    expect([pair.queryTokensCut, pair.docTokensCut]).toEqual([15, 3]);
    // A short document leaves the query the rest.
    const short = encodePair(t, longQuery, [21, 22], 13);
    expect(short.ids).toHaveLength(13);
    expect([short.queryTokensCut, short.docTokensCut]).toEqual([12, 0]);
  });

  test('padBatch pads on the right with the pad id, mask 0 and type 0', () => {
    const batch = padBatch([encodePair(t, [11], [21, 22], 64), encodePair(t, [11], [21], 64)], 0);
    expect([batch.rows, batch.width]).toEqual([2, 6]);
    expect(Array.from(batch.inputIds, Number)).toEqual([101, 11, 102, 21, 22, 102, 101, 11, 102, 21, 102, 0]);
    expect(Array.from(batch.attentionMask, Number)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(Array.from(batch.tokenTypeIds, Number)).toEqual([0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0]);
  });
});
