import { useRef, useState } from 'react';
import { data, Form, Link, redirect, useNavigate, useNavigation, useRevalidator } from 'react-router';
import { FormAlert } from '#app/components/forms/form-field.tsx';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import { formError, formText } from '#app/lib/actions.server.ts';
import { formatDate } from '#app/lib/format.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { staffApi } from '#app/lib/staff-api.server.ts';
import { staffBrowserApi } from '#app/lib/staff-api.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { type AdminConversation, fillTemplate, noteCategories, personaFields } from '#contract/admin.ts';
import { type Locale, locales } from '#contract/locales.ts';
import type { Route } from './+types/conversation';
import { languageName, useAdminEvents } from './admin-socket.ts';
import { Dossier, NotesList, PersonaSheet } from './conversation-side.tsx';
import { useKeydown } from './shortcuts.ts';
import { isTemplateShortcut, TemplatePicker } from './template-picker.tsx';

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data('not found', { status: 404 });
  const call = staffApi(context.api);
  // Opening a conversation claims it (or renews the own claim). The claim and the reading go out
  // together (one round trip less between two conversations); the claim's own answer says who holds it.
  const [claim, read] = await Promise.all([
    call('POST /api/admin/claim.php', { body: { conversation: id } }),
    call('GET /api/admin/conversation.php', { query: { id } }),
  ]);
  if (!read.ok) throw data('not found', { status: read.status });
  const view = claim.ok
    ? {
        ...read,
        data: {
          ...read.data,
          conversation: {
            ...read.data.conversation,
            claimed_by: claim.data.claimed_by,
            claim_expires_at: claim.data.claim_expires_at,
          },
        },
      }
    : read;
  const takenBy = !claim.ok && claim.code === 'claimed' ? String(claim.error.name ?? '') : null;
  // The operator holds as many conversations as they may: they read along until one ends.
  const limitReached = !claim.ok && claim.code === 'claim_limit' ? claim.error.message : null;
  // The templates for this member's site and language; none when they cannot be read.
  const templates = await call('GET /api/admin/templates.php', {
    query: {
      site: view.data.conversation.site.id,
      language: isLocale(view.data.member.user.language) ? view.data.member.user.language : undefined,
    },
  });
  return { view: view.data, takenBy, limitReached, templates: templates.ok ? templates.data.templates : [] };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const conversation = Number(params.id);
  const call = staffApi(context.api);
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'release') {
    await call('DELETE /api/admin/claim.php', { body: { conversation } });
    throw redirect('/admin/inbox');
  }
  if (intent === 'note') {
    const category = formText(form, 'category');
    const result = await call('POST /api/admin/notes.php', {
      body: {
        conversation,
        about: formText(form, 'about') === 'profile' ? 'profile' : 'member',
        category: noteCategories.find((known) => known === category) ?? 'facts',
        text: formText(form, 'text'),
      },
    });
    return result.ok ? { noted: true } : formError(result);
  }
  if (intent === 'persona') {
    const facts = Object.fromEntries(
      personaFields.map((field) => [field, formText(form, `persona.${field}`)]),
    );
    const result = await call('PUT /api/admin/persona.php', {
      body: { profile: Number(formText(form, 'profile')), facts },
    });
    return result.ok ? { personaSaved: true } : { ...formError(result), intent: 'persona' };
  }
  const photo = Number(formText(form, 'photo'));
  const result = await call('POST /api/admin/reply.php', {
    body: photo > 0 ? { conversation, photo } : { conversation, text: formText(form, 'text') },
  });
  if (!result.ok) return formError(result);
  if (intent === 'reply-next') {
    // Sent: on to the best conversation waiting now, claimed for the operator (or the queue when none).
    const next = await call('POST /api/admin/next.php', { body: {} });
    if (next.ok) throw redirect(`/admin/conversations/${next.data.conversation.id}`);
  }
  throw redirect(`/admin/inbox?answered=${conversation}`);
}

function isLocale(value: string): value is Locale {
  return locales.some((locale) => locale === value);
}

/** The values a template's variables take in this conversation. */
function templateValues(view: AdminConversation) {
  return {
    member_name: view.member.profile.name,
    profile_name: view.profile.name,
    member_city: view.member.profile.region_label ?? view.member.profile.countryregion ?? '',
    member_age: String(view.member.profile.age),
  };
}

/** One conversation: the history, both profiles, notes, and the composer that answers as the fictional profile. */
export default function Conversation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData().locale;
  const staff = useStaff();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { view, takenBy, limitReached, templates } = loaderData;
  const readOnly = takenBy !== null || limitReached !== null;
  const navigate = useNavigate();
  const sendNext = useRef<HTMLButtonElement>(null);
  const release = useRef<HTMLButtonElement>(null);
  const replyBox = useRef<HTMLTextAreaElement>(null);
  const [picking, setPicking] = useState(false);
  // The chosen template, filled in, goes where the cursor is in the reply (replacing a selection).
  const insertTemplate = (text: string) => {
    const box = replyBox.current;
    setPicking(false);
    if (!box) return;
    box.setRangeText(fillTemplate(text, templateValues(view)), box.selectionStart, box.selectionEnd, 'end');
    box.focus();
    onTyping();
  };
  // Esc gives the conversation back and returns to the queue (only back when it is not ours);
  // Alt+T opens the templates from anywhere on the page.
  useKeydown((event) => {
    if (!readOnly && templates.length > 0 && isTemplateShortcut(event)) {
      event.preventDefault();
      setPicking(true);
      return;
    }
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
    void staffBrowserApi('POST /api/admin/typing.php', { body: { conversation: conversationId } }).catch(
      (error: unknown) => reportCaught('sending typing', error),
    );
  };
  const member = view.member;
  const memberLanguage = languageName(member.user.language, locale);
  const submitting = navigation.state === 'submitting';
  const personaErrors =
    actionData && 'errors' in actionData && 'intent' in actionData ? actionData.errors : undefined;
  const actionErrors =
    actionData && 'errors' in actionData && !('intent' in actionData) ? actionData.errors : undefined;

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
            rows={4}
            ref={replyBox}
            className="form-control mb-2"
            required
            disabled={readOnly}
            // The conversation opens ready to answer: claim-next lands here with the cursor in the box.
            // biome-ignore lint/a11y/noAutofocus: the console's flow is to open a conversation to reply to it
            autoFocus={!readOnly}
            aria-describedby="reply-shortcuts"
            aria-keyshortcuts="Control+Enter Meta+Enter Alt+T"
            onInput={onTyping}
            onKeyDown={(event) => {
              // "/" at the very start of an empty reply opens the templates (and is replaced by one).
              if (
                event.key === '/' &&
                templates.length > 0 &&
                event.currentTarget.value === '' &&
                !event.ctrlKey &&
                !event.metaKey &&
                !event.altKey
              ) {
                event.preventDefault();
                setPicking(true);
                return;
              }
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
            {templates.length > 0 && !readOnly && (
              <button
                type="button"
                className="btn btn-outline-secondary"
                aria-keyshortcuts="Alt+T"
                onClick={() => setPicking(true)}
              >
                {t('workbench:templates.open')}
              </button>
            )}
            <span id="reply-shortcuts" className="small text-body-secondary">
              {t('admin:conversation.shortcuts', { send: 'Ctrl/⌘+Enter', release: 'Esc' })}
              {templates.length > 0 &&
                ` · ${t('workbench:templates.shortcut', { keys: 'Alt+T', slash: '/' })}`}
            </span>
          </div>
          {picking && (
            <TemplatePicker
              templates={templates}
              values={templateValues(view)}
              onPick={insertTemplate}
              onClose={() => {
                setPicking(false);
                replyBox.current?.focus();
              }}
            />
          )}
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
      <aside className="col-12 col-lg-4" aria-label={t('workbench:console.side')}>
        <Dossier view={view} memberLanguage={memberLanguage} />
        <PersonaSheet
          view={view}
          errors={personaErrors}
          saved={Boolean(actionData && 'personaSaved' in actionData)}
        />
        <NotesList view={view} submitting={submitting} />
      </aside>
    </div>
  );
}
