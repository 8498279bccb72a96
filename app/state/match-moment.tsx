import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
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
  useEffect(
    () =>
      socket?.subscribe((event) => {
        if (event.type === 'match') setMatch(event.profile);
      }),
    [socket],
  );
  const value = useMemo<MatchMoment>(() => ({ showMatch: setMatch }), []);
  return (
    <MatchMomentContext.Provider value={value}>
      {children}
      <MatchModal profile={match} onClose={() => setMatch(null)} />
    </MatchMomentContext.Provider>
  );
}
