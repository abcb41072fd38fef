// Vite's `?url` imports (vite/client declares them for the page; the worker tsconfig has no vite types).
declare module '*?url' {
  const url: string;
  export default url;
}
