import { useEffect, useState } from 'react';
import { hasFlashToast } from '../../client/flashToast.ts';

/**
 * The toaster (react-hot-toast, 4.5 KB gzipped, and a long task on a phone when it mounts) loads on the first
 * pointer or key press, or on any page but the dashboard and the chart pages (consumption/…), which raise no
 * toasts of their own (unless a message waits from the page before: flashToast.ts). Toasts raised before it has loaded wait in react-hot-toast's
 * store and show when it mounts. Once loaded, it stays.
 */
export function useToasterWanted(pathname: string): boolean {
  const [wanted, setWanted] = useState(false);
  const onDashboard = /^\/t\/[^/]+(\/?|\/consumption\/.*)$/.test(pathname);
  useEffect(() => {
    if (wanted) return;
    if (!onDashboard || hasFlashToast()) {
      setWanted(true);
      return;
    }
    const want = () => setWanted(true);
    const options = { capture: true, once: true } as const;
    window.addEventListener('pointerdown', want, options);
    window.addEventListener('keydown', want, options);
    return () => {
      window.removeEventListener('pointerdown', want, options);
      window.removeEventListener('keydown', want, options);
    };
  }, [wanted, onDashboard]);
  return wanted;
}
