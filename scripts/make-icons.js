#!/usr/bin/env node
// `npm run icons`: renders resources/icon.svg (and icon-small.svg for 16-32 px) into every icon
// the app and its installers use — resources/icons/NxN.png (the window, the Linux icon set),
// icon.ico (Windows), icon.icns (macOS, inset on Apple's 824/1024 grid) and the approval badge.
// The outputs are committed, so packaging never depends on electron-builder's icon download.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import icongen from 'icon-gen';
import sharp from 'sharp';

const resources = fileURLToPath(new URL('../resources/', import.meta.url));
const SMALL_MAX_PX = 32;
const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
const ICNS_SIZES = [16, 32, 64, 128, 256, 512, 1024];
// Apple's template: the rounded tile spans 824 of 1024 px; ours spans 960, so macOS gets an inset.
const MAC_TILE_SCALE = 824 / 960;

function sourceFor(sizePx) {
  return join(resources, sizePx <= SMALL_MAX_PX ? 'icon-small.svg' : 'icon.svg');
}

/** Rasterise an SVG drawn on a 1024 px canvas at exactly sizePx square. */
function render(svgPath, sizePx, canvasPx = 1024) {
  // density is DPI: 72 renders the SVG at its own size; 4x oversampling, then a clean downscale.
  return sharp(svgPath, { density: ((72 * sizePx) / canvasPx) * 4 }).resize(sizePx, sizePx);
}

async function renderInset(sizePx) {
  const inner = Math.round(sizePx * MAC_TILE_SCALE);
  const before = Math.floor((sizePx - inner) / 2);
  const after = sizePx - inner - before;
  const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
  const tile = await render(join(resources, 'icon.svg'), inner).png().toBuffer();
  return sharp(tile).extend({ top: before, bottom: after, left: before, right: after, background: transparent });
}

async function main() {
  const pngDir = join(resources, 'icons');
  mkdirSync(pngDir, { recursive: true });
  for (const size of PNG_SIZES)
    await render(sourceFor(size), size)
      .png()
      .toFile(join(pngDir, `${size}x${size}.png`));

  // icon-gen reads a folder of N.png files; one folder per platform since their pictures differ.
  const work = mkdtempSync(join(tmpdir(), 'resolute-icons-'));
  try {
    const win = join(work, 'win');
    const mac = join(work, 'mac');
    mkdirSync(win);
    mkdirSync(mac);
    for (const size of ICO_SIZES)
      await render(sourceFor(size), size)
        .png()
        .toFile(join(win, `${size}.png`));
    for (const size of ICNS_SIZES) await (await renderInset(size)).png().toFile(join(mac, `${size}.png`));
    await icongen(win, resources, { ico: { name: 'icon', sizes: ICO_SIZES } });
    await icongen(mac, resources, { icns: { name: 'icon', sizes: ICNS_SIZES } });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const badge = join(resources, 'badge.svg');
  await render(badge, 16, 32).png().toFile(join(resources, 'badge.png'));
  await render(badge, 32, 32).png().toFile(join(resources, 'badge@2x.png'));
  process.stdout.write(`Icons written to ${resources}\n`);
}

await main();
