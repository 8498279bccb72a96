import { useTranslation } from '#app/lib/use-translation.ts';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a href="#main" className="visually-hidden-focusable position-absolute top-0 start-0 p-2 bg-white z-3">
      {t('nav.skipToContent')}
    </a>
  );
}
