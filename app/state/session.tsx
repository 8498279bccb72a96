import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { api } from '#app/lib/api.ts';
import { onAuthenticationRequired } from '#app/lib/api-client.ts';
import { membersAreaRoutes } from '#app/lib/shell-rules.ts';
import type { User } from '#contract/users.ts';

type Session = {
  /** The member, null for a visitor (or once the API said the session is gone). */
  user: User | null;
  setUser: React.Dispatch<React.SetStateAction<User | null>>;
  refreshUser(): Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The session, or null where the page has no live state (an error page outside the shell). */
export function useOptionalSession(): Session | null {
  return useContext(SessionContext);
}

/** The member as the server rendered the page, kept fresh by the providers below it. */
export function SessionProvider({
  initialUser,
  children,
}: {
  initialUser: User | null;
  children: ReactNode;
}) {
  const [user, setUser] = useState(initialUser);
  const location = useLocation();
  const matches = useMatches();
  const navigate = useNavigate();
  useEffect(() => setUser(initialUser), [initialUser]);

  const refreshUser = useCallback(async () => {
    const answer = await api('GET /api/user.php');
    if (answer.ok) setUser(answer.data.user);
  }, []);

  // A session that ends meanwhile: the member becomes a visitor, and the members' area sends to login.
  const inMembersArea = matches.some((match) => membersAreaRoutes.includes(match.id));
  useEffect(
    () =>
      onAuthenticationRequired(() => {
        setUser(null);
        if (inMembersArea) void navigate(`/login?redirect=${encodeURIComponent(location.pathname)}`);
      }),
    [inMembersArea, navigate, location.pathname],
  );

  const value = useMemo<Session>(() => ({ user, setUser, refreshUser }), [user, refreshUser]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
