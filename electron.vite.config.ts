// electron-vite: builds the main process (the Electron entry `index` and the Node CLI `cli`,
// which serves the browser and RPC modes), the sandboxed preload (CommonJS, so the sandbox
// holds; given the command table's names at build time) and the React renderer.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { COMMAND_NAMES } from './src/shared/contract';
import { contentSecurityPolicy } from './src/shared/csp';

/**
 * Puts the renderer's CSP <meta> into index.html, from the one definition in src/shared/csp.ts.
 * It is strict (no inline script or style); Vite's dev server needs an inline React-refresh
 * preamble and HMR over a socket, so `electron-vite dev` alone gets the relaxed variant.
 */
function cspMeta(): Plugin {
  let isDevServer = false;
  return {
    name: 'resolute-csp-meta',
    configResolved: (config) => {
      isDevServer = config.command === 'serve';
    },
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy('page', { isDevServer }) },
        injectTo: 'head-prepend',
      },
    ],
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
    // The command names from the one table (src/shared/contract.ts), without bundling zod into the preload.
    define: { __RESOLUTE_COMMAND_NAMES__: JSON.stringify(COMMAND_NAMES) },
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
    plugins: [react(), cspMeta()],
    build: {
      // electron-vite leaves the renderer unminified by default: 2.1 MB to parse at every window.
      minify: true,
      rolldownOptions: {
        input: { index: resolve('src/renderer/index.html') },
      },
    },
  },
});
