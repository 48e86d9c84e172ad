// Writes a saved export to disk (docs/attachments.md, "In the history"): the file the person chose
// and, for a Markdown export with images, the folder beside it named after the export that its
// links point into. The desktop app's save dialog (src/main/electron/main.ts) calls it.
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionExport } from './history/history-export';

export async function writeExport(
  path: string,
  file: Pick<SessionExport, 'content' | 'folder' | 'files'>,
): Promise<void> {
  if (file.folder && file.files?.length) {
    // The names were made safe by the export; checked again, so that nothing lands outside the folder.
    const folder = join(dirname(path), basename(file.folder));
    await mkdir(folder, { recursive: true });
    for (const asset of file.files)
      await writeFile(join(folder, basename(asset.name)), Buffer.from(asset.data, 'base64'));
  }
  await writeFile(path, file.content);
}
