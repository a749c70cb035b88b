import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The accessibility gate's two auditors: the axe-core rule engine with the WCAG 2.0/2.1/2.2 A and AA
 * rules, and the Nu Html Checker (the W3C validator, `vnu-jar`) on the system Java. Both return
 * findings as short lines, so a failing test names the page, the rule and the element.
 */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Whether the full matrix runs (`npm run test:sweep`): both languages and every state. */
export const FULL_SWEEP = process.env.A11Y_SWEEP === 'full';

export async function axeViolations(page: Page, label = page.url()): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${label}: ${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${violation.help}`,
    ),
  );
}

const VNU_JAR = path.resolve('node_modules/vnu-jar/build/dist/vnu.jar');
const run = promisify(execFile);

/** Whether `java` is on the PATH (the validator never downloads a Java runtime of its own). */
export async function javaAvailable(): Promise<boolean> {
  return run('java', ['-version']).then(
    () => true,
    () => false,
  );
}

/** Every error the Nu Html Checker finds in the pages, one JVM for all of them. */
export async function htmlErrors(pages: { url: string; html: string }[]): Promise<string[]> {
  if (pages.length === 0) return [];
  const dir = await mkdtemp(path.join(tmpdir(), 'vnu-'));
  try {
    const files = await Promise.all(
      pages.map(async (page, index) => {
        const file = path.join(dir, `${index}.html`);
        await writeFile(file, page.html);
        return { file, url: page.url };
      }),
    );
    const { stdout } = await run(
      'java',
      ['-jar', VNU_JAR, '--errors-only', '--exit-zero-always', '--format', 'json', '--stdout', ...files.map((file) => file.file)],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const { messages } = JSON.parse(stdout) as {
      messages: { type: string; url?: string; lastLine?: number; message: string; extract?: string }[];
    };
    return messages
      .filter((message) => message.type === 'error')
      .map((message) => {
        const url = files.find((file) => message.url?.endsWith(`/${path.basename(file.file)}`))?.url ?? message.url;
        return `${url}:${message.lastLine ?? '?'}: ${message.message} ${message.extract ? `in ${message.extract.trim()}` : ''}`;
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
