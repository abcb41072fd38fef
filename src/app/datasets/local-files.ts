import type { LocalInput } from '../../lib/import/local.ts';

/**
 * Files a person hands over, with their paths: from a file picker (`webkitRelativePath` for a picked
 * folder) or a drop, where folders are walked through the File and Directory Entries API
 * (`webkitGetAsEntry`, supported by Chromium, Firefox and Safari).
 */

export function inputsFromFileList(files: FileList | readonly File[]): LocalInput[] {
  return [...files].map((file) => ({ path: file.webkitRelativePath || file.name, blob: file }));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** All entries of a directory (readEntries returns them in batches until an empty one). */
async function childrenOf(directory: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = directory.createReader();
  const children: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return children;
    children.push(...batch);
  }
}

async function walk(entry: FileSystemEntry, prefix: string, out: LocalInput[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) out.push({ path, blob: await fileOf(entry as FileSystemFileEntry) });
  else if (entry.isDirectory) for (const child of await childrenOf(entry as FileSystemDirectoryEntry)) await walk(child, path, out);
}

/** The dropped files, folders walked. Must be called during the drop event (items are cleared after). */
export async function inputsFromDrop(transfer: DataTransfer): Promise<LocalInput[]> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => entry !== null && entry !== undefined);
  if (entries.length === 0) return inputsFromFileList(transfer.files);
  const out: LocalInput[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}
