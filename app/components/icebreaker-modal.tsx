import { useEffect, useState } from 'react';
import { Modal } from 'react-bootstrap';
import { Link, useNavigate } from 'react-router';
import { api } from '#app/lib/api.ts';
import { useRootData } from '#app/lib/root-data.ts';
import { useTranslation } from '#app/lib/use-translation.ts';
import type { Costs } from '#contract/chats.ts';
import type { Profile } from '#contract/profiles.ts';
import { SpendChoice } from './spend-choice.tsx';

export const icebreakerKeys = ['line1', 'line2', 'line3', 'line4', 'line5'] as const;

/** After a like: a few translated opening lines; a tap picks one and shows its cost, a second sends it. */
export function IcebreakerModal({ profile, onClose }: { profile: Profile | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings } = useRootData();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ code: string; message: string } | null>(null);
  const [costs, setCosts] = useState<Costs | null>(null);
  const open = profile !== null;
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    void api('GET /api/message-costs.php').then((answer) => {
      if (!cancelled && answer.ok) setCosts(answer.data);
    });
    return () => {
      cancelled = true;
    };
  }, [open]);
  if (!profile) return null;
  const params = { name: profile.name, site: settings.name };
  const lines = icebreakerKeys.map((key) => ({ key, text: t(`likes:icebreaker.${key}`, params) }));
  // What this member's next message costs (free messages first); the site's price until known.
  const cost = costs ? (costs.free_messages_left > 0 ? 0 : costs.message) : settings.message_credits;

  const send = async (text: string) => {
    setBusy(true);
    setProblem(null);
    const result = await api('POST /api/chat.php', { body: { profile: profile.id, text } });
    setBusy(false);
    if (!result.ok) {
      setProblem({ code: result.code, message: result.error.message });
      return;
    }
    onClose();
    await navigate(`/chats/${result.data.message.conversation}`);
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
        <SpendChoice
          label={t('likes:icebreaker.title', params)}
          options={lines}
          keyOf={(line) => line.key}
          costOf={() => cost}
          disabled={busy}
          listClassName="list-unstyled d-grid gap-2 mb-2"
          itemClassName=""
          optionClassName="btn btn-outline-primary text-start w-100"
          onSpend={(line) => void send(line.text)}
          renderOption={(line) => line.text}
        />
        <div className="d-grid">
          <button type="button" className="btn btn-link" onClick={onClose}>
            {t('likes:icebreaker.later')}
          </button>
        </div>
      </Modal.Body>
    </Modal>
  );
}
