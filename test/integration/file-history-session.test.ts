// A session's file history beyond the chat (docs/file-history.md, "History"): the export carries it
// (JSON: the record's fileChanges; Markdown: a "File changes" section with each undo), and deleting
// the session deletes its stored contents — but not a content another session's change still uses.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AppServices } from '../../src/main/node/app-services';
import { startServices } from './fixtures/services';

let root: string;
let services: AppServices;

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-files-session-')));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  services = (await startServices({ tools: { approval: 'auto' } }, { dataDir: join(root, 'data'), workspace }))
    .services;
});

afterEach(async () => {
  await services.dispose();
  rmSync(root, { recursive: true, force: true });
});

const write = (path: string, content: string) => `tool:write:${JSON.stringify({ path, content })}, ok`;

/** A new session whose one turn writes `path`; its id and the person's turn id. */
async function sessionWriting(path: string, content: string): Promise<{ sessionId: string; turnId: string }> {
  services.domains.session.newSession();
  services.simulator!.setScript(write(path, content));
  await services.session.prompt(`write ${path}`);
  const sessionId = services.session.sessionId;
  return { sessionId, turnId: services.history.getSession(sessionId)!.turns[0].id };
}

it("the export includes the session's file changes and its undos", async () => {
  const { sessionId, turnId } = await sessionWriting('a.txt', 'one\ntwo\n');
  services.domains.files.undo({ sessionId, turnId });
  const json = JSON.parse(services.history.exportSession(sessionId, 'json')!.content) as {
    fileChanges: { changes: { path: string; state: string }[]; undos: { action: string }[] };
  };
  expect(json.fileChanges.changes.map((c) => [c.path, c.state])).toEqual([['a.txt', 'undone']]);
  expect(json.fileChanges.undos.map((u) => u.action)).toEqual(['undo']);
  const markdown = services.history.exportSession(sessionId, 'markdown')!.content;
  expect(markdown).toContain('## File changes');
  expect(markdown).toMatch(/- `a.txt` created \(\+2 −0\) by write, .* — undone/);
  expect(markdown).toMatch(/- Undo at .*: 1 of 1 files \(done\)/);
});

it("deleting a session deletes its stored contents, keeping those another session's change uses", async () => {
  const first = await sessionWriting('a.txt', 'only in the first\n');
  const second = await sessionWriting('b.txt', 'shared\n');
  const third = await sessionWriting('c.txt', 'shared\n');
  const before = services.history.files.usage();
  expect(before.changes).toBe(3);
  expect(services.history.deleteSession(first.sessionId)).toBe(true);
  expect(services.history.files.usage()).toMatchObject({ changes: 2, contents: before.contents - 1 });
  expect(services.history.deleteSession(second.sessionId)).toBe(true);
  // "shared\n" is still third's content after.
  expect(services.history.files.usage()).toMatchObject({ changes: 1, contents: 1 });
  expect(services.history.deleteSession(third.sessionId)).toBe(true);
  expect(services.history.files.usage()).toEqual({ contents: 0, bytes: 0, changes: 0 });
});
