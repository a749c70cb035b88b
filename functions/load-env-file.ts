import { existsSync } from 'node:fs';

/**
 * Imported first by every entry point (`npm start`, the CLI commands, the Astro config): loads `.env`
 * (or the file `ENV_FILE` names; `ENV_FILE=` loads none, as the test harnesses do) into the
 * environment. A variable already set in the environment wins over the file.
 */
const file = process.env.ENV_FILE ?? '.env';
if (file && existsSync(file)) process.loadEnvFile(file);
