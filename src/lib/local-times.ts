import { LOCALE_OF, languageOfPath, DEFAULT_LANGUAGE } from '../i18n/languages.ts';

/** Rewrites `<time data-local-time>` in the reader's time zone (the server renders in its own). */
export function showLocalTimes(root: ParentNode = document): void {
  const lang = languageOfPath(location.pathname) ?? DEFAULT_LANGUAGE;
  const format = new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'medium', timeStyle: 'short' });
  for (const element of root.querySelectorAll<HTMLTimeElement>('time[data-local-time]')) {
    element.textContent = format.format(new Date(element.dateTime));
  }
}
