import { showToast } from '../stores/toasts.ts';
import { showLocalTimes } from '../lib/local-times.ts';
import { DEFAULT_LANGUAGE, languageOfPath, LOCALE_OF, localizedPath } from '../i18n/languages.ts';

/**
 * My Courses' Download buttons: ask for the file's short-lived address, start the download without
 * leaving the page, say so (the spec's toasts), and show the new count and time at once.
 * Without this script the links still work: the server redirects to the file or to a page that explains.
 */
export function startDashboardDownloads(): void {
  const messages = document.querySelector<HTMLElement>('[data-download-messages]')?.dataset;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-download]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      void download(link, messages?.started ?? '', messages?.failed ?? '');
    });
  }
  showLocalTimes();
}

async function download(link: HTMLAnchorElement, started: string, failed: string): Promise<void> {
  const lang = languageOfPath(location.pathname) ?? DEFAULT_LANGUAGE;
  try {
    const response = await fetch(link.href, { headers: { Accept: 'application/json' } });
    if (response.status === 401) {
      location.assign(`${localizedPath(lang, '/login')}?next=${encodeURIComponent(location.pathname)}`);
      return;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { url } = (await response.json()) as { url: string };
    // The file answers with Content-Disposition: attachment, so the page stays.
    location.assign(url);
    showToast('success', started);
    countOne(link.closest('li'), lang);
  } catch {
    showToast('error', failed);
  }
}

function countOne(item: Element | null, lang: keyof typeof LOCALE_OF): void {
  const count = item?.querySelector<HTMLElement>('[data-download-count]');
  const last = item?.querySelector<HTMLElement>('[data-last-download]');
  if (!count || !last) return;
  const next = Number(count.dataset.downloadCount) + 1;
  count.dataset.downloadCount = String(next);
  const form = new Intl.PluralRules(LOCALE_OF[lang]).select(next) === 'one' ? count.dataset.one : count.dataset.other;
  count.textContent = (form ?? '').replace('{n}', String(next));
  last.querySelector('time')?.setAttribute('datetime', new Date().toISOString());
  last.hidden = false;
  showLocalTimes(last);
  item?.querySelector('[data-not-downloaded]')?.remove();
  item?.querySelector('[data-updated]')?.remove();
}
