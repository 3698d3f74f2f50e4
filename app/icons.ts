/**
 * `node icons.ts`: draws the app's PNG icons (home screen, install, Apple touch) from public/icon.svg, the site's
 * mark, in Debian's Chromium. Run when the mark changes; the PNGs are committed and build.ts hashes them into
 * dist/assets/ with the web manifest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchChromium } from './test/browser.ts';

const here = import.meta.dirname;
const svg = readFileSync(path.join(here, 'public/icon.svg'), 'utf8');
// The mark with its background only: a maskable icon keeps its drawing within the middle 80 %.
const inner = svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '').replace(/<rect[^>]*\/>/, '');

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  for (const [name, size, maskable] of [['icon-180.png', 180, false], ['icon-192.png', 192, false], ['icon-512.png', 512, false], ['icon-maskable-512.png', 512, true]] as const) {
    await page.setViewportSize({ width: size, height: size });
    const drawing = maskable
      ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}"><rect width="32" height="32" fill="#0b5cad"/><g transform="translate(4.8 4.8) scale(0.7)">${inner}</g></svg>`
      : svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${drawing}</body></html>`);
    await page.screenshot({ path: path.join(here, 'public', name), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  }
} finally {
  await browser.close();
}
