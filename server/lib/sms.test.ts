import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { createSmsSender, e164, SmsDeliveryError } from './sms.ts';

type Received = { url: string; headers: Record<string, unknown>; body: unknown; contentType: string };

/** Local fakes of the two gateways' documented HTTP APIs on loopback. */
async function fakeGateways() {
  const received: Received[] = [];
  const app: FastifyInstance = Fastify();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  let failNext = false;
  const record = (request: { url: string; headers: Record<string, unknown>; body: unknown }) =>
    received.push({
      url: request.url,
      headers: request.headers,
      body: request.body,
      contentType: String(request.headers['content-type']),
    });
  // MessageBird: POST /messages, Authorization: AccessKey …, JSON.
  app.post('/messages', async (request, reply) => {
    record(request);
    if (request.headers.authorization !== 'AccessKey live_mb_key') {
      return reply.status(401).send({ errors: [{ code: 2, description: 'Request not allowed' }] });
    }
    if (failNext) {
      failNext = false;
      return reply.status(422).send({ errors: [{ code: 9, description: 'no (correct) recipients found' }] });
    }
    return reply.status(201).send({ id: 'mb-1', recipients: { totalCount: 1 } });
  });
  // Twilio: POST /2010-04-01/Accounts/{Sid}/Messages.json, basic auth, form-encoded.
  app.post<{ Params: { sid: string } }>('/2010-04-01/Accounts/:sid/Messages.json', async (request, reply) => {
    record(request);
    const expected = `Basic ${Buffer.from(`${request.params.sid}:tw_token`).toString('base64')}`;
    if (request.headers.authorization !== expected) return reply.status(401).send({ code: 20003 });
    return reply.status(201).send({ sid: 'SM1', status: 'queued' });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    received,
    failNext: () => {
      failNext = true;
    },
    close: () => app.close(),
  };
}

describe('SMS gateways chosen by SMS_PROVIDER', () => {
  let gateway: Awaited<ReturnType<typeof fakeGateways>>;
  const sid = `AC${'0123456789abcdef'.repeat(2)}`;
  beforeAll(async () => {
    gateway = await fakeGateways();
  });
  afterAll(() => gateway.close());

  it('sends through MessageBird with its access key, originator and the number without plus', async () => {
    const sender = createSmsSender(
      loadConfig({
        SMS_PROVIDER: 'messagebird',
        MESSAGEBIRD_ACCESS_KEY: 'live_mb_key',
        SMS_SENDER: 'Amora',
        SMS_API_URL: gateway.url,
      }),
    );
    await sender.send('+31 6 1234 5678', 'Your code is 123456');
    const last = gateway.received.at(-1)!;
    expect(last.url).toBe('/messages');
    expect(last.contentType).toContain('application/json');
    expect(last.body).toEqual({
      originator: 'Amora',
      recipients: ['31612345678'],
      body: 'Your code is 123456',
    });
  });

  it('reports a refused message as an error without the text, so the member sees the request fail', async () => {
    const sender = createSmsSender(
      loadConfig({
        SMS_PROVIDER: 'messagebird',
        MESSAGEBIRD_ACCESS_KEY: 'live_mb_key',
        SMS_API_URL: gateway.url,
      }),
    );
    gateway.failNext();
    const error = await sender.send('+31612345678', 'Your code is 654321').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SmsDeliveryError);
    expect(error).toMatchObject({ provider: 'messagebird', status: 422 });
    expect(String(error)).not.toContain('654321');
    const wrongKey = createSmsSender(
      loadConfig({ SMS_PROVIDER: 'messagebird', MESSAGEBIRD_ACCESS_KEY: 'wrong', SMS_API_URL: gateway.url }),
    );
    await expect(wrongKey.send('+31612345678', 'x')).rejects.toMatchObject({ status: 401 });
  });

  it('sends through Twilio with basic auth and a form body in E.164', async () => {
    const sender = createSmsSender(
      loadConfig({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: sid,
        TWILIO_AUTH_TOKEN: 'tw_token',
        SMS_SENDER: '+3197010203040',
        SMS_API_URL: gateway.url,
      }),
    );
    await sender.send('0031612345678', 'Uw code is 111222');
    const last = gateway.received.at(-1)!;
    expect(last.url).toBe(`/2010-04-01/Accounts/${sid}/Messages.json`);
    expect(last.contentType).toContain('application/x-www-form-urlencoded');
    expect(last.body).toEqual({ To: '+31612345678', From: '+3197010203040', Body: 'Uw code is 111222' });
  });

  it('refuses to start a real provider without its credentials', () => {
    expect(() => createSmsSender(loadConfig({ SMS_PROVIDER: 'twilio' }))).toThrow(/TWILIO_ACCOUNT_SID/);
    expect(() => createSmsSender(loadConfig({ SMS_PROVIDER: 'messagebird' }))).toThrow(
      /MESSAGEBIRD_ACCESS_KEY/,
    );
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'nope' })).toThrow(/TWILIO_ACCOUNT_SID/);
  });

  it('writes E.164 numbers', () => {
    expect(e164('+31 6 1234 5678')).toBe('+31612345678');
    expect(e164('0049 170 1234567')).toBe('+491701234567');
    expect(e164('31612345678')).toBe('+31612345678');
  });
});
