// electron-vite: builds the main process (the Electron entry `index` and the Node CLI `cli`,
// which serves the browser and RPC modes), the sandboxed preload (CommonJS, so the sandbox
// holds) and the React renderer.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

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
    plugins: [react()],
    build: {
      rolldownOptions: {
        input: { index: resolve('src/renderer/index.html') },
      },
    },
  },
});
