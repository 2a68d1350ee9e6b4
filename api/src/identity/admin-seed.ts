import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Seed } from '../demo/seeds.js';
import type { Environment } from '../infrastructure/config/environment.js';
import { hashPassword } from './passwords.js';

/** The password the development seed gives the first admin when ADMIN_PASSWORD is not set. */
export const DEVELOPMENT_ADMIN_PASSWORD = 'Admin@2026';

/**
 * Admins cannot register themselves: the first one comes from ADMIN_USERNAME, ADMIN_EMAIL and
 * ADMIN_PASSWORD. In production without ADMIN_PASSWORD a random one is made and printed once;
 * a password given in ADMIN_PASSWORD is never printed.
 */
export const firstAdminSeed: Seed = {
  name: 'first admin',
  async run(dataSource: DataSource, environment: Environment) {
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM admins');
    if (count > 0) return undefined;
    const given = environment.ADMIN_PASSWORD;
    const generated = given === undefined && environment.NODE_ENV === 'production';
    const password =
      given ?? (generated ? randomBytes(12).toString('base64url') : DEVELOPMENT_ADMIN_PASSWORD);
    await dataSource.query(
      'INSERT INTO admins (username, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [environment.ADMIN_USERNAME, environment.ADMIN_EMAIL, await hashPassword(password)],
    );
    const who = `sign in to the back-office as "${environment.ADMIN_USERNAME}" (${environment.ADMIN_EMAIL})`;
    // A password someone chose is theirs to know: only a generated one (shown once, as nobody else
    // knows it) or the documented development default is printed.
    if (given !== undefined) return `${who} with the password set in ADMIN_PASSWORD`;
    return generated
      ? `${who} with password "${password}" (generated: keep it now, it is not shown again)`
      : `${who} with the development password "${password}"`;
  },
};
