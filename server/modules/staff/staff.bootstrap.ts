import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '#server/config.ts';
import type { StaffService } from './staff.service.ts';

export const demoAdminEmail = 'admin@demo.localhost';
export const demoAdminPasswordFile = 'admin-password.txt';

export type StaffStart = {
  /** The env admin was created at this start. */
  adminCreated: boolean;
  /** A demo admin created at this start, with its generated password (shown once in the start log). */
  demoAdmin: { email: string; password: string; file: string } | null;
};

/**
 * At start: the first admin from ADMIN_EMAIL/ADMIN_PASSWORD (created once, never changed); without
 * them, on a demo, an admin with a generated password written once to DATA_DIR/admin-password.txt.
 */
export async function ensureStaffAtStart(config: Config, staff: StaffService): Promise<StaffStart> {
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    return {
      adminCreated: await staff.ensureAdmin(config.ADMIN_EMAIL, config.ADMIN_PASSWORD),
      demoAdmin: null,
    };
  }
  if (!config.SEED_DEMO || config.ADMIN_EMAIL || (await staff.hasAccount(demoAdminEmail))) {
    return { adminCreated: false, demoAdmin: null };
  }
  const password = randomBytes(15).toString('base64url');
  if (!(await staff.ensureAdmin(demoAdminEmail, password, 'Demo admin')))
    return { adminCreated: false, demoAdmin: null };
  const file = path.join(config.DATA_DIR, demoAdminPasswordFile);
  // With PostgreSQL nothing else may have made the data folder yet.
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${demoAdminEmail}\n${password}\n`, { mode: 0o600 });
  return { adminCreated: true, demoAdmin: { email: demoAdminEmail, password, file } };
}
