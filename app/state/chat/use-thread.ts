import { useEffect, useRef, useState } from 'react';
import { reportCaught } from '#app/lib/report-caught.ts';
import { useCounts } from '#app/state/counts.tsx';
import { useLiveConnection } from '#app/state/live-connection.tsx';
import { useSession } from '#app/state/session.tsx';
import type { ChatResponse } from '#contract/chats.ts';
import type { Draft, FailReason } from './convo.ts';
import { dropDraft, keepDraft, savedDraft } from './draft-store.ts';
import { useConvo } from './use-convo.ts';

/** The spending choice open above the composer. */
export type SpendPanel = 'gift' | 'photo';

/** How long "is typing" shows after the partner's last typing frame. */
const typingShownMs = 3000;
/** At most one typing frame this often while the member types. */
const typingFrameGapMs = 2000;

/**
 * The screen's state around one conversation's state machine (useConvo): the text being typed and
 * its draft, the costs and the balance after each send, what stopped a send (credits, premium),
 * the contact-details warning, the partner typing, and the open spending choice.
 */
export function useThread(chat: ChatResponse) {
  const { socket, connection } = useLiveConnection();
  const { setOpenConversation, reloadCounts } = useCounts();
  const { setUser } = useSession();
  const conversation = chat.conversation.id;
  const [costs, setCosts] = useState(chat.costs);
  const [text, setText] = useState('');
  const [warning, setWarning] = useState(false);
  const [typing, setTyping] = useState(false);
  const [panel, setPanel] = useState<SpendPanel | null>(null);
  const [outOf, setOutOf] = useState<FailReason | null>(null);
  const lastTyping = useRef(0);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const view = useConvo(
    chat,
    { socket, connection },
    {
      onSent: (outcome) => {
        setUser((current) => (current ? { ...current, credits: outcome.credits } : current));
        setCosts((current) =>
          outcome.message.kind === 'text' && outcome.message.credits === 0
            ? { ...current, free_messages_left: Math.max(0, current.free_messages_left - 1) }
            : current,
        );
        setWarning(outcome.warning === 'contact_details');
        setOutOf(null);
        dropDraft(conversation);
      },
      onHeld: (outcome) => {
        setUser((current) => (current ? { ...current, credits: outcome.credits } : current));
        setOutOf(null);
      },
      onFailed: (reason, draft) => {
        if (reason === 'insufficient_credits' || reason === 'premium_required') setOutOf(reason);
        // The draft survives a trip to the checkout and back.
        if (reason === 'insufficient_credits' && draft.kind === 'text') keepDraft(conversation, draft.text);
      },
      onTyping: () => {
        setTyping(true);
        clearTimeout(typingTimer.current);
        typingTimer.current = setTimeout(() => setTyping(false), typingShownMs);
      },
    },
  );

  useEffect(() => {
    const saved = savedDraft(conversation);
    if (saved) setText(saved);
  }, [conversation]);
  useEffect(() => {
    setOpenConversation(conversation);
    // Loading the conversation read it; the badges the page came with were counted alongside that
    // load (the layout's loader runs in parallel), so they may still include it.
    void reloadCounts().catch((error: unknown) => reportCaught('reloading the counts', error));
    return () => setOpenConversation(null);
  }, [conversation, setOpenConversation, reloadCounts]);

  const send = (draft: Draft) => {
    view.send(draft);
    setPanel(null);
    if (draft.kind === 'text') setText('');
  };
  return {
    view,
    costs,
    text,
    warning,
    typing,
    outOf,
    panel,
    send,
    submit: () => {
      const trimmed = text.trim();
      if (trimmed) send({ kind: 'text', text: trimmed });
    },
    /** The text as typed; the partner hears of it at most once per typingFrameGapMs. */
    edit: (value: string) => {
      setText(value);
      if (Date.now() - lastTyping.current > typingFrameGapMs) {
        lastTyping.current = Date.now();
        socket?.send({ type: 'typing', conversation });
      }
    },
    togglePanel: (which: SpendPanel) => setPanel((current) => (current === which ? null : which)),
    /** On the way to the checkout: text typed since the failed send is the draft that waits for the way back. */
    keepDraftForCheckout: () => {
      if (text.trim()) keepDraft(conversation, text);
    },
  };
}

export type ThreadState = ReturnType<typeof useThread>;
