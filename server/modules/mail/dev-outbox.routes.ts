import { z } from 'zod';
import { idParam } from '#contract/common.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { findMail, listMails } from './mail.repository.ts';
import { escapeHtml } from './mail-templates.ts';

/** Development only: the mails the app sent, newest first, to click through signup and reset by hand. */
export async function devOutboxRoutes(app: ZodApp): Promise<void> {
  app.get('/dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await listMails(app.deps.db, 100);
    const rows = mails
      .map(
        (mail) =>
          `<tr><td>${mail.id}</td><td>${escapeHtml(mail.createdAt.toISOString())}</td><td>${escapeHtml(mail.to)}</td><td><a href="/dev/outbox/${mail.id}">${escapeHtml(mail.subject)}</a></td><td>${mail.status}</td></tr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox</title></head><body style="font-family:sans-serif"><h1>Outbox</h1><table cellpadding="6"><thead><tr><th>#</th><th>Created</th><th>To</th><th>Subject</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table></body></html>`,
      );
  });

  app.get(
    '/dev/outbox/:id',
    { schema: { hide: true, params: z.object({ id: idParam }) } },
    async (request, reply) => {
      const mail = await findMail(app.deps.db, request.params.id);
      if (!mail) throw new NotFoundError();
      return reply.type('text/html; charset=utf-8').send(mail.html);
    },
  );
}
