/** Gives the page a title of its own once its data is known ("Alarm: Heat energy · Week"), keeping the app name. */
import { useEffect } from 'react';

/** Sets the part of document.title before " · {app name}"; null leaves the server's title. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (!title) return;
    const [, ...appName] = document.title.split(' · ');
    document.title = [title, ...appName].join(' · ');
  }, [title]);
}
