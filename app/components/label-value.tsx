import type { ReactNode } from 'react';
import { useTranslation } from '#app/lib/use-translation.ts';

/** Stands for the value in the translated pattern, where the value is an element, not a string. */
const slot = '\uE000';

/**
 * "Label: value" as the reader's language writes it (French: "Langue : …"), from the translated
 * pattern `labelValue`, never a label glued to ": " in code; the value may be an element.
 */
export function LabelValue({ label, value }: { label: string; value: ReactNode }) {
  const { t } = useTranslation();
  const [before = '', after = ''] = t('labelValue', { label, value: slot }).split(slot);
  return (
    <>
      {before}
      {value}
      {after}
    </>
  );
}
