// What `npm run dist` is given, checked without packaging (which downloads Electron): the
// electron-builder.yml passes electron-builder's own schema check (app-builder-lib, the library
// behind the CLI), sets the fuses and targets this app needs, and names files that exist; the icons
// in resources/ have the sizes and formats the installers need.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const resource = (...parts: string[]) => join(ROOT, 'resources', ...parts);

async function builderConfig() {
  return getConfig(ROOT, null, null);
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's schema, which refuses a misspelt option", async () => {
    const config = await builderConfig();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = { ...config, mac: { ...config.mac, hardenedRuntme: true } };
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/Invalid configuration/);
  });

  it('flips the fuses that lock the binary down', async () => {
    expect((await builderConfig()).electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds AppImage and deb, a hardened dmg and NSIS, with native code outside the asar', async () => {
    const config = await builderConfig();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac).toMatchObject({ target: 'dmg', hardenedRuntime: true });
    expect(config.win?.target).toBe('nsis');
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
  });

  it('claims resolute:// links: the protocol for every OS, the MimeType in the Linux .desktop file', async () => {
    const config = await builderConfig();
    expect([config.protocols].flat()).toEqual([{ name: 'Resolute link', schemes: ['resolute'] }]);
    expect(config.linux?.desktop?.entry?.MimeType).toBe('x-scheme-handler/resolute;');
  });

  it('names files that exist, including every image the main process loads at run time', async () => {
    const config = await builderConfig();
    for (const path of [config.mac?.icon, config.win?.icon, config.linux?.icon, config.mac?.entitlements]) {
      expect(path && existsSync(join(ROOT, path)), String(path)).toBe(true);
    }
    const mainSource = readFileSync(join(ROOT, 'src', 'main', 'electron', 'main.ts'), 'utf8');
    const runtimeImages = [...mainSource.matchAll(/'\.\.\/\.\.\/\.\.\/(resources\/[^?']+)\?asset/g)].map((m) => m[1]);
    expect(runtimeImages.length).toBeGreaterThan(0);
    const packed = [config.files ?? []]
      .flat()
      .flatMap((set) => (typeof set === 'string' ? [set] : (set?.filter ?? [])));
    for (const image of runtimeImages) {
      expect(packed, image).toContain(image);
      expect(existsSync(join(ROOT, image)), image).toBe(true);
    }
  });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('resources/ icons', () => {
  it.each([16, 24, 32, 48, 64, 128, 256, 512, 1024].map((size) => [`${size}x${size}`, size]))(
    'icons/%s.png is that size',
    (_, size) => {
      expect(pngSize(readFileSync(resource('icons', `${size}x${size}.png`)))).toEqual([size, size]);
    },
  );

  it('icon.ico holds 16 to 256 px (electron-builder needs 256 for Windows)', () => {
    const ico = readFileSync(resource('icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256);
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('icon.icns holds the Retina sizes up to 1024 px as PNG', () => {
    const icns = readFileSync(resource('icon.icns'));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const entries = new Map<string, Buffer>();
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      entries.set(icns.subarray(at, at + 4).toString('latin1'), icns.subarray(at + 8, at + icns.readUInt32BE(at + 4)));
    }
    expect(pngSize(entries.get('ic10')!)).toEqual([1024, 1024]);
    expect(pngSize(entries.get('ic09')!)).toEqual([512, 512]);
    expect(pngSize(entries.get('ic07')!)).toEqual([128, 128]);
  });

  it('the approval badge has its 16 px picture and the @2x twin', () => {
    expect(pngSize(readFileSync(resource('badge.png')))).toEqual([16, 16]);
    expect(pngSize(readFileSync(resource('badge@2x.png')))).toEqual([32, 32]);
  });
});
