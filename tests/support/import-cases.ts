import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../functions/db/database.ts';
import { ensureUser } from '../../functions/auth/users.ts';
import { analyticsReport } from '../../functions/orders/admin-analytics.ts';
import { overviewStats } from '../../functions/admin/overview.ts';
import type { ImportView } from '../../src/lib/admin/import.schema.ts';
import { signedInBrowser, type Browser, type TestServer } from './test-server.ts';
import { plainText, type startSmtpServer } from './smtp.ts';

/**
 * Admin → Import over each platform's sample export (tests/fixtures/import, README there): the dry
 * run, the import with a mapping, what a buyer gets (a completed guest purchase marked imported, no
 * receipt, no sale in analytics), consent only where the export carries it, one mail on request, and
 * importing the same file again changing nothing. Broken rows are named by line and block the import.
 * Run by a file that has a server and SMTP already (purchase.test.ts): a server of its own would add
 * its start to `npm test` for a few seconds of tests.
 */
export function describeImport(shop: () => { server: TestServer; smtp: Awaited<ReturnType<typeof startSmtpServer>> }): void {
  let admin: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const courses: Record<'pricing' | 'budget' | 'photos', string> = { pricing: '', budget: '', photos: '' };

  beforeAll(async () => {
    smtp = shop().smtp;
    admin = await signedInBrowser(shop().server, { role: 'admin' });
    const titled = async (title: string) =>
      (await db().selectFrom('courses').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id;
    courses.pricing = await titled('Value-Based Pricing for Freelancers');
    courses.budget = await titled('The 50/30/20 Budget in 20 Minutes');
    courses.photos = await titled('Telefonla Ürün Fotoğrafı Çekerek Ek Gelir Kazan');
  });

  const sample = (name: string) => new Uint8Array(readFileSync(`tests/fixtures/import/${name}`));
  const sampleText = (name: string) => readFileSync(`tests/fixtures/import/${name}`, 'utf8');

  async function upload(
    bytes: Uint8Array<ArrayBuffer> | string,
    name = 'export.csv',
  ): Promise<{ status: number; view: ImportView; code?: string }> {
    const form = new FormData();
    form.set('file', new File([bytes], name, { type: 'text/csv' }));
    const response = await admin.request('/api/admin/import', { method: 'POST', body: form });
    const body = (await response.json()) as { import: ImportView; error?: { code: string } };
    return { status: response.status, view: body.import, ...(body.error ? { code: body.error.code } : {}) };
  }

  async function runImport(id: string, mapping: string[], sendMail = false) {
    const response = await admin.json('POST', `/api/admin/import/${id}`, { courses: mapping, sendMail });
    const body = (await response.json()) as { import: ImportView; error?: { code: string } };
    return { status: response.status, view: body.import, code: body.error?.code };
  }

  /** Everything an import may write, counted. */
  async function footprint() {
    const count = (table: 'purchases' | 'users' | 'subscribers' | 'subscriber_consents' | 'mail_outbox') =>
      db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    return {
      purchases: await count('purchases'),
      users: await count('users'),
      subscribers: await count('subscribers'),
      consents: await count('subscriber_consents'),
      mails: await count('mail_outbox'),
    };
  }

  const importedPurchase = (email: string) =>
    db()
      .selectFrom('purchases')
      .innerJoin('users', 'users.id', 'purchases.user_id')
      .select([
        'purchases.course_id',
        'purchases.status',
        'purchases.provider',
        'purchases.guest',
        'purchases.amount_minor',
        'purchases.receipt_number',
        'purchases.completed_at',
        'purchases.language',
        'users.email_verified',
      ])
      .where('purchases.email', '=', email)
      .execute();

  describe('the imports', () => {
    it('Gumroad: a dry run, then the mapped purchases as imported guest purchases, consent where the export carries it, one mail each; again, nothing', async () => {
      await ensureUser(db(), { email: 'lena.brandt@example.com', password: 'lena password 42', fullName: 'Lena', role: 'user' });
      const salesBefore = await analyticsReport('3months');
      const overviewBefore = await overviewStats();
      // Mara bought yesterday: inside the analytics period, were an import counted as a sale.
      const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
      const gumroad = sampleText('gumroad.csv').replaceAll('2024-02-03', yesterday);

      const dry = await upload(gumroad, 'Sales.csv');
      expect(dry.status).toBe(201);
      expect(dry.view).toMatchObject({
        platform: 'gumroad',
        fileName: 'Sales.csv',
        // Six sales (the Totals line is no sale), one fully refunded.
        rows: 6,
        importable: 5,
        skipped: { refunded: 1, disputed: 0, revoked: 0, unpaid: 0 },
        // The gift belongs to its recipient; Lena has an account already.
        buyers: { total: 4, new: 3, existing: 1 },
        // Mara and Lena left "Do not contact?" at 0; Emre set it; a gift's giver speaks for nobody.
        carriesConsent: true,
        consents: 2,
        problemCount: 0,
      });
      expect(dry.view.products).toEqual([
        { key: 'vbpf', name: 'Value-Based Pricing for Freelancers', rows: 4, suggestedCourseId: courses.pricing },
        { key: 'pwrec', name: 'Pricing Workshop Recording', rows: 1, suggestedCourseId: null },
      ]);

      const before = await footprint();
      const done = await runImport(dry.view.id, [courses.pricing, ''], true);
      expect(done.status).toBe(200);
      expect(done.view.outcome).toEqual({ purchases: 4, alreadyThere: 0, buyers: 4, newAccounts: 3, consents: 2, mails: 4 });

      const [mara] = await importedPurchase('mara.quinn@example.com');
      expect(mara).toMatchObject({
        course_id: courses.pricing,
        status: 'completed',
        provider: 'import',
        guest: true,
        amount_minor: 0,
        receipt_number: null,
        language: 'en',
        email_verified: false,
      });
      expect(mara!.completed_at!.toISOString()).toBe(`${yesterday}T10:15:00.000Z`);
      expect((await importedPurchase('emre.aydin@example.com'))[0]!.language).toBe('tr');
      expect(await importedPurchase('gift.receiver@example.com')).toHaveLength(1);
      expect(await importedPurchase('gift.giver@example.com')).toHaveLength(0);
      expect(await importedPurchase('tom.refund@example.com')).toHaveLength(0);

      const consent = await db()
        .selectFrom('subscriber_consents')
        .innerJoin('subscribers', 'subscribers.id', 'subscriber_consents.subscriber_id')
        .select(['subscribers.email', 'subscribers.status', 'subscriber_consents.source', 'subscriber_consents.wording_text'])
        .where('subscriber_consents.source', '=', 'import')
        .orderBy('subscribers.email')
        .execute();
      expect(consent.map((row) => [row.email, row.status, row.source])).toEqual([
        ['lena.brandt@example.com', 'active', 'import'],
        ['mara.quinn@example.com', 'active', 'import'],
      ]);
      expect(consent[0]!.wording_text).toContain('Gumroad');
      expect(consent[0]!.wording_text).toContain('Do not contact?');

      // No money came in here: sales, revenue and buyers stay as they were.
      const salesAfter = await analyticsReport('3months');
      expect([salesAfter.sales, salesAfter.buyers, salesAfter.revenue]).toEqual([
        salesBefore.sales,
        salesBefore.buyers,
        salesBefore.revenue,
      ]);
      expect(salesAfter.recentTransactions.some((sale) => sale.provider === 'import')).toBe(false);
      expect((await overviewStats()).sales).toBe(overviewBefore.sales);

      // The one mail, in the buyer's language, with a way to sign in, over real SMTP.
      const mail = await smtp.waitFor((message) => message.to.includes('emre.aydin@example.com'));
      const text = plainText(mail.raw);
      expect(text).toContain('Gumroad');
      expect(text).toContain('Value-Based Pricing for Freelancers');
      expect(text).toMatch(/Kurslarımı aç/);
      expect(text).toContain('/api/auth/magic-link/verify?token=');

      const after = await footprint();
      expect(after).toEqual({
        ...before,
        purchases: before.purchases + 4,
        users: before.users + 3,
        subscribers: before.subscribers + 2,
        consents: before.consents + 2,
        mails: before.mails + 4,
      });

      // The same upload posted again answers what it did; the same file uploaded again grants nothing.
      expect((await runImport(dry.view.id, [courses.pricing, ''], true)).view.outcome).toEqual(done.view.outcome);
      const again = await upload(gumroad, 'Sales.csv');
      expect(again.view.buyers).toEqual({ total: 4, new: 0, existing: 4 });
      const rerun = await runImport(again.view.id, [courses.pricing, ''], true);
      expect(rerun.view.outcome).toEqual({ purchases: 0, alreadyThere: 4, buyers: 0, newAccounts: 0, consents: 0, mails: 0 });
      expect(await footprint()).toEqual(after);
    });

    it('Payhip: several products of one transaction, consent from "unconsented from emails" but never from a gift, the buyer in Türkiye in Turkish', async () => {
      const dry = await upload(sample('payhip.csv'));
      expect(dry.view).toMatchObject({
        platform: 'payhip',
        rows: 5,
        importable: 4,
        skipped: { refunded: 1 },
        buyers: { total: 3, new: 3, existing: 0 },
        carriesConsent: true,
        // Ayşe; Jon unconsented; the gift's row agreed, but whose agreement it was Payhip does not say.
        consents: 1,
        problemCount: 0,
      });
      expect(dry.view.products.map((product) => [product.key, product.suggestedCourseId])).toEqual([
        ['RGsF', courses.pricing],
        ['k9Ew', null],
      ]);
      const done = await runImport(dry.view.id, [courses.pricing, courses.budget]);
      expect(done.view.outcome).toEqual({ purchases: 4, alreadyThere: 0, buyers: 3, newAccounts: 3, consents: 1, mails: 0 });
      expect(await importedPurchase('gift.payhip@example.com')).toHaveLength(1);
      expect(await db().selectFrom('subscribers').where('email', '=', 'gift.payhip@example.com').execute()).toEqual([]);
      expect((await importedPurchase('jon.park@example.com')).map((row) => row.course_id).sort()).toEqual(
        [courses.pricing, courses.budget].sort(),
      );
      const [ayse] = await importedPurchase('ayse.kaya@example.com');
      expect([ayse!.language, ayse!.completed_at!.toISOString()]).toEqual(['tr', new Date(1703693218 * 1000).toISOString()]);
    });

    it('Lemon Squeezy: paid orders only (not pending, refunded or test-mode ones), and no consent, since its orders export carries none', async () => {
      const before = await footprint();
      const dry = await upload(sample('lemon-squeezy.csv'));
      expect(dry.view).toMatchObject({
        platform: 'lemon-squeezy',
        rows: 5,
        importable: 2,
        skipped: { refunded: 1, unpaid: 2 },
        carriesConsent: false,
        consents: 0,
        problemCount: 0,
      });
      const done = await runImport(dry.view.id, [courses.pricing, courses.photos]);
      expect(done.view.outcome).toMatchObject({ purchases: 2, consents: 0, mails: 0 });
      expect((await footprint()).subscribers).toBe(before.subscribers);
      expect((await importedPurchase('selin.ozturk@example.com'))[0]!.course_id).toBe(courses.photos);
      expect(await importedPurchase('tess.testmode@example.com')).toEqual([]);
    });

    it('names each broken row by its line and imports nothing from a file that has one', async () => {
      const gumroad = sampleText('gumroad.csv').replace(/Totals.*\r\n$/, '');
      const columns = gumroad.split('\r\n')[0]!.split(',').length;
      const broken = [
        gumroad,
        // Line 8: an address that is none; line 9: a row cut short; line 10: no order id.
        `Zx1,Value-Based Pricing for Freelancers,Ann,not-an-email,,0${','.repeat(columns - 6)}\r\n`,
        'Zx2,Value-Based Pricing for Freelancers,Bob\r\n',
        `,Value-Based Pricing for Freelancers,Cem,cem@example.com,,0${','.repeat(columns - 6)}\r\n`,
      ].join('');
      const before = await footprint();
      const dry = await upload(broken);
      expect(dry.view.problemCount).toBe(3);
      expect(dry.view.problems).toEqual([
        { line: 8, code: 'email_invalid' },
        { line: 9, code: 'columns' },
        { line: 10, code: 'order_missing' },
      ]);
      const refused = await runImport(dry.view.id, [courses.pricing, courses.budget]);
      expect([refused.status, refused.code]).toEqual([400, 'has_problems']);

      // A quote never closed: the reading stops at the line it opened on.
      const payhip = `${sampleText('payhip.csv')}9Zz,1706000001,"late@example.com,USD,500,false,0,France,192.0.2.14,29129,Pricing Templates Pack,k9Ew,,1,,,card,20,30,false,false,false\n`;
      expect((await upload(payhip)).view.problems).toEqual([{ line: 7, code: 'unclosed_quote' }]);
      const lemon = sampleText('lemon-squeezy.csv').replace('noah.fischer@example.com', '');
      expect((await upload(lemon)).view.problems).toEqual([{ line: 2, code: 'email_missing' }]);

      // A Gumroad pre-order is authorised, not paid: skipped, like an unpaid order.
      const preorder = gumroad.replace(/^(gWmZ1aQ0xYbC-pK3sLr7Tw==(?:,[^,]*){32}),0,/m, '$1,1,');
      expect((await upload(preorder)).view).toMatchObject({ importable: 4, skipped: { refunded: 1, unpaid: 1 } });

      // Files that are no platform's export, or no UTF-8 text, are refused whole.
      expect(await upload('name,email\nAnn,ann@example.com\n')).toMatchObject({ status: 400, code: 'unknown_platform' });
      expect(await upload(new Uint8Array([0x49, 0x74, 0x65, 0x6d, 0xff, 0xfe, 0x0a]))).toMatchObject({
        status: 400,
        code: 'not_utf8',
      });
      expect(await footprint()).toEqual(before);
    });
  });
}
