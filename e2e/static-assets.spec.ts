import { expect, test } from '@playwright/test';
import { baseUrl } from './dashboard-fixtures';

test('every page has a tab icon, so no tab logs a missing favicon', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.location().url} ${message.text()}`);
  });
  await page.goto(`${baseUrl()}/docs`);

  // Headless Chromium never fetches the tab icon itself (and Playwright hides favicon requests):
  // the page asks for it as a tab would, and decodes it.
  const favicon = await page.evaluate(async () => {
    const answer = await fetch('/favicon.ico');
    const icon = new Image();
    icon.src = '/favicon.ico';
    await icon.decode().catch(() => undefined);
    return { status: answer.status, type: answer.headers.get('content-type'), width: icon.naturalWidth };
  });
  expect(favicon.status).toBe(200);
  expect(favicon.type).toMatch(/^image\//);
  expect(favicon.width).toBeGreaterThan(0);
  expect(errors.filter((e) => e.includes('favicon'))).toEqual([]);

  const touchIcon = await fetch(`${baseUrl()}/apple-touch-icon.png`);
  expect(touchIcon.status).toBe(200);
  expect(touchIcon.headers.get('content-type')).toBe('image/png');
  const robots = await fetch(`${baseUrl()}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(await robots.text()).toContain('Disallow: /');
});
