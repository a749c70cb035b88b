/**
 * The Node flags the shop's server process starts with (`npm start` in package.json, the bench's
 * servers): kept in one list, which functions/cli/server-flags.test.ts holds package.json to.
 *
 * `--max-semi-space-size=16`: V8 in Node 24 sizes the young generation from the machine's memory, up
 * to 64 MB per semi-space (128 MB resident on a large machine, before a single request); 16 MB, the
 * earlier default, kept the server about 70 MB smaller through the bench's 2,000 distinct catalogue
 * URLs (issue 41). It cannot be changed once the process runs (`v8.setFlagsFromString` is too late).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'] as const;
