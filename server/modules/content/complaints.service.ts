import type { Locale } from '#contract/locales.ts';
import type { Database } from '#server/db/client.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { addDays, type Clock } from '#server/lib/clock.ts';
import type { Translator } from '#server/lib/i18n.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import { complaintsToAddressSince, insertComplaint } from './complaints.repository.ts';

/** Acknowledgements one address receives a day, however many complaints name it. */
export const complaintAcknowledgementsPerDay = 3;

/** The reference a complaint is known by in the acknowledgement and in the operators' answer. */
export function complaintReference(id: number): string {
  return `C-${String(id).padStart(6, '0')}`;
}

/**
 * Stores a complaint for the operators and acknowledges it by mail. The form is open to anyone and
 * the reply address is unchecked, so the mail repeats nothing the sender wrote (name, subject,
 * message, links): only the site's name and a reference number, a few times a day per address.
 */
export async function fileComplaint(
  deps: { db: Database; clock: Clock; translator: Translator; mail: Pick<MailQueue, 'enqueue'> },
  site: SiteRow,
  context: { locale: Locale; baseUrl: string; memberId: number | null },
  input: { name: string; email: string; subject: string; message: string },
): Promise<{ reference: string }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const recent = await complaintsToAddressSince(tx, site.id, input.email, addDays(now, -1));
    const { id } = await insertComplaint(tx, {
      siteId: site.id,
      userId: context.memberId,
      ...input,
      createdAt: now,
    });
    const reference = complaintReference(id);
    if (recent < complaintAcknowledgementsPerDay) {
      const mail = renderMail(
        deps.translator,
        context.locale,
        mailSiteOf(site, context.baseUrl, context.locale),
        {
          kind: 'complaint',
          params: { reference },
        },
      );
      await deps.mail.enqueue(tx, { to: input.email, kind: 'complaint', ...mail });
    }
    return { reference };
  });
}
