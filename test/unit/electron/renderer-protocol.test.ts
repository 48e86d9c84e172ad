// The desktop window's page source. The Electron binary cannot run here, so what Electron would do
// is taken in parts that run under Node: the app protocol's privileges, the page URL (the dev
// server only in an unpackaged app), and the protocol handler's answers — real files from a real
// folder as Fetch API Responses, with the CSP header on each, and nothing outside the folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RENDERER_SCHEME,
  rendererBase,
  rendererResponse,
  rendererSchemePrivileges,
  rendererUrl,
} from '../../../src/main/electron/renderer-protocol';
import { contentSecurityPolicy } from '../../../src/shared/csp';

let root: string;
let rendererDir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-protocol-'));
  rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Resolute</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'not for the page');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the renderer protocol', () => {
  it('is a standard, secure scheme (so "self" in the CSP means it) with a code cache, that bypasses nothing', () => {
    expect(rendererSchemePrivileges).toEqual({
      scheme: RENDERER_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    });
  });

  it('loads the page from it; ELECTRON_RENDERER_URL only in an unpackaged app', () => {
    expect(rendererUrl({ isPackaged: true, devServerUrl: 'http://evil.example/' })).toBe(`${rendererBase}index.html`);
    expect(rendererUrl({ isPackaged: true, devServerUrl: undefined })).toBe(`${rendererBase}index.html`);
    expect(rendererUrl({ isPackaged: false, devServerUrl: 'http://localhost:5173/' })).toBe('http://localhost:5173/');
    expect(rendererUrl({ isPackaged: false, devServerUrl: undefined })).toBe(`${rendererBase}index.html`);
  });

  it('answers with the file and the CSP header', async () => {
    const page = await rendererResponse(`${rendererBase}index.html`, rendererDir);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy('electron'));
    expect(await page.text()).toContain('<title>Resolute</title>');
    const script = await rendererResponse(`${rendererBase}assets/app.js`, rendererDir);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('serves nothing outside the renderer folder, nor for another host, and 400 for a malformed escape', async () => {
    for (const url of [
      `${rendererBase}../secret.txt`,
      `${rendererBase}%2e%2e/secret.txt`,
      `${rendererBase}..%2fsecret.txt`,
      `${RENDERER_SCHEME}://elsewhere/index.html`,
      `${rendererBase}missing.js`,
    ]) {
      const response = await rendererResponse(url, rendererDir);
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('not for the page');
    }
    expect((await rendererResponse(`${rendererBase}%E0%A4%A`, rendererDir)).status).toBe(400);
  });
});
