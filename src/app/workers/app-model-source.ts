/**
 * Where the page's workers load models from: the app's own models from <base>/models/, hub ids from the hub
 * or, with `?remoteHost=` in the page's address, from a mirror with the hub's layout. Workers cannot read
 * the page's address (theirs is their script's), so each request that may load a model carries this.
 */
import type { ModelSourceConfig } from '../../lib/dense/model-source.ts';

export function appModelSource(): ModelSourceConfig {
  const localModelPath = `${import.meta.env.BASE_URL}models/`;
  const remoteHost = new URLSearchParams(location.search).get('remoteHost') ?? undefined;
  return remoteHost === undefined ? { localModelPath } : { localModelPath, remoteHost };
}
