import '../load-env-file.ts';
import { env } from '../env.ts';
import { listMailbox } from '../mail/mailbox.ts';
import { runWithDatabase } from './with-database.ts';

/** `npm run mail [-- address]`: the dev mailbox in the terminal, newest first, with each sent mail's links. */
const recipient = process.argv[2];
await runWithDatabase(
  'list the dev mailbox',
  async (database) => {
    const messages = await listMailbox(recipient, database);
    if (messages.length === 0) console.log(recipient ? `No mail to ${recipient}.` : 'The mailbox is empty.');
    for (const message of messages.reverse()) {
      console.log(
        `\n${message.createdAt.toISOString()}  ${message.status.padEnd(7)}  ${message.recipient}\n  ${message.subject}`,
      );
      for (const link of message.links) console.log(`  ${link}`);
    }
  },
  {
    quiet: true,
    before: () => {
      if (env().NODE_ENV === 'production') throw new Error('the dev mailbox is a developer tool: not in production.');
    },
  },
);
