import { useTranslation } from '#app/lib/use-translation.ts';
import type { ThreadData } from '#app/state/chat/thread-data.ts';
import type { ThreadState } from '#app/state/chat/use-thread.ts';
import { Composer } from './composer.tsx';
import { CostLine } from './cost-line.tsx';
import { FreeMessagesNotice } from './free-messages-notice.tsx';
import { Paywall } from './paywall.tsx';
import { SpendPanel } from './spend-panel.tsx';

/** Below the thread: what stops or warns a send, the spending choice, the composer and the costs. */
export function ThreadFooter({ data, thread }: { data: ThreadData; thread: ThreadState }) {
  const { t } = useTranslation();
  const { chat, gifts, photos } = data;
  const partner = chat.profile.name;
  return (
    <footer
      className="border-top bg-body px-2 pt-2"
      style={{ paddingBottom: 'max(.75rem, env(safe-area-inset-bottom))' }}
    >
      {!chat.can_reply && (
        <p className="small text-body-secondary mb-2">{t('chat:cannotReply', { name: partner })}</p>
      )}
      <Paywall
        outOf={thread.outOf}
        conversation={chat.conversation.id}
        onLeave={thread.keepDraftForCheckout}
      />
      <FreeMessagesNotice costs={thread.costs} />
      {thread.warning && (
        <div className="alert alert-info py-2 small mb-2" role="status">
          {t('chat:contactWarning')}
        </div>
      )}
      <SpendPanel
        panel={thread.panel}
        gifts={gifts}
        photos={photos}
        photoCost={thread.costs.photo}
        onSend={thread.send}
      />
      <Composer
        partner={partner}
        text={thread.text}
        panel={thread.panel}
        canReply={chat.can_reply}
        onEdit={thread.edit}
        onSubmit={thread.submit}
        onTogglePanel={thread.togglePanel}
      />
      <CostLine costs={thread.costs} />
    </footer>
  );
}
