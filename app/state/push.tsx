import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { currentPushState } from '#app/lib/push.ts';
import { useSession } from './session.tsx';

type Push = {
  /** Push is on for this device: the counts are polled less often (spec §7). */
  pushSubscribed: boolean;
  setPushSubscribed(subscribed: boolean): void;
};

const PushContext = createContext<Push | null>(null);

export function usePush(): Push {
  const push = useContext(PushContext);
  if (!push) throw new Error('usePush outside PushProvider');
  return push;
}

/** Whether this device gets push messages, read once the member is known. */
export function PushProvider({ children }: { children: ReactNode }) {
  const loggedIn = useSession().user !== null;
  const [pushSubscribed, setPushSubscribed] = useState(false);
  useEffect(() => {
    if (loggedIn) void currentPushState().then((state) => setPushSubscribed(state === 'subscribed'));
  }, [loggedIn]);
  const value = useMemo<Push>(() => ({ pushSubscribed, setPushSubscribed }), [pushSubscribed]);
  return <PushContext.Provider value={value}>{children}</PushContext.Provider>;
}
