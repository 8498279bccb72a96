import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useLocation, useMatches, useNavigate } from 'react-router';
import type { LikesResponse } from '#contract/likes.ts';
import type { User } from '#contract/users.ts';
import { apiFetch, onAuthenticationRequired } from '../lib/api-client.ts';
import { membersAreaRoutes, pollIntervalMs, pollStartDelayMs, titleWithCount } from '../lib/shell-rules.ts';

type LiveState = {
  user: User | null;
  unreadMessages: number;
  newLikes: number;
  pushSubscribed: boolean;
  setUser(user: User | null): void;
  setUnreadMessages(count: number): void;
  setNewLikes(count: number): void;
  setPushSubscribed(subscribed: boolean): void;
  refreshUser(): Promise<void>;
  reloadLikes(): Promise<void>;
};

const LiveStateContext = createContext<LiveState | null>(null);

export function useLiveState(): LiveState {
  const state = useContext(LiveStateContext);
  if (!state) throw new Error('useLiveState outside LiveStateProvider');
  return state;
}

/** What the top bar, title and app badge show, kept fresh by polling (spec §7) and later live events. */
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
  const [user, setUser] = useState(initialUser);
  const [unreadMessages, setUnreadMessages] = useState(initialCounts?.unreadMessages ?? 0);
  const [newLikes, setNewLikes] = useState(initialCounts?.newLikes ?? 0);
  const [pushSubscribed, setPushSubscribed] = useState(false);
  const location = useLocation();
  const matches = useMatches();
  const navigate = useNavigate();

  useEffect(() => setUser(initialUser), [initialUser]);
  useEffect(() => {
    if (initialCounts) {
      setUnreadMessages(initialCounts.unreadMessages);
      setNewLikes(initialCounts.newLikes);
    }
  }, [initialCounts]);

  const refreshUser = useCallback(async () => {
    const answer = await apiFetch<{ user: User | null }>('/api/user.php');
    setUser(answer.user);
  }, []);

  const reloadLikes = useCallback(async () => {
    const answer = await apiFetch<LikesResponse>('/api/likes.php');
    setNewLikes(answer.liked_by.filter((entry) => entry.like_new).length);
  }, []);

  const loggedIn = user !== null;
  useEffect(() => {
    if (!loggedIn) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    const poll = () => {
      void refreshUser().catch(() => undefined);
      void reloadLikes().catch(() => undefined);
    };
    const start = setTimeout(() => {
      poll();
      interval = setInterval(poll, pollIntervalMs(pushSubscribed));
    }, pollStartDelayMs);
    return () => {
      clearTimeout(start);
      if (interval) clearInterval(interval);
    };
  }, [loggedIn, pushSubscribed, refreshUser, reloadLikes]);

  const inMembersArea = matches.some((match) => membersAreaRoutes.includes(match.id));
  useEffect(
    () =>
      onAuthenticationRequired(() => {
        setUser(null);
        if (inMembersArea) void navigate(`/login?redirect=${encodeURIComponent(location.pathname)}`);
      }),
    [inMembersArea, navigate, location.pathname],
  );

  const total = loggedIn ? unreadMessages + newLikes : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title changes with every navigation.
  useEffect(() => {
    document.title = titleWithCount(document.title, total);
    const appBadge = navigator as Navigator & {
      setAppBadge?: (count: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    if (total > 0) void appBadge.setAppBadge?.(total).catch(() => undefined);
    else void appBadge.clearAppBadge?.().catch(() => undefined);
  }, [total, location.key]);

  const value = useMemo<LiveState>(
    () => ({
      user,
      unreadMessages,
      newLikes,
      pushSubscribed,
      setUser,
      setUnreadMessages,
      setNewLikes,
      setPushSubscribed,
      refreshUser,
      reloadLikes,
    }),
    [user, unreadMessages, newLikes, pushSubscribed, refreshUser, reloadLikes],
  );
  return <LiveStateContext.Provider value={value}>{children}</LiveStateContext.Provider>;
}

export function useLiveStateOptional(): LiveState | null {
  return useContext(LiveStateContext);
}
