import { test } from '@playwright/test';
test('cls sources', async ({ page }) => {
  await page.addInitScript(() => {
    (window as any).__s = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) (window as any).__s.push({ v: e.value, t: e.startTime, src: (e.sources || []).map((s: any) => `${s.node?.nodeName}.${s.node?.className} ${JSON.stringify(s.previousRect)}→${JSON.stringify(s.currentRect)}`) });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page); await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  for (let i = 0; i < 4; i++) {
    await page.goto(process.env.CLS_URL ?? '/21308/MTMwOA/visitor', { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    const s = await page.evaluate(() => (window as any).__s);
    if (s.length) console.log(JSON.stringify(s));
  }
});
