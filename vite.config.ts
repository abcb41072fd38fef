import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  plugins: [svelte()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    rollupOptions: {
      // The playground and a device diagnostics page (WebGPU/WASM probe, embedding self-test).
      input: { main: 'index.html' },
    },
  },
});
