import { ChevronRight, EyeFill, GearFill } from 'react-bootstrap-icons';
import { Link, redirect } from 'react-router';
import { PhotoManager } from '#app/components/photo-manager.tsx';
import { ProfileEditor } from '#app/components/profile-editor.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Route } from './+types/profile';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, 'page.profile');
}

export async function loader({ context }: Route.LoaderArgs) {
  const api = serverApi(context.api);
  const own = await api('GET /api/profile.php');
  if (!own.ok) throw redirect('/login?redirect=%2Fprofile');
  const regions = await api('GET /api/regions.php', { query: { country: own.data.profile.country } });
  return { profile: own.data.profile, regions: regions.ok ? regions.data.regions : [] };
}

const nullable = (value: string) => (value === '' ? null : value);

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const gender = formText(form, 'gender');
  const seeking = formText(form, 'seeking');
  const result = await context.api('/api/profile.php', {
    method: 'PUT',
    body: {
      name: formText(form, 'name'),
      ...(gender ? { gender } : {}),
      ...(seeking ? { seeking } : {}),
      body_type: nullable(formText(form, 'body_type')),
      hair: nullable(formText(form, 'hair')),
      eye_colour: nullable(formText(form, 'eye_colour')),
      relationship_status: nullable(formText(form, 'relationship_status')),
      tattoos: nullable(formText(form, 'tattoos')),
      interests: form.getAll('interests').filter((value): value is string => typeof value === 'string'),
      about: nullable(formText(form, 'about')),
      country: formText(form, 'country'),
      countryregion: nullable(formText(form, 'countryregion')),
    },
  });
  return result.ok ? { done: true } : formError(result);
}

type ActionResult = { done?: boolean; errors?: FormErrors };

/**
 * The member's own profile: photos first, then about, then the details. Account matters (password,
 * e-mail, language, blocks, deletion) live on their own page, one tap away (routes/account-settings.tsx).
 */
export default function Profile({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const result = actionData as ActionResult | undefined;
  return (
    <div className="container py-4 settings-page">
      <div className="d-flex align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{t('page.profile')}</h1>
        <Link
          to={`/members/${loaderData.profile.id}`}
          className="btn btn-outline-primary btn-sm"
          data-testid="profile-preview"
        >
          <EyeFill aria-hidden="true" className="me-1" />
          {t('discover:editor.preview')}
        </Link>
      </div>

      <PhotoManager profile={loaderData.profile} />
      <ProfileEditor
        profile={loaderData.profile}
        regions={loaderData.regions}
        errors={result?.errors}
        saved={Boolean(result?.done)}
      />

      <ul className="settings-list">
        <li>
          <Link to="/profile/account" className="settings-link" data-testid="account-settings-link">
            <GearFill aria-hidden="true" className="text-primary flex-shrink-0" />
            <span className="setting-text">
              <span className="setting-label">{t('page.accountSettings')}</span>
              <span className="setting-help">{t('profile:account.linkHelp')}</span>
            </span>
            <ChevronRight aria-hidden="true" className="flex-shrink-0 text-body-secondary" />
          </Link>
        </li>
      </ul>
    </div>
  );
}
