// Attachments as chips: in the composer before sending (each removable), and under a sent message
// (from its stored blocks, after a restart too). An image shows as a thumbnail, any other file as
// its name and size. Everything is text or an <img> of a data: URL of an image type — nothing from
// a file is ever put into the page as HTML.
import { useTranslation } from 'react-i18next';
import type { AttachmentBlock } from '../../../../shared/messages';
import { formatBytes } from '../../attachments/byte-size';
import { SHOWN_IMAGE_TYPES, type PendingFile } from '../../attachments/pending-files';

interface Chip {
  key: string;
  name: string;
  size: number;
  preview: string | null;
}

function ChipBody({ chip }: { chip: Chip }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {chip.preview ? (
        <img className="attachment-thumb" src={chip.preview} alt={t('attach.image', { name: chip.name })} />
      ) : (
        <span className="attachment-icon" aria-hidden="true">
          ▤
        </span>
      )}
      <span className="attachment-name">{chip.name}</span>
      <span className="attachment-size">{formatBytes(chip.size, t, i18n.language)}</span>
    </>
  );
}

export function PendingChips({ files, onRemove }: { files: PendingFile[]; onRemove: (id: string) => void }) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label={t('attach.list')} data-testid="pending-attachments">
      {files.map((file) => (
        <li key={file.id} className="attachment-chip" data-testid="attachment-chip">
          <ChipBody chip={{ key: file.id, name: file.name, size: file.size, preview: file.preview }} />
          <button
            type="button"
            className="attachment-remove"
            aria-label={t('attach.removeLabel', { name: file.name })}
            title={t('attach.remove')}
            onClick={() => onRemove(file.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

function chipOf(block: AttachmentBlock, index: number): Chip {
  const name = block.file?.name ?? `image-${index + 1}`;
  const isShownImage = block.type === 'image' && SHOWN_IMAGE_TYPES.test(block.mimeType);
  const size =
    block.file?.size ?? (block.type === 'image' ? Math.floor((block.data.length * 3) / 4) : block.text.length);
  return {
    key: `${index}`,
    name,
    size,
    preview: isShownImage && block.type === 'image' ? `data:${block.mimeType};base64,${block.data}` : null,
  };
}

interface SentProps {
  blocks: readonly AttachmentBlock[];
  /** In the edit box: the positions still sent, and removing one. */
  kept?: number[];
  onRemove?: (index: number) => void;
}

export function SentAttachments({ blocks, kept, onRemove }: SentProps) {
  const { t } = useTranslation();
  const shown = blocks.map((block, i) => ({ block, i })).filter(({ i }) => !kept || kept.includes(i));
  if (shown.length === 0) return null;
  return (
    <ul className="attachment-chips attachment-chips-sent" aria-label={t('attach.sent')} data-testid="sent-attachments">
      {shown.map(({ block, i }) => {
        const chip = chipOf(block, i);
        return (
          <li key={chip.key} className="attachment-chip" data-testid="sent-attachment">
            <ChipBody chip={chip} />
            {onRemove && (
              <button
                type="button"
                className="attachment-remove"
                aria-label={t('attach.removeLabel', { name: chip.name })}
                title={t('attach.remove')}
                onClick={() => onRemove(i)}
              >
                ×
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
