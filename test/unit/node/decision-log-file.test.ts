// The JSON-lines logs (src/main/node/decision-log-file.ts) on a real file system: a write that fails
// is reported once, as a coded notice the window can word in its language (the path and the
// error's own text as parameters), and reported again only after a write has worked in between.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { JsonlAuditLog, JsonlDecisionLog } from '../../../src/main/node/decision-log-file';
import { readNoticeCode } from '../../../src/shared/notice-params';
import type { NoticeText } from '../../../src/shared/notice-params';
import type { RetryDecisionRecord } from '../../../src/shared/history';
import type { SandboxAuditRecord } from '../../../src/shared/tools';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-logs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('reports a failed write once, with a code, the path and the error', () => {
  const reported: NoticeText[] = [];
  const log = new JsonlDecisionLog(dir, (notice) => reported.push(notice));
  // A folder where the file should be: every append fails (EISDIR), the session carries on.
  mkdirSync(log.path);
  log.write({} as RetryDecisionRecord);
  log.write({} as RetryDecisionRecord);
  expect(reported).toHaveLength(1);
  const known = readNoticeCode(reported[0]);
  expect(known).toMatchObject({ code: 'log_write_failed', params: { path: log.path } });
  expect(known?.params.detail).toMatch(/EISDIR/);
  expect(reported[0].message).toBe(`Could not write the log ${log.path}: ${known?.params.detail}`);
});

it('reports again after a write has worked in between', () => {
  const reported: NoticeText[] = [];
  const log = new JsonlAuditLog(dir, (notice) => reported.push(notice));
  mkdirSync(log.path);
  log.write({} as SandboxAuditRecord);
  rmSync(log.path, { recursive: true });
  log.write({} as SandboxAuditRecord);
  rmSync(log.path);
  mkdirSync(log.path);
  log.write({} as SandboxAuditRecord);
  expect(reported.map((notice) => notice.code)).toEqual(['log_write_failed', 'log_write_failed']);
});
