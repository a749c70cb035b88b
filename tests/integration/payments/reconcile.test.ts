import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../functions/db/database.ts';
import { startCheckout } from '../../../functions/orders/checkout.ts';
import { reconcilePaidSessions } from '../../../functions/orders/reconcile.ts';
import { startFakeStripe } from '../../support/fake-stripe.ts';
import { makeCourse } from '../../support/factories.ts';

let stripe: Awaited<ReturnType<typeof startFakeStripe>>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  Object.assign(process.env, {
    ...stripe.settings,
  });
});
afterAll(() => stripe.stop());

describe('payments:reconcile (against a local HTTP fake of the Stripe API)', () => {
  it('fulfils paid sessions whose webhook never came, and changes nothing the second time', async () => {
    const course = await makeCourse({ price_minor: 700, currency: 'USD' });
    const result = await startCheckout(
      {
        courseId: course.id,
        email: 'lost-webhook@example.com',
        fullName: 'Lost Webhook',
        language: 'en',
        acceptTerms: true,
        waiveWithdrawal: true,
        sendNews: false,
        discountCode: '',
      },
      undefined,
      { clientIp: '203.0.113.9' },
    );
    expect(result).toMatchObject({ ok: true, value: { kind: 'redirect' } });
    const order = await db()
      .selectFrom('purchases')
      .selectAll()
      .where('email', '=', 'lost-webhook@example.com')
      .executeTakeFirstOrThrow();
    stripe.pay(order.payment_id!, order.id);
    const unpaid = await startCheckout(
      {
        courseId: course.id,
        email: 'still-paying@example.com',
        fullName: 'Still Paying',
        language: 'en',
        acceptTerms: true,
        waiveWithdrawal: true,
        sendNews: false,
        discountCode: '',
      },
      undefined,
      { clientIp: '203.0.113.9' },
    );
    expect(unpaid).toMatchObject({ ok: true, value: { kind: 'redirect' } });

    const first = await reconcilePaidSessions(3);
    expect(first).toMatchObject({ fulfilled: 1, not_paid: 1 });
    expect(
      (await db().selectFrom('purchases').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status,
    ).toBe('completed');
    const mails = await db().selectFrom('mail_outbox').select('id').where('recipient', '=', 'lost-webhook@example.com').execute();
    expect(mails).toHaveLength(1);

    const second = await reconcilePaidSessions(3);
    expect(second).toMatchObject({ fulfilled: 0, already_done: 1, not_paid: 1 });
    expect(
      await db().selectFrom('mail_outbox').select('id').where('recipient', '=', 'lost-webhook@example.com').execute(),
    ).toHaveLength(1);
  });
});
