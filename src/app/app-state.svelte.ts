/**
 * The page-wide state every view reads: which view is shown, which collection and split are open. Views
 * own their own state (columns, query, dashboard) in their folders; the URL mirrors all of it
 * (see url-state.ts) so a link reproduces what a person sees.
 */

export type View = 'explore' | 'evaluate' | 'datasets';

export const VIEWS: ReadonlyArray<{ id: View; label: string; key: string }> = [
  { id: 'explore', label: 'Explore', key: '1' },
  { id: 'evaluate', label: 'Evaluate', key: '2' },
  { id: 'datasets', label: 'Datasets', key: '3' },
];

export class AppState {
  view = $state<View>('explore');
  /** Id of the open collection (a `collections` row), or null before one is chosen. */
  collectionId = $state<string | null>(null);
  /** The qrels split queries and metrics come from. */
  split = $state('test');
}

export const app = new AppState();
