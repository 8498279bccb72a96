import { type ReactNode, useState } from 'react';
import { useTranslation } from '#app/lib/use-translation.ts';

/** The cost of one spend, shown on the control before anything is spent. */
export function SpendCost({ credits }: { credits: number }) {
  const { t } = useTranslation();
  return (
    <span className="d-block small text-body-secondary">
      {credits === 0 ? t('credits:spend.free') : t('credits:spend.cost', { count: credits })}
    </span>
  );
}

/**
 * Spending in two taps, so a stray tap never spends: the first tap picks an option, which shows its cost on
 * the control and a "Send for N credits" button; only that second tap spends.
 */
export function SpendChoice<T>({
  label,
  options,
  keyOf,
  costOf,
  renderOption,
  onSpend,
  disabled = false,
  listClassName = 'list-inline mb-2',
  itemClassName = 'list-inline-item',
  optionClassName = 'btn btn-light p-1',
}: {
  label: string;
  options: readonly T[];
  keyOf: (option: T) => string | number;
  costOf: (option: T) => number;
  renderOption: (option: T) => ReactNode;
  onSpend: (option: T) => void;
  disabled?: boolean;
  listClassName?: string;
  itemClassName?: string;
  optionClassName?: string;
}) {
  const { t } = useTranslation();
  const [selectedKey, setSelectedKey] = useState<string | number | null>(null);
  const selected = options.find((option) => keyOf(option) === selectedKey);
  const cost = selected === undefined ? 0 : costOf(selected);
  return (
    <div data-testid="spend-choice">
      <ul className={listClassName} aria-label={label}>
        {options.map((option) => {
          const key = keyOf(option);
          const isSelected = key === selectedKey;
          return (
            <li key={key} className={itemClassName}>
              <button
                type="button"
                className={`${optionClassName}${isSelected ? ' active border-primary' : ''}`}
                aria-pressed={isSelected}
                disabled={disabled}
                onClick={() => setSelectedKey(isSelected ? null : key)}
              >
                {renderOption(option)}
                <SpendCost credits={costOf(option)} />
              </button>
            </li>
          );
        })}
      </ul>
      {selected !== undefined && (
        <div className="d-flex gap-2 align-items-center mb-2">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            data-testid="spend-confirm"
            disabled={disabled}
            onClick={() => {
              setSelectedKey(null);
              onSpend(selected);
            }}
          >
            {cost === 0 ? t('credits:spend.sendFree') : t('credits:spend.confirm', { count: cost })}
          </button>
          <button type="button" className="btn btn-link btn-sm" onClick={() => setSelectedKey(null)}>
            {t('credits:spend.cancel')}
          </button>
        </div>
      )}
    </div>
  );
}
