import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { complaints } from '#server/db/schema/social.ts';
import { nextIp } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { complaintAcknowledgementsPerDay, complaintReference } from './complaints.service.ts';

describe('the complaint form under abuse', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const file = (payload: Record<string, string>, ip = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/complaint.php', remoteAddress: ip, payload });
  const mailsTo = (to: string) => t.database.db.select().from(mailJobs).where(eq(mailJobs.to, to));

  it('acknowledges with the site name and a reference number only, never the submitted name, subject, text or links', async () => {
    const to = 'victim@example.com';
    const answer = await file({
      name: 'Win a prize at https://evil.test/a',
      email: to,
      subject: 'Claim now: http://evil.test/b',
      message:
        'Your account is locked, log in at https://evil.test/login <a href="https://evil.test/c">here</a> www.evil.test',
    });
    expect(answer.statusCode).toBe(201);
    const [stored] = await t.database.db.select().from(complaints).where(eq(complaints.email, to));
    expect(stored!.message).toContain('https://evil.test/login');
    const [mail] = await mailsTo(to);
    for (const part of [mail!.subject, mail!.text, mail!.html]) {
      expect(part).not.toMatch(/evil|prize|Claim|locked|https?:\/\/[^\s"<]*evil/i);
    }
    expect(mail!.text).toContain(complaintReference(stored!.id));
    expect(mail!.text).toContain('Amora');
    expect(mail!.html).not.toMatch(/href="https?:\/\/(?!amora)/i);
  });

  it(`sends at most ${complaintAcknowledgementsPerDay} acknowledgements a day to one address, whoever files`, async () => {
    const to = 'target@example.com';
    for (let i = 0; i < 6; i++) {
      expect((await file({ name: 'X', email: to, subject: 'S', message: 'M' })).statusCode).toBe(201);
    }
    expect(await mailsTo(to)).toHaveLength(complaintAcknowledgementsPerDay);
    expect(await t.database.db.select().from(complaints).where(eq(complaints.email, to))).toHaveLength(6);
  });

  it('allows 5 complaints an hour per IP address', async () => {
    const ip = nextIp();
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        await file({ name: 'Y', email: `sender${i}@example.com`, subject: 'S', message: 'M' }, ip),
      );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(answers[5]!.json()).toMatchObject({ error: 'rate_limited' });
    expect(
      (await file({ name: 'Z', email: 'other@example.com', subject: 'S', message: 'M' })).statusCode,
    ).toBe(201);
  });
});
