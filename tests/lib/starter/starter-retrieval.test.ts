import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { denseRetrieve } from '../../../src/cli/dense.ts';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { explainBm25 } from '../../../src/lib/bm25/bm25-explain.ts';
import type { Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import type { BeirCollection } from '../../../src/lib/data/beir.ts';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { lexiconEnhancedDense } from '../../../src/lib/fusion/ledr.ts';
import { isStarterQueryMetadata, STARTER_QUERY_KINDS, type StarterQueryKind } from '../../../src/lib/starter/index.ts';
import type { Qrels, Query, Run } from '../../../src/lib/types.ts';
import { ensureModels } from '../dense/models-fixture.ts';

// The starter collection's teaching claims (src/lib/starter/index.ts), checked with the retrieval code the
// playground runs in its three columns:
// - BM25: the TypeScript reference, equal to Lucene 8.7 with EnglishAnalyzer, k1 0.9, b 0.4;
// - dense: the offline default model local/glove-100d-sif (GloVe 6B 100d, SIF-weighted mean, cosine), built by
//   the same generator as `npm run models` when missing, so these claims are always checked, never skipped;
// - LEDR: dense cosine × BM25 over the BM25 top 1000 (LaPraDoR eq. 9, src/lib/fusion/ledr.ts).
// nDCG@10 follows trec_eval (`-c`: a judged query without hits scores 0).

const STARTER_DIR = fileURLToPath(new URL('../../../src/lib/starter/data/', import.meta.url));
const DENSE_MODEL = 'local/glove-100d-sif';

let starter: BeirCollection;
let qrels: Qrels;
let index: Bm25Index;
let bm25Run: Run;
const analyzer = englishAnalyzer();

function kindOf(query: Query): StarterQueryKind {
  if (!isStarterQueryMetadata(query.metadata)) throw new Error(`query ${query.id} has no starter metadata`);
  return query.metadata.kind;
}

function queriesOfKind(kind: StarterQueryKind): Query[] {
  return [...starter.queries.values()].filter((query) => kindOf(query) === kind);
}

function gradeOf(queryId: string, docId: string): number {
  return qrels.get(queryId)?.get(docId) ?? 0;
}

function relevantDocs(queryId: string): string[] {
  return [...(qrels.get(queryId) ?? new Map<string, number>())].filter(([, grade]) => grade > 0).map(([docId]) => docId);
}

/** nDCG@10 of every query (trec_eval `-c`: a query the run has no hits for counts 0), by query id. */
function ndcgAt10(run: Run): Map<string, number> {
  const result = evaluate(qrels, run, { measures: ['ndcg_cut.10'], complete: true });
  const perQuery = new Map(result.queries.map((q) => [q.qid, q.values['ndcg_cut_10']!]));
  return new Map([...starter.queries.keys()].map((qid) => [qid, perQuery.get(qid) ?? 0]));
}

function meanOf(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

beforeAll(async () => {
  starter = await loadDataset(STARTER_DIR, { splits: ['test'] });
  qrels = starter.qrels.get('test')!;
  index = indexCorpus(starter.docs, analyzer);
  bm25Run = new Map(
    [...starter.queries.values()].map((query) => [query.id, searchBm25(index, { id: query.id, terms: analyzer.analyze(query.text) }, { k: 1000 })]),
  );
});

describe('starter collection, BM25 (TypeScript reference = Lucene 8.7 BM25, EnglishAnalyzer, k1 0.9, b 0.4)', () => {
  it('has queries of every kind', () => {
    for (const kind of STARTER_QUERY_KINDS) expect(queriesOfKind(kind).length, kind).toBeGreaterThan(0);
  });

  it('ranks a relevant document first for every lexical query', () => {
    for (const query of queriesOfKind('lexical')) {
      const top = bm25Run.get(query.id)?.[0];
      expect(top, `${query.id} "${query.text}" retrieves nothing`).toBeDefined();
      const grade = gradeOf(query.id, top!.docId);
      expect(grade, `${query.id} "${query.text}": first hit ${top!.docId} has grade ${grade}`).toBeGreaterThan(0);
    }
  });

  it('scores every relevant document of a semantic query 0 (no shared analyzed term)', () => {
    for (const query of queriesOfKind('semantic')) {
      const relevant = relevantDocs(query.id);
      expect(relevant.length, `${query.id} has relevant documents`).toBeGreaterThan(0);
      for (const docId of relevant) {
        const explanation = explainBm25(index, { terms: analyzer.analyze(query.text) }, docId);
        expect(explanation.score, `${query.id} → ${docId}`).toBe(0);
        expect(bm25Run.get(query.id)!.some((hit) => hit.docId === docId), `${query.id}: BM25 retrieves ${docId}`).toBe(false);
      }
      // …while the judged-non-relevant distractors do match the query's words.
      expect(bm25Run.get(query.id)!.length, `${query.id} retrieves its distractors`).toBeGreaterThan(0);
    }
  });

  it('ranks a judged-non-relevant lexical trap first for every hybrid query, the relevant document lower', () => {
    for (const query of queriesOfKind('hybrid')) {
      const hits = bm25Run.get(query.id)!;
      const top = hits[0];
      expect(top, `${query.id} retrieves nothing`).toBeDefined();
      expect(qrels.get(query.id)?.get(top!.docId), `${query.id}: first hit ${top!.docId} is a judged-0 trap`).toBe(0);
      for (const docId of relevantDocs(query.id)) {
        expect(hits.some((hit) => hit.docId === docId), `${query.id}: BM25 retrieves ${docId}`).toBe(true);
      }
    }
  });
});

describe(`starter collection, dense (${DENSE_MODEL}) and LEDR against BM25: nDCG@10 per query kind`, () => {
  let ndcg: { bm25: Map<string, number>; dense: Map<string, number>; ledr: Map<string, number> };
  const idsOf = (kind: StarterQueryKind) => queriesOfKind(kind).map((query) => query.id);
  const meanFor = (kind: StarterQueryKind, system: Map<string, number>) => meanOf(idsOf(kind).map((id) => system.get(id)!));

  beforeAll(async () => {
    ensureModels('glove-100d-sif');
    const queries = [...starter.queries.values()];
    const dense = await denseRetrieve({ docs: starter.docs, queries, model: DENSE_MODEL, topK: 1000 });
    expect(dense.info.docs).toBe(starter.docs.length);
    for (const query of queries) expect(dense.run.get(query.id)!.length, query.id).toBe(starter.docs.length);
    // LEDR: cosine of every BM25 candidate (the BM25 top K = 1000, i.e. every matching document here).
    const candidates = new Map([...bm25Run].map(([qid, hits]) => [qid, hits.map((hit) => hit.docId)]));
    const cosines = await denseRetrieve({ docs: starter.docs, queries, model: DENSE_MODEL, candidates, topK: 1000 });
    const ledrRun: Run = new Map(
      queries.map((query) => {
        const cosine = new Map(cosines.run.get(query.id)!.map((hit) => [hit.docId, hit.score]));
        return [query.id, lexiconEnhancedDense(bm25Run.get(query.id)!, cosine, { k: 1000 })];
      }),
    );
    ndcg = { bm25: ndcgAt10(bm25Run), dense: ndcgAt10(dense.run), ledr: ndcgAt10(ledrRun) };

    const lines = ['kind      queries   BM25     dense    LEDR'];
    for (const kind of STARTER_QUERY_KINDS) {
      const f = (m: Map<string, number>) => meanFor(kind, m).toFixed(4);
      lines.push(`${kind.padEnd(9)} ${String(idsOf(kind).length).padStart(7)}   ${f(ndcg.bm25)}   ${f(ndcg.dense)}   ${f(ndcg.ledr)}`);
    }
    lines.push('', 'per query (nDCG@10)   BM25     dense    LEDR');
    for (const query of queries) {
      const f = (m: Map<string, number>) => m.get(query.id)!.toFixed(4);
      lines.push(`${query.id} ${kindOf(query).padEnd(9)}         ${f(ndcg.bm25)}   ${f(ndcg.dense)}   ${f(ndcg.ledr)}`);
    }
    console.log(`[starter-retrieval] ${DENSE_MODEL} (${dense.info.dtype}), ${dense.info.docs} docs\n${lines.join('\n')}`);
  }, 600_000);

  it('lexical: BM25 beats dense on mean nDCG@10', () => {
    const bm25 = meanFor('lexical', ndcg.bm25);
    const dense = meanFor('lexical', ndcg.dense);
    expect(bm25, `lexical mean BM25 ${bm25.toFixed(4)} vs dense ${dense.toFixed(4)}`).toBeGreaterThan(dense);
  });

  it('semantic: dense beats BM25 on every query and averages at least 0.6; LEDR, a product with BM25, finds nothing', () => {
    for (const id of idsOf('semantic')) {
      expect(ndcg.bm25.get(id), `${id} BM25`).toBe(0);
      expect(ndcg.dense.get(id)!, `${id} dense vs BM25`).toBeGreaterThan(ndcg.bm25.get(id)!);
      expect(ndcg.ledr.get(id), `${id} LEDR`).toBe(0);
    }
    const dense = meanFor('semantic', ndcg.dense);
    expect(dense, `semantic mean dense ${dense.toFixed(4)}`).toBeGreaterThanOrEqual(0.6);
  });

  it('hybrid: LEDR is at least BM25 on every query and beats both BM25 and dense on average', () => {
    for (const id of idsOf('hybrid')) {
      expect(ndcg.ledr.get(id)!, `${id} LEDR vs BM25`).toBeGreaterThanOrEqual(ndcg.bm25.get(id)!);
    }
    const [bm25, dense, ledr] = [ndcg.bm25, ndcg.dense, ndcg.ledr].map((m) => meanFor('hybrid', m)) as [number, number, number];
    const figures = `hybrid mean LEDR ${ledr.toFixed(4)}, BM25 ${bm25.toFixed(4)}, dense ${dense.toFixed(4)}`;
    expect(ledr, figures).toBeGreaterThan(bm25);
    expect(ledr, figures).toBeGreaterThan(dense);
  });
});
