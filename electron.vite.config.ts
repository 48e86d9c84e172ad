// electron-vite: builds the main process (the Electron entry `index` and the Node CLI `cli`,
// which serves the browser and RPC modes), the sandboxed preload (CommonJS, so the sandbox
// holds) and the React renderer.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * The renderer's CSP is strict (no inline script or style). Vite's dev server injects an inline
 * React-refresh preamble and HMR over a socket, so `electron-vite dev` alone gets a relaxed copy;
 * builds keep the strict one.
 */
function devOnlyCspRelaxation(): Plugin {
  return {
    name: 'resolute-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  };
}

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require() anything but electron: bundle it whole, as CJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react(), devOnlyCspRelaxation()],
    build: {
      rolldownOptions: {
        input: { index: resolve('src/renderer/index.html') },
      },
    },
  },
});
