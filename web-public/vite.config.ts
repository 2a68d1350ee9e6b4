import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Two builds: the browser's (`dist/client`, with a manifest the server reads to preload each
 * page's chunk) and the server renderer's (`dist/server/entry-server.js`, `--ssr`). The site's
 * own server (`server/`) serves both and forwards `/api` to the API.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: {
    target: isSsrBuild ? 'node20' : 'es2022',
    outDir: isSsrBuild ? 'dist/server' : 'dist/client',
    manifest: !isSsrBuild,
    // The polyfill is for browsers without modulepreload; every browser we support has it.
    modulePreload: { polyfill: false },
    sourcemap: false,
    emptyOutDir: true,
  },
}));
