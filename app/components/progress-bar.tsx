import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

/** Below this, a loading state is not shown at all, so fast answers never flicker (spec §9: 200 ms). */
export const minimumDisplayDelayMs = 200;

/** A thin bar at the top while a page loads; it creeps towards the end over about 5 s. */
export function ProgressBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), minimumDisplayDelayMs);
    return () => clearTimeout(timer);
  }, [busy]);
  if (!shown) return null;
  return <div className="page-progress" role="progressbar" aria-hidden="true" />;
}
