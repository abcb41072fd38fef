/**
 * The vectors the default model ships for the starter collection (src/lib/dense/shipped-vectors.ts), written
 * into the model's folder by `npm run models`. The starter is imported the way the app imports it (the
 * importer on an in-memory IndexedDB), so document order and content fingerprint are those the browser
 * stores, then embedded by the same embedder as the dense worker's: passage texts in corpus order, and the
 * distinct query texts. The browser uses the file only when its fingerprint is that of the collection it
 * imported; tests/lib/dense/shipped-vectors.test.ts checks that and that the vectors are bit-identical.
 *
 * Loads fake-indexeddb into this process: import it only where that is fine (the build script's main).
 */
import 'fake-indexeddb/auto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadNodeEmbedder } from '../../src/cli/dense.ts';
import { passageText, queryText } from '../../src/lib/dense/embedding-text.ts';
import { resolveModelSpec } from '../../src/lib/dense/registry.ts';
import { decodeShippedVectors, encodeShippedVectors, SHIPPED_VECTORS_FORMAT, type ShippedVectors } from '../../src/lib/dense/shipped-vectors.ts';
import { runImport } from '../../src/lib/import/importer.ts';
import { starterImportPlan, type StarterTexts } from '../../src/lib/import/starter-plan.ts';
import { STARTER_COLLECTION, STARTER_ID } from '../../src/lib/starter/index.ts';
import { loadDocuments, loadQueries } from '../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../src/lib/storage/db.ts';
import { repoRoot } from '../../tests/shared-dir.ts';

/** The starter's files, as the app bundles them. */
export function starterTexts(): StarterTexts {
  const dir = join(repoRoot, 'src', 'lib', 'starter');
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return { corpus: read(STARTER_COLLECTION.files.corpus), queries: read(STARTER_COLLECTION.files.queries), qrels: read(STARTER_COLLECTION.files.qrels) };
}

/** The starter as the browser stores it: documents in corpus order, distinct query texts, the fingerprint. */
export async function importedStarter(): Promise<{ fingerprint: string; docs: Awaited<ReturnType<typeof loadDocuments>>; queryTexts: string[] }> {
  const db = new PlaygroundDatabase(`rp-starter-vectors-${process.pid}-${Date.now()}`);
  try {
    const outcome = await runImport(db, starterImportPlan(starterTexts()), { locks: null });
    if (outcome.status !== 'done') throw new Error(`the starter collection did not import (${outcome.status})`);
    const row = await db.collections.get(STARTER_ID);
    if (row?.fingerprint === undefined) throw new Error('the imported starter has no fingerprint');
    const docs = await loadDocuments(db, STARTER_ID);
    const queries = await loadQueries(db, STARTER_ID);
    return { fingerprint: row.fingerprint, docs, queryTexts: [...new Set([...queries.values()].map((query) => query.text))] };
  } finally {
    db.close();
    await db.delete();
  }
}

/** Embeds the starter with the model in `modelsDir` (the folder holding local/<name>/). */
async function starterVectors(modelsDir: string, modelId = 'local/glove-100d-sif', imported?: Awaited<ReturnType<typeof importedStarter>>): Promise<ShippedVectors> {
  const spec = resolveModelSpec(modelId);
  const starter = imported ?? (await importedStarter());
  const embedder = await loadNodeEmbedder({ spec, localModelPath: modelsDir });
  try {
    const corpus = await embedder.embed(starter.docs.map((doc) => passageText(doc, spec)));
    const queries = await embedder.embed(starter.queryTexts.map((text) => queryText({ id: '', text }, spec)));
    return {
      header: {
        format: SHIPPED_VECTORS_FORMAT,
        collectionId: STARTER_ID,
        modelId,
        fingerprint: starter.fingerprint,
        dim: corpus.dim,
        docIds: starter.docs.map((doc) => doc.id),
        queryTexts: starter.queryTexts,
      },
      corpus,
      queries,
    };
  } finally {
    await embedder.dispose();
  }
}

/**
 * Writes `<modelsDir>/<model>/<file>` for every model that ships starter vectors, unless the file there was
 * made from the same starter and the model folder was not rebuilt since (a rebuild removes the file).
 * Returns the files written.
 */
export async function writeStarterVectors(modelsDir: string): Promise<string[]> {
  const written: string[] = [];
  const starter = await importedStarter();
  for (const modelId of ['local/glove-100d-sif']) {
    const file = resolveModelSpec(modelId).shippedVectors?.[STARTER_ID];
    if (file === undefined) continue;
    const path = join(modelsDir, modelId, file);
    if (!existsSync(join(modelsDir, modelId, 'config.json'))) continue;
    if (existsSync(path)) {
      try {
        if (decodeShippedVectors(readFileSync(path), path).header.fingerprint === starter.fingerprint) continue;
      } catch {
        // Damaged: written again below.
      }
    }
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, encodeShippedVectors(await starterVectors(modelsDir, modelId, starter)));
    renameSync(tmp, path);
    written.push(path);
  }
  return written;
}
