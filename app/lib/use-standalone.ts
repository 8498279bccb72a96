import { useEffect, useState } from 'react';

/** True when the site runs as an installed app (display-mode standalone). */
export function useStandalone(): boolean {
  const [standalone, setStandalone] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(display-mode: standalone)');
    const update = () =>
      setStandalone(query.matches || (navigator as Navigator & { standalone?: boolean }).standalone === true);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return standalone;
}
