import { expect, test } from './fixtures.ts';

/**
 * Every e-mail (as the preview gallery lists them: a new template is covered by itself), in both
 * languages, on a small phone, a phone and a desktop mail pane: no sideways scrolling, buttons a
 * thumb can hit, and a plain-text part with the same content.
 */
const WIDTHS = [320, 375, 600];
const MIN_TARGET_PX = 44;

test('every e-mail reads on a phone without scrolling sideways, with 44 px buttons and a plain-text part', async ({ page }) => {
  await page.goto('/en/dev/mail');
  const previews = await page
    .getByRole('link', { name: 'HTML', exact: true })
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).getAttribute('href')!));
  expect(previews.length).toBeGreaterThanOrEqual(8);
  for (const preview of previews) {
    const text = await (await page.request.get(`${preview}&part=text`)).text();
    expect(text.trim().length, `${preview}: plain-text part`).toBeGreaterThan(100);
    await page.goto(preview);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll, `${preview} at ${width} px`).toBeLessThanOrEqual(width);
      // Buttons are links with a filled background (React Email's Button).
      const heights = await page
        .locator('a[style*="background-color"]')
        .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().height));
      for (const height of heights) expect(height, `${preview} button at ${width} px`).toBeGreaterThanOrEqual(MIN_TARGET_PX);
    }
  }
});
