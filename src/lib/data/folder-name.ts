/** A file name from a collection name: letters, digits, `.`, `_`, `-` (others become `-`). */
export function folderName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);
  return slug.length > 0 ? slug : 'collection';
}
