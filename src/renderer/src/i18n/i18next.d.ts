// Types i18next's keys by the English resource (en.ts): a t() call with a key en.ts does not hold,
// misspelt or removed, fails `npm run typecheck` instead of showing the key in the window.
// ja.ts and ko.ts are held to en.ts's shape by their `Messages` type and the parity test.
import 'i18next';
import type { en } from './en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
