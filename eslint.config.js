// ESLint: typescript-eslint's recommended rules, React's hooks rules, and the layering of the
// source folders (docs/architecture.md), enforced with no-restricted-imports per folder so that
// crossing a layer fails `npm test`. Layout is Prettier's job (eslint-config-prettier turns off
// the stylistic rules that would fight it; `npm run lint` runs `prettier --check` first).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Bare builtin names go through `paths` (exact names): as gitignore-style patterns, 'events'
// would also match our own './events'.
const NODE_BUILTINS = [
  'fs',
  'fs/promises',
  'path',
  'os',
  'http',
  'https',
  'net',
  'child_process',
  'worker_threads',
  'crypto',
  'url',
  'stream',
  'events',
  'util',
  'zlib',
  'tls',
  'dgram',
  'readline',
  'process',
];
const electron = {
  group: ['electron', 'electron/*'],
  message: 'Only src/main/electron and src/preload may import electron.',
};
const NODE_IO_MESSAGE = 'This layer does no Node I/O (docs/architecture.md): take it as a dependency instead.';
const nodeIo = { group: ['node:*'], message: NODE_IO_MESSAGE };
const nodeIoPaths = NODE_BUILTINS.map((name) => ({ name, message: NODE_IO_MESSAGE }));
const nativeIo = {
  group: ['better-sqlite3', 'ws'],
  message: 'Storage and transports live in src/main/node and src/main/modes.',
};
// The retry wing is entered by its door only (src/main/core/retry/index.ts); the wing itself and
// the tests may use its rooms.
const retryDoor = {
  group: ['**/retry/*', '!**/retry/index'],
  message: 'Use the retry wing through its door, src/main/core/retry/index.ts (docs/architecture.md).',
};
// The retry wing is a leaf (docs/architecture.md, "The retry wing"): besides its own files it
// imports only src/shared and the core's ports, so reading it never leads back into the session.
const RETRY_LEAF_MESSAGE =
  'src/main/core/retry imports only src/shared and core/ports (docs/architecture.md, "The retry wing").';
const retryLeaf = { regex: '^\\.\\./(?!ports$|\\.\\./\\.\\./shared/)', message: RETRY_LEAF_MESSAGE };
const retryNoLlm = { group: ['@mariozechner/*'], message: RETRY_LEAF_MESSAGE };
// pi-ai loads late (src/main/core/llm/pi-runtime.ts), and in the core only the LLM room knows it:
// the session's and the tools' rooms take what they need from core/llm's other files or the ports.
const lateLoadInLlmOnly = {
  group: ['**/llm/pi-runtime'],
  allowTypeImports: true,
  message: 'In the core, only core/llm reaches pi-runtime (docs/architecture.md, "The core\'s rooms").',
};
const layer = (dirs, message) => ({ group: dirs.flatMap((d) => [`**/${d}`, `**/${d}/**`]), message });

const coreLayer = layer(
  ['node', 'router', 'modes', 'electron', 'renderer', 'preload'],
  'src/main/core imports only src/shared (dependencies are passed in).',
);

const rule = (...patterns) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    { patterns, ...(patterns.includes(nodeIo) ? { paths: nodeIoPaths } : {}) },
  ],
});

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'test/e2e/artifacts/**',
      '.stryker-tmp/**',
      'reports/**',
      // JSON settings that the '*.config.*' files block below would otherwise parse as JavaScript.
      'dpdm.config.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.es2023, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/shared/**'],
    rules: rule(
      electron,
      nodeIo,
      nativeIo,
      layer(['main', 'renderer', 'preload'], 'src/shared imports nothing of ours.'),
      { group: ['react', 'react-dom', 'zustand'], message: 'src/shared is plain TypeScript.' },
    ),
  },
  {
    files: ['src/main/core/**'],
    rules: rule(electron, nodeIo, nativeIo, coreLayer, retryDoor, lateLoadInLlmOnly),
  },
  {
    files: ['src/main/core/retry/**'],
    rules: rule(electron, nodeIo, nativeIo, coreLayer, retryLeaf, retryNoLlm),
  },
  {
    files: ['src/main/router/**'],
    rules: rule(
      electron,
      nodeIo,
      nativeIo,
      layer(['node', 'modes', 'electron', 'renderer', 'preload'], 'src/main/router imports only core and shared.'),
      retryDoor,
    ),
  },
  {
    files: ['src/main/node/**'],
    rules: rule(
      electron,
      layer(['router', 'modes', 'electron', 'renderer', 'preload'], 'src/main/node may use core and shared only.'),
      retryDoor,
    ),
  },
  {
    files: ['src/main/modes/**', 'src/main/cli.ts'],
    rules: rule(electron, layer(['electron', 'renderer', 'preload'], 'Modes never import Electron code.'), retryDoor),
  },
  {
    files: ['src/main/electron/**', 'src/main/index.ts'],
    rules: rule(
      layer(['renderer', 'preload'], 'The main process does not import renderer or preload code.'),
      retryDoor,
    ),
  },
  {
    files: ['src/preload/**'],
    rules: rule(layer(['main', 'renderer'], 'The preload sees only electron and src/shared.')),
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.es2023, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/renderer/**'],
    rules: rule(
      electron,
      nodeIo,
      nativeIo,
      layer(['main'], 'The renderer talks to the main process only through the bridge.'),
      { group: ['@mariozechner/*', 'better-sqlite3'], message: 'The LLM layer and storage stay in the main process.' },
    ),
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', 'bin/**', '*.config.*'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
