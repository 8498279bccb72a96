import type { ReactNode } from 'react';
import { CountsProvider } from '#app/state/counts.tsx';
import { LiveConnectionProvider } from '#app/state/live-connection.tsx';
import { MatchMomentProvider } from '#app/state/match-moment.tsx';
import { PushProvider } from '#app/state/push.tsx';
import { SessionProvider } from '#app/state/session.tsx';
import type { User } from '#contract/users.ts';

/**
 * The shell's live state, one provider each, outermost first, as each reads the ones above it:
 * the member (useSession), push on this device (usePush), the WebSocket (useLiveConnection), the
 * badge counts (useCounts) and the match modal (useMatchMoment).
 */
export function LiveStateProvider({
  initialUser,
  initialCounts,
  children,
}: {
  initialUser: User | null;
  /** Unread messages and new likes as the server knew them when it rendered the page. */
  initialCounts?: { unreadMessages: number; newLikes: number };
  children: ReactNode;
}) {
  return (
    <SessionProvider initialUser={initialUser}>
      <PushProvider>
        <LiveConnectionProvider>
          <CountsProvider initialCounts={initialCounts}>
            <MatchMomentProvider>{children}</MatchMomentProvider>
          </CountsProvider>
        </LiveConnectionProvider>
      </PushProvider>
    </SessionProvider>
  );
}
