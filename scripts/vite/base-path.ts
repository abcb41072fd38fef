/**
 * The public path the build is served under: `/` at a host's root, `/retrieval-playground/` for a GitHub
 * Pages project site. `vite build --base <path>` sets it too (the CLI wins); `BASE_PATH` exists for CI, where
 * the repository name is only known as a variable. Every URL the app builds goes through
 * `import.meta.env.BASE_URL` or `new URL(…, import.meta.url)`, so nothing else needs to know it.
 */
export const BASE_PATH_ENV = 'BASE_PATH';

/** `retrieval-playground`, `/retrieval-playground` and `/retrieval-playground/` all give `/retrieval-playground/`. */
export function basePath(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || trimmed === '/') return '/';
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) {
    throw new Error(`${BASE_PATH_ENV}: "${trimmed}" must be a path such as /retrieval-playground/, not a URL`);
  }
  const path = trimmed.replace(/^\/+/, '').replace(/\/+$/, '');
  return `/${path}/`;
}
