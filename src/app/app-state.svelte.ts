/**
 * The page-wide state every view reads: which view is shown, which collection and split are open. Views
 * own their own state (query, dashboard) in their folders; the URL mirrors all of it (see url-state.ts)
 * so a link reproduces what a person sees. A view that wants another to show something says so here
 * (`showQuery`), rather than importing the other view's store.
 */

export type View = 'explore' | 'evaluate' | 'datasets' | 'learn';

export const VIEWS: ReadonlyArray<{ id: View; label: string; key: string }> = [
  { id: 'explore', label: 'Explore', key: '1' },
  { id: 'evaluate', label: 'Evaluate', key: '2' },
  { id: 'datasets', label: 'Datasets', key: '3' },
  { id: 'learn', label: 'Learn', key: '4' },
];

export class AppState {
  view = $state<View>('explore');
  /** Id of the open collection (a `collections` row), or null before one is chosen. */
  collectionId = $state<string | null>(null);
  /** The qrels split queries and metrics come from. */
  split = $state('test');
  #showQuery = new Set<(queryId: string) => void>();

  /** Shows a stored query in Explore (from another view): Explore's state selects it, then the view switches. */
  showQuery(queryId: string): void {
    for (const listener of this.#showQuery) listener(queryId);
    this.view = 'explore';
  }

  /** Calls `listener` for each `showQuery` (Explore's query follows); returns what unsubscribes it. */
  onShowQuery(listener: (queryId: string) => void): () => void {
    this.#showQuery.add(listener);
    return () => this.#showQuery.delete(listener);
  }
}

export const app = new AppState();
