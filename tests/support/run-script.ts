import { spawn } from 'node:child_process';

/**
 * Runs one of the shop's command-line scripts on this Node, without blocking the test process (which
 * may be serving a fake the script talks to): its exit code and everything it printed.
 */
export function runScript(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
