/**
 * Searches of a dense worker take turns, one at a time, each started from a task of its own: the calls
 * that arrived while the previous search scanned (a LEDR column's scoring of its candidates, a few
 * milliseconds) are answered before the next search starts, instead of after every search sent before them.
 *
 *   const turns = new ScanTurns();
 *   searchPacked: (...) => turns.take(() => corpus().searchPacked(...)),
 */
export class ScanTurns {
  #last: Promise<unknown> = Promise.resolve();

  /** Runs `work` once the searches taken before it have settled and the worker has handled its waiting messages. */
  take<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#last.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0))).then(work);
    this.#last = turn.catch(() => undefined);
    return turn;
  }
}
