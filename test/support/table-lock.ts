import pg from 'pg';

/**
 * Holds `LOCK TABLE <table> IN <mode> MODE` in a transaction on a connection of its own, as a
 * long-running migration or a stuck session would; answers the release, safe to call twice.
 */
export async function holdTableLock(databaseUrl: string, table: string, mode: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ${mode} MODE`);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await client.query('ROLLBACK');
    await client.end();
  };
}
