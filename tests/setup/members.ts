import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

let ipCounter = 0;

/** A fresh client address per call, so per-IP rate limits of one test never hit another. */
export function nextIp(): string {
  ipCounter++;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** "sid=…" from a Set-Cookie answer, ready for a Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const sid = cookies.find((cookie) => cookie.startsWith('sid=') && !cookie.startsWith('sid=;'));
  if (!sid) throw new Error(`No session cookie in ${JSON.stringify(cookies)}`);
  return sid.split(';')[0]!;
}

let emailCounter = 0;

export function uniqueEmail(prefix = 'member'): string {
  emailCounter++;
  return `${prefix}.${process.pid}.${emailCounter}.${Date.now().toString(36)}@example.com`;
}

export const goodPassword = 'velvet-Harbor-41';

export async function signupMember(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ cookie: string; email: string; response: LightMyRequestResponse; userId: number }> {
  const email = (overrides.email as string | undefined) ?? uniqueEmail();
  const response = await app.inject({
    method: 'POST',
    url: '/api/signup.php',
    remoteAddress: nextIp(),
    headers,
    payload: { email, name: 'Robin', password: goodPassword, date_of_birth: '1990-05-17', ...overrides },
  });
  if (response.statusCode !== 201) throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  return { cookie: sessionCookie(response), email, response, userId: response.json().user.id };
}

/** Marks a member's e-mail as confirmed and the profile active, as the activation link does. */
export async function activateMember(app: FastifyInstance, userId: number): Promise<number> {
  const { eq } = await import('drizzle-orm');
  const { profiles, users } = await import('../../server/db/schema/members.ts');
  await app.deps.db
    .update(users)
    .set({ status: 'active', emailConfirmedAt: new Date() })
    .where(eq(users.id, userId));
  const [profile] = await app.deps.db
    .update(profiles)
    .set({ status: 'active', gender: 'female', seeking: 'both' })
    .where(eq(profiles.userId, userId))
    .returning({ id: profiles.id });
  return profile!.id;
}

/** A signed-up, activated member with the profile id. */
export async function activeMember(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const member = await signupMember(app, overrides);
  return { ...member, profileId: await activateMember(app, member.userId) };
}

/** Books credits for a member through the ledger, as an operator correction would. */
export async function grantCredits(
  app: FastifyInstance,
  userId: number,
  amount: number,
  paid = false,
): Promise<void> {
  const { eq } = await import('drizzle-orm');
  const { users } = await import('../../server/db/schema/members.ts');
  const { changeCredits } = await import('../../server/modules/credits/credits.service.ts');
  await app.deps.db.transaction(async (tx) => {
    await changeCredits(tx, { userId, delta: amount, reason: 'admin', at: new Date() });
    if (paid) await tx.update(users).set({ paidUser: true }).where(eq(users.id, userId));
  });
}
