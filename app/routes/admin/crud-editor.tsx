import type { ReactNode } from 'react';
import { Form, useNavigation } from 'react-router';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { useTranslation } from '#app/lib/use-translation.ts';

export type CrudEditorProps = {
  /** The item being edited, null for a new one. */
  edit: { id: number } | null;
  /** The heading and the button of a new item. */
  addLabel: string;
  editHeading: string;
  /** What the page says after a save, null when nothing was just saved. */
  saved: string | null;
  errors: FormErrors | undefined;
  /** The form's name among several on the page (the action tells them apart by it). */
  intent?: string;
  /** A new form (its fields as loaded) whenever this changes: by default, another item. */
  formKey?: string | number;
  formClassName?: string;
  /** Above the form (an image upload…), and below it (the item's own lists…). */
  before?: ReactNode;
  after?: ReactNode;
  /** The fields. */
  children: ReactNode;
};

/** A back-office editor: heading, what the last save did, the fields, and save (or add). */
export function CrudEditor({
  edit,
  addLabel,
  editHeading,
  saved,
  errors,
  intent,
  formKey,
  formClassName,
  before,
  after,
  children,
}: CrudEditorProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <>
      <h2 className="h5">{edit ? editHeading : addLabel}</h2>
      {saved !== null && !errors && (
        <div className="alert alert-success" role="status">
          {saved}
        </div>
      )}
      {errors && (
        <div className="alert alert-danger" role="alert">
          {errors.body.fields ? t('admin:editor.fixErrors') : errors.body.message}
        </div>
      )}
      {before}
      <Form method="post" noValidate key={formKey ?? edit?.id ?? 'new'} className={formClassName}>
        {intent !== undefined && <input type="hidden" name="intent" value={intent} />}
        {edit && <input type="hidden" name="id" value={edit.id} />}
        {children}
        <button type="submit" className="btn btn-primary" disabled={navigation.state === 'submitting'}>
          {edit ? t('admin:editor.save') : addLabel}
        </button>
      </Form>
      {after}
    </>
  );
}

/** The API's refusal an action handed back, if any; with `intent`, only the one of that form. */
export function actionErrors(actionData: unknown, intent?: string): FormErrors | undefined {
  if (typeof actionData !== 'object' || actionData === null || !('errors' in actionData)) return undefined;
  if (intent !== undefined && (!('intent' in actionData) || actionData.intent !== intent)) return undefined;
  return actionData.errors as FormErrors;
}
