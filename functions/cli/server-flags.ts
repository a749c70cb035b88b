/**
 * How the shop's server process is started (`npm start` in package.json, the bench's servers): its Node
 * flags and its environment, kept here, which functions/cli/server-flags.test.ts holds package.json to.
 * Neither can be changed once the process runs (`v8.setFlagsFromString` and glibc's tunables are read
 * at start), so they are given on the command line.
 *
 * `--max-semi-space-size=16`: V8 in Node 24 sizes the young generation from the machine's memory, up
 * to 64 MB per semi-space (128 MB resident on a large machine, before a single request); 16 MB, the
 * earlier default, kept the server about 70 MB smaller through the bench's 2,000 distinct catalogue
 * URLs (issue 41).
 * `--heap-growing-percent=30`: on a machine with gigabytes V8 lets the old generation grow to up to
 * four times what survived the last full collection before the next one; under a flood of distinct
 * catalogue URLs (about 75 MB live) that was 185 MB of heap. 1.3 times keeps the server's peak through
 * `npm run bench` at 400 MB, for a little more CPU per cache miss (decision 57). Unlike
 * `--max-old-space-size` it sets no ceiling.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=30'] as const;

/**
 * glibc's allocator for the server process (decision 57). Node allocates buffers with malloc; by
 * default glibc raises its mmap threshold to the largest block freed so far (32 MB once a large file
 * passed), so every later page, compression state and response went into the main heap, where the page
 * cache's long-lived bodies pinned it: 75 MB of free memory stayed resident after a flood of distinct
 * URLs. Fixed thresholds keep blocks of 8 KB and more in mappings of their own (given back when freed)
 * and trim the heap's free top past 128 KB; two arenas instead of eight per core for libuv's threads.
 * Ignored where the C library is not glibc (Alpine's musl).
 */
export const SERVER_ENV = {
  GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=8192:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2',
} as const;

/**
 * Removes SERVER_ENV's settings from the server's environment once it runs (they took effect at its
 * start), so the processes it starts, the embedded PostgreSQL above all (which allocates its memory in
 * 8 KB blocks), get glibc's defaults. A value the operator set differently is theirs and kept.
 */
export function leaveServerEnvToServer(environment: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(SERVER_ENV)) if (environment[name] === value) delete environment[name];
}
