import { Form } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { formatDate } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Standing } from '#contract/standing.ts';

const when = { dateStyle: 'medium', timeStyle: 'short' } as const;

/**
 * The member's standing on the account page: the rule, each strike with what it led to, and one
 * appeal per strike (decision 054).
 */
export function StandingSection({
  standing,
  appealed,
  errors,
  busy,
}: {
  standing: Standing;
  appealed: boolean;
  errors?: FormErrors | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  return (
    <>
      <p className="text-body-secondary">
        {t('security:standing.lead', { count: standing.suspension_days, suspendAt: standing.suspend_at })}
      </p>
      {standing.posting_suspended_until && (
        <div className="alert alert-warning" role="status" data-testid="posting-suspended">
          {t('security:standing.suspended', {
            date: formatDate(standing.posting_suspended_until, locale, when),
          })}
        </div>
      )}
      {appealed && (
        <div className="alert alert-success" role="status">
          {t('security:standing.appealSent')}
        </div>
      )}
      <FormAlert errors={errors} />
      {standing.strikes.length === 0 ? (
        <p className="mb-0">{t('security:standing.clean')}</p>
      ) : (
        <ul className="list-unstyled mb-0 d-grid gap-3" data-testid="strikes">
          {standing.strikes.map((strike) => (
            <li key={strike.id} className="border rounded p-3" data-testid="strike">
              <div className="fw-semibold">
                {t('security:standing.strike', {
                  number: strike.number,
                  date: formatDate(strike.created_at, locale),
                })}
              </div>
              <div>
                {strike.consequence === 'suspension' && strike.suspended_until
                  ? t('security:standing.suspension', {
                      date: formatDate(strike.suspended_until, locale, when),
                    })
                  : strike.consequence === 'ban'
                    ? t('security:standing.ban')
                    : t('security:standing.warning')}
              </div>
              {strike.lifted && <div className="text-success">{t('security:standing.lifted')}</div>}
              {strike.appeal ? (
                <div className="text-body-secondary small mt-1" data-testid="appeal-status">
                  {t(`security:standing.appeal_${strike.appeal.status}`)}
                </div>
              ) : (
                <details className="mt-2">
                  <summary className="btn btn-outline-secondary btn-sm">
                    {t('security:standing.appeal')}
                  </summary>
                  <Form method="post" noValidate className="mt-2">
                    <input type="hidden" name="intent" value="appeal" />
                    <input type="hidden" name="strike" value={strike.id} />
                    <label className="form-label" htmlFor={`appeal-${strike.id}`}>
                      {t('security:standing.appealLabel')}
                    </label>
                    <textarea
                      id={`appeal-${strike.id}`}
                      name="text"
                      className="form-control mb-2"
                      rows={3}
                      maxLength={2000}
                      required
                    />
                    <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
                      {t('security:standing.appealSubmit')}
                    </button>
                  </Form>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
