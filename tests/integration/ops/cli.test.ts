import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { runScript } from '../../support/run-script.ts';
import { queueMail } from '../../../functions/mail/outbox.ts';
import { ensureUser } from '../../../functions/auth/users.ts';
import { createAuth } from '../../../functions/auth/auth.ts';
import path from 'node:path';

/**
 * The command-line entry points run TypeScript straight on Node (type stripping: no JSX, no
 * enums). Each is started for real here, so a module they load that Node cannot run fails a test
 * instead of a seller's deploy. (`npm start` itself is started by every HTTP test.)
 */
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe.stop());

const run = runScript;

describe('command-line entry points', () => {
  it('db:migrate runs', async () => {
    const { code, output } = await run('functions/cli/db.ts', ['migrate']);
    expect(output).toContain('Migrations: up to date.');
    expect(code, output).toBe(0);
  });

  it('admin:create creates an admin', async () => {
    const { code, output } = await run('functions/cli/admin-create.ts', [
      '--email',
      'cli-admin@example.com',
      '--password',
      'cli password 42',
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain('Created admin cli-admin@example.com with the given password.');
    const user = await db()
      .selectFrom('users')
      .select('role')
      .where('email', '=', 'cli-admin@example.com')
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('admin');
  });

  it('admin:create claims an account someone else opened with the owner’s address, and says what it removed', async () => {
    const email = 'squatted-admin@example.com';
    const stranger = await db()
      .insertInto('users')
      .values({ email, full_name: 'Not The Owner', email_verified: false, two_factor_enabled: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const owned = { user_id: stranger.id };
    await db()
      .insertInto('accounts')
      .values({ ...owned, account_id: stranger.id, provider_id: 'credential', password: 'stranger-hash', updated_at: new Date() })
      .execute();
    await db()
      .insertInto('sessions')
      .values({ ...owned, token: 'stranger-session', expires_at: new Date(Date.now() + 86_400_000), updated_at: new Date() })
      .execute();
    await db()
      .insertInto('two_factors')
      .values({ ...owned, secret: 'sealed', backup_codes: 'sealed' })
      .execute();
    await db()
      .insertInto('passkeys')
      .values({
        ...owned,
        name: 'Theirs',
        credential_id: 'stranger-key',
        public_key: Buffer.from('key'),
        device_type: 'singleDevice',
      })
      .execute();

    const { code, output } = await run('functions/cli/admin-create.ts', ['--email', email, '--password', 'owner password 42']);
    expect(code, output).toBe(0);
    expect(output).toContain(`Claimed ${email}`);
    expect(output).toContain(
      'Removed: 1 password(s) and sign-in identities, 1 session(s), 1 passkey(s), two-factor authenticator.',
    );
    const user = await db()
      .selectFrom('users')
      .select(['role', 'email_verified', 'two_factor_enabled', 'full_name'])
      .where('id', '=', stranger.id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ role: 'admin', email_verified: true, two_factor_enabled: false, full_name: 'Administrator' });
    const [credential, ...others] = await db()
      .selectFrom('accounts')
      .select('password')
      .where('user_id', '=', stranger.id)
      .execute();
    expect(others).toEqual([]);
    const hashing = (await createAuth(db()).$context).password;
    expect(await hashing.verify({ hash: credential!.password!, password: 'owner password 42' })).toBe(true);
    for (const table of ['sessions', 'two_factors', 'passkeys'] as const)
      expect(await db().selectFrom(table).select('user_id').where('user_id', '=', stranger.id).execute(), table).toEqual([]);
  });

  it('admin:create promotes an account whose owner proved the address only with --promote-verified', async () => {
    const email = 'proven-owner@example.com';
    const { id } = await ensureUser(db(), { email, password: 'their password 42', fullName: 'Proven', role: 'user' });
    const passwordOf = async () =>
      (await db().selectFrom('accounts').select('password').where('user_id', '=', id).executeTakeFirstOrThrow()).password;
    const before = await passwordOf();

    const refused = await run('functions/cli/admin-create.ts', ['--email', email, '--password', 'operator password 42']);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(`Refused: ${email} belongs to an account whose owner proved the address; nothing changed.`);
    expect(refused.output).toContain('--promote-verified');
    const role = async () => (await db().selectFrom('users').select('role').where('id', '=', id).executeTakeFirstOrThrow()).role;
    expect(await role()).toBe('user');

    const promoted = await ensureUser(
      db(),
      { email, password: 'operator password 42', fullName: 'Operator', role: 'admin' },
      { promoteVerified: true },
    );
    expect(promoted).toEqual({ outcome: 'promoted', id });
    expect(await role()).toBe('admin');
    expect(await passwordOf()).toBe(before);
  });

  it('two-factor:reset turns two-factor off for an owner who lost it, ends their sessions and tells them in their language', async () => {
    const email = 'lost-phone@example.com';
    const { id } = await ensureUser(db(), {
      email,
      password: 'cli password 42',
      fullName: 'Şule Işık',
      role: 'user',
      language: 'tr',
    });
    await db().updateTable('users').set({ two_factor_enabled: true }).where('id', '=', id).execute();
    await db().insertInto('two_factors').values({ user_id: id, secret: 'sealed', backup_codes: 'sealed' }).execute();
    await db()
      .insertInto('sessions')
      .values({ user_id: id, token: 'lost-phone-session', expires_at: new Date(Date.now() + 86_400_000), updated_at: new Date() })
      .execute();

    const { code, output } = await run('functions/cli/two-factor-reset.ts', ['--email', 'Lost-Phone@example.com']);
    expect(code, output).toBe(0);
    expect(output).toContain('Two-factor authentication is off for Lost-Phone@example.com');
    expect(await db().selectFrom('users').select('two_factor_enabled').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      two_factor_enabled: false,
    });
    expect(await db().selectFrom('two_factors').select('id').where('user_id', '=', id).execute()).toEqual([]);
    expect(await db().selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['subject', 'text', 'language'])
      .where('recipient', '=', email)
      .where('kind', '=', 'security-notice')
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ language: 'tr', subject: expect.stringContaining('iki adımlı doğrulama sıfırlandı') });
    expect(mail.text).toContain('mağaza ekibi (tarayıcı değil)');

    const again = await run('functions/cli/two-factor-reset.ts', ['--email', email]);
    expect(again.output).toContain('does not use two-factor authentication: nothing changed.');
    expect(again.code).toBe(0);
    const nobody = await run('functions/cli/two-factor-reset.ts', ['--email', 'nobody@example.com']);
    expect(nobody.output).toContain('No account with the address nobody@example.com.');
    expect(nobody.code).toBe(1);
  });

  it('payments:reconcile asks Stripe (a local fake of its API) and reports', async () => {
    const { code, output } = await run('functions/cli/reconcile.ts', ['--days', '2'], {
      ...stripe.settings,
    });
    expect(code, output).toBe(0);
    expect(output).toContain('Checkout Sessions of the last 2 day(s):');
  });

  it('db:types verifies the generated row types', async () => {
    const { code, output } = await run('functions/cli/db-types.ts', ['--verify']);
    expect(output).toContain('matches the migrations');
    expect(code, output).toBe(0);
  }, 60_000);

  it('mail lists the dev mailbox in the terminal, for one address when asked', async () => {
    await queueMail(db(), {
      to: 'terminal-reader@example.com',
      subject: 'Read me in the terminal',
      html: '<p>Hi</p>',
      text: 'Hi',
      language: 'en',
      kind: 'test',
    });
    const { code, output } = await run('functions/cli/mail.ts', ['terminal-reader@example.com']);
    expect(output).toMatch(/pending\s+terminal-reader@example\.com\n\s+Read me in the terminal/);
    expect(code, output).toBe(0);
    expect((await run('functions/cli/mail.ts', ['nobody@example.com'])).output).toContain('No mail to nobody@example.com.');
  });

  it('db:psql says how to connect when psql is not installed', async () => {
    const { code, output } = await run('functions/cli/psql.ts', [], { PATH: path.dirname(process.execPath) });
    expect(output).toMatch(/psql is not installed .*; connect any client to postgres(ql)?:\/\//);
    expect(code).toBe(1);
  });
});
