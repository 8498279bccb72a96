import { useState } from 'react';
import { ChatHeartFill, LockFill, StarFill } from 'react-bootstrap-icons';
import { data, Form, Link, redirect, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { LikeButton } from '#app/components/like-button.tsx';
import { PhotoLightbox } from '#app/components/photo-lightbox.tsx';
import { Presence } from '#app/components/presence.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { serverApi } from '#app/lib/api.ts';
import { countryName } from '#app/lib/countries.ts';
import { pageMeta } from '#app/lib/meta.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { useSession } from '#app/state/session.tsx';
import type { Photo, Profile } from '#contract/profiles.ts';
import type { Route } from './+types/member';

export const handle = { membersArea: true };

export function meta({ matches, data: loaded }: Route.MetaArgs) {
  const base = pageMeta(matches, 'page.member');
  if (loaded && 'member' in loaded && loaded.member) {
    const [title, ...rest] = base;
    const text = title && 'title' in title ? String(title.title) : '';
    return [{ title: `${loaded.member.profile.name} · ${text}` }, ...rest];
  }
  return base;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const answer = await serverApi(context.api)('GET /api/member.php', {
    query: { id: Number(params.id) || 0 },
  });
  if (answer.ok) return { member: answer.data };
  const body = answer.error;
  if (body.error === 'blocked') return { blockedBy: String(body.name ?? '') };
  if (body.error === 'authentication_required') {
    throw redirect(`/login?redirect=${encodeURIComponent(new URL(request.url).pathname)}`);
  }
  throw data(null, { status: answer.status === 422 ? 404 : answer.status });
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const profile = Number(params.id);
  if (intent === 'report') {
    const result = await context.api('/api/report.php', {
      method: 'POST',
      body: { profile, reason: formText(form, 'reason'), text: formText(form, 'text') || undefined },
    });
    return result.ok ? { reported: true } : formError(result);
  }
  const result = await context.api('/api/block.php', {
    method: intent === 'unblock' ? 'DELETE' : 'POST',
    body: { profile },
  });
  return result.ok ? { blockedNow: intent !== 'unblock' } : formError(result);
}

function Gallery({
  profile,
  photos,
  overlay,
}: {
  profile: Profile;
  photos: Photo[];
  /** Name, age and presence, over the bottom of the photo on a scrim, as dating apps show them. */
  overlay: React.ReactNode;
}) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(0);
  const [open, setOpen] = useState(false);
  const shown = photos[current];
  if (!shown) {
    return (
      <div className="member-photo-frame is-empty">
        <div className="profile-card-empty" aria-hidden="true" />
        <div className="member-photo-overlay">{overlay}</div>
      </div>
    );
  }
  return (
    <div>
      <div className="member-photo-frame">
        <button
          type="button"
          className="member-photo-button"
          onClick={() => setOpen(true)}
          aria-label={t('discover:lightbox.open', { number: current + 1, total: photos.length })}
          data-testid="open-lightbox"
        >
          <img
            src={shown.filename}
            alt={t('profile:photos.of', { number: current + 1, total: photos.length })}
            width={720}
            height={900}
            data-testid="member-photo"
          />
        </button>
        <div className="member-photo-overlay">{overlay}</div>
        {shown.locked && (
          <div className="photo-locked">
            <LockFill aria-hidden="true" size={28} />
            <p className="mb-0 fw-semibold">{t('profile:photos.premiumLocked')}</p>
            <Link to="/premium" className="btn btn-light btn-sm" data-testid="unlock-photos">
              {t('discover:photos.unlock')}
            </Link>
          </div>
        )}
      </div>
      {photos.length > 1 && (
        <ul className="member-thumbs">
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <button
                type="button"
                onClick={() => setCurrent(index)}
                aria-label={t('profile:photos.of', { number: index + 1, total: photos.length })}
                aria-current={index === current}
              >
                <img src={photo.thumb_filename} alt="" width={64} height={64} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <PhotoLightbox photos={photos} start={current} name={profile.name} onClose={() => setOpen(false)} />
      )}
    </div>
  );
}

const detailFields = [
  ['gender', 'field.gender', 'gender'],
  ['sexuality', 'field.sexuality', 'sexuality'],
  ['body_type', 'field.bodyType', 'bodyType'],
  ['hair', 'field.hair', 'hair'],
  ['eye_colour', 'field.eyeColour', 'eyeColour'],
  ['relationship_status', 'field.relationshipStatus', 'relationshipStatus'],
  ['tattoos', 'field.tattoos', 'tattoos'],
] as const;

/** The member screen (members-id and likes-m-id): photos, details, block and report. */
export default function Member({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, locale } = useRootData();
  const { user } = useSession();
  const navigation = useNavigation();
  if ('blockedBy' in loaderData) {
    return (
      <div className="container py-5" style={{ maxWidth: 560 }}>
        <div className="alert alert-warning" role="alert">
          {t('errors:blocked', { name: loaderData.blockedBy })}
        </div>
      </div>
    );
  }
  const { profile, photos, blocked, liked } = loaderData.member;
  const own = user?.profile.id === profile.id;
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const visibleFields = settings.visible_profile_fields;
  return (
    <div className="container py-4 member-page">
      <div className="row g-4">
        <div className="col-md-5">
          <Gallery
            profile={profile}
            photos={photos}
            overlay={
              <>
                {profile.fictional && (
                  <span className="badge text-bg-warning member-fictional" data-testid="fictional-marker">
                    <StarFill aria-hidden="true" className="me-1" />
                    {settings.fictional_singular || t('profile:member.fictional')}
                  </span>
                )}
                <h1 className="member-name" data-testid="member-name">
                  {t('profile:card.age', { name: profile.name, age: profile.age })}
                </h1>
                <Presence
                  of={profile}
                  region={[profile.region_label, countryName(profile.country, locale)]
                    .filter(Boolean)
                    .join(', ')}
                  className="member-presence"
                />
              </>
            }
          />
        </div>
        <div className="col-md-7">
          {profile.fictional && settings.fictional_warning && (
            <p className="small">{settings.fictional_warning}</p>
          )}
          {profile.about && (
            <section className="mb-3">
              <h2 className="h6">{t('profile:member.about', { name: profile.name })}</h2>
              <p className="text-break" style={{ whiteSpace: 'pre-line' }}>
                {profile.about}
              </p>
            </section>
          )}
          <section className="mb-3">
            <h2 className="h6">{t('profile:member.details')}</h2>
            <dl className="row mb-0">
              {detailFields
                .filter(([field]) => visibleFields.length === 0 || visibleFields.includes(field))
                .map(([field, label, options]) => {
                  const value = profile[field];
                  return (
                    <div key={field} className="col-6 col-lg-4 mb-2">
                      <dt className="small text-body-secondary fw-normal">{t(`profile:${label}`)}</dt>
                      <dd className="mb-0">
                        {value ? t(`profile:${options}.${value}`) : t('profile:notSaid')}
                      </dd>
                    </div>
                  );
                })}
            </dl>
          </section>
          {profile.interests.length > 0 && (
            <section className="mb-3">
              <h2 className="h6">{t('profile:member.interests')}</h2>
              <ul className="list-inline">
                {profile.interests.map((interest) => (
                  <li
                    key={interest}
                    className="list-inline-item badge rounded-pill text-bg-light border mb-1"
                  >
                    {t(`profile:interest.${interest}`)}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <FormAlert errors={errors} />
          {actionData && 'blockedNow' in actionData && actionData.blockedNow && (
            <div className="alert alert-info" role="status">
              {t('profile:member.blocked', { name: profile.name })}
            </div>
          )}
          {!own && !blocked && (
            <div className="member-actions mb-3" data-testid="member-actions">
              <LikeButton profile={profile} liked={liked} />
              <Link to={`/members/${profile.id}/chat`} className="btn btn-primary">
                <ChatHeartFill aria-hidden="true" className="me-1" />
                {t('profile:member.chat')}
              </Link>
            </div>
          )}
          <div className="d-flex flex-wrap gap-2">
            {!own && (
              <Form method="post">
                <input type="hidden" name="intent" value={blocked ? 'unblock' : 'block'} />
                <button
                  type="submit"
                  className="btn btn-outline-secondary"
                  disabled={navigation.state === 'submitting'}
                >
                  {blocked ? t('profile:member.unblock') : t('profile:member.block')}
                </button>
              </Form>
            )}
          </div>
          {!own && (
            <details className="mt-3">
              <summary>{t('profile:member.report')}</summary>
              {actionData && 'reported' in actionData ? (
                <p className="mt-2" role="status">
                  {t('profile:report.thanks')}
                </p>
              ) : (
                <Form method="post" className="mt-2" style={{ maxWidth: 420 }}>
                  <input type="hidden" name="intent" value="report" />
                  <label htmlFor="report-reason" className="form-label">
                    {t('profile:report.reason')}
                  </label>
                  <select
                    id="report-reason"
                    name="reason"
                    className="form-select mb-2"
                    required
                    defaultValue=""
                  >
                    <option value="" disabled>
                      {t('profile:report.reason')}
                    </option>
                    {(['spam', 'scam', 'offensive', 'underage', 'other'] as const).map((reason) => (
                      <option key={reason} value={reason}>
                        {t(`profile:report.reason.${reason}`)}
                      </option>
                    ))}
                  </select>
                  <label htmlFor="report-text" className="form-label">
                    {t('profile:report.text')}
                  </label>
                  <textarea
                    id="report-text"
                    name="text"
                    className="form-control mb-2"
                    rows={3}
                    maxLength={2000}
                  />
                  <button type="submit" className="btn btn-outline-danger btn-sm">
                    {t('profile:report.submit')}
                  </button>
                </Form>
              )}
            </details>
          )}
        </div>
      </div>
    </div>
  );
}
