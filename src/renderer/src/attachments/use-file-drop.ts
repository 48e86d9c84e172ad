// Files dropped anywhere on the chat go to the composer (through the ref it fills). Only drags
// that carry files are taken: dragging text inside the page still works as the browser does it.
import { useRef, useState, type DragEvent, type MutableRefObject } from 'react';

const carriesFiles = (event: DragEvent): boolean => [...event.dataTransfer.types].includes('Files');

export function useFileDrop(sinkRef: MutableRefObject<((files: File[]) => void) | null>) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed: a count says when the pointer left the chat.
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      sinkRef.current?.([...event.dataTransfer.files]);
    },
  };
  return { dragging, handlers };
}
