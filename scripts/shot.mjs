#!/usr/bin/env node
// Screenshot a page at phone width in Debian's Chromium: node scripts/shot.mjs URL out.png [width] [--nojs]
import { chromium } from '@playwright/test';

const [url, out = 'shot.png', width = '390'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 844 }, javaScriptEnabled: !process.argv.includes('--nojs') });
await page.goto(url, { waitUntil: 'networkidle' });
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(out);
