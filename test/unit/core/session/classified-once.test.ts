// A failure is classified once per run (issue 41, "How it is checked"): the session judges the
// failed message when it ends and its run's end takes that verdict, and a reply that did not fail
// is not classified at all. Counted for a 503, a tool's sandbox failure and a usage limit, with
// the classifier (classifyFailure, the one way into it; a provider's failure goes on to
// classifyError, a tool's fault is placed without it) spied on where it is defined. Seen failing
// on 7d6b385, with its classifyAssistantMessage spied on: 4, 3 and 4 classifications (the failure
// at message_end and again at agent_end, and each reply that did not fail, twice or once).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as ClassifyError from '../../../../src/main/core/retry/classify-error';
import { classifyFailure } from '../../../../src/main/core/retry/classify-error';
import { piRuntime } from '../../../../src/main/core/llm/pi-runtime';
import type { ToolRuntime } from '../../../../src/main/core/ports';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import { ToolRegistry } from '../../../../src/main/core/tools/tool-registry';
import { harness } from '../session-fakes';

vi.mock('../../../../src/main/core/retry/classify-error', async (importOriginal) => {
  const real = await importOriginal<typeof ClassifyError>();
  return { ...real, classifyFailure: vi.fn(real.classifyFailure) };
});

afterEach(() => vi.clearAllMocks());

/** One tool, `read`, whose every call the sandbox refuses to run. */
function sandboxFailing(): ToolRuntime {
  const read = {
    name: 'read',
    description: 'Read a file.',
    get parameters() {
      const { Type } = piRuntime().piAi;
      return Type.Object({ path: Type.String() });
    },
    asksFirst: false,
    run: async () => {
      throw new ToolFailure('sandbox', 'bubblewrap is not installed');
    },
    summary: (args: Record<string, unknown>) => String(args.path),
  };
  return { registry: new ToolRegistry([read]), openWorkspace: (workspace) => workspace, bashUnavailable: null };
}

const classified = vi.mocked(classifyFailure);
/** What each call classified: the failure's kind and the category it was placed in. */
const verdicts = () =>
  classified.mock.calls.map(([failure], i) => `${failure.kind}:${classified.mock.results[i].value.category}`);

describe('a failure is classified once per run', () => {
  it('a 503, then a reply: one classification, of the 503', async () => {
    const h = harness([{ error: '503 Service Unavailable' }, { text: 'ok' }]);
    await h.session.prompt('hi');
    expect(h.stream.calls).toHaveLength(2);
    expect(verdicts()).toEqual(['provider:server_error']);
  });

  it("a tool's sandbox failure: one classification, of the tool's fault, without the provider classifier", async () => {
    const h = harness([{ tool: 'read', args: { path: 'a.txt' } }, { text: 'never' }], {
      tools: { runtime: sandboxFailing(), audit: { write: () => undefined }, workspace: '/ws' },
    });
    await h.session.prompt('read it');
    expect(h.stream.calls).toHaveLength(1);
    expect(verdicts()).toEqual(['tool:sandbox']);
    expect(classified.mock.calls[0][0]).toMatchObject({
      kind: 'tool',
      fault: { category: 'sandbox', toolName: 'read' },
    });
  });

  it('a usage limit, switched to another key, then a reply: one classification', async () => {
    const h = harness([{ error: '429 You have hit your usage limit. Please retry in 30s' }, { text: 'ok' }], {
      keys: ['key-a', 'key-b'],
    });
    await h.session.prompt('hi');
    expect(h.stream.calls).toHaveLength(2);
    expect(verdicts()).toEqual(['provider:usage_limit']);
  });
});
