// Vite replaces import.meta.env.BASE_URL in worker bundles as in the page; the worker tsconfig has no vite types.
interface ImportMetaEnv {
  readonly BASE_URL: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
