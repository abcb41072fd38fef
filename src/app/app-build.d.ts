interface ImportMetaEnv {
  /** A hash of the app's inputs (vite.config.ts, scripts/vite/app-build.ts). */
  readonly VITE_APP_BUILD: string;
}
