/**
 * The views' own parts of the address (the Evaluate dashboard's runs and measures, Explore's judging mode):
 * a view registers its slice here, and url-sync.svelte.ts writes and reads it with the rest of the address.
 * Below the views, so a view adds its parameters without importing what composes the page.
 */

/** A view's own part of the address. */
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

/** Reactive, so a slice registered later joins the effect that writes the address. */
let slices = $state.raw<UrlSlice[]>([]);
/** True once the address has been applied (url-sync's start): a slice registered later reads it at once. */
let reading = false;

/** Adds a view's parameters to the address; the current address is applied to it at once. */
export function registerUrlSlice(slice: UrlSlice): void {
  slices = [...slices, slice];
  if (reading) slice.read(new URLSearchParams(location.search));
}

/** The slices registered so far (reactive). */
export function urlSlices(): readonly UrlSlice[] {
  return slices;
}

/** The address has been applied: slices registered from now on read it when they register. */
export function readSlicesFromNow(): void {
  reading = true;
}
