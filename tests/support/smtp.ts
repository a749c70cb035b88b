import { SMTPServer } from 'smtp-server';
import { findFreePort } from '../../functions/db/embedded.ts';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server in the test process, collecting what the shop sends. */
export async function startSmtpServer(fixedPort?: number): Promise<{
  url: string;
  messages: ReceivedMail[];
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  // A sender that dies mid-message (an instance killed by a drill) is the sender's problem, as for a real
  // server: smtp-server reports it as an 'error' of the server (EPIPE, ECONNRESET, with the sender's
  // address), which unheard would end the test process. The server's own errors still do.
  server.on('error', (error: Error & { remoteAddress?: string }) => {
    if (error.remoteAddress === undefined) throw error;
  });
  const port = fixedPort ?? (await findFreePort());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('No matching mail arrived');
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The text/plain part of a raw message, decoded (quoted-printable or base64). */
export function plainText(raw: string): string {
  const part = raw.split(/Content-Type: text\/plain; charset=utf-8/i)[1] ?? raw;
  const [headers = '', ...body] = part.split(/\r?\n\r?\n/);
  const content = body.join('\n\n').split(/\r?\n--/)[0] ?? '';
  if (/base64/i.test(headers)) return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  return content
    .replace(/=\r?\n/g, '')
    .replace(/(=[0-9A-F]{2})+/g, (encoded) => Buffer.from(encoded.replace(/=/g, ''), 'hex').toString('utf8'));
}

/** The header block of a raw message, unfolded, by lower-case name. */
export function mailHeaders(raw: string): Record<string, string> {
  const block = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return Object.fromEntries(
    block
      .split(/\r?\n/)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}
