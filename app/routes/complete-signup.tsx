import { useState } from 'react';
import { Form, Link, redirect, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { ApiError } from '#app/lib/api-client.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { uploadPhoto } from '#app/lib/upload.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/complete-signup';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.completeSignup');
}

export async function loader({ context }: Route.LoaderArgs) {
  const me = await serverApi(context.api)('GET /api/user.php');
  if (!me.ok || !me.data.user) throw redirect('/signup');
  return null;
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await context.api('/api/complete-signup.php', {
    method: 'POST',
    body: { gender: formText(form, 'gender'), seeking: formText(form, 'seeking') },
  });
  if (!result.ok) return formError(result);
  throw redirect('/complete-signup?step=photo');
}

/** Onboarding step 2: a first photo, with progress; then the people who match. */
function PhotoStep() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  return (
    <div className="container py-4" style={{ maxWidth: 520 }}>
      <p className="small text-body-secondary mb-1">{t('discover:onboarding.step', { step: 2, steps: 2 })}</p>
      <h1 className="h3">{t('discover:onboarding.photoTitle')}</h1>
      <p className="text-body-secondary">{t('discover:onboarding.photoLead')}</p>
      {error && (
        <div className="alert alert-danger" role="alert">
          {error}
        </div>
      )}
      {progress !== null && (
        <div
          className="progress mb-3"
          role="progressbar"
          aria-label={t('discover:photos.progress')}
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
          data-testid="upload-progress"
        >
          <div className="progress-bar" style={{ width: `${progress}%` }} />
        </div>
      )}
      {done ? (
        <div className="alert alert-success" role="status">
          {t('discover:onboarding.photoDone')}
        </div>
      ) : (
        <>
          <label
            className={`btn btn-primary btn-lg mb-3 ${progress !== null ? 'disabled' : ''}`}
            htmlFor="onboarding-photo"
          >
            {progress !== null ? t('profile:photos.uploading') : t('profile:photos.add')}
          </label>
          <input
            id="onboarding-photo"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/heic,image/heif"
            className="visually-hidden"
            disabled={progress !== null}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              setError(null);
              setProgress(0);
              uploadPhoto(file, setProgress)
                .then(() => setDone(true))
                .catch((caught: unknown) => {
                  setProgress(null);
                  setError(caught instanceof ApiError ? caught.message : t('errors:internal_error'));
                });
            }}
          />
          <p className="small text-body-secondary">{t('profile:photos.formats')}</p>
        </>
      )}
      <div className="d-flex gap-3 align-items-center">
        <button
          type="button"
          className={`btn btn-lg ${done ? 'btn-primary' : 'btn-outline-primary'}`}
          onClick={() => void navigate('/members')}
          data-testid="show-matches"
        >
          {t('discover:onboarding.showMatches')}
        </button>
      </div>
    </div>
  );
}

function Choice({ name, value, label }: { name: string; value: string; label: string }) {
  const id = `${name}-${value}`;
  return (
    <>
      <input type="radio" className="btn-check" name={name} id={id} value={value} required />
      <label className="btn btn-outline-primary" htmlFor={id}>
        {label}
      </label>
    </>
  );
}

export default function CompleteSignup({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  if (params.get('step') === 'photo') return <PhotoStep />;
  return (
    <div className="container py-4" style={{ maxWidth: 520 }}>
      <p className="small text-body-secondary mb-1">{t('discover:onboarding.step', { step: 1, steps: 2 })}</p>
      <h1 className="h3">{t('page.completeSignup')}</h1>
      <p className="text-body-secondary">{t('auth:completeSignup.lead')}</p>
      <FormAlert errors={actionData?.errors} />
      <Form method="post">
        <fieldset className="mb-3">
          <legend className="form-label fs-6">{t('auth:completeSignup.gender')}</legend>
          <div className="d-flex gap-2">
            <Choice name="gender" value="male" label={t('auth:gender.male')} />
            <Choice name="gender" value="female" label={t('auth:gender.female')} />
          </div>
        </fieldset>
        <fieldset className="mb-4">
          <legend className="form-label fs-6">{t('auth:completeSignup.seeking')}</legend>
          <div className="d-flex flex-wrap gap-2">
            <Choice name="seeking" value="female" label={t('auth:seeking.female')} />
            <Choice name="seeking" value="male" label={t('auth:seeking.male')} />
            <Choice name="seeking" value="both" label={t('auth:seeking.both')} />
          </div>
        </fieldset>
        <div className="d-flex gap-3 align-items-center">
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={navigation.state === 'submitting'}
          >
            {t('auth:completeSignup.submit')}
          </button>
          <Link to="/members">{t('auth:completeSignup.skip')}</Link>
        </div>
      </Form>
    </div>
  );
}
