/**
 * The one key of a settings object: canonical JSON with object keys sorted at every level (undefined fields
 * left out), so equal settings give equal keys whatever their order. It names retriever columns (URL state,
 * stored evaluation runs) and what stored indexes and embedding sets were built with; for plain JSON it is
 * `JSON.stringify` of the key-sorted value, so keys stored before it was shared stay valid.
 */
export function settingsKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(settingsKey).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${settingsKey(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
