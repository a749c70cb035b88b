import '../load-env-file.ts';
import { buildNow } from './build-if-needed.ts';
import { runCommand } from './command.ts';

/** `npm run build`: the production build a deploy runs before `npm start`. */
await runCommand('build the shop', () => Promise.resolve(buildNow()));
