import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { retryDelayMs } from './mail.service.ts';
import type { MailTransport } from './mail-transport.ts';

describe('mail that cannot be delivered', () => {
  let t: TestApp;
  const clock = createFakeClock();
  const lines: string[] = [];
  let sends = 0;
  const transport: MailTransport = {
    async send() {
      sends++;
      throw new Error('550 mailbox unavailable');
    },
    close() {},
  };
  beforeAll(async () => {
    t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      { clock, mailTransport: transport, logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(() => t.close());

  it('is retried with backoff, every failure logged with context and counted, and marked failed at the end', async () => {
    const id = await t.app.deps.mail.enqueue(t.app.deps.db, {
      to: 'nobody@example.com',
      subject: 'Hello',
      html: '<p>Hello</p>',
      text: 'Hello',
      kind: 'test_failure',
    });
    let attempts = 0;
    for (; attempts < 20; attempts++) {
      await t.app.deps.mail.processDue();
      const [row] = await t.app.deps.db.select().from(mailJobs).where(eq(mailJobs.id, id));
      if (row!.status === 'failed') break;
      // Not sent again before its backoff is over.
      const before = sends;
      await t.app.deps.mail.processDue();
      expect(sends).toBe(before);
      clock.advanceMinutes(retryDelayMs(row!.attempts) / 60_000 + 1);
    }
    const [row] = await t.app.deps.db.select().from(mailJobs).where(eq(mailJobs.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: 12, lastError: '550 mailbox unavailable' });

    const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.mailId === id);
    expect(logged).toHaveLength(12);
    expect(logged[0]).toMatchObject({
      msg: 'mail delivery failed, will retry',
      kind: 'test_failure',
      attempts: 1,
    });
    expect(logged.at(-1)).toMatchObject({ msg: 'mail delivery failed for good', level: 50, attempts: 12 });
    const metrics = await t.app.deps.metrics.registry.getSingleMetricAsString('mail_failures_total');
    expect(metrics).toContain('mail_failures_total{outcome="retry"} 11');
    expect(metrics).toContain('mail_failures_total{outcome="final"} 1');
  });
});
