import { useRef } from 'react';
import { data, Form, Link, redirect, useNavigate, useNavigation, useRevalidator } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { apiFetch } from '#app/lib/api-client.ts';
import { formatDate } from '#app/lib/format.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { AdminConversation, ClaimResponse, InboxItem } from '#contract/admin.ts';
import type { ErrorBody } from '#contract/common.ts';
import type { Route } from './+types/conversation';
import { languageName, useAdminEvents } from './admin-socket.ts';
import { useKeydown } from './shortcuts.ts';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data('not found', { status: 404 });
  // Opening a conversation claims it (or renews the own claim).
  const claim = await context.api<ClaimResponse>('/api/admin/claim.php', {
    method: 'POST',
    body: { conversation: id },
  });
  const view = await context.api<AdminConversation>(`/api/admin/conversation.php?id=${id}`);
  if (!view.ok) throw data('not found', { status: view.status });
  const refusal = claim.ok ? null : (claim.data as unknown as ErrorBody & { name?: string });
  const takenBy = claim.status === 409 && refusal?.error === 'claimed' ? String(refusal.name ?? '') : null;
  // The operator holds as many conversations as they may: they read along until one ends.
  const limitReached = claim.status === 409 && refusal?.error === 'claim_limit' ? refusal.message : null;
  return { view: view.data, takenBy, limitReached };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const conversation = Number(params.id);
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'release') {
    await context.api('/api/admin/claim.php', { method: 'DELETE', body: { conversation } });
    throw redirect('/admin/inbox');
  }
  if (intent === 'note') {
    const result = await context.api('/api/admin/notes.php', {
      method: 'POST',
      body: { conversation, about: formText(form, 'about'), text: formText(form, 'text') },
    });
    return result.ok ? { noted: true } : formError(result);
  }
  const photo = Number(formText(form, 'photo'));
  const result = await context.api('/api/admin/reply.php', {
    method: 'POST',
    body: photo > 0 ? { conversation, photo } : { conversation, text: formText(form, 'text') },
  });
  if (!result.ok) return formError(result);
  if (intent === 'reply-next') {
    // Sent: on to the best conversation waiting now, claimed for the operator (or the queue when none).
    const next = await context.api<{ conversation: InboxItem }>('/api/admin/next.php', {
      method: 'POST',
      body: {},
    });
    if (next.ok) throw redirect(`/admin/conversations/${next.data.conversation.id}`);
  }
  throw redirect(`/admin/inbox?answered=${conversation}`);
}

/** One conversation: the history, both profiles, notes, and the composer that answers as the fictional profile. */
export default function Conversation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const staff = useStaff();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { view, takenBy, limitReached } = loaderData;
  const readOnly = takenBy !== null || limitReached !== null;
  const navigate = useNavigate();
  const sendNext = useRef<HTMLButtonElement>(null);
  const release = useRef<HTMLButtonElement>(null);
  // Esc gives the conversation back and returns to the queue (only back when it is not ours).
  useKeydown((event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
    event.preventDefault();
    if (readOnly || !release.current) void navigate('/admin/inbox');
    else release.current.form?.requestSubmit(release.current);
  });
  const conversationId = view.conversation.id;
  useAdminEvents((event) => {
    if (event.type === 'message' && event.conversation === conversationId) void revalidator.revalidate();
    // Another operator took or released it (never our own claim: reloading claims again).
    if (
      event.type === 'claim' &&
      event.conversation === conversationId &&
      event.claimed_by?.id !== staff?.id
    ) {
      void revalidator.revalidate();
    }
  });
  const lastTyping = useRef(0);
  const onTyping = () => {
    if (readOnly || Date.now() - lastTyping.current < 4000) return;
    lastTyping.current = Date.now();
    void apiFetch('/api/admin/typing.php', { method: 'POST', body: { conversation: conversationId } }).catch(
      (error: unknown) => reportCaught('sending typing', error),
    );
  };
  const member = view.member;
  const memberLanguage = languageName(member.user.language, locale);
  const submitting = navigation.state === 'submitting';
  const actionErrors = actionData && 'errors' in actionData ? actionData.errors : undefined;

  return (
    <div className="row g-3">
      <section className="col-12 col-lg-8" aria-labelledby="conversation-heading">
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <Link to="/admin/inbox" className="btn btn-sm btn-outline-secondary">
            ← {t('admin:nav.inbox')}
          </Link>
          <h1 id="conversation-heading" className="h5 mb-0">
            {t('admin:conversation.heading', { member: member.profile.name, profile: view.profile.name })}
          </h1>
          <span className="badge text-bg-light border">{view.conversation.site.name}</span>
        </div>
        {limitReached !== null && (
          <div className="alert alert-warning" role="status">
            {limitReached}
          </div>
        )}
        {takenBy !== null ? (
          <div className="alert alert-warning" role="status">
            {t('admin:conversation.takenBy', { name: takenBy })}
          </div>
        ) : (
          view.conversation.claim_expires_at && (
            <p className="small text-body-secondary">
              {t('admin:conversation.claimedUntil', {
                time: formatDate(view.conversation.claim_expires_at, locale, { timeStyle: 'short' }),
              })}
            </p>
          )
        )}
        {staff && member.user.language !== staff.language && (
          <div className="alert alert-info py-2" role="note">
            {t('admin:conversation.languageHint', {
              language: memberLanguage,
              own: languageName(staff.language, locale),
            })}
          </div>
        )}
        <ol
          className="list-unstyled border rounded p-2 mb-3 bg-body-tertiary"
          data-testid="history"
          style={{ maxHeight: '55vh', overflowY: 'auto' }}
        >
          {view.messages.map((message) => (
            <li key={message.id} className={`d-flex mb-2 ${message.mine ? 'justify-content-end' : ''}`}>
              <div
                className={`p-2 rounded ${message.mine ? 'bg-primary-subtle' : 'bg-body border'}`}
                style={{ maxWidth: '80%' }}
              >
                <div className="small text-body-secondary">
                  {message.mine ? view.profile.name : member.profile.name} ·{' '}
                  {formatDate(message.created_at, locale, { dateStyle: 'short', timeStyle: 'short' })}
                  {message.automated && (
                    <span className="badge text-bg-warning ms-2" data-testid="automated">
                      {t('engagement:automated')}
                    </span>
                  )}
                </div>
                {message.text && <div style={{ whiteSpace: 'pre-wrap' }}>{message.text}</div>}
                {message.photo && (
                  <img
                    src={message.photo.thumb_filename}
                    alt={t('admin:conversation.photo')}
                    className="img-thumbnail"
                    width={120}
                  />
                )}
                {message.gift && (
                  <img src={message.gift.image} alt={message.gift.slug} width={64} height={64} />
                )}
              </div>
            </li>
          ))}
        </ol>
        <FormAlert errors={actionErrors} />
        <Form method="post" className="mb-2" key={conversationId}>
          <label htmlFor="reply-text" className="form-label">
            {t('admin:conversation.replyAs', { profile: view.profile.name })}
          </label>
          <textarea
            id="reply-text"
            name="text"
            rows={3}
            className="form-control mb-2"
            required
            disabled={readOnly}
            // The conversation opens ready to answer: claim-next lands here with the cursor in the box.
            // biome-ignore lint/a11y/noAutofocus: the console's flow is to open a conversation to reply to it
            autoFocus={!readOnly}
            aria-describedby="reply-shortcuts"
            aria-keyshortcuts="Control+Enter Meta+Enter"
            onInput={onTyping}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && sendNext.current) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit(sendNext.current);
              }
            }}
          />
          <div className="d-flex flex-wrap align-items-center gap-2">
            <button
              type="submit"
              name="intent"
              value="reply-next"
              ref={sendNext}
              className="btn btn-primary"
              disabled={submitting || readOnly}
            >
              {t('admin:conversation.sendNext')}
            </button>
            <button
              type="submit"
              name="intent"
              value="reply"
              className="btn btn-outline-primary"
              disabled={submitting || readOnly}
            >
              {t('admin:conversation.send')}
            </button>
            <span id="reply-shortcuts" className="small text-body-secondary">
              {t('admin:conversation.shortcuts', { send: 'Ctrl/⌘+Enter', release: 'Esc' })}
            </span>
          </div>
        </Form>
        {view.profile_photos.length > 0 && !readOnly && (
          <Form method="post" className="mb-3">
            <input type="hidden" name="intent" value="reply" />
            <p className="small mb-1">{t('admin:conversation.sendPhoto')}</p>
            <div className="d-flex flex-wrap gap-2">
              {view.profile_photos.map((photo) => (
                <button
                  key={photo.id}
                  type="submit"
                  name="photo"
                  value={photo.id}
                  className="btn p-0 border"
                  disabled={submitting}
                >
                  <img
                    src={photo.thumb_filename}
                    alt={t('admin:conversation.photoOf', { name: view.profile.name })}
                    width={72}
                    height={72}
                    style={{ objectFit: 'cover' }}
                  />
                </button>
              ))}
            </div>
          </Form>
        )}
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value="release"
            ref={release}
            className="btn btn-link btn-sm px-0"
            aria-keyshortcuts="Escape"
          >
            {t('admin:conversation.release')}
          </button>
        </Form>
      </section>
      <aside className="col-12 col-lg-4">
        <div className="card mb-3">
          <div className="card-body">
            <h2 className="h6">{t('admin:conversation.member')}</h2>
            <div className="d-flex gap-2 align-items-center mb-2">
              {member.profile.main_image && (
                <img
                  src={member.profile.main_image.thumb_filename}
                  alt=""
                  width={56}
                  height={56}
                  className="rounded"
                  style={{ objectFit: 'cover' }}
                />
              )}
              <p className="mb-0">
                <strong>{member.profile.name}</strong>, {member.profile.age} · {member.profile.country}
              </p>
            </div>
            <dl className="row small mb-0">
              <dt className="col-6">{t('admin:conversation.language')}</dt>
              <dd className="col-6">{memberLanguage}</dd>
              <dt className="col-6">{t('admin:conversation.credits')}</dt>
              <dd className="col-6">{member.user.credits}</dd>
              <dt className="col-6">{t('admin:conversation.premium')}</dt>
              <dd className="col-6">
                {member.user.paid_user ? t('admin:conversation.yes') : t('admin:conversation.no')}
              </dd>
              <dt className="col-6">{t('admin:conversation.signup')}</dt>
              <dd className="col-6">{formatDate(member.user.signup_date, locale)}</dd>
              <dt className="col-6">{t('admin:conversation.lastSeen')}</dt>
              <dd className="col-6">{formatDate(member.user.last_seen, locale)}</dd>
            </dl>
            {member.profile.about && <p className="small mt-2 mb-0">{member.profile.about}</p>}
          </div>
        </div>
        <div className="card mb-3">
          <div className="card-body">
            <h2 className="h6">
              {t('admin:conversation.profile')}{' '}
              <span className="badge text-bg-secondary">{t('admin:conversation.fictional')}</span>
            </h2>
            <div className="d-flex gap-2 align-items-center mb-2">
              {view.profile.main_image && (
                <img
                  src={view.profile.main_image.thumb_filename}
                  alt=""
                  width={56}
                  height={56}
                  className="rounded"
                  style={{ objectFit: 'cover' }}
                />
              )}
              <p className="mb-0">
                <strong>{view.profile.name}</strong>, {view.profile.age} · {view.profile.country}
                {view.profile.region_label ? ` (${view.profile.region_label})` : ''}
              </p>
            </div>
            {view.profile.about && <p className="small mb-0">{view.profile.about}</p>}
          </div>
        </div>
        <div className="card">
          <div className="card-body">
            <h2 className="h6">{t('admin:notes.heading')}</h2>
            {view.notes.length === 0 ? (
              <p className="small text-body-secondary">{t('admin:notes.empty')}</p>
            ) : (
              <ul className="list-unstyled small" data-testid="notes">
                {view.notes.map((note) => (
                  <li key={note.id} className="mb-2">
                    <span className="badge text-bg-light border me-1">
                      {note.about === 'member' ? t('admin:notes.aboutMember') : t('admin:notes.aboutProfile')}
                    </span>
                    <span style={{ whiteSpace: 'pre-wrap' }}>{note.text}</span>
                    <div className="text-body-secondary">
                      {note.by.name} · {formatDate(note.at, locale)}
                    </div>
                  </li>
                ))}
              </ul>
            )}
            <Form method="post">
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="note-text" className="form-label small">
                {t('admin:notes.add')}
              </label>
              <textarea
                id="note-text"
                name="text"
                rows={2}
                className="form-control form-control-sm mb-2"
                required
                maxLength={2000}
              />
              <div className="d-flex flex-wrap gap-2">
                <button
                  type="submit"
                  name="about"
                  value="member"
                  className="btn btn-sm btn-outline-primary"
                  disabled={submitting}
                >
                  {t('admin:notes.saveMember')}
                </button>
                <button
                  type="submit"
                  name="about"
                  value="profile"
                  className="btn btn-sm btn-outline-primary"
                  disabled={submitting}
                >
                  {t('admin:notes.saveProfile')}
                </button>
              </div>
            </Form>
          </div>
        </div>
      </aside>
    </div>
  );
}
