/** A loadable analyzer's file (the WordPiece vocabulary), from the app's public folder: the BM25 and query-augmentation workers read it so. */
export async function loadAnalyzerFile(file: string): Promise<string> {
  const url = `${import.meta.env.BASE_URL}${file}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url} (is the app built with npm run models?)`);
  return response.text();
}
