// The fallback-model rules (src/main/core/model-fallback.ts, retry-controller.ts;
// docs/retry-policy.md, "Fallback models"): which entry of the list comes next, parameterised like
// the decision table's tests; what the session remembers (the switch holds, a new session may go
// back, a new first choice applies at once); and lifecycle step 5 putting it together with the
// credential switch.
import { describe, expect, it } from 'vitest';
import { decideRetry } from '../../../../src/main/core/retry/decide-retry';
import {
  ModelRoute,
  exhaustedMessage,
  selectFallback,
  type ModelRef,
} from '../../../../src/main/core/retry/model-fallback';
import type { UsageLimitResult } from '../../../../src/main/core/ports';
import { usageLimitStep } from '../../../../src/main/core/retry/retry-controller';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings';
import { usageLimit } from './retry-host-fake';

const ref = (text: string): ModelRef => {
  const [provider, model] = text.split('/') as [ModelRef['provider'], string];
  return { provider, model };
};
const refs = (text: string): ModelRef[] => (text ? text.split(' ').map(ref) : []);
const A = 'anthropic/claude-a';
const B = 'openai/gpt-b';
const C = 'google/gemini-c';
const D = 'anthropic/claude-d';

describe('selectFallback: the next model of the list', () => {
  it.each<[string, string, string, string, string, string | null, string]>([
    // name, order, current, limited, providers without a usable key, expected next, skipped
    ['the entry after the current one', `${A} ${B} ${C}`, A, '', '', B, ''],
    ['from the middle of the list', `${A} ${B} ${C}`, B, '', '', C, ''],
    ['a provider without a usable key is passed over', `${A} ${B} ${C}`, A, '', 'openai', C, `${B}:no_key`],
    ['a model that hit a limit in this session is passed over', `${A} ${B} ${C}`, A, B, '', C, `${B}:limited`],
    ['the same provider with another model is fine', `${A} ${D}`, A, '', '', D, ''],
    ['none left after the last entry (no wrap-around)', `${A} ${B} ${C}`, C, '', '', null, ''],
    ['none when every later entry is unusable', `${A} ${B} ${C}`, A, C, 'openai', null, `${B}:no_key ${C}:limited`],
    ['a current model not in the list starts from the top', `${A} ${B}`, C, '', '', A, ''],
    ['an empty list has nothing', '', A, '', '', null, ''],
    [
      'the same model id on another provider is another entry',
      `${A} openrouter/claude-a`,
      A,
      '',
      '',
      'openrouter/claude-a',
      '',
    ],
    [
      'the same model id limited on one provider leaves the other',
      `${A} openrouter/claude-a`,
      A,
      'openrouter/claude-b',
      '',
      'openrouter/claude-a',
      '',
    ],
    [
      'a model limited on another provider is not this one',
      `${A} ${B} openrouter/gpt-b`,
      A,
      'openrouter/gpt-b',
      '',
      B,
      '',
    ],
  ])('%s', (_name, order, current, limited, noKey, next, skipped) => {
    const choice = selectFallback({
      order: refs(order),
      current: ref(current),
      limited: refs(limited),
      hasUsableKey: (r) => !noKey.split(' ').includes(r.provider),
    });
    expect(choice.next).toEqual(next === null ? null : ref(next));
    expect(choice.skipped.map((s) => `${s.ref.provider}/${s.ref.model}:${s.reason}`).join(' ')).toBe(skipped);
  });
});

/** A route over a settings-like first choice and list, with the providers that have no key. */
function route(first: string, fallback: string, noKey: string[] = []) {
  const state = { first: ref(first), fallback: refs(fallback) };
  const r = new ModelRoute({
    firstChoice: () => state.first,
    fallbackList: () => state.fallback,
    hasUsableKey: (m) => !noKey.includes(m.provider),
  });
  return { r, state };
}

/** A usage limit as the retry controller handles it: the route chooses, then the choice is used. */
function limit(r: ModelRoute) {
  const result = r.onUsageLimit();
  if (result.kind === 'switched') r.switchTo(result.to);
  return result;
}

describe('ModelRoute: the session remembers the switch', () => {
  it('a usage limit chooses the next model; it is in use only once switched to', () => {
    const { r } = route(A, `${B} ${C}`);
    expect(r.onUsageLimit()).toEqual({ kind: 'switched', from: ref(A), to: ref(B) });
    expect(r.current()).toEqual(ref(A));
    r.switchTo(ref(B));
    expect(r.current()).toEqual(ref(B));
  });

  it('switches down the list one usage limit at a time, then reports what was tried', () => {
    const { r } = route(A, `${B} ${C}`);
    expect(r.current()).toEqual(ref(A));
    expect(limit(r)).toEqual({ kind: 'switched', from: ref(A), to: ref(B) });
    expect(r.current()).toEqual(ref(B));
    expect(limit(r)).toEqual({ kind: 'switched', from: ref(B), to: ref(C) });
    expect(limit(r)).toEqual({
      kind: 'exhausted',
      message: `Usage limit on every model of the fallback list: tried ${A}, ${B}, ${C}`,
    });
  });

  it('a first choice repeated in the fallback list is one entry: alone it is no list at all', () => {
    const { r } = route(A, A);
    expect(limit(r)).toEqual({ kind: 'none' });
    const twice = route(A, `${A} ${B} ${A}`).r;
    expect(limit(twice)).toEqual({ kind: 'switched', from: ref(A), to: ref(B) });
    const exhausted = {
      kind: 'exhausted',
      message: `Usage limit on every model of the fallback list: tried ${A}, ${B}`,
    };
    expect(limit(twice)).toEqual(exhausted);
    // Another limit on the same last model names it once.
    expect(limit(twice)).toEqual(exhausted);
  });

  it('the same model id on two providers is two entries', () => {
    const { r } = route(A, 'openrouter/claude-a');
    expect(limit(r)).toEqual({ kind: 'switched', from: ref(A), to: ref('openrouter/claude-a') });
  });

  it('without a fallback list nothing changes (the usage limit is waited out)', () => {
    const { r } = route(A, '');
    expect(limit(r)).toEqual({ kind: 'none' });
    expect(r.current()).toEqual(ref(A));
  });

  it('names the models skipped for want of a key when the list is used up', () => {
    const { r } = route(A, `${B} ${C}`, ['openai', 'google']);
    expect(limit(r)).toEqual({
      kind: 'exhausted',
      message: `Usage limit on every model of the fallback list: tried ${A}; skipped ${B}, ${C} (no usable key)`,
    });
  });

  it.each([
    [true, A],
    [false, B],
  ])('a new session with newSessionUsesFirstChoice=%s starts on %s', (backToFirst, expected) => {
    const { r } = route(A, `${B} ${C}`);
    limit(r);
    r.newSession(backToFirst);
    expect(r.current()).toEqual(ref(expected));
  });

  it('a new first choice (settings, RPC set_model) applies at once and forgets the limits', () => {
    const { r, state } = route(A, `${B} ${C}`);
    limit(r);
    state.first = ref(C);
    r.firstChoiceChanged();
    expect(r.current()).toEqual(ref(C));
  });
});

describe('exhaustedMessage', () => {
  it('lists the tried models and those without a key', () => {
    expect(
      exhaustedMessage(refs(A), [
        { ref: ref(B), reason: 'no_key' },
        { ref: ref(C), reason: 'limited' },
      ]),
    ).toBe(`Usage limit on every model of the fallback list: tried ${A}; skipped ${B} (no usable key)`);
  });
});

describe('usageLimitStep: lifecycle step 5', () => {
  const settings = { ...DEFAULT_SETTINGS.retry, jitterMaxMs: 0 };
  const step = (result: UsageLimitResult, attempt = 1, hintMs = 30_000) => {
    const classification = usageLimit(hintMs);
    const decision = decideRetry(classification, attempt, settings);
    const marks: unknown[] = [];
    const out = usageLimitStep({
      decision,
      classification,
      attempt,
      limits: {
        reached: (options) => {
          marks.push(options);
          return result;
        },
      },
    });
    return { ...out, marks };
  };

  it.each<[string, UsageLimitResult, boolean, number, RegExp]>([
    ['another key: retry at once', { switched: true, earliestFreeAt: null }, true, 0, /switched credential/],
    [
      'the next model: retry at once, naming both',
      { switched: true, earliestFreeAt: null, model: { from: ref(A), to: ref(B) } },
      true,
      0,
      new RegExp(`usage limit on ${A}, switched to ${B}, retry 1 of 3 at once`),
    ],
    ['nothing to switch to: the wait', { switched: false, earliestFreeAt: null }, true, 30_000, /provider asked/],
    [
      'the list is used up: the chain ends',
      { switched: false, earliestFreeAt: null, exhausted: 'Usage limit on every model …' },
      false,
      0,
      /every model/,
    ],
  ])('%s', (_name, result, shouldRetry, waitMs, reason) => {
    const out = step(result);
    expect(out.decision).toMatchObject({ shouldRetry, waitMs });
    expect(out.decision.reason).toMatch(reason);
    expect(out.marks).toEqual([{ retryAfterMs: 30_000 }]);
    expect(out.switchedModel).toEqual(result.model);
  });

  it('is not asked on the last attempt, nor for other categories', () => {
    expect(step({ switched: true, earliestFreeAt: null }, 4).marks).toEqual([]);
    const classification = { ...usageLimit(0), category: 'server_error' as const };
    let asked = false;
    usageLimitStep({
      decision: decideRetry(classification, 1, settings),
      classification,
      attempt: 1,
      limits: {
        reached: () => {
          asked = true;
          return { switched: true, earliestFreeAt: null };
        },
      },
    });
    expect(asked).toBe(false);
  });
});
