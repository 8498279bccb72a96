import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Message } from '#contract/chats.ts';
import type { Profile } from '#contract/profiles.ts';
import { ApiError, apiFetch } from '../lib/api-client.ts';
import { useRootData } from '../lib/root-data.ts';

export const icebreakerKeys = ['line1', 'line2', 'line3', 'line4', 'line5'] as const;

/** After a like: a few translated opening lines; one click sends it and opens the chat. */
export function IcebreakerModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ code: string; message: string } | null>(null);
  if (!profile) return null;
  const params = { name: profile.name, site: settings.name };

  const send = async (text: string) => {
    setBusy(true);
    setProblem(null);
    try {
      const result = await apiFetch<{ message: Message }>('/api/chat.php', {
        method: 'POST',
        body: { profile: profile.id, text },
      });
      onClose();
      await navigate(`/chats/${result.message.conversation}`);
    } catch (error) {
      if (error instanceof ApiError) setProblem({ code: error.code, message: error.message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal show onHide={onClose} centered aria-labelledby="icebreaker-title" data-testid="icebreaker-modal">
      <Modal.Body className="p-4">
        <h2 id="icebreaker-title" className="h5 mb-3">
          {t('likes:icebreaker.title', params)}
        </h2>
        {problem && (
          <div className="alert alert-warning py-2 small" role="alert">
            {problem.message}{' '}
            {problem.code === 'insufficient_credits' && <Link to="/credits">{t('chat:buyCredits')}</Link>}
            {problem.code === 'premium_required' && <Link to="/premium">{t('chat:getPremium')}</Link>}
          </div>
        )}
        <div className="d-grid gap-2">
          {icebreakerKeys.map((key) => {
            const line = t(`likes:icebreaker.${key}`, params);
            return (
              <button
                key={key}
                type="button"
                className="btn btn-outline-primary text-start"
                disabled={busy}
                onClick={() => void send(line)}
              >
                {line}
              </button>
            );
          })}
          <button type="button" className="btn btn-link" onClick={onClose}>
            {t('likes:icebreaker.later')}
          </button>
        </div>
      </Modal.Body>
    </Modal>
  );
}
