/**
 * RM3's relevance model (src/lib/prf/rm3.ts) against the JVM: scripts/prf/Rm3ModelOracle.java computes the
 * same step with the real Java containers Anserini uses (fastutil's Object2FloatOpenHashMap, HashSet, a
 * stable sort), so the terms kept among equal weights, their iteration order and every float weight must
 * come out identical — on all 300 SciFact test queries with Anserini's defaults, and with fbTerms 3 and 25
 * (more ties cut, bigger tables). Needs a JDK and Debian's fastutil (`apt-get install default-jdk-headless
 * libfastutil-java`); without them it prints a notice and is skipped.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tempDir } from '../../temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import { rm3FeedbackTerms, rm3RelevanceModel } from '../../../src/lib/prf/rm3.ts';
import { analyzedSciFact } from '../bm25-wasm/fixtures.ts';
import { repoRoot } from '../../shared-dir.ts';

const FASTUTIL_JAR = process.env.FASTUTIL_JAR ?? '/usr/share/java/fastutil.jar';

function hasCommand(command: string): boolean {
  try {
    execFileSync(command, ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const missing = [
  ...(hasCommand('javac') && hasCommand('java') ? [] : ['a JDK (javac, java)']),
  ...(existsSync(FASTUTIL_JAR) ? [] : [`fastutil (${FASTUTIL_JAR})`]),
];
if (missing.length > 0) {
  console.warn(`NOTICE: RM3 tie order not checked against the JVM: ${missing.join(' and ')} not installed (Debian: apt-get install default-jdk-headless libfastutil-java).`);
}

const f32Bits = new Float32Array(1);
const u32Bits = new Uint32Array(f32Bits.buffer);
function floatHex(value: number): string {
  f32Bits[0] = value;
  return u32Bits[0]!.toString(16);
}

describe.skipIf(missing.length > 0)('RM3 relevance model against the JVM (fastutil, HashSet)', () => {
  it('keeps the same terms, in the same order, with the same float weights on every SciFact test query', async () => {
    // Made in the test, not the suite's body: Vitest runs a skipped suite's body but not its hooks.
    const work = tempDir('rm3-oracle-');
    execFileSync('javac', ['-cp', FASTUTIL_JAR, '-d', work, join(repoRoot, 'scripts', 'prf', 'Rm3ModelOracle.java')], { stdio: 'pipe' });
    const { collection, docs } = await analyzedSciFact();
    const bm25 = buildBm25Index(docs);
    const qrels = collection.qrels.get('test')!;
    const queries = [...collection.queries.values()].filter((q) => qrels.has(q.id));
    expect(queries).toHaveLength(300);
    const { englishAnalyzer } = await import('../../../src/lib/analysis/english-analyzer.ts');
    const analyzer = englishAnalyzer();
    let cut = 0;
    for (const fbTerms of [10, 3, 25]) {
      const input: string[] = [];
      const expected: string[] = [];
      for (const query of queries) {
        const index = bm25FeedbackIndex(bm25, { queryId: query.id });
        const feedback = index.search(bagOfTerms(analyzer.analyze(query.text)), 10);
        input.push(`Q ${fbTerms} ${feedback.length}`);
        for (const hit of feedback) {
          const terms = rm3FeedbackTerms(index, index.termVector(hit.docId)!, true);
          input.push(`D ${floatHex(hit.score)} ${terms.length}${terms.map(({ term, tf }) => ` ${term} ${tf}`).join('')}`);
          if (terms.length > fbTerms) cut++;
        }
        const model = rm3RelevanceModel(index, feedback, { fbTerms, filterTerms: true });
        expected.push(`R${[...model].map(([term, weight]) => ` ${term} ${floatHex(weight)}`).join('')}`);
      }
      const output = execFileSync('java', ['-cp', `${FASTUTIL_JAR}:${work}`, 'Rm3ModelOracle'], { input: `${input.join('\n')}\n`, maxBuffer: 1 << 26 })
        .toString()
        .trimEnd()
        .split('\n');
      expect(output).toHaveLength(queries.length);
      const differing = output.map((line, i) => (line === expected[i] ? -1 : i)).filter((i) => i >= 0);
      expect(differing.map((i) => ({ query: queries[i]!.id, java: output[i], ours: expected[i] })).slice(0, 3)).toEqual([]);
    }
    // Documents with more feedback terms than fbTerms: where the cut (and its tie-breaking) matters.
    expect(cut).toBeGreaterThan(1000);
  }, 300_000);
});
