import { env } from '../env.ts';
import { log } from '../log.ts';
import type { VatCheck } from './tax-rule.ts';

/**
 * The EU's VAT number check (VIES), through its REST API: `POST {VIES_URL}/check-vat-number` with
 * `{ countryCode, vatNumber }` (Greece is EL there). It answers `valid: true|false`, or an error
 * (`errorWrappers`, e.g. MS_UNAVAILABLE when a member state's register is down). Anything but a clear
 * yes or no, a timeout included, is `unavailable`: the checkout then charges VAT and records that, and
 * the admin can refund the VAT once the number checks later.
 */
export interface ViesAnswer {
  check: VatCheck;
  /** When VIES answered (its requestDate), or when the shop gave up asking. */
  checkedAt: string;
  /** VIES's consultation number, when it gives one. */
  requestIdentifier?: string;
}

const TIMEOUT_MS = 4_000;

export async function checkVatNumberWithVies(countryCode: string, vatNumber: string): Promise<ViesAnswer> {
  const body = { countryCode: countryCode === 'GR' ? 'EL' : countryCode, vatNumber: vatNumber.replace(/^[A-Z]{2}/, '') };
  try {
    const response = await fetch(`${env().VIES_URL.replace(/\/$/, '')}/check-vat-number`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      valid?: unknown;
      requestDate?: unknown;
      requestIdentifier?: unknown;
      errorWrappers?: unknown;
    };
    if (response.ok && typeof answer.valid === 'boolean')
      return {
        check: answer.valid ? 'valid' : 'invalid',
        checkedAt: typeof answer.requestDate === 'string' ? answer.requestDate : new Date().toISOString(),
        ...(typeof answer.requestIdentifier === 'string' && answer.requestIdentifier
          ? { requestIdentifier: answer.requestIdentifier }
          : {}),
      };
    log.warn({ status: response.status, errors: answer.errorWrappers }, 'VIES did not check a VAT number');
  } catch (error) {
    log.warn({ err: error }, 'VIES could not be reached');
  }
  return { check: 'unavailable', checkedAt: new Date().toISOString() };
}
