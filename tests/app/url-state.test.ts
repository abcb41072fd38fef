import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bm25AnalyzerNames } from '../../src/lib/analysis/analyzers.ts';
import { DEFAULT_DENSE, DEFAULT_HNSW, defaultRetriever, type Bm25Settings, type DenseSettings, type FirstStageConfig, type RerankSettings, type RetrieverConfig } from '../../src/lib/retrievers/config.ts';
import {
  decodeComponent,
  decodeRetriever,
  decodeTermEdit,
  decodeUrlState,
  encodeComponent,
  encodeRetriever,
  encodeUrlState,
  isNavigation,
  URL_VIEWS,
  wellFormed,
  type UrlState,
} from '../../src/app/url-state.ts';

/** Any string a person could produce, including separators, escapes, spaces and astral characters. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.stringMatching(/^[a-z0-9 ;=&%+#?/:@,.~-]{0,20}$/),
);
/** Doubles without −0 (String(−0) is "0": a value no settings field can hold). */
const double = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map((x) => (Object.is(x, -0) ? 0 : x));
const count = fc.integer({ min: 1, max: 100_000 });

const bm25: fc.Arbitrary<Bm25Settings> = fc.record({
  k1: double(0, 1e6),
  b: double(0, 1),
  analyzer: fc.constantFrom(...bm25AnalyzerNames),
});

const dense: fc.Arbitrary<DenseSettings> = fc.record({
  model: text.map((s) => wellFormed(s).trim()).filter((s) => s !== ''),
  device: fc.constantFrom('auto', 'webgpu', 'wasm'),
  dtype: fc.constantFrom('fp32', 'fp16', 'q8'),
  search: fc.constantFrom('exact', 'hnsw'),
  hnsw: fc.oneof(fc.constant({ ...DEFAULT_HNSW }), fc.record({ M: count, efConstruction: count, efSearch: count })),
});

const rerankSettings: fc.Arbitrary<RerankSettings> = fc.record({
  model: text.map((s) => wellFormed(s).trim()).filter((s) => s !== ''),
  dtype: fc.constantFrom('fp32', 'fp16', 'q8'),
  device: fc.constantFrom('auto', 'webgpu', 'wasm'),
});

const firstStage: fc.Arbitrary<FirstStageConfig> = fc.oneof(
  fc.record({ kind: fc.constant('bm25' as const), bm25 }),
  fc.record({ kind: fc.constant('rm3' as const), bm25, fbTerms: count, fbDocs: count, originalQueryWeight: double(0, 1) }),
  fc.record({ kind: fc.constant('bo1' as const), bm25, fbTerms: count, fbDocs: count }),
  fc.record({ kind: fc.constant('dense' as const), dense }),
  fc.record({ kind: fc.constant('ledr' as const), bm25, dense, k: count }),
  fc.record({ kind: fc.constant('rrf' as const), bm25, dense, k: double(0, 1e6) }),
  fc.record({
    kind: fc.constant('convex' as const),
    bm25,
    dense,
    alpha: double(0, 1),
    normalization: fc.constantFrom('min-max' as const, 'z-score' as const),
  }),
  fc.record({ kind: fc.constant('run' as const), runKey: text.map(wellFormed), name: text.map(wellFormed) }),
);

const retriever: fc.Arbitrary<RetrieverConfig> = fc.oneof(
  firstStage,
  fc.record({ kind: fc.constant('rerank' as const), firstStage, depth: count, rerank: rerankSettings }),
);

const urlState: fc.Arbitrary<UrlState> = fc.record({
  view: fc.constantFrom(...URL_VIEWS),
  collection: fc.option(text.map(wellFormed), { nil: null }),
  split: fc.option(text.map(wellFormed), { nil: null }),
  columns: fc.option(fc.array(retriever, { minLength: 1, maxLength: 6 }), { nil: null }),
  query: fc.record({ id: text.map(wellFormed), text: text.map(wellFormed) }, { requiredKeys: [] }),
});

describe('url-state', () => {
  it('decodes what it encodes: any view, collection, split, columns and query (fast-check)', () => {
    fc.assert(
      fc.property(urlState, (state) => {
        const search = encodeUrlState(state);
        const decoded = decodeUrlState(search);
        expect(decoded.problems).toEqual([]);
        expect(decoded.others).toEqual([]);
        expect(decoded.state).toEqual(state);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps parameters of other views, in order, through a round trip', () => {
    fc.assert(
      fc.property(urlState, fc.array(fc.stringMatching(/^ev[a-z]{1,6}=[a-z0-9%.;,-]{0,10}$/), { maxLength: 4 }), (state, others) => {
        const decoded = decodeUrlState(encodeUrlState(state, others));
        expect(decoded.others).toEqual(others);
        expect(decoded.state).toEqual(state);
      }),
    );
  });

  it('never throws on any text, and decodes encoded text back (lone surrogates become U+FFFD)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        const encoded = encodeComponent(value);
        expect(encoded).not.toMatch(/[&;=#\s]/);
        expect(decodeComponent(encoded)).toBe(wellFormed(value));
      }),
    );
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (search) => void decodeUrlState(search)));
  });

  it('writes readable columns', () => {
    expect(encodeRetriever(defaultRetriever('bm25'))).toBe('bm25;k1=0.9;b=0.4;an=english');
    expect(encodeRetriever(defaultRetriever('dense'))).toBe('dense;m=local/glove-100d-sif;dt=q8;s=exact');
    expect(encodeRetriever({ kind: 'run', runKey: 'starter|imported|my run;v2|x', name: 'my run;v2' })).toBe(
      'run;key=starter%7Cimported%7Cmy+run%3Bv2%7Cx;name=my+run%3Bv2',
    );
    expect(encodeUrlState({ view: 'explore', collection: 'beir/scifact', split: 'test', columns: null, query: { text: 'bread & butter' } })).toBe(
      '?view=explore&collection=beir/scifact&split=test&q=bread+%26+butter',
    );
  });

  it('writes RM3, Bo1 and Re-rank columns, the first stage as one encoded field', () => {
    expect(encodeRetriever(defaultRetriever('rm3'))).toBe('rm3;ft=10;fd=10;w=0.5;k1=0.9;b=0.4;an=english');
    expect(encodeRetriever(defaultRetriever('bo1'))).toBe('bo1;ft=10;fd=3;k1=0.9;b=0.4;an=english');
    const rerank: RetrieverConfig = {
      kind: 'rerank',
      depth: 50,
      rerank: { model: 'local/tiny-cross-encoder', dtype: 'fp32', device: 'auto' },
      firstStage: { kind: 'rm3', bm25: { k1: 0.9, b: 0.4, analyzer: 'wordpiece' }, fbTerms: 5, fbDocs: 3, originalQueryWeight: 0.7 },
    };
    const encoded = encodeRetriever(rerank);
    expect(encoded).toBe('rerank;d=50;m=local/tiny-cross-encoder;dt=fp32;fs=rm3%3Bft%3D5%3Bfd%3D3%3Bw%3D0.7%3Bk1%3D0.9%3Bb%3D0.4%3Ban%3Dwordpiece');
    expect(decodeRetriever(encoded)).toEqual(rerank);
    // A model id with separators survives both levels of encoding.
    const odd: RetrieverConfig = { ...rerank, firstStage: { kind: 'run', runKey: 'a;b=c&d e', name: 'x+y' } };
    expect(decodeRetriever(encodeRetriever(odd))).toEqual(odd);
  });

  it('reads a Re-rank column without fields as BM25 top 100 with the registry default model; refuses a re-ranking as first stage', () => {
    expect(decodeRetriever('rerank')).toEqual(defaultRetriever('rerank'));
    expect(decodeRetriever('rm3;an=wordpiece')).toEqual({ ...defaultRetriever('rm3'), bm25: { k1: 0.9, b: 0.4, analyzer: 'wordpiece' } });
    const decoded = decodeUrlState(`?col=rerank;fs=${encodeComponent('rerank;d=5')}&col=rerank;fs=${encodeComponent('bm25;b=3')}&col=rm3;w=2&col=bo1;fd=0`);
    expect(decoded.state.columns).toBeNull();
    expect(decoded.problems).toEqual([
      'rerank column: its first stage cannot be another re-ranking',
      'rerank column: its first stage: bm25 column: b=3 is not between 0 and 1',
      'rm3 column: w=2 is not between 0 and 1',
      'bo1 column: fd=0 is not a whole number ≥ 1',
    ]);
  });

  it('fills missing fields with the defaults and reports bad columns without dropping the others', () => {
    expect(decodeRetriever('ledr')).toEqual(defaultRetriever('ledr'));
    const decoded = decodeUrlState('?view=evaluate&col=bm25;k1=1.2&col=bm25;b=7&col=sparse;x=1&col=dense;m=');
    expect(decoded.state.view).toBe('evaluate');
    expect(decoded.state.columns).toEqual([{ kind: 'bm25', bm25: { k1: 1.2, b: 0.4, analyzer: 'english' } }]);
    expect(decoded.problems).toEqual([
      'bm25 column: b=7 is not between 0 and 1',
      'unknown column kind "sparse"',
      'dense column with an empty model id',
    ]);
    expect(decodeUrlState('?view=nowhere&q=%E0%A4%A').problems).toEqual(['unknown view "nowhere"', 'the value of "q" is not properly encoded']);
  });

  it('reads what URLSearchParams writes for plain parameters', () => {
    const params = new URLSearchParams({ view: 'datasets', collection: 'local/ä b', qid: 'q 1', q: 'a+b=c' });
    const { state } = decodeUrlState(`?${params.toString()}`);
    expect(state).toEqual({ view: 'datasets', collection: 'local/ä b', split: null, columns: null, query: { id: 'q 1', text: 'a+b=c' } });
  });
});

describe('url-state: an address rewritten by URLSearchParams (a script setting one parameter)', () => {
  const rewrite = (search: string) => `?${new URLSearchParams(search).toString()}`;
  /** A value holding `;` cannot be told from a field separator once rewritten (the module says so). */
  const withoutSemicolons = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll(';', ',')) as T;

  it('reads every column back, with its settings (fast-check)', () => {
    fc.assert(
      fc.property(urlState.map(withoutSemicolons), (state) => {
        const search = rewrite(encodeUrlState(state));
        if (state.columns !== null) expect(search).not.toContain(';');
        const decoded = decodeUrlState(search);
        expect(decoded.problems).toEqual([]);
        expect(decoded.state).toEqual(state);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps a Re-rank column's first stage whole, and the columns' edited terms and tuning", () => {
    const rerank: RetrieverConfig = { kind: 'rerank', depth: 50, rerank: { model: 'local/x=y', dtype: 'q8', device: 'auto' }, firstStage: { kind: 'dense', dense: { ...DEFAULT_DENSE, model: 'local/a b+c', hnsw: { ...DEFAULT_HNSW } } } };
    const state: UrlState = {
      view: 'evaluate',
      collection: 'local/ä b',
      split: 'test',
      columns: [defaultRetriever('bm25'), rerank],
      query: { id: 'q 1' },
      termEdits: ['+bread^2 +stale', undefined],
      tuned: [undefined, { split: 'train', metric: 'nDCG@10' }],
    };
    const written = encodeUrlState(state, ['ev=1']);
    const params = new URLSearchParams(written);
    params.set('view', 'evaluate');
    const decoded = decodeUrlState(`?${params.toString()}`);
    expect(decoded.problems).toEqual([]);
    expect(decoded.state).toEqual(state);
    expect(decoded.others).toEqual(['ev=1']);
  });
});

describe('url-state: edited query terms (qt)', () => {
  /** Canonical weighted syntax as the panel writes it, or any text a hand-edited link could hold. */
  const edit = fc.oneof(fc.constant(''), fc.constant('+bread^2.5 +hard +crust^0'), text.map(wellFormed));

  it('round-trips the edited terms of BM25 columns, aligned with the columns (fast-check)', () => {
    const columnWithEdit = fc.oneof(
      fc.record({ column: fc.record({ kind: fc.constant('bm25' as const), bm25 }), edit: fc.option(edit, { nil: undefined }) }),
      fc.record({ column: retriever.filter((r) => r.kind !== 'bm25'), edit: fc.constant(undefined) }),
    );
    fc.assert(
      fc.property(urlState, fc.array(columnWithEdit, { minLength: 1, maxLength: 5 }), (base, pairs) => {
        const termEdits = pairs.map((p) => p.edit);
        const state: UrlState = { ...base, columns: pairs.map((p) => p.column), termEdits };
        const decoded = decodeUrlState(encodeUrlState(state));
        expect(decoded.problems).toEqual([]);
        expect(decoded.state.columns).toEqual(state.columns);
        expect(decoded.state.termEdits).toEqual(termEdits.some((e) => e !== undefined) ? termEdits : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it('writes qt after the column fields; settings decode as without it; other kinds ignore it', () => {
    const search = encodeUrlState({ view: 'explore', collection: null, split: null, columns: [defaultRetriever('bm25')], query: {}, termEdits: ['+bread^2 +stale'] });
    expect(search).toBe('?view=explore&col=bm25;k1=0.9;b=0.4;an=english;qt=%2Bbread%5E2+%2Bstale');
    expect(decodeRetriever('bm25;k1=0.9;b=0.4;an=english;qt=%2Bbread%5E2+%2Bstale')).toEqual(defaultRetriever('bm25'));
    expect(decodeTermEdit('bm25;k1=0.9;qt=')).toBe('');
    expect(decodeTermEdit('bm25;k1=0.9')).toBeUndefined();
    expect(decodeUrlState('?col=dense;m=x;dt=q8;s=exact;qt=%2Bx').state.termEdits).toBeUndefined();
  });
});

describe('url-state: tuned columns (tuned)', () => {
  it('round-trips the split and measure that tuned a column, aligned with the columns; settings decode as without it', () => {
    const columns = [defaultRetriever('bm25'), defaultRetriever('convex'), defaultRetriever('dense')];
    const tuned = [{ split: 'train', metric: 'nDCG@10' }, undefined, { split: 'dev', metric: 'map_cut_100' }];
    const search = encodeUrlState({ view: 'evaluate', collection: 'c', split: 'test', columns, query: {}, tuned });
    expect(search).toContain('col=bm25;k1=0.9;b=0.4;an=english;tuned=train,nDCG@10&');
    const { state, problems } = decodeUrlState(search);
    expect(problems).toEqual([]);
    expect(state.tuned).toEqual(tuned);
    expect(state.columns).toEqual(columns);
    expect(decodeUrlState(encodeUrlState({ view: 'evaluate', collection: 'c', split: 'test', columns, query: {} })).state.tuned).toBeUndefined();
  });

  it('reports a tuned field that is not "split,measure" and keeps the other columns', () => {
    const { state, problems } = decodeUrlState('?col=bm25;tuned=train&col=dense;m=x;dt=q8;s=exact');
    expect(problems).toEqual(['tuned must be "split,measure"']);
    expect(state.columns?.map((column) => column.kind)).toEqual(['dense']);
  });
});

describe('history entries (isNavigation)', () => {
  const base: UrlState = { view: 'explore', collection: 'starter', split: 'test', columns: [defaultRetriever('bm25'), defaultRetriever('dense')], query: { id: 'q01' } };
  it('pushes when the person goes somewhere, replaces when they adjust in place', () => {
    expect(isNavigation(base, { ...base, query: { id: 'q02' } })).toBe(true);
    expect(isNavigation(base, { ...base, view: 'evaluate' })).toBe(true);
    expect(isNavigation(base, { ...base, columns: [defaultRetriever('dense'), defaultRetriever('bm25')] })).toBe(true);
    expect(isNavigation(base, { ...base, columns: [defaultRetriever('bm25')] })).toBe(true);
    expect(isNavigation(base, { ...base, query: { id: 'q01', text: 'edited' } })).toBe(false);
    expect(isNavigation(base, { ...base, columns: [{ kind: 'bm25', bm25: { k1: 2, b: 0.4, analyzer: 'english' } }, defaultRetriever('dense')] })).toBe(false);
    // A query picked for an address that had none completes the entry.
    expect(isNavigation({ ...base, query: {} }, base)).toBe(false);
    const twoBm25 = { ...base, columns: [defaultRetriever('bm25'), { kind: 'bm25' as const, bm25: { k1: 2, b: 0.4, analyzer: 'english' as const } }] };
    expect(isNavigation(twoBm25, { ...twoBm25, columns: [...twoBm25.columns].reverse() })).toBe(true);
  });
});
