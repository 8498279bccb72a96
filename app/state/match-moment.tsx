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
import { MatchModal } from '#app/components/match-modal.tsx';
import type { Profile } from '#contract/profiles.ts';
import { useLiveConnection } from './live-connection.tsx';

type MatchMoment = {
  /** Shows the match modal (once, whether the match comes from an answer or a live event). */
  showMatch(profile: Profile): void;
};

const MatchMomentContext = createContext<MatchMoment | null>(null);

export function useMatchMoment(): MatchMoment {
  const moment = useContext(MatchMomentContext);
  if (!moment) throw new Error('useMatchMoment outside MatchMomentProvider');
  return moment;
}

/** The "it's a match" modal over any page, from a like's answer or a live event. */
export function MatchMomentProvider({ children }: { children: ReactNode }) {
  const { socket } = useLiveConnection();
  const [match, setMatch] = useState<Profile | null>(null);
  // A match comes twice, as the like's answer and as the live event, in either order: the second
  // never opens the modal again after the member closed it.
  const shown = useRef(new Set<number>());
  const showMatch = useCallback((profile: Profile) => {
    if (shown.current.has(profile.id)) return;
    shown.current.add(profile.id);
    setMatch(profile);
  }, []);
  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (event.type === 'match') showMatch(event.profile);
      }),
    [socket, showMatch],
  );
  const value = useMemo<MatchMoment>(() => ({ showMatch }), [showMatch]);
  return (
    <MatchMomentContext.Provider value={value}>
      {children}
      <MatchModal profile={match} onClose={() => setMatch(null)} />
    </MatchMomentContext.Provider>
  );
}
