import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../../server/db/schema/members.ts';
import { memberPasskeys } from '../../server/db/schema/security.ts';
import { activeMember, goodPassword, grantCredits, nextIp } from '../setup/members.ts';
import { createTestApp, type TestApp } from '../setup/test-app.ts';
import { apiOperations, type Operation } from './openapi.ts';

/**
 * Every id-taking operation of the OpenAPI document, called by a member A with ids that are not
 * A's to use: a stranger's conversation, message, order, payment, photo and mandate, the profile of
 * a member who blocked A, the profile of a member who deleted the account. Each answers 403 or 404
 * and no answer carries the other member's data. Id fields are found in the document, so a new
 * route with an id is in the matrix, and one with an id field nobody mapped fails the first test.
 */

/** Id fields that point at something one member owns; cursors and catalog ids are not in here. */
type Kind =
  | 'profile'
  | 'conversation'
  | 'message'
  | 'order'
  | 'payment'
  | 'photo'
  | 'mandate'
  | 'passkey'
  | 'staffOnly';

/** Fields that name catalog entries or cursors, anyone's to use. */
const notOwned = new Set([
  'bundle',
  'gift',
  'before',
  'after',
  'page',
  'limit',
  'staff',
  'site',
  'min_age',
  'max_age',
  'amount',
]);

/** Field names that point at a row of somebody's (besides `id` and `*_id`). */
const references = new Set([
  'profile',
  'conversation',
  'message',
  'photo',
  'mandate',
  'payment',
  'order',
  'member',
]);

function kindOf(operation: Operation, field: string): Kind | undefined {
  // The staff area: a member is no staff member, whatever the id.
  if (operation.path.startsWith('/api/admin/')) return 'staffOnly';
  if (field === 'profile') return 'profile';
  if (field === 'conversation') return 'conversation';
  if (field === 'message') return 'message';
  if (field === 'photo') return 'photo';
  if (field === 'mandate') return 'mandate';
  if (field === 'payment') return 'payment';
  if (field === 'id') {
    if (operation.path === '/api/member.php') return 'profile';
    if (operation.path === '/api/passkeys.php') return 'passkey';
    if (operation.path === '/api/order.php' || operation.path === '/api/transactions.php') return 'order';
    if (operation.path === '/api/payment-webhook.php') return 'payment';
  }
  return undefined;
}

/** The rest of a valid body, so the call gets past validation to the authorization check. */
const extras: Record<string, Record<string, unknown>> = {
  'POST /api/chat.php': { text: 'Hello there' },
  'POST /api/swipe.php': { like: true },
  'POST /api/report.php': { reason: 'spam' },
  'PUT /api/photos.php': { main: true },
  'PUT /api/directdebit.php': { code: '123456' },
  'POST /api/test-payment.php': { status: 'paid' },
  'POST /api/admin/reply.php': { text: 'Hello there' },
  'POST /api/admin/notes.php': { text: 'A note' },
};

/**
 * Calls that may answer 2xx with a foreign id because they reveal and change nothing of the other
 * member: taking back a like or a block that A never gave, or A blocking a member who blocked A.
 */
const harmless = new Set([
  'DELETE /api/like.php profile',
  'DELETE /api/block.php profile',
  'POST /api/block.php profile',
  // A report tells the moderators, never the caller, anything; a blocked member may still report.
  'POST /api/report.php profile',
  // The provider's webhook: anyone may ping it, the payment is fetched from the provider again.
  'POST /api/payment-webhook.php id',
]);

/** Not a member's call: a new visitor names the profile they signed up from. */
const notMemberCalls = new Set(['POST /api/signup.php']);

type Target = { kind: Kind; label: string; id: number };

describe('authorization matrix of id-taking routes', () => {
  let t: TestApp;
  let operations: Operation[];
  let viewerCookie: string;
  const targets: Target[] = [];
  /** Text only the stranger, the blocker and the deleted member know: it never appears in A's answers. */
  const secrets = ['Strangerine', 'stranger-secret-8841', 'Blockerina', 'Deletedia', '0532013000'];

  beforeAll(async () => {
    t = await createTestApp();
    operations = await apiOperations(t.app);
    const post = (
      cookie: string,
      url: string,
      payload: unknown,
      method: 'POST' | 'PUT' | 'DELETE' = 'POST',
    ) =>
      t.app.inject({ method, url, headers: { cookie }, remoteAddress: nextIp(), payload: payload as object });

    const viewer = await activeMember(t.app, { name: 'Viewer' });
    viewerCookie = viewer.cookie;
    await grantCredits(t.app, viewer.userId, 500, true);

    // A stranger with a conversation, a message, an order with its payment, a photo and a mandate.
    const stranger = await activeMember(t.app, { name: 'Strangerine' });
    await grantCredits(t.app, stranger.userId, 500, true);
    const [fictional] = await t.app.deps.db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.fictional, true), eq(profiles.status, 'active')))
      .limit(1);
    fictionalId = fictional?.id ?? 0;
    targets.push({ kind: 'staffOnly', label: 'any id of the staff area', id: 1 });
    const sent = await post(stranger.cookie, '/api/chat.php', {
      profile: fictional?.id,
      text: 'stranger-secret-8841',
    });
    if (sent.statusCode !== 201) throw new Error(`chat: ${sent.body}`);
    targets.push({
      kind: 'conversation',
      label: "a stranger's conversation",
      id: sent.json().message.conversation,
    });
    targets.push({ kind: 'message', label: "a stranger's message", id: sent.json().message.id });

    const bundles = await t.app.inject({ url: '/api/bundles.php', headers: { cookie: stranger.cookie } });
    const order = await post(stranger.cookie, '/api/order.php', {
      bundle: bundles.json().bundles[0].id,
      paymentmethod: bundles.json().paymentmethods[0],
    });
    if (order.statusCode >= 300) throw new Error(`order: ${order.body}`);
    targets.push({ kind: 'order', label: "a stranger's order", id: order.json().order.id });
    const payment = new URL(order.json().checkout_url, 'http://localhost').pathname.split('/').at(-1) ?? '';
    targets.push({ kind: 'payment', label: "a stranger's payment", id: Number.NaN });
    paymentId = decodeURIComponent(payment);

    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const boundary = 'authz-boundary';
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/photos.php',
      headers: { cookie: stranger.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        jpeg,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    if (upload.statusCode >= 300) throw new Error(`photo: ${upload.body}`);
    const photos = upload.json().photos ?? [upload.json().photo];
    targets.push({ kind: 'photo', label: "a stranger's photo", id: photos.at(-1).id });

    const mandate = await post(stranger.cookie, '/api/directdebit.php', {
      account_holder: 'S. Strangerine',
      phone: '+31 6 1234 5678',
      iban: 'DE89370400440532013000',
    });
    if (mandate.statusCode !== 201) throw new Error(`mandate: ${mandate.body}`);
    targets.push({ kind: 'mandate', label: "a stranger's mandate", id: mandate.json().mandate.id });
    // A passkey of the stranger's (its registration has its own tests; here only whose it is counts).
    const [passkey] = await t.app.deps.db
      .insert(memberPasskeys)
      .values({
        userId: stranger.userId,
        credentialId: `stranger-credential-${process.pid}`,
        publicKey: 'pQECAyYgASFYIA',
        name: 'Stranger’s phone',
        createdAt: new Date(),
      })
      .returning({ id: memberPasskeys.id });
    targets.push({ kind: 'passkey', label: "a stranger's passkey", id: passkey!.id });

    // A member who blocked the viewer, and a member who deleted the account.
    const blocker = await activeMember(t.app, { name: 'Blockerina' });
    const blocked = await post(blocker.cookie, '/api/block.php', { profile: viewer.profileId });
    if (blocked.statusCode !== 200) throw new Error(`block: ${blocked.body}`);
    targets.push({
      kind: 'profile',
      label: 'the profile of a member who blocked the viewer',
      id: blocker.profileId,
    });

    const deleted = await activeMember(t.app, { name: 'Deletedia' });
    const gone = await post(deleted.cookie, '/api/user.php', { password: goodPassword }, 'DELETE');
    if (gone.statusCode >= 300) throw new Error(`delete: ${gone.body}`);
    targets.push({ kind: 'profile', label: 'the profile of a deleted member', id: deleted.profileId });
  });
  afterAll(() => t.close());

  let paymentId = '';
  let fictionalId = 0;

  /** The id fields of an operation: query parameters and top-level body properties. */
  const idFields = (operation: Operation) => [
    ...operation.query
      .filter((parameter) => ['integer', 'string'].includes(String(parameter.schema.type)))
      .map((parameter) => ({
        in: 'query' as const,
        name: parameter.name,
        type: String(parameter.schema.type),
      })),
    ...Object.entries(operation.body?.properties ?? {}).map(([name, schema]) => ({
      in: 'body' as const,
      name,
      type: String(schema.type),
    })),
  ];

  const looksLikeId = (name: string, type: string) =>
    !notOwned.has(name) &&
    ((type === 'integer' && (name === 'id' || name.endsWith('_id') || references.has(name))) ||
      name === 'payment' ||
      (name === 'id' && type === 'string'));

  it('knows what every id field of the API points at', () => {
    const unmapped = operations.flatMap((operation) =>
      idFields(operation)
        .filter((field) => looksLikeId(field.name, field.type) && !kindOf(operation, field.name))
        .map((field) => `${operation.method} ${operation.path} ${field.in}.${field.name}`),
    );
    // An id field nobody mapped is a route whose authorization this matrix does not check yet.
    expect(unmapped).toEqual([]);
  });

  it("answers 403 or 404, never the other member's data, for ids that are not the caller's", async () => {
    const leaks: string[] = [];
    let calls = 0;
    for (const operation of operations) {
      for (const field of idFields(operation)) {
        const kind = looksLikeId(field.name, field.type) ? kindOf(operation, field.name) : undefined;
        if (!kind || notMemberCalls.has(`${operation.method} ${operation.path}`)) continue;
        for (const target of targets.filter((candidate) => candidate.kind === kind)) {
          const value: string | number = kind === 'payment' ? paymentId : target.id;
          const key = `${operation.method} ${operation.path}`;
          // A photo message goes to someone: the demo profile, with the stranger's photo instead of text.
          const base =
            key === 'POST /api/chat.php' && field.name === 'photo'
              ? { profile: fictionalId }
              : (extras[key] ?? {});
          const body = field.in === 'body' ? { ...base, [field.name]: value } : extras[key];
          const url =
            field.in === 'query'
              ? `${operation.path}?${field.name}=${encodeURIComponent(String(value))}`
              : operation.path;
          const response = await t.app.inject({
            method: operation.method,
            url,
            headers: { cookie: viewerCookie },
            remoteAddress: nextIp(),
            ...(body && operation.method !== 'GET' ? { payload: body } : {}),
          });
          calls++;
          const status = response.statusCode;
          // The contract's 403 blocked names the blocker ("You're blocked by {name}"): that is the answer, not a leak.
          const answer = status === 403 && response.json().error === 'blocked' ? '' : response.body;
          const leaked = secrets.filter((secret) => answer.includes(secret));
          const allowed =
            kind === 'staffOnly'
              ? status === 401 || status === 403
              : status === 403 || status === 404 || (status < 300 && harmless.has(`${key} ${field.name}`));
          if (!allowed || leaked.length > 0) {
            leaks.push(
              `${key} ${field.in}.${field.name} = ${target.label}: ${status} ${response.body.slice(0, 160)}`,
            );
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(25);
    expect(leaks).toEqual([]);
  });
});
