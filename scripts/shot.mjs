#!/usr/bin/env node
// Screenshot a page at phone width in Debian's Chromium: node scripts/shot.mjs URL out.png [width] [--nojs]
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './lib.mjs';

const [url, out = 'shot.png', width = '390'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: CHROMIUM_FLAGS,
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 844 }, javaScriptEnabled: !process.argv.includes('--nojs') });
await page.goto(url, { waitUntil: 'networkidle' });
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(out);
