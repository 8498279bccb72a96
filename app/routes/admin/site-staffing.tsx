import { useId, useState } from 'react';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminSite } from '#contract/admin-sites.ts';
import type { ErrorBody } from '#contract/common.ts';
import { AdminInput } from './backoffice-form.tsx';

const days = [1, 2, 3, 4, 5, 6, 7] as const;

/** Monday = 1 … Sunday = 7 in the reader's language (2024-01-01 was a Monday). */
function dayName(day: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, day)),
  );
}

/**
 * The form's team hours → `staffing_hours`: null when "always staffed" is ticked, otherwise one
 * shift per day that has a start or an end (a half-filled day is sent as it is, and the API names it).
 */
export function staffingHoursOf(form: FormData) {
  if (form.get('staffing_always') === 'on') return null;
  return days.flatMap((day) => {
    const from = String(form.get(`staffing.${day}.from`) ?? '').trim();
    const to = String(form.get(`staffing.${day}.to`) ?? '').trim();
    return from || to ? [{ day, from, to }] : [];
  });
}

/** One row per weekday with the shift's start and end, or "always staffed". */
export function StaffingHours({
  site,
  errors,
  locale,
}: {
  site: AdminSite | null;
  errors: { status: number; body: ErrorBody } | undefined;
  locale: string;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const [always, setAlways] = useState(site ? site.staffing_hours === null : true);
  const shiftOf = (day: number) => site?.staffing_hours?.find((shift) => shift.day === day);
  const invalid =
    (errors?.body.fields &&
      Object.keys(errors.body.fields).some((key) => key.startsWith('staffing_hours'))) ??
    false;
  return (
    <fieldset className="card mb-3" aria-describedby={hintId}>
      <div className="card-body">
        <legend className="h6 card-title">{t('admin:site.sectionStaffing')}</legend>
        <p id={hintId} className="form-text mt-0">
          {t('admin:site.staffingHint')}
        </p>
        <div className="form-check mb-3">
          <input
            id={`${hintId}-always`}
            name="staffing_always"
            type="checkbox"
            className="form-check-input"
            checked={always}
            onChange={(event) => setAlways(event.currentTarget.checked)}
          />
          <label htmlFor={`${hintId}-always`} className="form-check-label">
            {t('admin:site.staffingAlways')}
          </label>
        </div>
        {!always && (
          <table className="table table-sm align-middle mb-3" style={{ maxWidth: 480 }}>
            <thead>
              <tr>
                <th scope="col">{t('admin:site.staffingDay')}</th>
                <th scope="col">{t('admin:site.staffingFrom')}</th>
                <th scope="col">{t('admin:site.staffingTo')}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => {
                const name = dayName(day, locale);
                return (
                  <tr key={day}>
                    <th scope="row" className="fw-normal">
                      {name}
                    </th>
                    <td>
                      <input
                        type="time"
                        name={`staffing.${day}.from`}
                        className={`form-control form-control-sm${invalid ? ' is-invalid' : ''}`}
                        defaultValue={shiftOf(day)?.from ?? ''}
                        aria-label={t('admin:site.staffingFromOf', { day: name })}
                      />
                    </td>
                    <td>
                      <input
                        type="time"
                        name={`staffing.${day}.to`}
                        className={`form-control form-control-sm${invalid ? ' is-invalid' : ''}`}
                        defaultValue={shiftOf(day)?.to ?? ''}
                        aria-label={t('admin:site.staffingToOf', { day: name })}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {invalid && (
          <div className="invalid-feedback d-block mb-3" data-field-error="staffing_hours">
            {t('admin:site.staffingInvalid')}
          </div>
        )}
        <AdminInput
          name="typical_reply_minutes"
          label={t('admin:site.typicalReplyMinutes')}
          hint={t('admin:site.typicalReplyMinutesHint')}
          errors={errors}
          type="number"
          inputMode="numeric"
          defaultValue={site?.typical_reply_minutes ?? 180}
        />
      </div>
    </fieldset>
  );
}
