import { DEFAULT_HUB_URL } from '../../lib/catalog/catalog.ts';

/**
 * Where catalog downloads come from: the Hugging Face hub unless overridden, for a mirror or a test server.
 * A `?hub=<url>` URL parameter sets it (and is remembered in localStorage); the Datasets view's settings
 * show and edit it.
 */

const STORAGE_KEY = 'retrieval-playground.hubUrl';

/** A usable http(s) base URL, without a trailing slash, or undefined. */
export function normalizeHubUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.href.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

function stored(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function remember(url: string | undefined): void {
  try {
    if (url === undefined) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, url);
  } catch {
    // Storage disabled: the setting lasts for this page only.
  }
}

function initial(): string {
  const param = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('hub');
  const fromParam = param === null ? undefined : normalizeHubUrl(param);
  if (fromParam !== undefined) remember(fromParam === DEFAULT_HUB_URL ? undefined : fromParam);
  return fromParam ?? normalizeHubUrl(stored() ?? '') ?? DEFAULT_HUB_URL;
}

class HubSetting {
  url = $state(initial());

  get isDefault(): boolean {
    return this.url === DEFAULT_HUB_URL;
  }

  /** Sets the hub URL; returns false (and changes nothing) when `value` is not an http(s) URL. */
  set(value: string): boolean {
    const url = normalizeHubUrl(value);
    if (url === undefined) return false;
    this.url = url;
    remember(url === DEFAULT_HUB_URL ? undefined : url);
    return true;
  }

  reset(): void {
    this.url = DEFAULT_HUB_URL;
    remember(undefined);
  }
}

export const hubSetting = new HubSetting();
