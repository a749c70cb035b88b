import { z } from 'zod';

// Without this, zod probes `new Function` to compile fast parsers: the shop's Content-Security-Policy
// (no 'unsafe-eval') blocks it, and every page with a form reports a violation.
z.config({ jitless: true });

/** zod, as every module of the shop imports it (the lint rule `no-restricted-imports` says so). */
export { z };
