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
import { api } from '#app/lib/api.ts';
import { reportCaught } from '#app/lib/report-caught.ts';
import { pollIntervalMs, pollStartDelayMs } from '#app/lib/shell-rules.ts';
import { useTitleAndAppBadge } from './app-badge.ts';
import { useLiveConnection } from './live-connection.tsx';
import { usePush } from './push.tsx';
import { useSession } from './session.tsx';

type Counts = {
  unreadMessages: number;
  newLikes: number;
  /** Reads the badges (and the balance) again, after something changed them. */
  reloadCounts(): Promise<void>;
  /** The conversation on screen: its messages are read as they arrive. */
  setOpenConversation(id: number | null): void;
};

const CountsContext = createContext<Counts | null>(null);

export function useCounts(): Counts {
  const counts = useContext(CountsContext);
  if (!counts) throw new Error('useCounts outside CountsProvider');
  return counts;
}

/** What the top bar, title and app badge show, kept fresh by polling (spec §7) and live events. */
export function CountsProvider({
  initialCounts,
  children,
}: {
  /** Unread messages and new likes as the server knew them when it rendered the page. */
  initialCounts?: { unreadMessages: number; newLikes: number } | undefined;
  children: ReactNode;
}) {
  const { user, setUser } = useSession();
  const { pushSubscribed } = usePush();
  const { socket } = useLiveConnection();
  const [unreadMessages, setUnreadMessages] = useState(initialCounts?.unreadMessages ?? 0);
  const [newLikes, setNewLikes] = useState(initialCounts?.newLikes ?? 0);
  const openConversation = useRef<number | null>(null);
  const setOpenConversation = useCallback((id: number | null) => {
    openConversation.current = id;
  }, []);
  useEffect(() => {
    if (initialCounts) {
      setUnreadMessages(initialCounts.unreadMessages);
      setNewLikes(initialCounts.newLikes);
    }
  }, [initialCounts]);

  // The badges come from one counts call, never from the whole chats and likes lists.
  const reloadCounts = useCallback(async () => {
    const answer = await api('GET /api/counts.php');
    if (!answer.ok) return;
    setUnreadMessages(answer.data.unread_messages);
    setNewLikes(answer.data.new_likes);
    const credits = answer.data.credits;
    setUser((current) => (current && current.credits !== credits ? { ...current, credits } : current));
  }, [setUser]);

  const loggedIn = user !== null;
  useEffect(() => {
    if (!loggedIn) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    // One counts call per poll (badges, title, app badge and the balance): never the lists.
    const poll = () =>
      void reloadCounts().catch((error: unknown) => reportCaught('polling the counts', error));
    const start = setTimeout(() => {
      poll();
      // With push on this device, polling slows down (spec §7).
      interval = setInterval(poll, pollIntervalMs(pushSubscribed));
    }, pollStartDelayMs);
    return () => {
      clearTimeout(start);
      if (interval) clearInterval(interval);
    };
  }, [loggedIn, pushSubscribed, reloadCounts]);

  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (
          event.type === 'message' &&
          !event.message.mine &&
          event.conversation !== openConversation.current
        )
          setUnreadMessages((count) => count + 1);
        else if (event.type === 'like') setNewLikes((count) => count + 1);
        else if (event.type === 'credits')
          setUser((current) => (current ? { ...current, credits: event.credits } : current));
        // After a reconnect: what was missed meanwhile.
        else if (event.type === 'ready')
          void reloadCounts().catch((error: unknown) => reportCaught('reloading the chats', error));
      }),
    [socket, setUser, reloadCounts],
  );

  useTitleAndAppBadge(loggedIn ? unreadMessages + newLikes : 0);

  const value = useMemo<Counts>(
    () => ({ unreadMessages, newLikes, reloadCounts, setOpenConversation }),
    [unreadMessages, newLikes, reloadCounts, setOpenConversation],
  );
  return <CountsContext.Provider value={value}>{children}</CountsContext.Provider>;
}
