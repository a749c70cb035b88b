import Bowser from 'bowser';

/** The browser and system a user agent names (`Chrome 120`, `Windows 10`); empty when it names none. */
export function describeDevice(userAgent: string | null | undefined): { browser: string; os: string } {
  if (!userAgent) return { browser: '', os: '' };
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  const major = parsed.browser.version?.split('.')[0];
  const browser = [parsed.browser.name, major].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  return { browser, os };
}

/** A device's name for "seen before": browser and system families, without versions that change with updates. */
export function deviceKey(userAgent: string | null | undefined): string {
  if (!userAgent) return 'unknown';
  const parsed = Bowser.parse(userAgent.slice(0, 1000));
  return `${parsed.browser.name ?? 'unknown'} / ${parsed.os.name ?? 'unknown'} / ${parsed.platform.type ?? 'unknown'}`.slice(
    0,
    200,
  );
}
