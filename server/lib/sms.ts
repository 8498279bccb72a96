import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '#server/config.ts';

/** Text messages (direct-debit codes): an outbox folder, or a real SMS gateway chosen by SMS_PROVIDER. */
export type SmsSender = { send(to: string, text: string): Promise<void> };

/** A gateway refused or failed a message; the text (it holds a code) is never part of the error. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
  constructor(
    readonly provider: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${provider} answered ${status}: ${detail.slice(0, 200)}`);
  }
}

export function createSmsOutbox(dir: string): SmsSender {
  return {
    async send(to, text) {
      await mkdir(dir, { recursive: true });
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${to.replace(/\D/g, '')}.json`,
      );
      await writeFile(file, JSON.stringify({ to, text }, null, 2));
    },
  };
}

/** E.164 with a plus, as both gateways expect (`0031…` and `31…` become `+31…`). */
export function e164(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return digits;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return `+${digits}`;
}

const timeoutMs = 10_000;

async function failUnlessOk(provider: string, response: Response): Promise<void> {
  if (response.ok) return;
  // The status alone still tells the failure; the body's read error stands in for the body.
  const body = await response.text().catch((error: unknown) => `(body not readable: ${String(error)})`);
  throw new SmsDeliveryError(provider, response.status, body);
}

/**
 * MessageBird (Bird) SMS API: `POST /messages` with `Authorization: AccessKey …` and a JSON body
 * (developers.messagebird.com/api/sms-messaging/#send-outbound-sms).
 */
export function createMessageBirdSender(options: {
  accessKey: string;
  originator: string;
  baseUrl?: string;
}): SmsSender {
  const url = new URL(
    'messages',
    `${(options.baseUrl ?? 'https://rest.messagebird.com').replace(/\/?$/, '/')}`,
  );
  return {
    async send(to, text) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `AccessKey ${options.accessKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({
          originator: options.originator,
          recipients: [e164(to).slice(1)],
          body: text,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await failUnlessOk('messagebird', response);
    },
  };
}

/**
 * Twilio Programmable Messaging: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, with HTTP basic auth (www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource).
 */
export function createTwilioSender(options: {
  accountSid: string;
  authToken: string;
  from: string;
  baseUrl?: string;
}): SmsSender {
  const url = new URL(
    `2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`,
    `${(options.baseUrl ?? 'https://api.twilio.com').replace(/\/?$/, '/')}`,
  );
  const auth = Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64');
  return {
    async send(to, text) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${auth}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ To: e164(to), From: options.from, Body: text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await failUnlessOk('twilio', response);
    },
  };
}

type SmsConfig = Pick<
  Config,
  | 'SMS_PROVIDER'
  | 'SMS_SENDER'
  | 'SMS_API_URL'
  | 'MESSAGEBIRD_ACCESS_KEY'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'DATA_DIR'
>;

/** The SMS sender SMS_PROVIDER chooses; a real provider without its credentials stops the start. */
export function createSmsSender(config: SmsConfig): SmsSender {
  const baseUrl = config.SMS_API_URL ? { baseUrl: config.SMS_API_URL } : {};
  switch (config.SMS_PROVIDER) {
    case 'messagebird':
      if (!config.MESSAGEBIRD_ACCESS_KEY)
        throw new Error('SMS_PROVIDER=messagebird needs MESSAGEBIRD_ACCESS_KEY');
      return createMessageBirdSender({
        accessKey: config.MESSAGEBIRD_ACCESS_KEY,
        originator: config.SMS_SENDER,
        ...baseUrl,
      });
    case 'twilio':
      if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN) {
        throw new Error('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
      }
      return createTwilioSender({
        accountSid: config.TWILIO_ACCOUNT_SID,
        authToken: config.TWILIO_AUTH_TOKEN,
        from: config.SMS_SENDER,
        ...baseUrl,
      });
    default:
      return createSmsOutbox(path.join(config.DATA_DIR, 'sms-outbox'));
  }
}
