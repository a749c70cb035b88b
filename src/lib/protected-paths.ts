import { asLanguage, DEFAULT_LANGUAGE, isLanguage, type Language } from '../i18n/languages.ts';

export type Area = { kind: 'page' | 'api'; role: 'user' | 'admin'; lang: Language };

const MAX_DECODE_ROUNDS = 4;

/**
 * Which protected area a raw request path falls in, after undoing every trick that could make
 * `/en/admin` look like something else: percent-encoding (also double), case, repeated or
 * trailing slashes, dot segments.
 */
export function protectedAreaOf(rawPathname: string): Area | undefined {
  const path = canonicalPath(rawPathname);
  const [, first = '', second = ''] = path.split('/');
  if (first === 'api') {
    if (second === 'account') return { kind: 'api', role: 'user', lang: DEFAULT_LANGUAGE };
    if (second === 'admin') return { kind: 'api', role: 'admin', lang: DEFAULT_LANGUAGE };
    return undefined;
  }
  const lang = asLanguage(first);
  const section = isLanguage(first) ? second : first;
  if (section === 'dashboard') return { kind: 'page', role: 'user', lang };
  if (section === 'admin') return { kind: 'page', role: 'admin', lang };
  return undefined;
}

export function canonicalPath(rawPathname: string): string {
  let path = rawPathname;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const segment of path.toLowerCase().replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
