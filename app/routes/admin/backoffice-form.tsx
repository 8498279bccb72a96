import { type ReactNode, useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useTranslation } from '#app/lib/use-translation.ts';

/** The API's error for a field, or for an item of it (`countries.0`, `minimum_message_costs.FR`). */
export function errorAt(errors: FormErrors | undefined, name: string): string | undefined {
  const fields = errors?.body.fields;
  if (!fields) return undefined;
  if (fields[name]) return fields[name];
  const nested = Object.keys(fields).find((key) => key.startsWith(`${name}.`));
  return nested ? fields[nested] : undefined;
}

/** A field error's text: the back office's own wording first, then the general one. */
export function useFieldErrorText() {
  const { t } = useTranslation();
  return (code: string) =>
    t(`admin:editorError.${code}`, {
      defaultValue: t(`errors:field.${code}`, { defaultValue: t('errors:field.invalid') }),
    });
}

type FieldProps = {
  name: string;
  label: string;
  errors: FormErrors | undefined;
  hint?: string | undefined;
  children: (props: { id: string; invalid: boolean; describedBy: string | undefined }) => ReactNode;
};

/** A labelled control with its hint and the API's error for it, wired for screen readers. */
export function AdminField({ name, label, errors, hint, children }: FieldProps) {
  const id = useId();
  const code = errorAt(errors, name);
  const errorText = useFieldErrorText();
  const describedBy =
    [hint ? `${id}-hint` : null, code ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children({ id, invalid: code !== undefined, describedBy })}
      {code && (
        <div id={`${id}-error`} className="invalid-feedback d-block" data-field-error={name}>
          {errorText(code)}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
    </div>
  );
}

type InputProps = {
  name: string;
  label: string;
  errors: FormErrors | undefined;
  hint?: string | undefined;
  defaultValue?: string | number | null | undefined;
  type?: string;
  required?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'text' | 'tel' | 'url';
  /** A number's step ("0.01" for a score); whole numbers by default. */
  step?: string;
};

export function AdminInput({
  name,
  label,
  errors,
  hint,
  defaultValue,
  type = 'text',
  required,
  inputMode,
  step,
}: InputProps) {
  return (
    <AdminField name={name} label={label} errors={errors} hint={hint}>
      {({ id, invalid, describedBy }) => (
        <input
          id={id}
          name={name}
          type={type}
          required={required}
          inputMode={inputMode}
          step={step}
          defaultValue={defaultValue ?? ''}
          className={`${type === 'color' ? 'form-control form-control-color' : 'form-control'}${invalid ? ' is-invalid' : ''}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
      )}
    </AdminField>
  );
}

export function AdminCheckbox({
  name,
  label,
  defaultChecked,
  value = 'on',
}: {
  name: string;
  label: string;
  defaultChecked: boolean;
  value?: string;
}) {
  const id = useId();
  return (
    <div className="form-check">
      <input
        id={id}
        name={name}
        type="checkbox"
        value={value}
        className="form-check-input"
        defaultChecked={defaultChecked}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
    </div>
  );
}

/** The text of a form field; absent fields are undefined. */
export function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** A whole number from a form field: the number, undefined when empty, the text itself when it is none (the API names it). */
export function whole(form: FormData, name: string): number | string | undefined {
  const value = text(form, name)?.trim();
  if (value === undefined || value === '') return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/** A comma- or space-separated list (`NL, BE`). */
export function list(form: FormData, name: string): string[] | undefined {
  const value = text(form, name);
  if (value === undefined) return undefined;
  return value
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Drops undefined values, so an edit sends only the fields the form had. */
export function defined<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * An image uploaded on its own (a gift's picture, a site's logo): the file goes to `uploadUrl` as
 * multipart, the server re-encodes it (no metadata kept), and the page's data is read again.
 */
export function AdminImageUpload({
  label,
  uploadUrl,
  preview,
  inputLabel,
  failedText,
}: {
  label: string;
  uploadUrl: string;
  /** The current image, or what to show without one. */
  preview: ReactNode;
  inputLabel: string;
  failedText: string;
}) {
  const revalidator = useRevalidator();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const upload = async (file: File) => {
    setState('busy');
    const body = new FormData();
    body.append('file', file);
    // No answer shows failedText, as a refusal does.
    const response = await fetch(uploadUrl, { method: 'POST', body, credentials: 'same-origin' }).catch(
      (error: unknown) => {
        reportCaught('uploading', error);
        return null;
      },
    );
    setState(response?.ok ? 'idle' : 'failed');
    if (response?.ok) await revalidator.revalidate();
  };
  return (
    <div className="mb-3">
      <div className="form-label">{label}</div>
      <div className="d-flex align-items-center gap-3 flex-wrap">
        {preview}
        <input
          type="file"
          accept="image/*"
          className="form-control form-control-sm"
          style={{ maxWidth: 260 }}
          aria-label={inputLabel}
          disabled={state === 'busy'}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void upload(file);
          }}
        />
      </div>
      {state === 'failed' && (
        <div className="text-danger small" role="alert">
          {failedText}
        </div>
      )}
    </div>
  );
}
