import type { Config } from '#server/config.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';

/** A development domain (`localhost`, `nl.localhost`): served over plain HTTP on this process's port. */
export function isLocalDomain(domain: string): boolean {
  return domain === 'localhost' || domain.endsWith('.localhost');
}

/**
 * The site's own public origin, for every link in a mail and every URL handed to a payment
 * provider: `PUBLIC_URL` for the default site when set, `http://<domain>:<PORT>` for a
 * `*.localhost` development domain, else `https://<domain>`. Never built from request headers
 * (`Host`, `X-Forwarded-Host`), which a visitor chooses.
 */
export function siteOrigin(
  site: Pick<SiteRow, 'domain' | 'isDefault'>,
  config: Pick<Config, 'PUBLIC_URL' | 'PORT'>,
): string {
  if (config.PUBLIC_URL && site.isDefault) return new URL(config.PUBLIC_URL).origin;
  if (isLocalDomain(site.domain)) {
    return config.PORT === 80 ? `http://${site.domain}` : `http://${site.domain}:${config.PORT}`;
  }
  return `https://${site.domain}`;
}
