// Which models take images (docs/attachments.md, "Limits"): the simulator's except resolute-sim-2,
// an OpenAI-compatible server's unless the person marked the model text-only, and what the window
// is told (ModelInfo.acceptsImages).
import { describe, expect, it } from 'vitest';
import { describeModel, resolveModel } from '../../../src/main/node/providers';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';

const provider = (patch: Partial<Settings['provider']>): Settings['provider'] => ({
  ...DEFAULT_SETTINGS.provider,
  ...patch,
});

describe('models and images', () => {
  it('the simulator takes images, except resolute-sim-2', () => {
    expect(resolveModel(provider({ model: 'resolute-sim-1' }), null).model.input).toEqual(['text', 'image']);
    expect(resolveModel(provider({ model: 'resolute-sim-2' }), null).model.input).toEqual(['text']);
    expect(describeModel(provider({ model: 'resolute-sim-2' })).acceptsImages).toBe(false);
  });

  it('an OpenAI-compatible model takes images until marked text-only', () => {
    const compatible = provider({ id: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(resolveModel(compatible, null).model.input).toEqual(['text', 'image']);
    const marked = { ...compatible, textOnlyModels: ['llama3.2'] };
    expect(resolveModel(marked, null).model.input).toEqual(['text']);
    expect(resolveModel(marked, null).info.acceptsImages).toBe(false);
    expect(resolveModel({ ...marked, model: 'llava' }, null).model.input).toEqual(['text', 'image']);
  });
});
