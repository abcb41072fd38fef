/**
 * Analyzers by name for a worker: a built-in one after its data is prepared (the Polish table), a loadable
 * one (WordPiece) from its data file, read once per loader. The BM25 and query-augmentation workers use it.
 */
import type { Analyzer } from './analyzer.ts';
import { createAnalyzer, isLoadableAnalyzerName, loadableAnalyzers, prepareAnalyzer, type Bm25AnalyzerName } from './analyzers.ts';

export class AnalyzerLoader {
  /** Data files of loadable analyzers, read once. */
  private readonly files = new Map<string, Promise<string>>();

  /**
   * `loadFile` reads a loadable analyzer's file (a path under the app's base URL); without it only built-in
   * analyzers load. `owner` names the loader's user in that refusal.
   */
  constructor(
    private readonly loadFile?: (file: string) => Promise<string>,
    private readonly owner = 'this worker',
  ) {}

  /** A fresh analyzer by name. */
  async analyzer(name: Bm25AnalyzerName): Promise<Analyzer> {
    if (!isLoadableAnalyzerName(name)) {
      await prepareAnalyzer(name);
      return createAnalyzer(name);
    }
    const info = loadableAnalyzers[name];
    const load = this.loadFile;
    if (load === undefined) throw new Error(`the ${name} analyzer needs its file ${info.file}, and ${this.owner} cannot read files`);
    let text = this.files.get(info.file);
    if (text === undefined) {
      text = load(info.file);
      this.files.set(info.file, text);
      text.catch(() => this.files.delete(info.file));
    }
    try {
      return info.create(await text);
    } catch (error) {
      throw new Error(`the ${name} analyzer could not read ${info.file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
