import { readFileSync } from 'node:fs';
import { toCsv } from '../../functions/admin/csv.ts';
import { ensureUser } from '../../functions/auth/users.ts';
import { buildIfNeeded } from '../../functions/cli/build-if-needed.ts';
import type { ImportView } from '../../src/lib/admin/import.schema.ts';
import { Browser } from '../support/test-server.ts';
import { asTestServer, rssMb, startBenchWorld, watchPeakRss } from './bench-server.ts';

/**
 * `npm run bench` (Admin → Import, issue 39): a 20,000-row Gumroad sales export (its 70 columns, 15,000
 * buyers, five products) uploaded to the built server, its dry run, then its import with every product
 * mapped and the mail to each buyer ticked, over HTTP on real PostgreSQL. Prints each step's time and
 * the server's peak memory beside the goals. Short mode (`BENCH_SHORT=1`, in `npm run bench:short`):
 * 2,000 rows; it fails when the import goes wrong, not when a goal is missed on a busy machine.
 */
const SHORT = process.env.BENCH_SHORT === '1';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? (SHORT ? 2_000 : 20_000));
const BUYERS = Math.ceil(ROWS * 0.75);
const PRODUCTS = 5;
const GOALS = { dryRunS: 5, importS: 30, rssGrowthMb: 150 };

/** Gumroad's columns (antiwork/gumroad, purchase_export_service.rb), as in tests/fixtures/import/gumroad.csv. */
const HEADER = readFileSync('tests/fixtures/import/gumroad.csv', 'utf8').split('\r\n')[0]!.split(',');

function gumroadExport(rows: number): Uint8Array<ArrayBuffer> {
  const column = new Map(HEADER.map((name, index) => [name, index]));
  const lines: string[][] = [HEADER];
  for (let n = 0; n < rows; n++) {
    const row = new Array<string>(HEADER.length).fill('0');
    const set = (name: string, value: string) => (row[column.get(name)!] = value);
    const product = n % PRODUCTS;
    set('Purchase ID', `Bench${String(n).padStart(8, '0')}Qx==`);
    set('Item Name', `Bench product ${product}`);
    set('Product ID', `bench${product}`);
    set('Buyer Name', `Buyer ${n % BUYERS}`);
    set('Purchase Email', `import-buyer-${n % BUYERS}@example.com`);
    set('Buyer Email', `import-buyer-${n % BUYERS}@example.com`);
    set('Do not contact?', String(n % 3 === 0 ? 1 : 0));
    set('Purchase Time (UTC timezone)', '2025-06-01 12:00:00 UTC');
    set('Country', n % 4 === 0 ? 'Turkey' : 'United States');
    set('Giftee Email', '');
    set('Custom Fields', '{}');
    lines.push(row);
  }
  return new TextEncoder().encode(toCsv(lines));
}

buildIfNeeded();
const world = await startBenchWorld({ courses: 0 });
try {
  const { database } = world;
  const server = asTestServer(world.baseUrl);
  const email = 'bench-import-admin@example.com';
  await ensureUser(database, { email, password: 'correct horse 42', fullName: 'Bench Admin', role: 'admin' });
  const admin = new Browser(server, '127.0.0.1');
  const signIn = await admin.postJson('/api/auth/sign-in/email', { email, password: 'correct horse 42' });
  if (signIn.status !== 200) throw new Error(`Admin sign-in failed: ${signIn.status}`);
  const courses = await database.selectFrom('courses').select('id').orderBy('title').limit(PRODUCTS).execute();

  const file = gumroadExport(ROWS);
  const before = rssMb(world.serverPid);
  const peak = watchPeakRss(world.serverPid, 50);

  const form = new FormData();
  form.set('file', new File([file], 'Sales.csv', { type: 'text/csv' }));
  let started = performance.now();
  const uploaded = await admin.request('/api/admin/import', { method: 'POST', body: form });
  const dryRunS = (performance.now() - started) / 1000;
  if (uploaded.status !== 201) throw new Error(`Upload failed: ${uploaded.status} ${await uploaded.text()}`);
  const dry = ((await uploaded.json()) as { import: ImportView }).import;
  if (dry.rows !== ROWS || dry.problemCount !== 0 || dry.buyers.total !== BUYERS)
    throw new Error(`Dry run read ${dry.rows} rows, ${dry.buyers.total} buyers, ${dry.problemCount} problems`);

  started = performance.now();
  const imported = await admin.json('POST', `/api/admin/import/${dry.id}`, {
    courses: dry.products.map((_, index) => courses[index % courses.length]!.id),
    sendMail: true,
  });
  const importS = (performance.now() - started) / 1000;
  peak.stop();
  if (imported.status !== 200) throw new Error(`Import failed: ${imported.status} ${await imported.text()}`);
  const outcome = ((await imported.json()) as { import: ImportView }).import.outcome!;
  if (outcome.purchases + outcome.alreadyThere !== ROWS || outcome.buyers !== BUYERS || outcome.mails !== BUYERS)
    throw new Error(`The import did not grant every row: ${JSON.stringify(outcome)}`);

  const growth = peak.peakMb() - before;
  const mark = (ok: boolean) => (ok ? '✓' : '✗ not met');
  console.log(
    `\nImporting a ${(file.byteLength / 1024 / 1024).toFixed(1)} MB Gumroad export: ${ROWS.toLocaleString('en')} rows, ` +
      `${BUYERS.toLocaleString('en')} buyers, ${PRODUCTS} products (HTTP, built server, real PostgreSQL)`,
  );
  console.table({
    'dry run (upload, read, check)': {
      figure: `${dryRunS.toFixed(2)} s`,
      goal: `≤ ${GOALS.dryRunS} s`,
      met: mark(dryRunS <= GOALS.dryRunS),
    },
    'import (purchases, accounts, consent, mails)': {
      figure: `${importS.toFixed(2)} s`,
      goal: `≤ ${GOALS.importS} s`,
      met: mark(importS <= GOALS.importS),
    },
    'server peak RSS growth': {
      figure: `+${growth} MB (${before} → ${peak.peakMb()} MB)`,
      goal: `≤ ${GOALS.rssGrowthMb} MB`,
      met: mark(growth <= GOALS.rssGrowthMb),
    },
  });
  console.log(`Outcome: ${JSON.stringify(outcome)}`);
} finally {
  await world.stop();
}
