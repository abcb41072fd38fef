/**
 * Keeps the address bar and the page in step (the format is url-state.ts):
 * - on start, the address sets the view, collection, split, Explore columns and query;
 * - every change of these is written back: a new history entry when the person went somewhere (another
 *   view, collection, split, query, or a column added, removed or moved), a replaced entry when they
 *   adjusted something in place (typed text, k1, efSearch…), so Back goes to the previous screen rather than
 *   the previous keystroke; the first change is written at once, and changes within WRITE_DELAY_MS of it
 *   replace that entry;
 * - Back and Forward apply the entry's address.
 *
 * Other views add their own parameters with `registerUrlSlice` (see UrlSlice); parameters nobody owns are
 * kept as they are (e.g. `?hub=`, `?remoteHost=`).
 */
import { app } from './app-state.svelte.ts';
import { datasets } from './datasets/datasets.svelte.ts';
import { explore } from './explore/explore-state.svelte.ts';
import { notices } from './shell/notices.svelte.ts';
import { decodeUrlState, encodeComponent, encodeUrlState, isNavigation, type UrlState } from './url-state.ts';

export const WRITE_DELAY_MS = 250;

/** A view's own part of the address (e.g. the Evaluate dashboard's runs and measures). */
export interface UrlSlice {
  /** The parameter names it owns. */
  keys: readonly string[];
  /** Its parameters now, in order; read reactively (runs inside an effect), values unencoded. */
  write(): Array<[key: string, value: string]>;
  /** Applies the parameters of an address (on start or registration, and on Back/Forward). */
  read(params: URLSearchParams): void;
  /** A change of this string is a step Back should undo (push); other changes replace. Default: none is. */
  navigation?(): string;
}

interface PageState {
  state: UrlState;
  slices: string[];
  navigation: string;
}

/** Reactive, so a slice registered later joins the effect that writes the address. */
let slices = $state.raw<UrlSlice[]>([]);
let started = false;
/** What the current history entry holds; undefined until the page has written it (then: replace). */
let written: PageState | undefined;
/** The collection the address asked for on start, checked once the stored collections are known. */
let askedCollection: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** The page at its last change, written when the timer fires. */
let latest: PageState | undefined;

function currentState(): PageState {
  return {
    state: {
      view: app.view,
      collection: app.collectionId,
      split: app.split,
      columns: explore.columns.map((column) => column.retriever),
      query: explore.urlQuery,
      termEdits: explore.urlTermEdits,
    },
    slices: slices.flatMap((slice) => slice.write().map(([key, value]) => `${key}=${encodeComponent(value)}`)),
    navigation: slices.map((slice) => slice.navigation?.() ?? '').join('\u0001'),
  };
}

function ownedBySlice(param: string): boolean {
  const key = param.split('=', 1)[0]!;
  return slices.some((slice) => slice.keys.includes(key));
}

function write(page: PageState): void {
  const others = decodeUrlState(location.search).others.filter((param) => !ownedBySlice(param));
  const search = encodeUrlState(page.state, [...page.slices, ...others]);
  if (search !== location.search) {
    const url = `${location.pathname}${search}${location.hash}`;
    const step = written !== undefined && (isNavigation(written.state, page.state) || written.navigation !== page.navigation);
    if (step) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }
  written = page;
}

/** Applies an address to the page (on start, and on Back/Forward). */
function apply(search: string, initial: boolean): void {
  const { state, problems } = decodeUrlState(search);
  app.view = state.view;
  if (state.collection !== null) {
    if (initial) {
      // datasets.init() opens it once the stored collections are listed (or another one if it is missing).
      app.collectionId = state.collection;
      askedCollection = state.collection;
    } else if (datasets.collections.some((c) => c.id === state.collection)) {
      datasets.open(state.collection);
    }
  }
  if (state.split !== null && (initial || datasets.current?.splits.includes(state.split))) app.split = state.split;
  if (state.columns !== null) explore.setRetrievers(state.columns);
  explore.applyUrlQuery(state.query);
  // After the query: a changed query drops the edits of the previous one.
  explore.applyUrlTermEdits(state.termEdits ?? []);
  const params = new URLSearchParams(search);
  for (const slice of slices) slice.read(params);
  if (problems.length > 0) notices.info(`Parts of this link could not be read and were left out: ${problems.join('; ')}.`);
  // The next write completes this entry (defaults the address left out, a query picked for it): replace.
  written = undefined;
}

/** Adds a view's parameters to the address; the current address is applied to it at once. */
export function registerUrlSlice(slice: UrlSlice): void {
  slices = [...slices, slice];
  if (started) slice.read(new URLSearchParams(location.search));
}

/** Starts the two-way sync (once, before datasets.init()). */
export function startUrlSync(): void {
  if (started) return;
  started = true;
  apply(location.search, true);
  window.addEventListener('popstate', () => {
    clearTimeout(timer);
    timer = undefined;
    apply(location.search, false);
  });
  $effect.root(() => {
    $effect(() => {
      latest = currentState();
      if (!datasets.ready) return;
      // A navigation (another view, query or collection) is its own history entry: written at once, so Back
      // and a reload right after it find it.
      if (written !== undefined && isNavigation(written.state, latest.state)) {
        clearTimeout(timer);
        timer = undefined;
        write(latest);
        return;
      }
      if (timer !== undefined) return;
      // The first change is written at once (a reload right after it keeps it); changes within
      // WRITE_DELAY_MS after it replace that entry once, with the page as it is then: a stream of changes
      // (a slider dragged) makes one entry and costs at most one write per WRITE_DELAY_MS.
      write(latest);
      const first = latest;
      timer = setTimeout(() => {
        timer = undefined;
        if (latest !== undefined && latest !== first) write(latest);
      }, WRITE_DELAY_MS);
    });
    $effect(() => {
      if (!datasets.ready || askedCollection === null) return;
      const asked = askedCollection;
      askedCollection = null;
      if (app.collectionId !== asked) {
        const shown = datasets.current?.name;
        notices.info(
          `The collection "${asked}" of this link is not stored in this browser${shown ? `; showing "${shown}" instead` : ''}. Download or import it under Datasets.`,
        );
      }
    });
  });
}
