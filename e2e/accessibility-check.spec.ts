import { expect, test } from '@playwright/test';
import { expectAccessible } from './dashboard-fixtures';

type AxeWindow = Window & { axe?: object; loadedOnce?: object };

// The check every page spec leans on: it must still see what axe calls serious, and load axe once per document.
test('the accessibility check refuses an image without words and faint text, and passes once they are fixed', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>Planted</title></head><body><main><h1>Planted</h1>' +
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="40" height="40">' +
      '<p style="color:#bbb;background:#fff">Faint words</p></main></body></html>',
  );
  const refused = await expectAccessible(page).then(
    () => '',
    (e: Error) => e.message,
  );
  expect(refused).toContain('image-alt');
  expect(refused).toContain('color-contrast');
  await page.evaluate(() => Object.assign(window, { loadedOnce: (window as AxeWindow).axe }));

  await page.locator('img').evaluate((img) => img.setAttribute('alt', 'A dot'));
  await page.locator('p').evaluate((p) => (p.style.color = '#333'));
  await expectAccessible(page);
  expect(await page.evaluate(() => (window as AxeWindow).axe === (window as AxeWindow).loadedOnce)).toBe(true);
});
