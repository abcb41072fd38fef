/**
 * One Tune of the dashboard at a time: its progress, the points measured so far, the result, Cancel. The
 * tuning split's queries and judgments are read from storage; the ranking runs through the page's engine
 * (src/app/engine), so its searches run in the workers.
 */
import type { TunedPoint } from '../../../lib/tuning/best.ts';
import type { GridAxis } from '../../../lib/tuning/grid.ts';
import { parseTuneMetric } from '../../../lib/tuning/metric.ts';
import { withParams } from '../../../lib/tuning/params.ts';
import { settingsKey } from '../../../lib/settings-key.ts';
import type { TuneResult } from '../../../lib/tuning/tune.ts';
import { judgedQueries } from '../../../lib/data/beir.ts';
import type { ColumnConfig } from '../../../lib/retrievers/config.ts';
import { loadQrels, loadQueries } from '../../../lib/storage/collections.ts';
import { database } from '../../../lib/storage/db.ts';
import { engine } from '../../engine/engine.ts';
import { columnList } from '../../columns/columns.svelte.ts';

export interface TuneAsk {
  collectionId: string;
  column: ColumnConfig;
  axes: GridAxis[];
  /** The measure's printed name (`ndcg_cut_10`) and label (`nDCG@10`). */
  metric: { name: string; label: string };
  split: { tuning: string; evaluated: string };
}

type Status = 'idle' | 'preparing' | 'running' | 'done' | 'cancelled' | 'failed';

class TuneRun {
  status = $state<Status>('idle');
  done = $state(0);
  total = $state(0);
  /** Points measured so far, in the order measured. */
  points = $state.raw<TunedPoint[]>([]);
  result = $state.raw<TuneResult | undefined>(undefined);
  ask = $state.raw<TuneAsk | undefined>(undefined);
  error = $state<string | undefined>(undefined);
  #controller: AbortController | undefined;

  get running(): boolean {
    return this.status === 'preparing' || this.status === 'running';
  }

  async start(ask: TuneAsk): Promise<void> {
    this.cancel();
    const controller = new AbortController();
    this.#controller = controller;
    Object.assign(this, { ask, status: 'preparing', done: 0, total: 0, points: [], result: undefined, error: undefined });
    try {
      const db = database();
      const [queries, qrels] = await Promise.all([loadQueries(db, ask.collectionId), loadQrels(db, ask.collectionId, ask.split.tuning)]);
      if (qrels === undefined) throw new Error(`The split "${ask.split.tuning}" has no judgments.`);
      controller.signal.throwIfAborted();
      const result = await engine().tune(
        ask.collectionId,
        {
          base: ask.column.retriever,
          queries: judgedQueries(queries, qrels),
          qrels,
          metric: parseTuneMetric(ask.metric.name),
          axes: ask.axes,
          split: ask.split,
          signal: controller.signal,
          strategy: {
            onProgress: (done, total, point) => {
              if (this.#controller !== controller) return;
              Object.assign(this, { status: 'running', done, total, points: [...this.points, point] });
            },
          },
        },
        { signal: controller.signal },
      );
      if (this.#controller === controller) Object.assign(this, { status: 'done', result });
    } catch (error) {
      if (this.#controller !== controller) return;
      if (controller.signal.aborted) this.status = 'cancelled';
      else Object.assign(this, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }

  cancel(): void {
    this.#controller?.abort();
  }

  /** Adds a column with the best point's settings, its header naming the split and measure that tuned it. */
  addTunedColumn(): void {
    const best = this.result?.best;
    const ask = this.ask;
    if (best === undefined || ask === undefined) return;
    const retriever = withParams(ask.column.retriever, best.params);
    const added = columnList.addColumn(retriever);
    const tuned = { split: ask.split.tuning, metric: ask.metric.label, settings: settingsKey(retriever) };
    columnList.columns = columnList.columns.map((column) => (column.id === added.id ? { ...column, tuned } : column));
  }
}

export const tuneRun = new TuneRun();
