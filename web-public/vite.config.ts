import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

/**
 * Two builds: the browser's (`dist/client`, with a manifest the server reads to list each page's
 * modules) and the server renderer's (`dist/server/entry-server.js`, `--ssr`). The site's
 * own server (`server/`) serves both and forwards `/api` to the API.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  // The api package's TypeScript source (its exports' `@offers/source` condition): the rules and
  // answer types shared with the API, built with the site, in the browser's build and the server's.
  resolve: { conditions: ['@offers/source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@offers/source', ...defaultServerConditions] } },
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
