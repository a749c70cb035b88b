import '../load-env-file.ts';
import { createDb } from '../db/database.ts';
import { provisionDatabase } from '../db/provision.ts';
import { env } from '../env.ts';
import { listMailbox } from '../mail/mailbox.ts';
import { runCommand } from './command.ts';

/** `npm run mail [-- address]`: the dev mailbox in the terminal, newest first, with each sent mail's links. */
const recipient = process.argv[2];
let release = async () => {};
await runCommand(
  'list the dev mailbox',
  async () => {
    if (env().NODE_ENV === 'production') throw new Error('the dev mailbox is a developer tool: not in production.');
    const provisioned = await provisionDatabase(() => {});
    const database = createDb(provisioned.url, 1);
    release = async () => {
      await database.destroy();
      await provisioned.stop();
    };
    const messages = await listMailbox(recipient, database);
    if (messages.length === 0) console.log(recipient ? `No mail to ${recipient}.` : 'The mailbox is empty.');
    for (const message of messages.reverse()) {
      console.log(
        `\n${message.createdAt.toISOString()}  ${message.status.padEnd(7)}  ${message.recipient}\n  ${message.subject}`,
      );
      for (const link of message.links) console.log(`  ${link}`);
    }
  },
  () => release(),
);
