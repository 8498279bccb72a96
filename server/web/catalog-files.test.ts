import { describe, expect, it } from 'vitest';
import { loadTranslations } from '#server/lib/i18n.ts';
import { pageCatalogs } from './ssr.ts';

describe('the catalogs a page is sent', () => {
  const all = loadTranslations().de;

  it('leaves the back office, the mails and the setup page out of the site pages', () => {
    for (const url of ['/', '/members', '/chats/3?x=1', '/administration']) {
      const sent = Object.keys(pageCatalogs(all, url));
      expect(sent, url).toEqual(expect.arrayContaining(['common', 'chat', 'errors', 'landers']));
      expect(sent, url).not.toContain('admin');
      expect(sent, url).not.toContain('mail');
      expect(sent, url).not.toContain('setup');
    }
  });

  it('sends the back office its catalog, the unsubscribe page the mails', () => {
    expect(Object.keys(pageCatalogs(all, '/admin'))).toContain('admin');
    expect(Object.keys(pageCatalogs(all, '/admin/sites?page=2'))).toContain('admin');
    expect(Object.keys(pageCatalogs(all, '/unsubscribe?token=x'))).toContain('mail');
    expect(Object.keys(pageCatalogs(all, '/unsubscribe?token=x'))).not.toContain('admin');
  });

  it('hands every render of a locale and area the same object', () => {
    expect(pageCatalogs(all, '/')).toBe(pageCatalogs(all, '/members'));
  });
});
