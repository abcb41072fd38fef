/** Files the app serves under its base URL (`public/`), read by the workers. */
import { loadStaticTable, type StaticTable } from '../src/lib/dense/static-table.ts';

async function fetchOk(path: string): Promise<Response> {
  const url = `${import.meta.env.BASE_URL}${path}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url} (is the app built with npm run models?)`);
  return response;
}

/** A loadable analyzer's file (the WordPiece vocabulary). */
export async function loadAnalyzerFile(file: string): Promise<string> {
  return (await fetchOk(file)).text();
}

/** A file of one of the project's own models (`models/local/…`), as bytes. */
export async function loadModelFile(path: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetchOk(path)).arrayBuffer());
}

/** The static table of one of the project's own models (`local/glove-100d-sif`), where the dense worker reads it (public/models/<id>/). */
export function loadAppStaticTable(model: string): Promise<StaticTable> {
  return loadStaticTable(`models/${model}/`, loadModelFile);
}
