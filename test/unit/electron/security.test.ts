// The Electron window's process-wide guards. The Electron binary cannot run on this machine (it
// cannot be downloaded), so `electron` is replaced by a small fake that records what the guards
// install: the permission request AND check handlers (both deny), the CSP header on responses,
// and that the dev server's relaxed page is the only case without that header.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../../../src/shared/csp';

type Handler = (...args: never[]) => unknown;
const fake = vi.hoisted(() => {
  const installed: Record<string, Handler | null> = {};
  const session = {
    defaultSession: {
      setPermissionRequestHandler: (h: Handler) => void (installed.permissionRequest = h),
      setPermissionCheckHandler: (h: Handler) => void (installed.permissionCheck = h),
      webRequest: { onHeadersReceived: (h: Handler) => void (installed.headers = h) },
    },
  };
  return { installed, session, app: { on: () => undefined }, shell: { openExternal: () => undefined } };
});
vi.mock('electron', () => ({ app: fake.app, session: fake.session, shell: fake.shell }));

const { installGlobalGuards } = await import('../../../src/main/electron/security');

beforeEach(() => {
  for (const key of Object.keys(fake.installed)) delete fake.installed[key];
});

describe('installGlobalGuards', () => {
  it('denies every permission request and every permission check', () => {
    installGlobalGuards({ isDevServer: false });
    let granted: boolean | undefined;
    (fake.installed.permissionRequest as (wc: null, p: string, cb: (ok: boolean) => void) => void)(
      null,
      'media',
      (ok) => {
        granted = ok;
      },
    );
    expect(granted).toBe(false);
    const check = fake.installed.permissionCheck as ((wc: null, permission: string) => boolean) | undefined;
    expect(check, 'setPermissionCheckHandler was not called').toBeTypeOf('function');
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'hid', 'serial', 'usb'])
      expect(check!(null, permission), permission).toBe(false);
  });

  it('puts the CSP header on responses, except for the dev server page', () => {
    installGlobalGuards({ isDevServer: false });
    let headers: Record<string, string[]> = {};
    (fake.installed.headers as (d: object, cb: (r: { responseHeaders: Record<string, string[]> }) => void) => void)(
      { responseHeaders: { 'content-type': ['text/html'] } },
      (r) => (headers = r.responseHeaders),
    );
    expect(headers['Content-Security-Policy']).toEqual([contentSecurityPolicy('electron')]);
    delete fake.installed.headers;
    installGlobalGuards({ isDevServer: true });
    expect(fake.installed.headers).toBeUndefined();
  });
});
