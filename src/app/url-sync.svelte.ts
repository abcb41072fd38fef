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
 * Views add their own parameters with `registerUrlSlice` (url-slices.svelte.ts); parameters nobody owns
 * are kept as they are (e.g. `?hub=`, `?remoteHost=`). This module composes the page's state into the
 * address (the open collection, the columns, Explore's query), so it sits above the views, with App.svelte.
 */
import { app } from './app-state.svelte.ts';
import { collections } from './collection/collections.svelte.ts';
import { columnList } from './columns/columns.svelte.ts';
import { explore } from './explore/explore-state.svelte.ts';
import { notices } from './shell/notices.svelte.ts';
import { decodeUrlState, encodeComponent, encodeUrlState, isNavigation, type UrlState } from './url-state.ts';
import { readSlicesFromNow, urlSlices } from './url-slices.svelte.ts';

export const WRITE_DELAY_MS = 250;

/**
 * The page's own part of the address it last wrote (no parameters it does not own, like `?hub=`). Opened at
 * its bare address (a bookmark of the root, a typed URL), the page starts from it: the collection, columns
 * and query are then known at once, as with the saved address, and the saved rankings draw as fast.
 */
const LAST_ADDRESS_KEY = 'rp-last-address';

function rememberAddress(search: string): void {
  try {
    localStorage.setItem(LAST_ADDRESS_KEY, search);
  } catch {
    // Storage disabled: the bare address opens the defaults.
  }
}

function rememberedAddress(): string | null {
  try {
    const search = localStorage.getItem(LAST_ADDRESS_KEY);
    return search !== null && search.startsWith('?') ? search : null;
  } catch {
    return null;
  }
}

interface PageState {
  state: UrlState;
  slices: string[];
  navigation: string;
}

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
      columns: columnList.columns.map((column) => column.retriever),
      query: explore.urlQuery,
      termEdits: columnList.urlTermEdits,
      tuned: columnList.urlTuned,
    },
    slices: urlSlices().flatMap((slice) => slice.write().map(([key, value]) => `${key}=${encodeComponent(value)}`)),
    navigation: urlSlices().map((slice) => slice.navigation?.() ?? '').join('\u0001'),
  };
}

function ownedBySlice(param: string): boolean {
  const key = param.split('=', 1)[0]!;
  return urlSlices().some((slice) => slice.keys.includes(key));
}

function write(page: PageState): void {
  const others = decodeUrlState(location.search).others.filter((param) => !ownedBySlice(param));
  const search = encodeUrlState(page.state, [...page.slices, ...others]);
  rememberAddress(encodeUrlState(page.state, page.slices));
  if (search !== location.search) {
    const url = `${location.pathname}${search}${location.hash}`;
    const step = written !== undefined && (isNavigation(written.state, page.state) || written.navigation !== page.navigation);
    if (step) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }
  written = page;
}

/**
 * Applies an address to the page (on start, and on Back/Forward). `remembered`: the page's last address,
 * not a link, so a collection deleted since falls back to another without a notice.
 */
function apply(search: string, initial: boolean, remembered = false): void {
  const { state, problems } = decodeUrlState(search);
  app.view = state.view;
  if (state.collection !== null) {
    if (initial) {
      // collections.init() opens it once the stored collections are listed (or another one if it is missing).
      app.collectionId = state.collection;
      if (!remembered) askedCollection = state.collection;
    } else if (collections.list.some((c) => c.id === state.collection)) {
      collections.open(state.collection);
    }
  }
  if (state.split !== null && (initial || collections.current?.splits.includes(state.split))) app.split = state.split;
  if (state.columns !== null) {
    columnList.setRetrievers(state.columns);
    columnList.applyUrlTuned(state.tuned ?? []);
  }
  explore.applyUrlQuery(state.query);
  // After the query: a changed query drops the edits of the previous one.
  columnList.applyUrlTermEdits(state.termEdits ?? []);
  const params = new URLSearchParams(search);
  for (const slice of urlSlices()) slice.read(params);
  if (problems.length > 0) notices.info(`Parts of this link could not be read and were left out: ${problems.join('; ')}.`);
  // The next write completes this entry (defaults the address left out, a query picked for it): replace.
  written = undefined;
}

/** Starts the two-way sync (once, before collections.init()). */
export function startUrlSync(): void {
  if (started) return;
  started = true;
  const remembered = location.search === '' ? rememberedAddress() : null;
  if (remembered !== null) history.replaceState(null, '', `${location.pathname}${remembered}${location.hash}`);
  apply(location.search, true, remembered !== null);
  readSlicesFromNow();
  window.addEventListener('popstate', () => {
    clearTimeout(timer);
    timer = undefined;
    apply(location.search, false);
  });
  $effect.root(() => {
    $effect(() => {
      latest = currentState();
      if (!collections.ready) return;
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
      if (!collections.ready || askedCollection === null) return;
      const asked = askedCollection;
      askedCollection = null;
      if (app.collectionId !== asked) {
        const shown = collections.current?.name;
        notices.info(
          `The collection "${asked}" of this link is not stored in this browser${shown ? `; showing "${shown}" instead` : ''}. Download or import it under Datasets.`,
        );
      }
    });
  });
}
