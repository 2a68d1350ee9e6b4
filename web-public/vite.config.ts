import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The site calls the API on its own origin (`/api/...`), so cookies stay first-party and no CORS
 * is needed; the dev server and `vite preview` forward `/api` to the API.
 */
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const proxy = { '/api': { target: apiTarget, changeOrigin: false, xfwd: true } };

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
  build: {
    target: 'es2022',
    // The polyfill is for browsers without modulepreload; every browser we support has it.
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
