import { enableCompileCache } from 'node:module';
import path from 'node:path';

/**
 * Where Node keeps what it compiled: our TypeScript after its types are stripped, and the built server.
 * A start then skips compiling again (a start that fails on its configuration answers in half the time,
 * and the test suite's hundreds of server and command starts cost far less CPU). Children inherit it
 * through the variable.
 */
export const COMPILE_CACHE = path.resolve('node_modules/.cache/node-compile');

export function useCompileCache(): void {
  process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE;
  enableCompileCache(process.env.NODE_COMPILE_CACHE);
}
