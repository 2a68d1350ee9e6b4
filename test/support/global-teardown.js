import { fileURLToPath, pathToFileURL } from 'node:url';

const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** Drops the run's template database (see global-setup.js). */
export default async function globalTeardown() {
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (!template) return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { dropDatabase } = await import(
    pathToFileURL(`${root}api/dist/src/infrastructure/database/database-setup.js`).href
  );
  await dropDatabase(`${SERVER_URL}/${template}`);
}
