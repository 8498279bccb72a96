import type { ReactNode } from 'react';
import type { User } from '#contract/users.ts';
import { CountsProvider } from './counts.tsx';
import { LiveConnectionProvider } from './live-connection.tsx';
import { MatchMomentProvider } from './match-moment.tsx';
import { PushProvider } from './push.tsx';
import { SessionProvider } from './session.tsx';

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
