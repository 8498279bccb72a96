import type { ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { ChatPhotoQueueItem, MemberPhoto } from '#contract/admin-members.ts';
import type { Route } from './+types/photos';
import { ReportCount } from './members.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const result = await staffApi(context.api)('GET /api/admin/photo-queue.php');
  if (!result.ok) throw new Response(null, { status: result.status });
  return { photos: result.data.photos, chatPhotos: result.data.chat_photos };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  if (formText(form, 'kind') === 'chat') {
    const decided = await staffApi(context.api)('PUT /api/admin/chat-photo-queue.php', {
      body: { id: Number(formText(form, 'photo')), decision: formText(form, 'decision') },
    });
    return decided.ok ? { decided: true, status: decided.data.status } : formError(decided);
  }
  const reason = formText(form, 'reason').trim();
  const result = await staffApi(context.api)('PUT /api/admin/photo-queue.php', {
    body: {
      photo: Number(formText(form, 'photo')),
      decision: formText(form, 'decision'),
      ...(reason ? { reason } : {}),
    },
  });
  return result.ok ? { decided: true } : formError(result);
}

/**
 * What screening said about a photo: held (and why) or its state, the faces and youngest apparent age,
 * and the nudity classifier's label scores, highest first.
 */
function ScreeningSummary({ photo }: { photo: Pick<MemberPhoto, 'status' | 'hold_reason' | 'screening'> }) {
  const { t } = useTranslation();
  const scores = Object.entries(photo.screening?.nudity ?? {}).sort(([, a], [, b]) => b - a);
  return (
    <div className="small mb-2" data-testid="photo-screening">
      {photo.status === 'held' && photo.hold_reason ? (
        <span
          className={`badge ${photo.hold_reason === 'apparent_minor' ? 'text-bg-danger' : 'text-bg-warning'} mb-1`}
          data-testid="hold-reason"
        >
          {t(`admin:photos.hold.${photo.hold_reason}`)}
        </span>
      ) : (
        <span className="badge text-bg-light border mb-1">
          {t(photo.status === 'screening' ? 'admin:photos.status.screening' : 'admin:photos.status.approved')}
        </span>
      )}
      {photo.screening && (
        <>
          <div>
            {t('admin:photos.faces', { count: photo.screening.faces })} ·{' '}
            {photo.screening.min_age_estimate === null
              ? t('admin:photos.noAge')
              : t('admin:photos.minAge', { age: photo.screening.min_age_estimate.toFixed(1) })}
          </div>
          {scores.length > 0 && (
            <dl className="photo-scores mb-0" aria-label={t('admin:photos.scores')}>
              {scores.map(([label, score]) => (
                <div key={label} className="d-flex justify-content-between gap-2">
                  <dt className="fw-normal">{label}</dt>
                  <dd className="mb-0 font-monospace">{score.toFixed(2)}</dd>
                </div>
              ))}
            </dl>
          )}
          {photo.screening.error && <div className="text-danger-emphasis">{photo.screening.error}</div>}
        </>
      )}
    </div>
  );
}

/**
 * One decision on one photo: the fields every decision sends (which queue, which photo, what), then
 * the form's own controls.
 */
function DecisionForm({
  photo,
  decision,
  chat = false,
  className,
  children,
}: {
  photo: number;
  decision: 'approve' | 'reject';
  chat?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={className}>
      {chat && <input type="hidden" name="kind" value="chat" />}
      <input type="hidden" name="photo" value={photo} />
      <input type="hidden" name="decision" value={decision} />
      {children}
    </Form>
  );
}

/** A decision's button, off while any decision is on its way. */
function DecideButton({ className, children }: { className: string; children: ReactNode }) {
  const navigation = useNavigation();
  return (
    <button type="submit" className={className} disabled={navigation.state === 'submitting'}>
      {children}
    </button>
  );
}

/**
 * Photos sent in chats that the screening held: the recipient has seen nothing yet. Delivering sends
 * the message; removing deletes it and gives the sender the price back.
 */
function ChatPhotos({ photos }: { photos: ChatPhotoQueueItem[] }) {
  const { t } = useTranslation();
  return (
    <section className="mb-4" data-testid="chat-photos">
      <h2 className="h5">{t('admin:photos.chat.heading')}</h2>
      <div className="row g-3">
        {photos.map((photo) => (
          <div key={photo.id} className="col-12 col-sm-6 col-lg-4 col-xxl-3">
            <div className="card h-100 border-warning">
              <img
                src={photo.url}
                alt={`#${photo.id}`}
                className="card-img-top object-fit-cover"
                height={220}
              />
              <div className="card-body">
                <span className="badge text-bg-info mb-1">{t('admin:photos.chat.badge')}</span>
                <p className="small mb-2">
                  {t('admin:photos.chat.between', {
                    sender: photo.sender.name,
                    recipient: photo.recipient.name,
                  })}{' '}
                  · {photo.sender.site}
                </p>
                <ScreeningSummary photo={{ ...photo, status: 'held' }} />
                {(['approve', 'reject'] as const).map((decision) => (
                  <DecisionForm
                    key={decision}
                    photo={photo.id}
                    decision={decision}
                    chat
                    className="d-inline me-2"
                  >
                    <DecideButton
                      className={`btn btn-sm ${decision === 'approve' ? 'btn-success' : 'btn-outline-danger'}`}
                    >
                      {t(decision === 'approve' ? 'admin:photos.chat.deliver' : 'admin:photos.chat.remove')}
                    </DecideButton>
                  </DecisionForm>
                ))}
              </div>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

/**
 * Members' new photos: held for an apparent minor first, then other held ones, then the rest, oldest
 * first; approve, or reject with a reason (the member is told by mail).
 */
export default function PhotoQueue({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const errors = actionData && 'errors' in actionData ? actionData.errors : undefined;
  const withdrawn = actionData && 'status' in actionData && actionData.status === 'withdrawn';
  return (
    <div>
      <h1 className="h4">{t('admin:photos.heading')}</h1>
      <FormAlert errors={errors} />
      {withdrawn && (
        <div className="alert alert-warning" role="status" data-testid="chat-photo-withdrawn">
          {t('admin:photos.chat.withdrawn')}
        </div>
      )}
      {errors?.body.fields && (
        <div className="alert alert-danger" role="alert">
          {t('admin:photos.reasonNeeded')}
        </div>
      )}
      {loaderData.chatPhotos.length > 0 && <ChatPhotos photos={loaderData.chatPhotos} />}
      {loaderData.photos.length === 0 && <p>{t('admin:photos.none')}</p>}
      <div className="row g-3">
        {loaderData.photos.map(({ photo, member }) => (
          <div key={photo.id} className="col-12 col-sm-6 col-lg-4 col-xxl-3">
            <div className="card h-100">
              <img
                src={photo.url}
                alt={`#${photo.id}`}
                className="card-img-top object-fit-cover"
                height={220}
              />
              <div className="card-body">
                <p className="small mb-2">
                  <Link to={`/admin/members/${member.profile_id}`}>{member.name}</Link> · {member.site}{' '}
                  <ReportCount count={member.reports_about} />
                </p>
                <ScreeningSummary photo={photo} />
                <DecisionForm photo={photo.id} decision="approve" className="d-inline">
                  <DecideButton className="btn btn-sm btn-success">{t('admin:photos.approve')}</DecideButton>
                </DecisionForm>
                <DecisionForm photo={photo.id} decision="reject" className="mt-2">
                  <label className="form-label small" htmlFor={`reject-${photo.id}`}>
                    {t('admin:action.reason')}
                  </label>
                  <div className="input-group input-group-sm">
                    <input
                      id={`reject-${photo.id}`}
                      name="reason"
                      className="form-control"
                      required
                      maxLength={500}
                    />
                    <DecideButton className="btn btn-outline-danger">{t('admin:photos.reject')}</DecideButton>
                  </div>
                </DecisionForm>
              </div>
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
