import { expect, type Page } from '@playwright/test';

/** Waits until every React island on the page has hydrated, so clicks are not lost. */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}
