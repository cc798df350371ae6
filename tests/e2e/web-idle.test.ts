import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser';
import { signInToShell, startWebWorld, type WebWorld } from '../support/e2e-web';

/** The idle warning with shortened timeouts (a copy of config/tenants: 60 s idle, 55 s countdown -> warning after 5 s). */
let world: WebWorld;

beforeAll(async () => {
  world = await startWebWorld({}, (_tenant, yaml) =>
    yaml.replace(/^session: .*$/m, 'session: { idle_seconds: 60, warning_seconds: 55 }'),
  );
});
afterAll(async () => {
  await world?.close();
});

describe('idle session', () => {
  it("warns with 'Oh No!', counts down, blinks the title, and can be extended or end the session", async () => {
    const { context, page } = await world.newPage();
    await signInToShell(page, world, 'acme', 'agent');
    const dialog = page.getByTestId('idle-dialog');
    // Activity (debounced 500 ms) keeps the session: 8 s of mouse moves, longer than the 5 s idle period.
    for (let i = 0; i < 16; i++) {
      await page.mouse.move(100 + (i % 2) * 50, 300);
      await page.waitForTimeout(500);
    }
    expect(await dialog.count()).toBe(0);
    await dialog.waitFor({ timeout: 30_000 });
    expect(await dialog.getByText('Oh No!').count()).toBe(1);
    const first = await page.getByTestId('idle-countdown').textContent();
    const titles = new Set<string>();
    for (let i = 0; i < 6; i++) {
      titles.add(await page.title());
      await page.waitForTimeout(400);
    }
    expect(titles.has('**WARNING**')).toBe(true);
    expect([...titles].some((t) => t.startsWith('Dashboard - '))).toBe(true);
    expect(await page.getByTestId('idle-countdown').textContent()).not.toBe(first);
    await screenshot(page, 'idle-warning');
    await page.getByRole('button', { name: 'Stay Signed In' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.title()).toMatch(/^Dashboard - /);
    // Next time: sign out from the dialog.
    await dialog.waitFor({ timeout: 30_000 });
    await page.getByTestId('idle-dialog').getByRole('button', { name: 'Sign Out' }).click();
    await page.getByTestId('sign-in-form').waitFor({ timeout: 30_000 });
    await context.close();
  });
});
