import type { i18n as I18n, TFunction } from 'i18next';
import { useContext } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

const translators = new WeakMap<I18n, TFunction>();

/**
 * `t` and the i18next instance of the page. react-i18next's own hook copies every property of the
 * instance for each component on its first render; on the server every render is a first one, and
 * that copying was ~5 % of a member's page (issue 15). A page's language never changes within its
 * instance (another language is another instance, from the root loader), so one `t` per instance
 * does; a component still renders again when the provider hands it a new instance.
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  let t = translators.get(i18n);
  if (!t) {
    t = i18n.getFixedT(i18n.language);
    translators.set(i18n, t);
  }
  return { t, i18n };
}
