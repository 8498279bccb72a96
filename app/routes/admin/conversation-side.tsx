import { Fragment } from 'react';
import { Form, Link } from 'react-router';
import { useStaff } from '#app/layouts/admin-layout.tsx';
import type { FormErrors } from '#app/lib/form-errors.ts';
import { formatDate } from '#app/lib/format.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import { type AdminConversation, type Note, noteCategories, personaFields } from '#contract/admin.ts';
import { errorAt, useFieldErrorText } from './backoffice-form.tsx';

const dateTime = { dateStyle: 'short', timeStyle: 'short' } as const;

/**
 * The member at a glance, beside the conversation: who they are and seek, whether they are online,
 * what they are worth (credits, spend), their photos, their other conversations with fictional
 * profiles (and who answered), and reports about them.
 */
export function Dossier({ view, memberLanguage }: { view: AdminConversation; memberLanguage: string }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const member = view.member;
  const dossier = member.dossier;
  const staff = useStaff();
  const mayStart = staff !== null && (staff.outbound || staff.role === 'lead' || staff.role === 'admin');
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (
    <section className="card mb-3" aria-labelledby="dossier-heading" data-testid="dossier">
      <div className="card-body p-3">
        <div className="d-flex gap-2 align-items-start mb-2">
          {member.profile.main_image && (
            <img
              src={member.profile.main_image.thumb_filename}
              alt=""
              width={56}
              height={56}
              className="rounded flex-shrink-0"
              style={{ objectFit: 'cover' }}
            />
          )}
          <div className="flex-grow-1">
            <h2 id="dossier-heading" className="h6 mb-1">
              {member.profile.name}, {member.profile.age}{' '}
              {dossier.online ? (
                <span className="badge text-bg-success">{t('workbench:dossier.online')}</span>
              ) : (
                <span className="badge text-bg-light border">{t('workbench:dossier.offline')}</span>
              )}
            </h2>
            <div className="small text-body-secondary">
              {[member.profile.country, dossier.countryregion].filter(Boolean).join(' · ')} · {memberLanguage}
            </div>
            {dossier.seeking && (
              <div className="small">
                {t('workbench:dossier.seeking', { seeking: t(`workbench:seeking.${dossier.seeking}`) })}
              </div>
            )}
          </div>
        </div>
        <div className="d-flex flex-wrap gap-1 mb-2">
          <span className={`badge ${member.user.paid_user ? 'text-bg-primary' : 'text-bg-secondary'}`}>
            {member.user.paid_user ? t('workbench:dossier.paying') : t('workbench:dossier.neverPaid')}
          </span>
          <span className="badge text-bg-light border">
            {t('workbench:dossier.credits', { count: member.user.credits })}
          </span>
          {dossier.reports.length > 0 && (
            <span className="badge text-bg-danger">
              {t('workbench:dossier.reports', { count: dossier.reports.length })}
            </span>
          )}
        </div>
        <dl className="row small mb-2 gx-2">
          <dt className="col-5 fw-normal text-body-secondary">{t('workbench:dossier.spent')}</dt>
          <dd className="col-7 mb-1">{money.format(dossier.spent_cents_total / 100)}</dd>
          <dt className="col-5 fw-normal text-body-secondary">{t('workbench:dossier.lastPurchase')}</dt>
          <dd className="col-7 mb-1">
            {dossier.last_purchase_at ? formatDate(dossier.last_purchase_at, locale, dateTime) : '–'}
          </dd>
          <dt className="col-5 fw-normal text-body-secondary">{t('admin:conversation.signup')}</dt>
          <dd className="col-7 mb-1">{formatDate(member.user.signup_date, locale, dateTime)}</dd>
          <dt className="col-5 fw-normal text-body-secondary">{t('admin:conversation.lastSeen')}</dt>
          <dd className="col-7 mb-1">{formatDate(dossier.last_seen_at, locale, dateTime)}</dd>
        </dl>
        {member.profile.about && <p className="small mb-2">{member.profile.about}</p>}
        {dossier.photos.length > 0 && (
          <ul
            className="list-unstyled d-flex flex-wrap gap-1 mb-2"
            aria-label={t('workbench:dossier.photos')}
          >
            {dossier.photos.map((photo) => (
              <li key={photo.id}>
                <a href={photo.filename} target="_blank" rel="noreferrer">
                  <img
                    src={photo.thumb_filename}
                    alt={t('admin:conversation.photoOf', { name: member.profile.name })}
                    width={48}
                    height={48}
                    className="rounded border"
                    style={{ objectFit: 'cover' }}
                  />
                </a>
              </li>
            ))}
          </ul>
        )}
        {mayStart && (
          <p className="small mb-2">
            <Link to={`/admin/outbound?member=${member.profile.id}`}>{t('admin:outbound.fromDossier')}</Link>
          </p>
        )}
        <h3 className="h6 small fw-semibold mb-1">{t('workbench:dossier.otherConversations')}</h3>
        {dossier.conversations.length === 0 ? (
          <p className="small text-body-secondary mb-0">{t('workbench:dossier.noOtherConversations')}</p>
        ) : (
          <ul className="list-unstyled small mb-0">
            {dossier.conversations.map((other) => (
              <li key={other.id} className="d-flex justify-content-between gap-2">
                <Link to={`/admin/conversations/${other.id}`}>{other.profile.name}</Link>
                <span className="text-body-secondary text-end">
                  {other.answered_by
                    ? t('workbench:dossier.answeredBy', { name: other.answered_by.name })
                    : ''}
                  {other.last_message_at ? ` · ${formatDate(other.last_message_at, locale, dateTime)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** The fictional profile with its persona sheet: the facts every operator writing as it keeps. */
export function PersonaSheet({
  view,
  errors,
  saved,
}: {
  view: AdminConversation;
  errors: FormErrors | undefined;
  saved: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const facts = view.persona.facts;
  const filled = personaFields.filter((field) => facts[field]);
  return (
    <section
      className="card mb-3 border-primary-subtle"
      aria-labelledby="persona-heading"
      data-testid="persona"
    >
      <div className="card-body p-3">
        <div className="d-flex gap-2 align-items-center mb-2">
          {view.profile.main_image && (
            <img
              src={view.profile.main_image.thumb_filename}
              alt=""
              width={40}
              height={40}
              className="rounded"
              style={{ objectFit: 'cover' }}
            />
          )}
          <h2 id="persona-heading" className="h6 mb-0">
            {t('workbench:persona.heading', { name: view.profile.name })}{' '}
            <span className="badge text-bg-secondary">{t('admin:conversation.fictional')}</span>
          </h2>
        </div>
        <p className="small text-body-secondary mb-2">
          {view.profile.age} · {view.profile.country}
          {view.profile.region_label ? ` (${view.profile.region_label})` : ''}
        </p>
        {saved && !errors && (
          <div className="alert alert-success py-1 small" role="status">
            {t('workbench:persona.saved')}
          </div>
        )}
        {filled.length === 0 ? (
          <p className="small text-body-secondary">{t('workbench:persona.empty')}</p>
        ) : (
          <dl className="row small mb-2 gx-2">
            {filled.map((field) => (
              <Fragment key={field}>
                <dt className="col-4 fw-normal text-body-secondary">{t(`workbench:persona.${field}`)}</dt>
                <dd className="col-8 mb-1" style={{ whiteSpace: 'pre-wrap' }}>
                  {facts[field]}
                </dd>
              </Fragment>
            ))}
          </dl>
        )}
        <details open={errors !== undefined}>
          <summary className="small">{t('workbench:persona.edit')}</summary>
          <Form method="post" className="mt-2">
            <input type="hidden" name="intent" value="persona" />
            <input type="hidden" name="profile" value={view.profile.id} />
            {personaFields.map((field) => {
              const code = errorAt(errors, `facts.${field}`);
              return (
                <div className="mb-2" key={field}>
                  <label htmlFor={`persona-${field}`} className="form-label small mb-0">
                    {t(`workbench:persona.${field}`)}
                  </label>
                  <textarea
                    id={`persona-${field}`}
                    name={`persona.${field}`}
                    rows={field === 'other' || field === 'style' ? 2 : 1}
                    maxLength={1000}
                    className={`form-control form-control-sm${code ? ' is-invalid' : ''}`}
                    defaultValue={facts[field] ?? ''}
                  />
                  {code && <div className="invalid-feedback">{errorText(code)}</div>}
                </div>
              );
            })}
            <button type="submit" className="btn btn-sm btn-outline-primary">
              {t('workbench:persona.save')}
            </button>
          </Form>
        </details>
      </div>
    </section>
  );
}

const categoryBadge: Record<Note['category'], string> = {
  warnings: 'text-bg-danger',
  facts: 'text-bg-info',
  likes: 'text-bg-success',
  dislikes: 'text-bg-warning',
};

/** Notes about the member and the profile, warnings first; a new one in a category. */
export function NotesList({ view, submitting }: { view: AdminConversation; submitting: boolean }) {
  const { t } = useTranslation();
  const { locale } = useRootData();
  const order = (note: Note) => noteCategories.indexOf(note.category);
  const notes = [...view.notes].sort((a, b) => order(a) - order(b) || a.id - b.id);
  return (
    <section className="card" aria-labelledby="notes-heading">
      <div className="card-body p-3">
        <h2 id="notes-heading" className="h6">
          {t('admin:notes.heading')}
        </h2>
        {notes.length === 0 ? (
          <p className="small text-body-secondary">{t('admin:notes.empty')}</p>
        ) : (
          <ul className="list-unstyled small" data-testid="notes">
            {notes.map((note) => (
              <li key={note.id} className="mb-2">
                <span className={`badge ${categoryBadge[note.category]} me-1`}>
                  {t(`workbench:notes.${note.category}`)}
                </span>
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
          <label htmlFor="note-category" className="form-label small">
            {t('workbench:notes.category')}
          </label>
          <select
            id="note-category"
            name="category"
            className="form-select form-select-sm mb-2"
            defaultValue="facts"
          >
            {noteCategories.map((category) => (
              <option key={category} value={category}>
                {t(`workbench:notes.${category}`)}
              </option>
            ))}
          </select>
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
    </section>
  );
}
