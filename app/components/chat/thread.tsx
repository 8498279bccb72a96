import type { ThreadData } from '#app/state/chat/thread-data.ts';
import { useThread } from '#app/state/chat/use-thread.ts';
import { ConnectionNotice } from './connection-notice.tsx';
import { MessageList } from './message-list.tsx';
import { ThreadFooter } from './thread-footer.tsx';
import { ThreadHeader } from './thread-header.tsx';

/** One conversation, full height: the partner, the messages, and the composer with its costs. */
export function Thread({ data }: { data: ThreadData }) {
  const thread = useThread(data.chat);
  const { profile } = data.chat;
  return (
    <section
      className="flex-grow-1 d-flex flex-column min-w-0"
      style={{ height: '100dvh' }}
      aria-label={profile.name}
    >
      <ThreadHeader profile={profile} offShiftReplyMinutes={data.chat.off_shift_reply_minutes} />
      <ConnectionNotice status={thread.view.status} />
      <MessageList view={thread.view} gifts={data.gifts} partner={profile.name} typing={thread.typing} />
      <ThreadFooter data={data} thread={thread} />
    </section>
  );
}
