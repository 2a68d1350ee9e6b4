import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Environment } from '../config/environment.js';
import type { Seed } from '../database/seeds/index.js';
import { hashPassword } from './passwords.js';

/** The password the development seed gives the first admin when ADMIN_PASSWORD is not set. */
export const DEVELOPMENT_ADMIN_PASSWORD = 'Admin@2026';

/**
 * Admins cannot register themselves: the first one comes from ADMIN_USERNAME, ADMIN_EMAIL and
 * ADMIN_PASSWORD. In production without ADMIN_PASSWORD a random one is made and printed once.
 */
export const firstAdminSeed: Seed = {
  name: 'first admin',
  async run(dataSource: DataSource, environment: Environment) {
    const [{ count }] = await dataSource.query('SELECT count(*)::int AS count FROM admins');
    if (count > 0) return undefined;
    const password =
      environment.ADMIN_PASSWORD ??
      (environment.NODE_ENV === 'production'
        ? randomBytes(12).toString('base64url')
        : DEVELOPMENT_ADMIN_PASSWORD);
    await dataSource.query(
      'INSERT INTO admins (username, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [environment.ADMIN_USERNAME, environment.ADMIN_EMAIL, await hashPassword(password)],
    );
    return `sign in to the back-office as "${environment.ADMIN_USERNAME}" (${environment.ADMIN_EMAIL}) with password "${password}"`;
  },
};
