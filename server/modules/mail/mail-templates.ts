import type { Locale } from '#contract/locales.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Translator } from '#server/lib/i18n.ts';
import { siteText } from '#server/modules/sites/site-texts.ts';

export type MailSite = {
  name: string;
  supportEmail: string;
  baseUrl: string;
  /** The brand colour of the heading and button (#rrggbb); the platform's pink when absent. */
  themeColor?: string;
  /** An absolute http(s) URL of the site's logo, shown above the mail instead of the name. */
  logoUrl?: string | null;
  /** The site's sender; the queue fills a missing address from MAIL_FROM. */
  sender?: MailSender;
};

/** A mail's From: the site's display name and address (null: the address of MAIL_FROM). */
export type MailSender = { name: string; address: string | null };

export const defaultThemeColor = '#c2185b';

/**
 * What a mail needs of a site, for a reader: its name in the reader's language (the site's own text
 * `manifest_name` for that language, else its home language's, else the column), support address,
 * colour, logo and sender. A sender name set in the back office stays as it is in every language.
 */
export function mailSiteOf(
  site: Pick<
    SiteRow,
    | 'name'
    | 'supportEmail'
    | 'themeColor'
    | 'logoUrl'
    | 'mailFromName'
    | 'mailFromAddress'
    | 'texts'
    | 'domainLanguage'
    | 'indexTitle'
    | 'description'
    | 'fictionalWarning'
    | 'fictionalSingular'
    | 'fictionalPlural'
  >,
  baseUrl: string,
  locale: Locale,
): MailSite {
  const name = siteText(site, locale, 'manifest_name') || site.name;
  return {
    name,
    supportEmail: site.supportEmail,
    baseUrl,
    themeColor: site.themeColor,
    logoUrl: site.logoUrl,
    sender: { name: site.mailFromName || name, address: site.mailFromAddress || null },
  };
}

export type MailContent = {
  kind: string;
  /** The catalog of the kind's own texts (default `mail`); greeting, signature and footer stay in `mail`. */
  namespace?: string;
  /** mail catalog keys: `<kind>.subject`, `<kind>.body`, optional `<kind>.action` and extra paragraphs. */
  paragraphs?: string[];
  actionUrl?: string;
  params?: Record<string, string | number>;
  recipientName?: string;
  /** Extra links under the mail (unsubscribe, settings); labels are mail catalog keys. */
  footerLinks?: { key: string; url: string }[];
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const paragraphHtml = (text: string) =>
  `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text).replace(/\n/g, '<br>')}</p>`;

/** One mail in the member's language, with the site's name and support address, as HTML and text. */
export function renderMail(
  translator: Translator,
  locale: Locale,
  site: MailSite,
  content: MailContent,
): { subject: string; html: string; text: string; sender?: MailSender } {
  const color =
    site.themeColor && /^#[0-9a-fA-F]{6}$/.test(site.themeColor) ? site.themeColor : defaultThemeColor;
  const logo = site.logoUrl && /^https?:\/\//.test(site.logoUrl) ? site.logoUrl : null;
  const params = { site: site.name, support: site.supportEmail, ...content.params };
  const t = (key: string) => translator.t(locale, `mail:${key}`, params);
  const ns = content.namespace ?? 'mail';
  const own = (key: string) => translator.t(locale, `${ns}:${key}`, params);
  const greeting = content.recipientName
    ? [translator.t(locale, 'mail:greeting', { name: content.recipientName })]
    : [];
  const extra = (content.paragraphs ?? []).map((key) => own(key));
  const paragraphs = [...greeting, own(`${content.kind}.body`), ...extra];
  // The text version has a link where the HTML one has a button: its own wording where the body
  // names the button (`<kind>.bodyText`).
  const textParagraphs = [
    ...greeting,
    translator.t(locale, [`${ns}:${content.kind}.bodyText`, `${ns}:${content.kind}.body`], params),
    ...extra,
  ];
  /** "Label: value" as the language writes it (French puts a space before the colon). */
  const labelled = (label: string, value: string) =>
    translator.t(locale, 'common:labelValue', { label, value });
  const action = content.actionUrl
    ? { label: own(`${content.kind}.action`), url: content.actionUrl }
    : undefined;
  const signature = t('signature');
  const footer = t('footer');

  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(own(`${content.kind}.subject`))}</title></head>
<body style="margin:0;padding:0;background:#f6f6f8;font-family:Arial,Helvetica,sans-serif;color:#212529">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:8px" cellpadding="0" cellspacing="0">
<tr><td style="padding:24px 24px 0;font-size:22px;font-weight:bold;color:${color}">${logo ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(site.name)}" height="40" style="display:block;height:40px;border:0">` : escapeHtml(site.name)}</td></tr>
<tr><td style="padding:24px;font-size:16px">
${paragraphs.map(paragraphHtml).join('\n')}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:${color};color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#5c6b7a">${escapeHtml(t('buttonFallback'))}<br><a href="${escapeHtml(action.url)}" style="color:${color};word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : ''
}
${paragraphHtml(signature)}
</td></tr>
<tr><td style="padding:0 24px 24px;font-size:12px;color:#5c6b7a">${escapeHtml(footer)}${(
    content.footerLinks ?? []
  )
    .map(
      (link) => ` · <a href="${escapeHtml(link.url)}" style="color:#5c6b7a">${escapeHtml(t(link.key))}</a>`,
    )
    .join('')}</td></tr>
</table></td></tr></table></body></html>`;

  const text = [
    ...textParagraphs,
    ...(action ? [labelled(action.label, action.url)] : []),
    signature,
    '--',
    footer,
    ...(content.footerLinks ?? []).map((link) => labelled(t(link.key), link.url)),
  ].join('\n\n');

  return {
    subject: own(`${content.kind}.subject`),
    html,
    text,
    ...(site.sender ? { sender: site.sender } : {}),
  };
}
