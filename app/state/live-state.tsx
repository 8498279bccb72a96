import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { reportCaught } from '#app/lib/report-caught.ts';
import type { Profile } from '#contract/profiles.ts';
import type { User } from '#contract/users.ts';
import { MatchModal } from '../components/match-modal.tsx';
import { api } from '../lib/api.ts';
import { onAuthenticationRequired } from '../lib/api-client.ts';
import { currentPushState } from '../lib/push.ts';
import { membersAreaRoutes, pollIntervalMs, pollStartDelayMs, titleWithCount } from '../lib/shell-rules.ts';
import { type ConnectionStatus, LiveSocket } from './live-socket.ts';

type LiveState = {
  user: User | null;
  unreadMessages: number;
  newLikes: number;
  pushSubscribed: boolean;
  setUser: React.Dispatch<React.SetStateAction<User | null>>;
  setUnreadMessages(count: number): void;
  setNewLikes(count: number): void;
  setPushSubscribed(subscribed: boolean): void;
  refreshUser(): Promise<void>;
  reloadLikes(): Promise<void>;
  reloadChats(): Promise<void>;
  /** The live connection, null for visitors and until the page is interactive. */
  socket: LiveSocket | null;
  connection: ConnectionStatus;
  /** The conversation on screen: its messages are read as they arrive. */
  setOpenConversation(id: number | null): void;
  /** Shows the match modal (once, whether the match comes from an answer or a live event). */
  showMatch(profile: Profile): void;
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
    const answer = await api('GET /api/user.php');
    if (answer.ok) setUser(answer.data.user);
  }, []);

  const [socket, setSocket] = useState<LiveSocket | null>(null);
  const [connection, setConnection] = useState<ConnectionStatus>('offline');
  const [match, setMatch] = useState<Profile | null>(null);
  const openConversation = useRef<number | null>(null);
  const setOpenConversation = useCallback((id: number | null) => {
    openConversation.current = id;
  }, []);

  // The badges come from one counts call, never from the whole chats and likes lists.
  const reloadCounts = useCallback(async () => {
    const answer = await api('GET /api/counts.php');
    if (!answer.ok) return;
    setUnreadMessages(answer.data.unread_messages);
    setNewLikes(answer.data.new_likes);
    const credits = answer.data.credits;
    setUser((current) => (current && current.credits !== credits ? { ...current, credits } : current));
  }, []);
  const reloadChats = reloadCounts;
  const reloadLikes = reloadCounts;

  const loggedIn = user !== null;
  useEffect(() => {
    if (!loggedIn) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    // One counts call per poll (badges, title, app badge and the balance): never the lists.
    const poll = () =>
      void reloadCounts().catch((error: unknown) => reportCaught('polling the counts', error));
    const start = setTimeout(() => {
      poll();
      interval = setInterval(poll, pollIntervalMs(pushSubscribed));
    }, pollStartDelayMs);
    return () => {
      clearTimeout(start);
      if (interval) clearInterval(interval);
    };
  }, [loggedIn, pushSubscribed, reloadCounts]);

  // With push on this device, polling slows down (spec §7).
  useEffect(() => {
    if (loggedIn) void currentPushState().then((state) => setPushSubscribed(state === 'subscribed'));
  }, [loggedIn]);

  // The live connection: unread messages, likes, matches and credits as they happen.
  useEffect(() => {
    if (!loggedIn) return;
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const live = new LiveSocket(`${protocol}//${window.location.host}/api/ws`);
    const stopStatus = live.onStatus(setConnection);
    const stopEvents = live.subscribe((event) => {
      if (
        event.type === 'message' &&
        !event.message.mine &&
        event.conversation !== openConversation.current
      ) {
        setUnreadMessages((count) => count + 1);
      } else if (event.type === 'like') {
        setNewLikes((count) => count + 1);
      } else if (event.type === 'match') {
        setMatch(event.profile);
      } else if (event.type === 'credits') {
        setUser((current) => (current ? { ...current, credits: event.credits } : current));
      } else if (event.type === 'ready') {
        void reloadChats().catch((error: unknown) => reportCaught('reloading the chats', error));
      }
    });
    live.start();
    setSocket(live);
    return () => {
      stopEvents();
      stopStatus();
      live.stop();
      setSocket(null);
    };
  }, [loggedIn, reloadChats]);

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
    // The badge of an installed app only: elsewhere the browser refuses it, which changes nothing.
    if (total > 0)
      void appBadge.setAppBadge?.(total).catch(() => {
        // expected: not installed, or badges not allowed.
      });
    else
      void appBadge.clearAppBadge?.().catch(() => {
        // expected: not installed, or badges not allowed.
      });
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
      reloadChats,
      socket,
      connection,
      setOpenConversation,
      showMatch: setMatch,
    }),
    [
      user,
      unreadMessages,
      newLikes,
      pushSubscribed,
      refreshUser,
      reloadLikes,
      reloadChats,
      socket,
      connection,
      setOpenConversation,
    ],
  );
  return (
    <LiveStateContext.Provider value={value}>
      {children}
      <MatchModal profile={match} onClose={() => setMatch(null)} />
    </LiveStateContext.Provider>
  );
}

export function useLiveStateOptional(): LiveState | null {
  return useContext(LiveStateContext);
}
