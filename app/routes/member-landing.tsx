import { StarFill } from 'react-bootstrap-icons';
import { useTranslation } from 'react-i18next';
import { data, useMatches } from 'react-router';
import type { Profile } from '#contract/profiles.ts';
import { SignupForm } from '../components/signup-form.tsx';
import { useRootData } from '../lib/root-data.ts';
import type { Route } from './+types/member-landing';

export function meta({ data: loaded }: Route.MetaArgs) {
  return loaded ? [{ title: loaded.profile.name }] : [];
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const answer = await context.api<{ profiles: Profile[] }>(
    `/api/featured.php?profile=${Number(params.id) || 0}`,
  );
  const profile = answer.ok ? answer.data.profiles[0] : undefined;
  if (!profile) throw data(null, { status: 404 });
  return { profile };
}

/**
 * /members/{id}/landing, landing2, landing3 and signup: an ad lands on one profile, and the visitor
 * signs up with a first message to it.
 */
export default function MemberLanding({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const variant = useMatches().at(-1)?.id ?? 'members-id-landing';
  const { profile } = loaderData;
  const photo = profile.main_image && (
    <img
      src={profile.main_image.filename}
      alt={profile.name}
      width={720}
      height={720}
      className="img-fluid rounded w-100 object-fit-cover"
    />
  );
  const form = (
    <section className="card shadow-sm">
      <div className="card-body">
        <h2 className="h5">{t('landers:formHeading')}</h2>
        <SignupForm next={`/members/${profile.id}`} contact={{ profile: profile.id, name: profile.name }} />
      </div>
    </section>
  );
  return (
    <div className="container py-4" data-variant={variant}>
      <h1 className="h3">
        {t('profile:card.age', { name: profile.name, age: profile.age })}
        {profile.fictional && (
          <StarFill aria-label={t('profile:member.fictional')} className="ms-2 text-warning" size={16} />
        )}
      </h1>
      <p className="lead">{t('landers:member.lead', { name: profile.name, site: settings.name })}</p>
      {variant === 'members-id-signup' ? (
        <div style={{ maxWidth: 560 }}>{form}</div>
      ) : (
        <div className={`row g-4 ${variant === 'members-id-landing2' ? 'flex-row-reverse' : ''}`}>
          <div className={variant === 'members-id-landing3' ? 'col-md-7' : 'col-md-5'}>{photo}</div>
          <div className={variant === 'members-id-landing3' ? 'col-md-5' : 'col-md-7'}>{form}</div>
        </div>
      )}
    </div>
  );
}
