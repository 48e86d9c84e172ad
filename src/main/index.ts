// The Electron entry point (package.json "main" → out/main/index.js). Everything Electron-specific
// lives in ./electron; the Node-only entry for the browser and RPC modes is ./cli.ts.
import './electron/main';
