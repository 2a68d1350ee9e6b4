import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The API the dev server and `vite preview` forward /api to; the same origin keeps the session
// cookie first-party and SameSite=Lax.
const apiTarget = process.env.API_PROXY_TARGET ?? `http://127.0.0.1:${process.env.PORT || 3000}`;
const proxy = { '/api': { target: apiTarget, changeOrigin: false, xfwd: true } };

export default defineConfig(({ command, isPreview }) => ({
  plugins: [react()],
  // The production build is served by the public site's server under /back-office/ (its files,
  // its index for any address below, and /api forwarded to the API); the dev server on its own
  // port serves it at the root.
  base: command === 'build' || isPreview ? '/back-office/' : '/',
  // The api package's TypeScript source (its exports' `@offers/source` condition): the rules and
  // answer types shared with the API, built with the app.
  resolve: { conditions: ['@offers/source', ...defaultClientConditions] },
  server: { port: 5174, strictPort: true, proxy },
  preview: { port: 5174, strictPort: true, proxy },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
}));
