import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API the dev server and `vite preview` forward /api to; the same origin keeps the session
// cookie first-party and SameSite=Lax.
const apiTarget = process.env.API_PROXY_TARGET ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
const proxy = { '/api': { target: apiTarget, changeOrigin: false, xfwd: true } };

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Limits and messages shared with the API (dependency-free TypeScript).
    alias: { '@offers/rules': fileURLToPath(new URL('../api/src/rules/index.ts', import.meta.url)) },
  },
  server: { port: 5174, strictPort: true, proxy },
  preview: { port: 5174, strictPort: true, proxy },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
});
