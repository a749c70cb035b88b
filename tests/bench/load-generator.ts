import autocannon from 'autocannon';

/**
 * The load generator, run as a process of its own (tests/bench/bench-server.ts generateLoad): in the
 * bench's own process it would share that event loop and count its own work as the server's latency.
 * Reads its options as JSON from argv, prints one JSON line: autocannon's figures and its own CPU time.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
const before = process.cpuUsage();
const result = await autocannon({ ...options, headers: { 'accept-encoding': 'br, gzip', ...options.headers } });
const cpu = process.cpuUsage(before);
console.log(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuMs: (cpu.user + cpu.system) / 1000,
  }),
);
