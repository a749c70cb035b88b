import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import { DEMO_USERS, ensureUser } from '../../functions/auth/users.ts';
import { startBenchWorld } from './bench-server.ts';
import { testBrowser } from '../support/browser.ts';

/**
 * `npm run screens`: screenshots of the pages that matter most, at a phone's width (375 px) and a
 * laptop's (1280 px), in both languages, signed out and as the demo buyer and admin, into `screens/`
 * (kept out of git) for a person to look over.
 */
const OUT = path.resolve('screens');
const WIDTHS = [375, 1280] as const;

buildIfNeeded();
const world = await startBenchWorld({ courses: 24 });
for (const user of DEMO_USERS) await ensureUser(world.database, user);
const choice = await testBrowser();
const browser = await chromium.launch({ executablePath: choice.executablePath, args: choice.args });
try {
  await mkdir(OUT, { recursive: true });
  const course = await world.database
    .selectFrom('courses')
    .select('id')
    .where('is_active', '=', true)
    .where('price_minor', '>', 0)
    .orderBy('created_at')
    .executeTakeFirstOrThrow();
  const shots: { name: string; path: string; as?: (typeof DEMO_USERS)[number] }[] = [
    { name: 'home', path: '/' },
    { name: 'catalogue', path: '/courses' },
    { name: 'course', path: `/course/${course.id}` },
    { name: 'checkout', path: `/checkout/${course.id}` },
    { name: 'wishlist', path: '/wishlist' },
    { name: 'dashboard', path: '/dashboard', as: DEMO_USERS[1]! },
    { name: 'admin-courses', path: '/admin/courses', as: DEMO_USERS[0]! },
    { name: 'admin-reviews', path: '/admin/reviews', as: DEMO_USERS[0]! },
  ];
  // One sign-in per account (sign-ins are rate-limited), its cookies reused for every shot.
  const sessions = new Map<string, Awaited<ReturnType<typeof signedInState>>>();
  for (const user of DEMO_USERS) sessions.set(user.email, await signedInState(browser, user));
  let count = 0;
  for (const lang of ['en', 'tr'] as const) {
    for (const shot of shots) {
      for (const width of WIDTHS) {
        const state = shot.as && sessions.get(shot.as.email);
        await screenshot(browser, `/${lang}${shot.path}`, width, path.join(OUT, `${shot.name}-${lang}-${width}.png`), state);
        count++;
      }
    }
  }
  console.log(`${count} screenshots in ${path.relative(process.cwd(), OUT)}/`);
} finally {
  await browser.close();
  await world.stop();
}

async function signedInState(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL: world.baseUrl });
  try {
    const response = await context.request.post('/api/auth/sign-in/email', {
      headers: { origin: world.baseUrl },
      data: { email: user.email, password: user.password },
    });
    if (!response.ok()) throw new Error(`sign-in of ${user.email} failed (${response.status()})`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

async function screenshot(
  browser: Browser,
  page: string,
  width: number,
  file: string,
  storageState?: Awaited<ReturnType<typeof signedInState>>,
) {
  const context = await browser.newContext({
    baseURL: world.baseUrl,
    viewport: { width, height: 900 },
    ...(storageState ? { storageState } : {}),
  });
  try {
    const tab = await context.newPage();
    await tab.goto(page, { waitUntil: 'networkidle' });
    await tab.screenshot({ path: file, fullPage: true });
  } finally {
    await context.close();
  }
}
