import type { IncomingMessage } from 'node:http';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { externalHost, sourceOfQuery, type FunnelSource } from '../../src/lib/funnel-source.ts';
import { LANGUAGE_PATTERN } from '../../src/i18n/languages.ts';

/**
 * Course page views, counted by the HTTP server before the page cache answers (so a cached page
 * counts as much as a rendered one), as numbers per course, week and source kept in memory and added
 * to the database by the `funnel-views` job of each instance. Nothing about the visitor is kept: no
 * cookie, no address, no user agent. Bots (known crawlers, clients that do not ask for HTML, prefetches)
 * are not counted. Decision 45.
 */
const COURSE_PAGE = new RegExp(
  `^/${LANGUAGE_PATTERN}/course/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/?(?:\\?(.*))?$`,
  'i',
);
/** Crawlers, link previews, monitors, headless browsers and HTTP libraries, by their user agent. */
const BOT_AGENT =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|whatsapp|telegram|discord|skype|headless|lighthouse|pagespeed|gtmetrix|pingdom|uptime|monitor|curl|wget|python|httpclient|http-client|okhttp|axios|node-fetch|undici|go-http|java\/|libwww|scrapy|postman|insomnia|k6\/|autocannon|^$/i;
/** Distinct (course, week, source) counts held between flushes; past it, new ones wait for the next flush. */
export const MAX_HELD_COUNTS = 10_000;
const SEPARATOR = '\u0000';

let held = new Map<string, number>();

/** Counts the request if it is a person's view of a course page. Cheap: most requests fail the first test. */
export function countCourseView(req: IncomingMessage): void {
  if (req.method !== 'GET') return;
  const match = COURSE_PAGE.exec(req.url ?? '');
  if (!match) return;
  const { headers } = req;
  if (!String(headers.accept ?? '').includes('text/html') || BOT_AGENT.test(String(headers['user-agent'] ?? ''))) return;
  // A link hovered or prerendered is not a view (it counts when it is opened).
  if (/prefetch|prerender/i.test(String(headers['sec-purpose'] ?? headers.purpose ?? ''))) return;
  const source = sourceOfQuery(new URLSearchParams(match[3] ?? ''));
  if (!source.referrerHost) source.referrerHost = externalHost(headers.referer, headers.host);
  add(keyOf(match[2]!.toLowerCase(), weekOf(new Date()), source), 1);
}

/** The Monday (UTC) of the week `date` falls in, as YYYY-MM-DD. */
export function weekOf(date: Date): string {
  const monday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - ((date.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

/**
 * Adds what this instance counted since the last flush to the database, in one statement: each count
 * is added to its row (never set), so instances flushing at once all count. Views of courses that do
 * not exist are dropped there. Counts that could not be written are kept for the next flush.
 */
export async function flushCourseViews(database: Db): Promise<number> {
  if (held.size === 0) return 0;
  const flushing = held;
  held = new Map();
  const rows = [...flushing].map(([key, views]) => [...key.split(SEPARATOR), views] as const);
  const column = (index: number) => rows.map((row) => row[index]);
  try {
    await sql`
      INSERT INTO funnel_views (course_id, week, utm_source, utm_medium, utm_campaign, referrer_host, views)
      SELECT v.course_id, v.week, v.utm_source, v.utm_medium, v.utm_campaign, v.referrer_host, v.views
      FROM unnest(${column(0)}::uuid[], ${column(1)}::date[], ${column(2)}::text[], ${column(3)}::text[],
                  ${column(4)}::text[], ${column(5)}::text[], ${column(6)}::bigint[])
        AS v(course_id, week, utm_source, utm_medium, utm_campaign, referrer_host, views)
      JOIN courses ON courses.id = v.course_id
      ON CONFLICT (course_id, week, utm_source, utm_medium, utm_campaign, referrer_host)
      DO UPDATE SET views = funnel_views.views + EXCLUDED.views`.execute(database);
  } catch (error) {
    // The job runner logs the failure; the counts wait for its next run.
    for (const [key, views] of flushing) add(key, views);
    throw error;
  }
  return rows.length;
}

function keyOf(courseId: string, week: string, source: FunnelSource): string {
  return [courseId, week, source.utmSource, source.utmMedium, source.utmCampaign, source.referrerHost].join(SEPARATOR);
}

function add(key: string, views: number): void {
  const now = held.get(key);
  if (now === undefined && held.size >= MAX_HELD_COUNTS) return;
  held.set(key, (now ?? 0) + views);
}
