import { type InputHTMLAttributes, useId, useState } from 'react';
import { Eye, EyeSlash } from 'react-bootstrap-icons';
import { errorParams, type FormErrors, fieldError, fieldErrorKey } from '#app/lib/form-errors.ts';
import { useTranslation } from '#app/lib/use-translation.ts';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: string;
  hint?: string;
  errors?: FormErrors | undefined;
};

/** A labelled input with its hint and the API's error for it, wired for screen readers. */
export function FormField({ name, label, hint, errors, type = 'text', ...input }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const code = fieldError(errors, name);
  const describedBy =
    [hint ? `${id}-hint` : null, code ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const isPassword = type === 'password';
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <div className={isPassword ? 'password-field' : undefined}>
        <input
          id={id}
          name={name}
          type={isPassword && revealed ? 'text' : type}
          className={`form-control${code ? ' is-invalid' : ''}`}
          aria-invalid={code ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {isPassword && (
          <button
            type="button"
            className="password-eye"
            onClick={() => setRevealed((value) => !value)}
            aria-pressed={revealed}
            aria-label={t('auth:showPassword')}
            title={revealed ? t('auth:hidePassword') : t('auth:showPassword')}
          >
            {revealed ? <EyeSlash aria-hidden="true" size={18} /> : <Eye aria-hidden="true" size={18} />}
          </button>
        )}
        {code && (
          <div id={`${id}-error`} className="invalid-feedback d-block">
            {t(fieldErrorKey(code), { defaultValue: t('errors:field.invalid'), ...errorParams(errors) })}
          </div>
        )}
      </div>
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}

/** The API's message for an error that is not about one field (login failed, locked, ...). */
export function FormAlert({ errors }: { errors?: FormErrors | undefined }) {
  if (!errors || (errors.body.fields && Object.keys(errors.body.fields).length > 0)) return null;
  return (
    <div className="alert alert-danger" role="alert">
      {errors.body.message}
    </div>
  );
}
