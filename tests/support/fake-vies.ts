import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of VIES's REST API (`POST /check-vat-number`), for the VAT number check the machine
 * cannot reach. It checks what VIES checks of a request (JSON body, a two-letter member-state code,
 * EL for Greece, a number without its prefix) and answers as VIES does: `valid` for the numbers it
 * was given as registered, `valid: false` for the others, and `MS_UNAVAILABLE` while `down`.
 */
export interface FakeVies {
  url: string;
  /** Registered numbers, with prefix (FR40303265045). */
  registered: Set<string>;
  down: boolean;
  requests: { countryCode: string; vatNumber: string }[];
  stop: () => Promise<void>;
}

const MEMBER_STATES = new Set('AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'.split(' '));

export async function startFakeVies(port = 0): Promise<FakeVies> {
  const fake: Omit<FakeVies, 'url' | 'stop'> = { registered: new Set(), down: false, requests: [] };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/check-vat-number') return send(404, {});
      let body: { countryCode?: unknown; vatNumber?: unknown };
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        return send(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
      }
      const { countryCode, vatNumber } = body;
      if (
        typeof countryCode !== 'string' ||
        !MEMBER_STATES.has(countryCode) ||
        typeof vatNumber !== 'string' ||
        !/^[0-9A-Z+*]{2,12}$/.test(vatNumber)
      )
        return send(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
      fake.requests.push({ countryCode, vatNumber });
      if (fake.down) return send(200, { actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] });
      const valid = fake.registered.has(`${countryCode}${vatNumber}`);
      send(200, {
        countryCode,
        vatNumber,
        requestDate: new Date().toISOString(),
        valid,
        requestIdentifier: valid ? `WAPIAAAA${fake.requests.length}` : '',
        name: valid ? 'FAKE BUSINESS SAS' : '---',
        address: valid ? '1 RUE DE LA PAIX, 75002 PARIS' : '---',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  const running: FakeVies = Object.assign(fake, {
    url: `http://127.0.0.1:${bound}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return running;
}
