// The Markdown export saved to a file (docs/attachments.md, "In the history"): its images go as
// files into a folder beside the .md named after the export, linked by relative paths, instead of
// data: URIs; the download (one file) keeps embedding them. writeExport writes both on a real disk.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportSessionDetail } from '../../../src/main/node/history/history-export';
import { writeExport } from '../../../src/main/node/export-files';
import type { SessionDetail } from '../../../src/shared/history';

const root = mkdtempSync(join(tmpdir(), 'resolute-export-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const image = (name: string) => ({
  type: 'image' as const,
  data: PNG.toString('base64'),
  mimeType: 'image/png',
  file: { name, mimeType: 'image/png', size: PNG.length },
});

const detail = {
  session: {
    id: 'abcdef0123456789',
    title: 'Screenshots',
    createdAt: Date.UTC(2026, 0, 2),
    updatedAt: Date.UTC(2026, 0, 2),
    model: 'm',
    provider: 'p',
    turnCount: 1,
    erroredTurnCount: 0,
    workspace: '',
  },
  turns: [
    {
      id: 't1',
      sessionId: 'abcdef0123456789',
      seq: 1,
      role: 'user',
      text: 'Look',
      message: {
        role: 'user',
        timestamp: 1,
        content: [{ type: 'text', text: 'Look' }, image('my shot.png'), image('../../etc/evil.png')],
      },
      model: null,
      provider: null,
      stopReason: null,
      errorMessage: null,
      errorCategory: null,
      chainId: null,
      createdAt: 1,
      usage: null,
      costUsd: null,
      branchFrom: null,
    },
  ],
  chains: [],
  decisions: [],
} as unknown as SessionDetail;

describe('the Markdown export with its images as files', () => {
  it('links each image into the folder named after the export, with safe names', () => {
    const file = exportSessionDetail(detail, 'markdown', { images: 'files' });
    expect(file.filename).toBe('resolute-screenshots-2026-01-02.md');
    expect(file.folder).toBe('resolute-screenshots-2026-01-02');
    expect(file.files?.map((f) => f.name)).toEqual(['1-my-shot.png', '2-etc-evil.png']);
    expect(file.content).toContain('![my shot.png](resolute-screenshots-2026-01-02/1-my-shot.png)');
    expect(file.content).not.toContain('data:image/png');
    // The download is one file: it keeps them embedded.
    expect(exportSessionDetail(detail, 'markdown').content).toContain('](data:image/png;base64,');
  });

  it('writes the .md and the folder beside it, the images byte for byte', async () => {
    const file = exportSessionDetail(detail, 'markdown', { images: 'files' });
    const target = join(root, 'renamed by the person.md');
    await writeExport(target, file);
    expect(readFileSync(target, 'utf8')).toBe(file.content);
    const folder = join(root, 'resolute-screenshots-2026-01-02');
    expect(readdirSync(folder).sort()).toEqual(['1-my-shot.png', '2-etc-evil.png']);
    expect(readFileSync(join(folder, '1-my-shot.png'))).toEqual(PNG);
    expect(existsSync(join(root, '..', 'etc'))).toBe(false);
  });
});
