import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { type ConnectionStatus, LiveSocket } from './live-socket.ts';
import { useSession } from './session.tsx';

type LiveConnection = {
  /** The live connection, null for visitors and until the page is interactive. */
  socket: LiveSocket | null;
  connection: ConnectionStatus;
};

const LiveConnectionContext = createContext<LiveConnection | null>(null);

export function useLiveConnection(): LiveConnection {
  const live = useContext(LiveConnectionContext);
  if (!live) throw new Error('useLiveConnection outside LiveConnectionProvider');
  return live;
}

/** One WebSocket per tab for a member: messages, likes, matches and credits as they happen. */
export function LiveConnectionProvider({ children }: { children: ReactNode }) {
  const loggedIn = useSession().user !== null;
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  const [connection, setConnection] = useState<ConnectionStatus>('offline');

  useEffect(() => {
    if (!loggedIn) return;
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const live = new LiveSocket(`${protocol}//${window.location.host}/api/ws`);
    const stopStatus = live.onStatus(setConnection);
    setSocket(live);
    return () => {
      stopStatus();
      live.stop();
      setSocket(null);
    };
  }, [loggedIn]);
  // Started once the providers and pages below have subscribed: their effects run before this
  // one in the same commit, so none of them misses the first `ready`.
  useEffect(() => {
    socket?.start();
  }, [socket]);

  const value = useMemo<LiveConnection>(() => ({ socket, connection }), [socket, connection]);
  return <LiveConnectionContext.Provider value={value}>{children}</LiveConnectionContext.Provider>;
}
