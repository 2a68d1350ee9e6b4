import { loadEnvironmentOrExit } from '@offers/api/site';
import { createWebServer } from './web-server.js';

/**
 * The public site's server: `npm run serve:web` (the production build, port WEB_PORT, 4173 by
 * default) or, with `--dev`, Vite's development build on 5173 as `npm start` runs it.
 */
// Names its LISTEN connection in pg_stat_activity (`web-public-changes`).
process.env.SERVICE_NAME ??= 'web-public';
const development = process.argv.includes('--dev');
const environment = loadEnvironmentOrExit();
const port = development ? 5173 : environment.WEB_PORT;
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
let operationsUrl = '';
const app = await createWebServer({
  environment,
  development,
  publicUrl,
  logger: true,
  operations: {
    port: environment.WEB_OPERATIONS_PORT,
    host: environment.OPERATIONS_HOST,
    listening: (url) => {
      operationsUrl = url;
    },
  },
});
await app.listen({ port, host: environment.WEB_HOST });
app.log.info(
  `Public site on http://localhost:${port}/ (${development ? 'development' : 'production build'})`,
);
app.log.info(`Health and metrics for monitors at ${operationsUrl} (/health/live, /health/ready, /metrics)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
